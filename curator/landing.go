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
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ProposalPrefix names the proposal a consolidating run waits on when it
// is not merged: proposals/curator-<run-id>.
const ProposalPrefix = "curator-"

// runConsolidating is a real run with phase 2: phase 1's archives are
// committed on curator/<run-id> (under the sidecar's lock, as decided),
// then the model pass writes its commits on the same branch, and the
// branch lands as one merge — or waits as proposal curator-<run-id> when
// curator.write_approval is set, when the pass failed after writing, or
// when the result fails lint. The sidecar's states are recorded at the
// end, once git says what landed; the model pass runs outside the
// sidecar's lock, so usage bumps are not held up for its minutes.
func (c *Curator) runConsolidating(ctx context.Context, src source, now time.Time, o *ConsolidateOptions) (*Run, error) {
	var (
		run     *Run
		plan    *Plan
		inv     *inventory
		tip     skillrepo.Hash
		commits []string
	)
	err := c.Lib.Usage().Update(func(recs map[string]*usage.Record) error {
		var err error
		if inv, err = c.read(src, recs); err != nil {
			return err
		}
		if plan, err = c.plan(src, inv, now); err != nil {
			return err
		}
		run = NewRun(NewRunID(now, src.RunTaken), plan, src.MainBranch(), inv.snap.Commit().String(), false)
		run.PreRunRef = c.Lib.CuratorRuns().Ref(run.ID)
		if archives := plan.Archives(); len(archives) > 0 {
			tip, commits, err = c.writeArchives(ctx, run, archives, inv.snap.Commit(), nil)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	// The sidecar was read under its lock; the pass needs a copy that
	// stays put.
	pre := inv.snap.Commit()
	branch := BranchPrefix + run.ID
	in := passInput{
		runID: run.ID, inv: inv, plan: plan, cfg: src.Config(),
		branch: branch, base: pre.String(), made: !tip.IsZero(),
	}
	rec, tools, err := c.consolidate(ctx, in, o)
	if err != nil {
		if !tip.IsZero() {
			c.Lib.CuratorRuns().DropBranch(branch, tip)
		}
		return nil, err
	}
	if err := c.finishPass(rec, tools, in); err != nil {
		return nil, err
	}
	run.Consolidation = rec
	run.Commits = append(commits, rec.Commits...)
	if n := len(rec.Commits); n > 0 {
		if tip, err = c.Lib.BranchTip(branch); err != nil {
			return nil, err
		}
	}
	wait := ""
	switch {
	case tip.IsZero():
	case o.WriteApproval:
		wait = "curator.write_approval is set"
	case rec.Status == PassFailed && len(rec.Commits) > 0:
		wait = "the model pass failed: " + rec.Reason
	case len(rec.LintErrors) > 0:
		wait = fmt.Sprintf("the result fails lint (%d error(s))", len(rec.LintErrors))
	}
	merged := false
	if !tip.IsZero() && wait == "" {
		if err := c.beforeLanding(run, now); err != nil {
			return nil, err
		}
		merge, before, err := c.mergeRun(ctx, run, plan.Archives(), rec, pre, tip, len(run.Commits))
		if err == nil && c.testOnlyAt != nil {
			c.testOnlyAt("after-merge")
		}
		var ce *ConflictError
		switch {
		case errors.As(err, &ce):
			// The main branch changed a folder the run changed: the
			// model's work is kept for a person to look at, not lost.
			wait = "the main branch changed under the run: " + ce.Error()
			rec.Reason = strings.TrimSpace(rec.Reason + " " + wait)
		case err != nil:
			return nil, err
		default:
			c.Lib.CuratorRuns().DropBranch(branch, tip)
			run.Commits = append(run.Commits, merge.String())
			run.MergeCommit, run.PreRunCommit = merge.String(), before.String()
			pre, merged = before, true
		}
	}
	if !tip.IsZero() && wait != "" {
		id := ProposalPrefix + run.ID
		if err := c.Lib.Proposals().FromBranch(branch, id, tip, "curator: run "+run.ID+" waits for approval"); err != nil {
			return nil, fmt.Errorf("curator run %s: keep the branch as a proposal: %w", run.ID, err)
		}
		rec.Proposal = id
	}
	if !pre.IsZero() {
		if err := c.Lib.CuratorRuns().KeepBase(run.ID, pre); err != nil {
			return nil, fmt.Errorf("keep the pre-run tip: %w", err)
		}
	}
	run.Summary = consolidationSummary(run, rec)
	run.Recovery = run.recovery()
	err = c.Lib.Usage().Update(func(recs map[string]*usage.Record) error {
		if !merged {
			// Nothing landed: only the states phase 1 keeps in the
			// sidecar (stale, active again) apply.
			kept := *plan
			kept.Changes = nil
			for _, ch := range plan.Changes {
				if ch.Action != ActionArchive {
					kept.Changes = append(kept.Changes, ch)
				}
			}
			setStates(recs, &kept, inv.keys)
			return nil
		}
		setStates(recs, plan, inv.keys)
		stamp := usage.FormatTime(now)
		for _, cl := range append(append([]Classified{}, rec.Consolidated...), rec.Pruned...) {
			if cl.Phase != 2 {
				continue
			}
			if r, ok := recs[cl.Name]; ok {
				r.State, r.ArchivedAt = usage.StateArchived, stamp
			}
		}
		agent := "agent"
		for _, n := range rec.Added {
			if _, ok := recs[n]; !ok {
				recs[n] = &usage.Record{CreatedAt: stamp, CreatedBy: &agent, State: usage.StateActive}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return run, nil
}

// writer is the write policy of the run's writes: the curator's
// provenance, on the run's branch made from pre.
func (c *Curator) writer(run *Run, pre skillrepo.Hash) (*skillrepo.Policy, error) {
	return c.Lib.Policy(skillrepo.Writer{
		Provenance: skillrepo.Provenance{Origin: skillrepo.OriginCurator, CuratorRun: run.ID},
		Branch:     BranchPrefix + run.ID, From: pre.String(),
	})
}

// writeArchives commits phase 1's archive moves on the run branch (one
// commit per ArchiveBatch skills) and returns its tip and commits; the
// same for a phase-1 run and a consolidating one.
func (c *Curator) writeArchives(ctx context.Context, run *Run, archives []Change, pre skillrepo.Hash, progress func(n int)) (skillrepo.Hash, []string, error) {
	pol, err := c.writer(run, pre)
	if err != nil {
		return skillrepo.ZeroHash, nil, err
	}
	var batches [][]skillrepo.Move
	var msgs []skillrepo.Message
	for start := 0; start < len(archives); start += ArchiveBatch {
		batch := archives[start:min(start+ArchiveBatch, len(archives))]
		batches = append(batches, movesOf(batch))
		msgs = append(msgs, batchMessage(run.ID, batch))
	}
	res, err := pol.ArchiveBatches(ctx, batches, msgs, progress)
	if err != nil {
		return skillrepo.ZeroHash, nil, err
	}
	var commits []string
	for _, h := range res.Commits {
		commits = append(commits, h.String())
	}
	return res.New, commits, nil
}

// mergeRun lands a consolidating run's branch (tip, forked at pre) on the
// main branch as one merge; the caller deletes the branch.
func (c *Curator) mergeRun(ctx context.Context, run *Run, archives []Change, rec *Consolidation, pre, tip skillrepo.Hash, commits int) (merge, before skillrepo.Hash, err error) {
	dirs := append(dirsOf(archives), archiveDirsOf(archives)...)
	dirs = append(dirs, rec.Touched...)
	return c.land(ctx, run, archives, pre, tip, dirs, consolidationMergeMessage(run, archives, rec, commits))
}

// land merges the run branch (tip, forked at pre) into main through the
// write policy ([skillrepo.Policy.LandRun]): when the main branch moved
// meanwhile, every folder the run changed (dirs) must be as the run found
// it; a conflict is the run's *ConflictError and nothing lands.
func (c *Curator) land(ctx context.Context, run *Run, archives []Change, pre, tip skillrepo.Hash, dirs []string, m skillrepo.Message) (merge, before skillrepo.Hash, err error) {
	pol, err := c.writer(run, pre)
	if err != nil {
		return merge, before, err
	}
	merge, before, err = pol.LandRun(ctx, skillrepo.RunLanding{Pre: pre, Tip: tip, Dirs: dirs, Message: m})
	var fc *skillrepo.FolderConflictError
	if !errors.As(err, &fc) {
		return merge, before, err
	}
	names := map[string]string{}
	for _, a := range archives {
		names[a.Dir], names[a.ArchiveDir] = a.Name, a.Name
	}
	folders := map[string]bool{}
	for _, d := range dirs {
		folders[d] = true
	}
	conflicts := make([]Conflict, len(fc.Conflicts))
	for i, f := range fc.Conflicts {
		name, ok := names[f.Path]
		switch {
		case ok:
		case folders[f.Path]:
			name = path.Base(f.Path)
		default: // a file the three-way merge could not join
			name = path.Base(path.Dir(f.Path))
		}
		conflicts[i] = Conflict{Name: name, Path: f.Path, Reason: f.Reason}
	}
	return merge, before, runConflict(run, conflicts)
}

// consolidationSummary extends phase 1's one-line summary with phase 2
// (docs/reference-behaviour.md §6.4: "…; llm: …").
func consolidationSummary(run *Run, rec *Consolidation) string {
	s := Summary(run.Counts, run.DryRun)
	switch rec.Status {
	case PassSkipped:
		s += "; llm: skipped (" + rec.Reason + ")"
	case PassFailed:
		s += "; llm: failed (" + rec.Reason + ")"
	default:
		n := 0
		for _, p := range rec.Pruned {
			if p.Phase == 2 {
				n++
			}
		}
		verb := ""
		if run.DryRun {
			verb = fmt.Sprintf(", %d write(s) not made", len(rec.WouldWrite))
		}
		s += fmt.Sprintf("; llm: %d consolidated, %d pruned, %d new umbrella(s)%s", len(rec.Consolidated), n, len(rec.Added), verb)
		if rec.Status == PassCapped {
			s += " (" + rec.Reason + ")"
		}
	}
	if rec.Proposal != "" {
		s += "; waits as proposal " + rec.Proposal
	}
	return s
}

// consolidationMergeMessage is the merge of a consolidating run: what
// phase 1 archived, what phase 2 folded where, and the trailers naming
// every skill (Absorbed-Into lives on the branch's own commits).
func consolidationMergeMessage(run *Run, archives []Change, rec *Consolidation, commits int) skillrepo.Message {
	m := skillrepo.Message{
		Subject: fmt.Sprintf("curator: run %s, archive %s, consolidate %s", run.ID, skillsText(len(archives)), skillsText(len(rec.Consolidated))),
	}
	var body []string
	body = append(body, fmt.Sprintf("Merge branch %s%s (%s).", BranchPrefix, run.ID, commitsText(commits)), "")
	for _, cl := range rec.Consolidated {
		body = append(body, fmt.Sprintf("- %s -> %s", cl.Name, cl.Into))
	}
	for _, p := range rec.Pruned {
		if p.Phase == 2 {
			body = append(body, fmt.Sprintf("- %s pruned", p.Name))
		}
	}
	for _, a := range rec.Added {
		body = append(body, "- new umbrella "+a)
	}
	body = append(body, "", "Undo with: skillrepo curator rollback "+run.ID)
	m.Body = strings.TrimSpace(strings.Join(body, "\n"))
	names := map[string]bool{}
	for _, a := range archives {
		names[a.Name] = true
	}
	for _, cl := range rec.Consolidated {
		names[cl.Name], names[cl.Into] = true, true
	}
	for _, p := range rec.Pruned {
		names[p.Name] = true
	}
	for _, a := range rec.Added {
		names[a] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	m.Add(skillrepo.TrailerAction, ActionMerge)
	for _, n := range sorted {
		m.Add(skillrepo.TrailerName, n)
	}
	m.Add(skillrepo.TrailerOrigin, skillrepo.OriginCurator)
	m.Add(skillrepo.TrailerModel, rec.Model)
	m.Add(skillrepo.TrailerCuratorRun, run.ID)
	for _, a := range archives {
		m.Add(skillrepo.TrailerFrom, a.Dir)
	}
	return m
}
