package skillrepo

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// RemoteStatus is what `status` shows of the shared remote: the settings,
// when this clone last fetched and pushed, how far main is ahead of and
// behind the remote's (as last fetched), the published proposals waiting
// for a person, and the failures with their fixes. It reads local state
// only.
type RemoteStatus struct {
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
	Failures map[string]*RemoteFailure
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
func (room Remote) Status() (*RemoteStatus, error) {
	l := room.l
	cfg := l.Config.Remote
	st := &RemoteStatus{Config: cfg, Failures: map[string]*RemoteFailure{}, Waiting: []PublishedProposal{}}
	if u, err := l.repo.RemoteURL(cfg.Name); err == nil {
		st.URL = redactURL(u)
	} else if cfg.Enabled() {
		st.Notes = append(st.Notes, "no remote named "+cfg.Name+": add it with 'git remote add "+cfg.Name+" <url>'")
	}
	if l.repo.Prefix != "" && cfg.Main != config.MainOff {
		st.Notes = append(st.Notes, "remote.main is ignored: the library is a folder of a project, whose main is the project's (git pull is yours to run)")
	}
	var rec remoteRecord
	if err := l.remoteStore().read(remoteStateFile, &rec); err != nil {
		return nil, err
	}
	st.LastFetch, st.LastPush = rec.LastFetch, rec.LastPush
	for k, f := range rec.Failures {
		if f != nil { // a hand-edited or damaged file's null is no failure
			st.Failures[k] = f
		}
	}
	theirs, err := l.repo.ReadRef("refs/remotes/" + cfg.Name + "/" + l.MainBranch())
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	ours, err := l.repo.ResolveBranch(l.MainBranch())
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if !theirs.IsZero() && !ours.IsZero() && ours != theirs {
		hist := newHistory(l.repo.NewStore(true))
		if _, ahead, err := hist.mergeBase(theirs, ours); err == nil {
			st.Ahead = len(ahead)
		}
		if _, behind, err := hist.mergeBase(ours, theirs); err == nil {
			st.Behind = len(behind)
		}
	}
	pubs, err := l.remoteStore().published()
	if err != nil {
		return nil, err
	}
	for id, p := range pubs {
		if _, err := l.repo.ReadRef(proposalRefPrefix + id); err != nil {
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
	main      Hash
	proposals string
}

// ShareMark reads the mark now: main's tip when remote.main pushes; when
// remote.proposals is push, the modification stamps of the folder that
// holds the proposal branches and of packed-refs (a ref written,
// renamed into place or deleted changes its folder's stamp), so a
// command over a thousand proposals pays two stats, not a thousand
// reads.
func (room Remote) ShareMark() ShareMark {
	l := room.l
	var m ShareMark
	cfg := l.Config.Remote
	if cfg.Main.Pushes() {
		m.main, _ = l.MainTip()
	}
	if cfg.Publishes() {
		var b strings.Builder
		for _, p := range []string{filepath.Join(l.repo.GitDir, "refs", "heads", "proposals"), filepath.Join(l.repo.GitDir, "packed-refs")} {
			if fi, err := os.Stat(p); err == nil {
				fmt.Fprintf(&b, "%s %d %d;", fi.Name(), fi.ModTime().UnixNano(), fi.Size())
			}
		}
		m.proposals = b.String()
	}
	return m
}

// Differs reports whether there is work to share since m.
func (m ShareMark) Differs(now ShareMark) bool { return m != now }
