package skillrepo

import (
	"context"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// UpdateOptions chooses the branch an [Library.Update] writes.
type UpdateOptions = gitstore.UpdateOptions

// UpdateResult says what an Update did (or, with DryRun, would do).
type UpdateResult = gitstore.UpdateResult

// Tx is one read-modify-write of a branch, handed to the function given to
// [Library.Update]: the engine's transaction ([gitstore.Tx]: reads see the
// branch tip plus what was staged, writes are staged until Commit), with
// commits whose messages carry skillrepo's trailers.
type Tx struct {
	*gitstore.Tx
	l *Library
}

// Library is the library being written (for its config and clock).
func (tx *Tx) Library() *Library { return tx.l }

// Commit records what is staged as one commit on top of the series and
// returns its hash. Error: ErrNoChanges when the tree is unchanged and no
// extra parent was added.
// A commit whose trailers say an agent wrote it is authored as that agent
// (see [Message.AgentAuthor]).
func (tx *Tx) Commit(msg Message) (Hash, error) { return tx.commit(msg, false) }

// commit is Commit; allowEmpty records a commit even when the tree is
// unchanged (the evidence-only commits of adopt and disown).
func (tx *Tx) commit(msg Message, allowEmpty bool) (Hash, error) {
	if name, email, ok := msg.AgentAuthor(); ok {
		return tx.Tx.CommitAs(msg.String(), gitstore.Author{Name: name, Email: email}, allowEmpty)
	}
	if allowEmpty {
		return tx.Tx.CommitEmpty(msg.String())
	}
	return tx.Tx.Commit(msg.String())
}

// Update runs fn as one atomic write of a branch (the main branch when
// opts.Branch is empty); see [gitstore.Repo.Update] for the write
// ordering and its errors.
func (l *Library) Update(ctx context.Context, opts UpdateOptions, fn func(tx *Tx) error) (*UpdateResult, error) {
	if opts.Branch == "" {
		opts.Branch = l.MainBranch()
	}
	return l.Repo.Update(ctx, opts, func(gtx *gitstore.Tx) error {
		return fn(&Tx{Tx: gtx, l: l})
	})
}
