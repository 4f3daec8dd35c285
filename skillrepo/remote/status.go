package remote

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Status is what `status` shows of the shared remote: the settings,
// when this clone last fetched and pushed, how far main is ahead of and
// behind the remote's (as last fetched), the published proposals waiting
// for a person, and the failures with their fixes. It reads local state
// only.
type Status struct {
	Config config.Remote
	// URL is the remote's URL, credentials removed ("" when the remote is
	// not set up).
	URL                 string
	LastFetch, LastPush *time.Time
	// Ahead and Behind count main's commits the remote's main lacks and
	// the other way round (both 0 when the remote's main is unknown).
	Ahead, Behind int
	// Waiting are the proposals published from here that are still open.
	Waiting []PublishedProposal
	// Failures are the operations whose last attempt failed (keyed by
	// fetch, push main, main, publish, pull request).
	Failures map[string]*Failure
	// Notes say what a setting does not do here.
	Notes []string
}

// PublishedProposal is one proposal waiting on the host.
type PublishedProposal struct {
	ID, PullRequest string
	At              time.Time
	Pending         bool
}

// Status reads the shared remote's state of this clone.
func (r *Remote) Status() (*Status, error) {
	cfg := r.lib.Config.Remote
	st := &Status{Config: cfg, Failures: map[string]*Failure{}, Waiting: []PublishedProposal{}}
	if u, err := r.d.URL(cfg.Name); err == nil {
		st.URL = redactURL(u)
	} else if cfg.Enabled() {
		st.Notes = append(st.Notes, "no remote named "+cfg.Name+": add it with 'git remote add "+cfg.Name+" <url>'")
	}
	if r.d.Folder() != "" && cfg.Main != config.MainOff {
		st.Notes = append(st.Notes, "remote.main is ignored: the library is a folder of a project, whose main is the project's (git pull is yours to run)")
	}
	rec, err := r.remoteStore().readRecord()
	if err != nil {
		return nil, err
	}
	st.LastFetch, st.LastPush = rec.LastFetch, rec.LastPush
	for k, f := range rec.Failures {
		if f != nil { // a hand-edited or damaged file's null is no failure
			st.Failures[k] = f
		}
	}
	theirs, err := r.d.Ref("refs/remotes/" + cfg.Name + "/" + r.lib.MainBranch())
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return nil, err
	}
	ours, err := r.lib.MainTip()
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return nil, err
	}
	if !theirs.IsZero() && !ours.IsZero() && ours != theirs {
		hist := r.d.Graph()
		if _, ahead, err := hist.MergeBase(theirs, ours); err == nil {
			st.Ahead = ahead
		}
		if _, behind, err := hist.MergeBase(ours, theirs); err == nil {
			st.Behind = behind
		}
	}
	pubs, err := r.remoteStore().published()
	if err != nil {
		return nil, err
	}
	for id, p := range pubs {
		if _, err := r.d.Ref(proposalRefPrefix + id); err != nil {
			continue // settled, approved or rejected since
		}
		st.Waiting = append(st.Waiting, PublishedProposal{ID: id, PullRequest: p.PullRequest, At: p.At, Pending: p.Pending})
	}
	slices.SortFunc(st.Waiting, func(a, b PublishedProposal) int { return strings.Compare(a.ID, b.ID) })
	return st, nil
}

// redactURL drops the secrets a remote's URL may carry, which must not
// reach a screen or a log: a password; over http(s), the user name too
// (a token alone is a user name to GitHub: https://ghp_…@github.com);
// and a query parameter that names a token, a key or a signature
// (GitLab's ?private_token=).
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		if s := strings.ToLower(u.Scheme); s == "http" || s == "https" {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword("xxxxx", "xxxxx")
			} else {
				u.User = url.User("xxxxx")
			}
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if secretParam(k) {
				q[k] = []string{"xxxxx"}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// withoutCredentials is a remote's URL with no user part and no query
// parameter carrying a credential: how a program with a login of its own
// (glab) is told the repository, so a password never shows in the
// process list.
func withoutCredentials(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return raw
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if secretParam(k) {
				delete(q, k)
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// secretParam reports a URL query parameter that carries a credential.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "key", "secret", "password", "passwd", "auth", "signature", "sig", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// ShareMark is what a command compares before and after it runs to know
// whether it left work for the shared remote: main moved (remote.main
// sends it out), or a proposal branch was made, moved or deleted
// (remote.proposals publishes them).
type ShareMark struct {
	main      skillrepo.Hash
	proposals string
}

// ShareMark reads the mark now: main's tip when remote.main pushes; when
// remote.proposals is push, the modification stamps of the folder that
// holds the proposal branches and of packed-refs (a ref written,
// renamed into place or deleted changes its folder's stamp), so a
// command over a thousand proposals pays two stats, not a thousand
// reads.
func (r *Remote) ShareMark() ShareMark {
	var m ShareMark
	cfg := r.lib.Config.Remote
	if cfg.Main.Pushes() {
		m.main, _ = r.lib.MainTip()
	}
	if cfg.Publishes() {
		m.proposals = r.d.RefsStamp()
	}
	return m
}

// Differs reports whether there is work to share since m.
func (m ShareMark) Differs(now ShareMark) bool { return m != now }
