package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Transport is one of the engine's two ways to a remote: the git
// binary's (where git is on PATH: go-git's push costs 4.5 s for one
// commit where git takes 25 ms, docs/git-format.md §9) or go-git's. The
// choice is made here, so a caller speaks to one transport.
type Transport struct {
	repo *Repo
	git  string // the git binary; "" for go-git's transport
}

// errNoGitTransport: a command only the git binary runs, asked of
// go-git's transport.
var errNoGitTransport = fmt.Errorf("go-git's transport runs no git command: %w", exec.ErrNotFound)

// Transport is the git binary's transport when git is on PATH and goGit
// is not set, else go-git's.
func (l *Repo) Transport(goGit bool) Transport {
	if !goGit {
		if t, err := l.GitTransport(); err == nil {
			return t
		}
	}
	return Transport{repo: l}
}

// GitTransport is the git binary's transport; an error wrapping
// exec.ErrNotFound when git is not on PATH.
func (l *Repo) GitTransport() (Transport, error) {
	p, err := GitBinary()
	if err != nil {
		return Transport{}, err
	}
	return Transport{repo: l, git: p}, nil
}

// Name is "git" or "go-git".
func (t Transport) Name() string {
	if t.git == "" {
		return "go-git"
	}
	return "git"
}

// List returns the remote's refs under prefixes.
func (t Transport) List(ctx context.Context, remote string, prefixes ...string) (map[string]plumbing.Hash, error) {
	if t.git != "" {
		patterns := make([]string, len(prefixes))
		for i, p := range prefixes {
			patterns[i] = p + "*"
		}
		return t.repo.GitRemoteRefs(ctx, t.git, remote, patterns...)
	}
	refs, err := t.repo.RemoteRefs(ctx, remote)
	if err != nil {
		return nil, err
	}
	out := map[string]plumbing.Hash{}
	for name, h := range refs {
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				out[name] = h
				break
			}
		}
	}
	return out, nil
}

// Push sends the updates (atomic: all or none) and returns the remote's
// reason for each one it refused. go-git's refuses the whole push, so
// each ref of a refused one gets the reason; its dry run sends nothing.
func (t Transport) Push(ctx context.Context, remote string, updates []PushUpdate, atomic, dryRun bool) (map[string]string, error) {
	if t.git != "" {
		return t.repo.GitPush(ctx, t.git, remote, updates, atomic, dryRun)
	}
	if dryRun {
		return nil, nil
	}
	err := t.repo.RemotePush(ctx, remote, updates, atomic)
	switch {
	case err == nil:
		return nil, nil
	case errors.Is(err, ErrPushRejected):
		reason := strings.TrimPrefix(err.Error(), ErrPushRejected.Error()+": ")
		rejected := map[string]string{}
		for _, u := range updates {
			rejected[u.Ref] = reason
		}
		return rejected, nil
	}
	return nil, err
}

// Fetch updates the remote-tracking refs refspecs name (pruning deleted
// ones).
func (t Transport) Fetch(ctx context.Context, remote string, refspecs []string) error {
	if t.git != "" {
		return t.repo.GitFetch(ctx, t.git, remote, refspecs)
	}
	return t.repo.RemoteFetch(ctx, remote, refspecs)
}

// Network is GitNetwork through the git binary's transport.
func (t Transport) Network(ctx context.Context, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	if t.git == "" {
		return nil, nil, errNoGitTransport
	}
	return t.repo.GitNetwork(ctx, t.git, stdin, args...)
}

// Command is GitCommand through the git binary's transport.
func (t Transport) Command(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	if t.git == "" {
		return nil, nil, errNoGitTransport
	}
	return t.repo.GitCommand(ctx, t.git, args...)
}

// Bare is GitBare through the git binary's transport.
func (t Transport) Bare(ctx context.Context, dir string, args ...string) (string, error) {
	if t.git == "" {
		return "", errNoGitTransport
	}
	return t.repo.GitBare(ctx, t.git, dir, args...)
}
