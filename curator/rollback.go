package curator

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ActionRollback is the Skill-Action of the commit that undoes a run.
const ActionRollback = "rollback"

// Rollback records that a run was undone.
type Rollback struct {
	At     time.Time `json:"at"`
	Commit string    `json:"commit,omitempty"`
}

// RollbackOptions chooses how a rollback goes.
type RollbackOptions struct {
	DryRun bool
}

// RollbackResult is what a rollback did (or, dry, would do).
type RollbackResult struct {
	Run    string `json:"run"`
	DryRun bool   `json:"dry_run"`
	// Merge is the run's merge commit; Commit the commit undoing it.
	Merge    string  `json:"merge,omitempty"`
	Commit   string  `json:"commit,omitempty"`
	Restored []Moved `json:"restored"`
	// States are the sidecar states put back, from the run's "to" to its
	// "from".
	States []Change `json:"states"`
}

// ErrRolledBack is returned for a run that was already undone.
var ErrRolledBack = errors.New("curator run already rolled back")

// Rollback undoes exactly one run with a new commit on the main branch:
// every skill the run archived moves back to where it was, every later
// commit stays. It is refused with a *ConflictError naming the skill and
// the later commit when a later commit changed an archived skill or took
// its old folder; nothing is written then. Sidecar states the run set are
// put back when they are still what the run left. Errors: ErrNotFound (no
// such run), ErrRolledBack, *ConflictError (skillrepo.ErrConflict), and
// those of the write policy's skillrepo.Policy.MoveBack and RevertFolders.
func (c *Curator) Rollback(ctx context.Context, id string, opts RollbackOptions) (*RollbackResult, error) {
	if !opts.DryRun {
		unlock, err := c.lock()
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	src := libSource{c.Lib}
	rec, recErr := ReadRun(src.ReportDir(id))
	if recErr != nil {
		rec = nil
	}
	if rec != nil && rec.RolledBack != nil {
		return nil, fmt.Errorf("run %s: %w by %s at %s", id, ErrRolledBack, short(rec.RolledBack.Commit), rec.RolledBack.At.Format(time.RFC3339))
	}
	merge, err := c.findMerge(id)
	if err != nil {
		return nil, err
	}
	if merge.IsZero() && rec != nil && rec.Landing {
		// Stopped before its merge: nothing of it is on main. Its branch
		// (if left) goes now, as the next run would drop it.
		if !opts.DryRun {
			if tip, err := c.Lib.BranchTip(BranchPrefix + id); err == nil {
				c.Lib.CuratorRuns().DropBranch(BranchPrefix+id, tip)
			}
		}
		return nil, skillrepo.WithHint(fmt.Errorf("curator run %s was stopped before it landed: nothing of it is on %s: %w", id, c.Lib.MainBranch(), skillrepo.ErrNotFound),
			"nothing to roll back; its unmerged branch "+BranchPrefix+id+" is deleted")
	}
	if !merge.IsZero() && rec == nil {
		// The record is gone (or the run stopped before writing one): the
		// merge itself says what the run changed.
		if rec, err = c.runFromMerge(id, merge); err != nil {
			return nil, err
		}
	}
	if merge.IsZero() && (rec == nil || rec.MergeCommit != "") {
		if rec == nil {
			return nil, fmt.Errorf("curator run %q: %w (see 'skillrepo curator status' for the last run)", id, skillrepo.ErrNotFound)
		}
		return nil, fmt.Errorf("curator run %s: its merge %s is not in the history of %s: %w", id, short(rec.MergeCommit), c.Lib.MainBranch(), skillrepo.ErrNotFound)
	}
	out := &RollbackResult{Run: id, DryRun: opts.DryRun, Restored: []Moved{}, States: []Change{}}
	if !merge.IsZero() {
		out.Merge = merge.String()
		revert := c.revertMoves
		if rec != nil && rec.Consolidation != nil && len(rec.Consolidation.Commits) > 0 {
			// Phase 2 moved files between skills and created umbrellas:
			// more than folder moves to undo.
			revert = func(ctx context.Context, id string, merge skillrepo.Hash, dryRun bool, out *RollbackResult) error {
				return c.revertRun(ctx, rec, merge, dryRun, out)
			}
		}
		if err := revert(ctx, id, merge, opts.DryRun, out); err != nil {
			return nil, err
		}
		if !opts.DryRun && out.Commit == "" {
			// A landed run always changed main; reverting nothing would
			// leave it in place while saying it was rolled back.
			return nil, skillrepo.WithHint(fmt.Errorf("curator run %s: found nothing of its merge %s to revert", id, short(merge.String())),
				"revert the merge with git: 'git revert -m 1 "+merge.String()+"'")
		}
	}
	if rec != nil {
		for _, t := range rec.Transitions {
			out.States = append(out.States, Change{Name: t.Name, Dir: t.Dir, Action: t.Action, From: t.To, To: t.From, Reason: "rollback of run " + id})
		}
	}
	if opts.DryRun {
		return out, nil
	}
	if err := c.revertStates(out); err != nil {
		return nil, err
	}
	if err := c.rememberRollback(id, out); err != nil {
		return nil, fmt.Errorf("run %s is rolled back, but remembering its skills failed (the next run may redo it): %w", id, err)
	}
	if rec != nil {
		rec.RolledBack = &Rollback{At: c.now(), Commit: out.Commit}
		if _, err := WriteReport(src.ReportDir(id), rec); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// findMerge walks the main branch's first-parent history for the merge of
// run id, stopping at the run's pre-run tip. A rollback commit of the run
// met on the way means it was undone already.
func (c *Curator) findMerge(id string) (skillrepo.Hash, error) {
	stop, _ := c.Lib.CuratorRuns().Base(id)
	var merge skillrepo.Hash
	err := c.Lib.History().WalkMain(stop, func(ci *skillrepo.CommitInfo) (bool, error) {
		tr := ci.Trailers()
		// A run that waited as a proposal landed through its approval.
		if len(ci.Parents) == 2 && trailer.Value(tr, skillrepo.TrailerProposalID) == ProposalPrefix+id {
			merge = ci.Hash
			return true, nil
		}
		if trailer.Value(tr, skillrepo.TrailerCuratorRun) == id {
			switch trailer.Value(tr, skillrepo.TrailerAction) {
			case ActionRollback:
				return true, fmt.Errorf("run %s: %w by %s", id, ErrRolledBack, short(ci.Hash.String()))
			case ActionMerge:
				merge = ci.Hash
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return skillrepo.ZeroHash, err
	}
	return merge, nil
}

// runFromMerge stands in for a run's lost record: every skill folder (or
// archived one) that differs between the merge and its first parent is
// what the run changed, and all of it goes back (revertRun).
func (c *Curator) runFromMerge(id string, merge skillrepo.Hash) (*Run, error) {
	mc, err := c.Lib.History().Commit(merge)
	if err != nil {
		return nil, err
	}
	if len(mc.Parents) == 0 {
		return nil, fmt.Errorf("curator run %s: merge %s has no parent", id, short(merge.String()))
	}
	before, err := c.Lib.Snapshot(mc.Parents[0].String())
	if err != nil {
		return nil, err
	}
	after, err := c.Lib.Snapshot(merge.String())
	if err != nil {
		return nil, err
	}
	cand := map[string]bool{}
	for _, s := range []*skillrepo.Snapshot{before, after} {
		skills, err := s.Skills()
		if err != nil {
			return nil, err
		}
		for _, si := range skills {
			cand[si.Dir] = true
		}
		archived, _ := s.List(skillrepo.ArchiveDir)
		for _, p := range archived {
			if path.Base(p) == "SKILL.md" {
				cand[path.Dir(p)] = true
			}
		}
	}
	var touched []string
	for d := range cand {
		if before.DirHash(d) != after.DirHash(d) {
			touched = append(touched, d)
		}
	}
	sort.Strings(touched)
	return &Run{ID: id, MergeCommit: merge.String(), Consolidation: &Consolidation{Touched: touched, Commits: []string{merge.String()}}}, nil
}

// revertMoves moves the run's archived skills back in one commit.
func (c *Curator) revertMoves(ctx context.Context, id string, merge skillrepo.Hash, dryRun bool, out *RollbackResult) error {
	moves, err := c.Lib.History().ArchiveMoves(merge)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		return nil
	}
	names := map[string]string{}
	for _, m := range moves {
		name := path.Base(m.From)
		names[m.From], names[m.To] = name, name
		out.Restored = append(out.Restored, Moved{Name: name, From: m.To, To: m.From})
	}
	m := skillrepo.Message{
		Subject: fmt.Sprintf("curator: roll back run %s, restore %s", id, skillsText(len(moves))),
		Body:    fmt.Sprintf("Undo curator run %s (merge %s); later commits are kept.", id, short(merge.String())),
	}
	m.Add(skillrepo.TrailerAction, ActionRollback)
	for _, r := range out.Restored {
		m.Add(skillrepo.TrailerName, r.Name)
	}
	m.Add(skillrepo.TrailerOrigin, skillrepo.OriginUser)
	m.Add(skillrepo.TrailerCuratorRun, id)
	for _, r := range out.Restored {
		m.Add(skillrepo.TrailerFrom, r.From)
	}
	pol, err := c.rollbackWriter(id)
	if err != nil {
		return err
	}
	res, err := pol.MoveBack(ctx, moves, m, dryRun)
	if err != nil {
		return c.rollbackConflict(err, id, merge, func(p string) string { return names[p] },
			"restore the skills that are free one by one with 'skillrepo skill restore NAME', or revert the later commits first")
	}
	if !dryRun {
		out.Commit = res.New.String()
	}
	return nil
}

// rollbackWriter is the write policy of a rollback: a person's command,
// naming the run it undoes.
func (c *Curator) rollbackWriter(id string) (*skillrepo.Policy, error) {
	return c.Lib.Policy(skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginUser, CuratorRun: id}})
}

// rollbackConflict turns the policy's refusal of a rollback whose folders
// changed since the run into the run's *ConflictError, each path named
// (nameOf) and blamed on the later commit that changed it; any other
// error is returned as it is.
func (c *Curator) rollbackConflict(err error, id string, merge skillrepo.Hash, nameOf func(p string) string, advice string) error {
	var fc *skillrepo.FolderConflictError
	if !errors.As(err, &fc) {
		return err
	}
	conflicts := make([]Conflict, len(fc.Conflicts))
	for i, f := range fc.Conflicts {
		conflicts[i] = Conflict{Name: nameOf(f.Path), Path: f.Path, Reason: f.Reason}
		c.blame(fc.Tip, merge, &conflicts[i])
	}
	return &ConflictError{Op: "roll back curator run " + id, Conflicts: conflicts, Advice: advice}
}

// dirOf is the folder of dirs that holds p (the longest that does).
func dirOf(dirs []string, p string) string {
	best := ""
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// blame finds the newest commit after merge (first parent, from tip) that
// changed the conflict's path, for the report.
func (c *Curator) blame(tip, merge skillrepo.Hash, cf *Conflict) {
	h := tip
	for !h.IsZero() && h != merge {
		ci, err := c.Lib.History().Commit(h)
		if err != nil || len(ci.Parents) == 0 {
			return
		}
		a, err1 := c.Lib.Snapshot(h.String())
		b, err2 := c.Lib.Snapshot(ci.Parents[0].String())
		if err1 != nil || err2 != nil {
			return
		}
		if a.DirHash(cf.Path) != b.DirHash(cf.Path) {
			cf.Commit = h.String()
			cf.Subject = firstLine(ci.Message)
			return
		}
		h = ci.Parents[0]
	}
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// revertStates puts back the sidecar states the run set, skipping any a
// later event changed (a skill used again is not forced back to stale).
func (c *Curator) revertStates(out *RollbackResult) error {
	if len(out.States) == 0 && len(out.Restored) == 0 {
		return nil
	}
	restored := map[string]bool{}
	for _, r := range out.Restored {
		restored[r.Name] = true
	}
	return c.Lib.Usage().Update(func(recs map[string]*usage.Record) error {
		kept := out.States[:0]
		for _, s := range out.States {
			r, ok := recs[s.Name]
			if !ok || State(r.State) != s.From {
				continue
			}
			r.State = string(s.To)
			r.ArchivedAt = nil
			kept = append(kept, s)
			delete(restored, s.Name)
		}
		out.States = kept
		// A run record from another clone may be missing: the skills
		// git brought back are active in any case.
		for name := range restored {
			if r, ok := recs[name]; ok && r.State == usage.StateArchived {
				r.State, r.ArchivedAt = usage.StateActive, nil
			}
		}
		return nil
	})
}

// rememberRollback records the skills the rollback brought back from the
// archive or from stale, as they are now, so the next scheduled run leaves them
// alone until they are touched (see RolledBackFile).
func (c *Curator) rememberRollback(id string, out *RollbackResult) error {
	dirs := map[string]string{}
	for _, r := range out.Restored {
		dirs[r.Name] = r.To
	}
	for _, s := range out.States {
		// Only what the run took away (stale, archived): a reactivation
		// the run made follows from activity and may happen again.
		if _, ok := dirs[s.Name]; !ok && (s.Action == ActionStale || s.Action == ActionArchive) {
			dirs[s.Name] = s.Dir
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	snap, err := c.Lib.Snapshot(c.Lib.MainBranch())
	if err != nil {
		return err
	}
	now := c.now()
	add := map[string]RolledBackSkill{}
	for name, dir := range dirs {
		if h := snap.DirHash(dir); !h.IsZero() {
			add[name] = RolledBackSkill{Run: id, At: now, Dir: dir, Tree: h.String()}
		}
	}
	return rememberRolledBack(c.Lib.State().Curator(), add)
}

// revertRun undoes a consolidating run in one commit: every file of every
// folder the run changed (phase 1's archives, phase 2's umbrellas,
// siblings, moved files and archive folders) goes back to what the main
// branch had before the merge, when it is still what the merge left.
// A file changed since is a conflict and nothing is written. Archived
// skills come back whole, with their moved-out files, and the commit's
// Skill-From trailers name the archive folders they come from, so
// `skill log` follows each one back through its history.
func (c *Curator) revertRun(ctx context.Context, rec *Run, merge skillrepo.Hash, dryRun bool, out *RollbackResult) error {
	mc, err := c.Lib.History().Commit(merge)
	if err != nil {
		return err
	}
	if len(mc.Parents) == 0 {
		return fmt.Errorf("curator run %s: merge %s has no parent", rec.ID, short(merge.String()))
	}
	dirSet := map[string]bool{}
	for _, m := range rec.Archived {
		dirSet[m.From], dirSet[m.To] = true, true
	}
	for _, d := range rec.Consolidation.Touched {
		dirSet[d] = true
	}
	var restored []Moved
	for _, m := range rec.Archived {
		restored = append(restored, Moved{Name: m.Name, From: m.To, To: m.From})
	}
	for _, cl := range append(append([]Classified{}, rec.Consolidation.Consolidated...), rec.Consolidation.Pruned...) {
		if cl.Phase == 2 && cl.From != "" {
			restored = append(restored, Moved{Name: cl.Name, From: cl.To, To: cl.From})
			dirSet[cl.From], dirSet[cl.To] = true, true
		}
	}
	dirs := make([]string, 0, len(dirSet))
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	m := skillrepo.Message{
		Subject: fmt.Sprintf("curator: roll back run %s, restore %s", rec.ID, skillsText(len(restored))),
		Body:    fmt.Sprintf("Undo curator run %s (merge %s), phase 1 and phase 2; later commits are kept.", rec.ID, short(merge.String())),
	}
	m.Add(skillrepo.TrailerAction, ActionRollback)
	for _, r := range restored {
		m.Add(skillrepo.TrailerName, r.Name)
	}
	m.Add(skillrepo.TrailerOrigin, skillrepo.OriginUser)
	m.Add(skillrepo.TrailerCuratorRun, rec.ID)
	for _, r := range restored {
		m.Add(skillrepo.TrailerFrom, r.From)
	}
	pol, err := c.rollbackWriter(rec.ID)
	if err != nil {
		return err
	}
	res, err := pol.RevertFolders(ctx, mc.Parents[0], merge, dirs, m, dryRun)
	if err != nil {
		return c.rollbackConflict(err, rec.ID, merge, func(p string) string { return path.Base(dirOf(dirs, p)) },
			"revert the later commits that changed these files first, or restore skills one by one with 'skillrepo skill restore NAME'")
	}
	out.Restored = append(out.Restored, restored...)
	if !dryRun {
		out.Commit = res.New.String()
	}
	return nil
}
