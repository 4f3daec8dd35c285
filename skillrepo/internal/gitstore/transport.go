package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// go-git's transport, for machines without the git binary. It updates
// remote-tracking refs with go-git's own ref writer, which is acceptable
// only because no git binary runs beside it there.

// ErrPushRejected: the remote refused a push (not a fast-forward, or a
// required old value did not match). go-git refuses the whole push.
var ErrPushRejected = errors.New("push rejected")

// RemoteRefs lists the remote's refs that name an object (symbolic refs
// are left out). An empty remote has none.
func (l *Repo) RemoteRefs(ctx context.Context, remote string) (map[string]plumbing.Hash, error) {
	r, err := l.repo.Remote(remote)
	if err != nil {
		return nil, fmt.Errorf("remote %s: %w", remote, err)
	}
	refs, err := r.ListContext(ctx, &git.ListOptions{})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return nil, fmt.Errorf("list %s: %w", remote, err)
	}
	out := map[string]plumbing.Hash{}
	for _, ref := range refs {
		if ref.Type() == plumbing.HashReference {
			out[ref.Name().String()] = ref.Hash()
		}
	}
	return out, nil
}

// PushUpdate is one ref of a push: New zero deletes Ref, which must then
// be at Old on the remote.
type PushUpdate struct {
	Ref      string
	Old, New plumbing.Hash
}

// RemotePush pushes updates to remote in one go. Errors: one wrapping
// ErrPushRejected when the remote refused (every update is then refused).
func (l *Repo) RemotePush(ctx context.Context, remote string, updates []PushUpdate, atomic bool) error {
	opts := &git.PushOptions{RemoteName: remote, Atomic: atomic}
	for _, u := range updates {
		if u.New.IsZero() {
			opts.RefSpecs = append(opts.RefSpecs, config.RefSpec(":"+u.Ref))
			opts.RequireRemoteRefs = append(opts.RequireRemoteRefs, config.RefSpec(u.Old.String()+":"+u.Ref))
			continue
		}
		opts.RefSpecs = append(opts.RefSpecs, config.RefSpec(u.New.String()+":"+u.Ref))
	}
	r, err := l.repo.Remote(remote)
	if err != nil {
		return fmt.Errorf("remote %s: %w", remote, err)
	}
	err = r.PushContext(ctx, opts)
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		return nil
	case strings.Contains(err.Error(), "non-fast-forward") || strings.Contains(err.Error(), "required to be"):
		return fmt.Errorf("%w: %s", ErrPushRejected, err.Error())
	}
	return fmt.Errorf("push to %s: %w", remote, err)
}

// RemoteFetch fetches refspecs from remote (no tags, pruning).
func (l *Repo) RemoteFetch(ctx context.Context, remote string, refspecs []string) error {
	opts := &git.FetchOptions{RemoteName: remote, Tags: git.NoTags, Prune: true}
	for _, s := range refspecs {
		opts.RefSpecs = append(opts.RefSpecs, config.RefSpec(s))
	}
	err := l.repo.FetchContext(ctx, opts)
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return fmt.Errorf("fetch %s: %w", remote, err)
	}
	return nil
}
