package skillrepo

import (
	"context"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/secrets"
)

// updateOptions chooses the branch a write (Library.update) commits to.
type updateOptions struct {
	// Branch is the branch to write ("" = the main branch).
	Branch string
	// From creates Branch from this revision when it does not exist ("" =
	// the branch must exist, except the main branch of an empty library).
	From string
	// DryRun computes everything, writes nothing: no object, ref, file or
	// index is touched, and the lock is not taken.
	DryRun bool
	// Reflog is the reflog message ("" = the last commit's subject).
	Reflog string
	// RecordsWorktree marks a write whose content was read from the work
	// tree (sync, init): there is no edit of the user's to protect.
	RecordsWorktree bool
}

// UpdateResult says what a write did (or, with DryRun, would do).
type UpdateResult struct {
	Branch string
	// Old and New are the branch tip before and after; Old is zero when
	// the branch was created.
	Old, New Hash
	// Commits are the new commits, oldest first.
	Commits []Hash
	// Paths are the files whose content changed, sorted.
	Paths []string
	// CheckedOut is true when the branch is checked out: the work tree
	// and index were updated with it.
	CheckedOut bool
	DryRun     bool
}

// writeTx is one read-modify-write of a branch, handed to the function
// given to Library.update: reads see the branch tip plus what was staged,
// writes are staged until Commit, and commits carry skillrepo's trailers.
// It wraps the engine's transaction, and it is the domain's own: outside
// the domain every write is a verb of the write policy (policy.go), so no
// door holds a raw transaction (docs/architecture.md §2.1).
type writeTx struct {
	gtx *gitstore.Tx
	l   *Library
}

// Base is the branch tip the write started from (zero when it creates the
// branch from nothing). A caller that decided on an earlier tip compares
// it to see whether the branch moved meanwhile.
func (tx *writeTx) Base() Hash { return tx.gtx.Base() }

// Commit records what is staged as one commit on top of the series and
// returns its hash. Error: ErrNoChanges when the tree is unchanged and no
// extra parent was added.
// A commit whose trailers say an agent wrote it is authored as that agent
// (see [Message.agentAuthor]).
func (tx *writeTx) Commit(msg Message) (Hash, error) { return tx.commit(msg, false) }

// commit is Commit; allowEmpty records a commit even when the tree is
// unchanged (the evidence-only commits of adopt and disown).
func (tx *writeTx) commit(msg Message, allowEmpty bool) (Hash, error) {
	if err := secretsInTrailers(msg); err != nil {
		return ZeroHash, err
	}
	if name, email, ok := agentAuthor(msg); ok {
		return tx.gtx.CommitAs(msg.String(), gitstore.Author{Name: name, Email: email}, allowEmpty)
	}
	if allowEmpty {
		return tx.gtx.CommitEmpty(msg.String())
	}
	return tx.gtx.Commit(msg.String())
}

// update runs fn as one atomic write of a branch (the main branch when
// opts.Branch is empty); the engine's doc (package gitstore) gives the
// write ordering and its errors. While the config has problems it
// refuses with them, writing nothing (a dry run goes on).
func (l *Library) update(ctx context.Context, opts updateOptions, fn func(tx *writeTx) error) (*UpdateResult, error) {
	if err := l.writable(); err != nil && !opts.DryRun {
		return nil, err
	}
	return l.updateAnyway(ctx, opts, fn)
}

// updateAnyway is update even while the config has problems: for a pull's
// fast-forward, which takes others' commits (perhaps the fix) and makes
// none of ours.
func (l *Library) updateAnyway(ctx context.Context, opts updateOptions, fn func(tx *writeTx) error) (*UpdateResult, error) {
	if opts.Branch == "" {
		opts.Branch = l.MainBranch()
	}
	res, err := l.repo.Update(ctx, gitstore.UpdateOptions{
		Branch: opts.Branch, From: opts.From, DryRun: opts.DryRun, Reflog: opts.Reflog, RecordsWorktree: opts.RecordsWorktree,
	}, func(gtx *gitstore.Tx) error {
		return fn(&writeTx{gtx: gtx, l: l})
	})
	if res == nil {
		return nil, err
	}
	return &UpdateResult{
		Branch: res.Branch, Old: res.Old, New: res.New, Commits: res.Commits, Paths: res.Paths,
		CheckedOut: res.CheckedOut, DryRun: res.DryRun,
	}, err
}

// secretsInTrailers refuses a commit whose trailers carry a likely
// secret: every provenance field (a session id from an MCP client's
// _meta, the client's name and version, a --model, a review id) is
// scanned like content, whoever writes (issue 40 item 10). Trailers
// travel with every clone and every push, and no field of theirs needs a
// token.
func secretsInTrailers(m Message) error {
	for _, t := range m.Trailers {
		if found := secrets.Find(t.Value); len(found) > 0 {
			return &RefusedError{Guard: GuardSecret, Reason: secrets.Refusal("the "+t.Key+" trailer", found)}
		}
	}
	return nil
}
