package skillrepo

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// The curator's writes, as verbs of its writer's policy (policy.go): a
// run's archive moves on its own branch, the run's landing on main (one
// implementation for a phase-1 run and a consolidating one), a rollback
// and a purge. The curator decides what to write and says so in the
// messages; the transactions and the checks that keep a run from landing
// on a main that changed under it live here, beside every other write
// (docs/architecture.md §2.1, §4).

// FolderConflict is a path a run's landing or a rollback cannot apply to:
// a skill folder (or a file in one) that changed since the run read it.
type FolderConflict struct {
	Path   string
	Reason string
}

// FolderConflictError refuses a landing or a rollback whose folders
// changed since the curator decided on them; nothing was written. Tip is
// the branch tip the write found, for telling which later commit changed a
// path. It matches ErrConflict.
type FolderConflictError struct {
	Conflicts []FolderConflict
	Tip       Hash
}

func (e *FolderConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d conflict(s), nothing was written:", len(e.Conflicts))
	for _, c := range e.Conflicts {
		fmt.Fprintf(&b, "\n  %s: %s", c.Path, c.Reason)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *FolderConflictError) Is(target error) bool { return target == ErrConflict }

// ArchiveBatches commits batches of folder moves on the policy's branch
// (a curator run's curator/<run-id>, made from From), one commit per
// batch with its message, in one write; the branch must be new. progress,
// when set, is told of each batch's moves as they are staged.
func (p *Policy) ArchiveBatches(ctx context.Context, batches [][]Move, msgs []Message, progress func(n int)) (*UpdateResult, error) {
	if len(batches) != len(msgs) {
		return nil, fmt.Errorf("%d batches of moves and %d messages: %w", len(batches), len(msgs), skill.ErrInvalid)
	}
	from := p.route.From
	res, err := p.l.update(ctx, updateOptions{Branch: p.route.Branch, From: from, Reflog: p.reflog("run")}, func(tx *writeTx) error {
		if tx.Base().String() != from {
			return fmt.Errorf("branch %s already exists: %w", p.route.Branch, ErrExists)
		}
		for i, batch := range batches {
			if err := tx.moveDirs(batch); err != nil {
				return err
			}
			if _, err := tx.Commit(p.signed(msgs[i])); err != nil {
				return err
			}
			if progress != nil {
				progress(len(batch))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("curator run %s: %w", p.w.Provenance.CuratorRun, err)
	}
	return res, nil
}

// RunLanding is a curator run's branch landing on main.
type RunLanding struct {
	// Pre is main's tip the run read; Tip the run branch's tip (the
	// policy's branch).
	Pre, Tip Hash
	// Dirs are the skill folders the run changed: when main moved since
	// Pre, each must still be as Pre had it (a file added on main to a
	// skill the run archived would otherwise merge cleanly, into the old
	// folder).
	Dirs    []string
	Message Message
}

// LandRun merges the run's branch into main as one merge commit, with
// the proposals' three-way merge, when no folder the run changed moved on
// main meanwhile. It returns the merge commit and main's tip before it.
// Errors: *FolderConflictError (nothing written), the write's.
func (p *Policy) LandRun(ctx context.Context, in RunLanding) (merge, before Hash, err error) {
	start, err := p.l.Snapshot(in.Pre.String())
	if err != nil {
		return merge, before, err
	}
	found := map[string]Hash{}
	for _, d := range in.Dirs {
		found[d] = start.DirHash(d)
	}
	main := p.l.MainBranch()
	res, err := p.l.update(ctx, updateOptions{Reflog: p.reflog("merge run")}, func(tx *writeTx) error {
		if tx.Base() != in.Pre {
			now, err := tx.dirHashes(in.Dirs)
			if err != nil {
				return err
			}
			var cs []FolderConflict
			for _, d := range in.Dirs {
				switch {
				case now[d] == found[d]:
				case found[d].IsZero():
					cs = append(cs, FolderConflict{Path: d, Reason: "created on " + main + " during the run"})
				default:
					cs = append(cs, FolderConflict{Path: d, Reason: "changed on " + main + " during the run"})
				}
			}
			if len(cs) > 0 {
				return &FolderConflictError{Conflicts: cs, Tip: tx.Base()}
			}
		}
		pcs, err := tx.mergeTip(in.Pre, in.Tip, p.route.Branch)
		if err != nil {
			return err
		}
		if len(pcs) > 0 {
			cs := make([]FolderConflict, len(pcs))
			for i, pc := range pcs {
				cs[i] = FolderConflict{Path: pc.Path, Reason: pc.Detail}
			}
			return &FolderConflictError{Conflicts: cs, Tip: tx.Base()}
		}
		_, err = tx.Commit(p.signed(in.Message))
		return err
	})
	if err != nil {
		return merge, before, fmt.Errorf("curator run %s: %w", p.w.Provenance.CuratorRun, err)
	}
	return res.New, res.Old, nil
}

// MoveBack moves archived folders back where a run took them from (each
// move's To back to its From), in one commit on main, when each is still
// as the run left it and its old folder is free. Errors:
// *FolderConflictError (nothing written), the write's.
func (p *Policy) MoveBack(ctx context.Context, moves []ArchivedMove, m Message, dryRun bool) (*UpdateResult, error) {
	var back []Move
	var paths []string
	for _, mv := range moves {
		back = append(back, Move{From: mv.To, To: mv.From})
		paths = append(paths, mv.From, mv.To)
	}
	return p.l.update(ctx, updateOptions{DryRun: dryRun, Reflog: p.reflog("roll back run")}, func(tx *writeTx) error {
		now, err := tx.dirHashes(paths)
		if err != nil {
			return err
		}
		var cs []FolderConflict
		for _, mv := range moves {
			switch h := now[mv.To]; {
			case h.IsZero():
				cs = append(cs, FolderConflict{Path: mv.To, Reason: "no longer in the archive (restored or removed since the run)"})
			case h != mv.Hash:
				cs = append(cs, FolderConflict{Path: mv.To, Reason: "changed in the archive since the run"})
			}
			if !now[mv.From].IsZero() {
				cs = append(cs, FolderConflict{Path: mv.From, Reason: "its old folder is taken again"})
			}
		}
		if len(cs) > 0 {
			return &FolderConflictError{Conflicts: cs, Tip: tx.Base()}
		}
		if err := tx.moveDirs(back); err != nil {
			return err
		}
		_, err = tx.Commit(p.signed(m))
		return err
	})
}

// RevertFolders undoes, in the folders dirs, the change from revision
// before to revision after, keeping later work (writeTx.revertDirs), in one
// commit on main. A file changed since after refuses the whole revert:
// *FolderConflictError naming each, nothing written.
func (p *Policy) RevertFolders(ctx context.Context, before, after Hash, dirs []string, m Message, dryRun bool) (*UpdateResult, error) {
	bs, err := p.l.Snapshot(before.String())
	if err != nil {
		return nil, err
	}
	as, err := p.l.Snapshot(after.String())
	if err != nil {
		return nil, err
	}
	return p.l.update(ctx, updateOptions{DryRun: dryRun, Reflog: p.reflog("roll back run")}, func(tx *writeTx) error {
		changed, err := tx.revertDirs(bs, as, dirs)
		if err != nil {
			return err
		}
		if len(changed) > 0 {
			cs := make([]FolderConflict, len(changed))
			for i, c := range changed {
				cs[i] = FolderConflict{Path: c, Reason: "changed since the run"}
			}
			return &FolderConflictError{Conflicts: cs, Tip: tx.Base()}
		}
		_, err = tx.Commit(p.signed(m))
		return err
	})
}

// PurgeArchived removes archived skill folders (.archive/<name>/) from
// main's tree in one commit, when main is still at base (the revision the
// purge decided from); history keeps them, and `skill restore` brings one
// back. Only a person purges.
func (p *Policy) PurgeArchived(ctx context.Context, base Hash, dirs []string, m Message) (*UpdateResult, error) {
	if p.w.Provenance.byAgent() {
		return nil, p.metaRefusal(ActionPurge, "archived skills")
	}
	sorted := append([]string(nil), dirs...)
	sort.Strings(sorted)
	res, err := p.l.update(ctx, updateOptions{Reflog: "curator: purge"}, func(tx *writeTx) error {
		if tx.Base() != base {
			return fmt.Errorf("the main branch moved while the purge read it: %w", ErrConflict)
		}
		for _, d := range sorted {
			if err := tx.PurgeArchived(d); err != nil {
				return err
			}
		}
		_, err := tx.Commit(p.signed(m))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("curator purge: %w", err)
	}
	return res, nil
}

// reflog is a curator write's reflog message: "curator: <what> <run>".
func (p *Policy) reflog(what string) string {
	return strings.TrimSpace("curator: " + what + " " + p.w.Provenance.CuratorRun)
}

// signed is m with the writer's provenance when m names no origin of its
// own: a commit through the policy always says whose it is.
func (p *Policy) signed(m Message) Message {
	for _, t := range m.Trailers {
		if t.Key == TrailerOrigin {
			return m
		}
	}
	p.w.Provenance.addTrailers(&m)
	return m
}
