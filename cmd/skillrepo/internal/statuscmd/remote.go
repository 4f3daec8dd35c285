package statuscmd

import (
	"fmt"
	"slices"
	"time"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// remoteStatusJSON is status's remote section (docs/remote.md §6).
type remoteStatusJSON struct {
	Name        string              `json:"name"`
	URL         string              `json:"url"`
	Proposals   string              `json:"proposals"`
	Main        string              `json:"main"`
	PullRequest string              `json:"pull_request"`
	LastFetch   *time.Time          `json:"last_fetch"`
	LastPush    *time.Time          `json:"last_push"`
	Ahead       int                 `json:"ahead"`
	Behind      int                 `json:"behind"`
	Waiting     []publishedJSON     `json:"waiting"`
	Failures    []remoteFailureJSON `json:"failures"`
	Notes       []string            `json:"notes"`
	failures    []remote.Failure    // for the text output, sorted
}

type publishedJSON struct {
	ID          string    `json:"id"`
	PullRequest string    `json:"pull_request,omitempty"`
	PublishedAt time.Time `json:"published_at"`
	Pending     bool      `json:"pending,omitempty"`
}

type remoteFailureJSON struct {
	Op      string    `json:"op"`
	Kind    string    `json:"kind"`
	At      time.Time `json:"at"`
	Message string    `json:"message"`
	Fix     string    `json:"fix"`
}

// remoteStatus is the remote section of status, nil when the library
// shares nothing and never did.
func remoteStatus(lib *skillrepo.Library) (*remoteStatusJSON, error) {
	st, err := remote.New(lib).Status()
	if err != nil {
		return nil, err
	}
	if !st.Config.Enabled() && st.LastFetch == nil && len(st.Waiting) == 0 && len(st.Failures) == 0 {
		return nil, nil
	}
	out := &remoteStatusJSON{Name: st.Config.Name, URL: st.URL, Proposals: string(st.Config.Proposals), Main: string(st.Config.Main),
		PullRequest: string(st.Config.PullRequest), LastFetch: st.LastFetch, LastPush: st.LastPush, Ahead: st.Ahead, Behind: st.Behind,
		Waiting: []publishedJSON{}, Failures: []remoteFailureJSON{}, Notes: cmdutil.NonNil(st.Notes)}
	for _, p := range st.Waiting {
		out.Waiting = append(out.Waiting, publishedJSON{ID: p.ID, PullRequest: p.PullRequest, PublishedAt: p.At, Pending: p.Pending})
	}
	for _, f := range st.Failures {
		out.failures = append(out.failures, *f)
	}
	slices.SortFunc(out.failures, func(a, b remote.Failure) int { return a.At.Compare(b.At) })
	for _, f := range out.failures {
		out.Failures = append(out.Failures, remoteFailureJSON{Op: f.Op, Kind: f.Kind, At: f.At, Message: f.Message, Fix: f.Fix})
	}
	return out, nil
}

func printRemoteStatus(f *cmdutil.Factory, r *remoteStatusJSON, now time.Time) {
	if r == nil {
		return
	}
	w := f.IO.Out
	fmt.Fprintf(w, "remote: %s %s (main: %s, proposals: %s, pull requests: %s)\n", r.Name, cmdutil.OrDash(r.URL), r.Main, r.Proposals, r.PullRequest)
	fetched := "never fetched"
	if r.LastFetch != nil {
		fetched = "last fetch " + cmdutil.Age(now, *r.LastFetch) + " ago"
	}
	fmt.Fprintf(w, "  %s; main %d ahead, %d behind %s/main\n", fetched, r.Ahead, r.Behind, r.Name)
	if len(r.Waiting) > 0 {
		fmt.Fprintf(w, "  published proposals waiting: %d\n", len(r.Waiting))
		for i, p := range r.Waiting {
			if i == 5 {
				fmt.Fprintf(w, "    … %d more (skillrepo proposal list)\n", len(r.Waiting)-5)
				break
			}
			what := cmdutil.OrDash(p.PullRequest)
			if p.Pending {
				what = "publishing failed; the next sync tries again"
			}
			fmt.Fprintf(w, "    %s %s\n", p.ID, what)
		}
	}
	for _, fl := range r.failures {
		fmt.Fprintf(w, "  %s %s (%s, %s ago): %s\n    fix: %s\n", f.IO.Red("failed"), fl.Op, fl.Kind, cmdutil.Age(now, fl.At), cmdutil.OneLine(fl.Message), fl.Fix)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
