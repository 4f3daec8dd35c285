package skillrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// SyncOptions records edits made outside skillrepo.
type SyncOptions struct {
	// Origin overrides the inferred origin ("" = infer: user, or what the
	// usage sidecar implies for files an agent wrote).
	Origin string
	// SessionID, when the edits are an agent session's (a hook that
	// knows), is recorded as a Session-Id trailer.
	SessionID string
	// Message is an optional subject.
	Message string
	DryRun  bool
	// LeaveStaged leaves the paths the person staged with git and has not
	// committed to their own commit (SyncResult.LeftStaged): a sync no one
	// asked for (an agent hook) must not sweep them into its commit.
	LeaveStaged bool
	// ReportUnconverted, with DryRun, lists the changed paths whose
	// conversion runs a program (a filter such as git-lfs) in
	// SyncResult.Unconverted instead of failing the dry run on them, as
	// the real sync does: what skillrepo status shows.
	ReportUnconverted bool
	// Lint checks the skill folders the sync records, in the work tree
	// (which is what is recorded), under the library's profile. A sync
	// never refuses for their lint errors — the edits are made already —
	// but each is recorded as a Lint-Error trailer and in the result.
	Lint bool
}

// FileChange is one path a sync records.
type FileChange struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, modified, deleted
}

// SyncResult says what sync recorded.
type SyncResult struct {
	Commit  Hash
	Origin  string
	Changes []FileChange
	Skills  []string
	// PinsCarried maps a pinned skill renamed outside skillrepo (old
	// name) to its new name; the sync commit moved the pin along.
	PinsCarried map[string]string
	DryRun      bool
	// LintErrors are what SyncOptions.Lint found in the recorded skills.
	LintErrors []string
	// Unconverted are the Changes a sync refuses to record (only with
	// SyncOptions.ReportUnconverted).
	Unconverted []UnconvertedChange
	// LeftStaged are paths the person staged with git and has not
	// committed, left to the person's own commit (with LeaveStaged).
	LeftStaged []string
	// Untracked are Hermes housekeeping files an earlier import tracked;
	// the sync stopped tracking them first, in UntrackCommit (they stay on
	// disk, ignored).
	Untracked     []string `json:"untracked,omitempty"`
	UntrackCommit Hash     `json:"-"`
	// Pins are the pins and unpins made in Hermes that the sync recorded
	// in .skillrepo/pins first, in their own commit.
	Pins *PinsReconciled `json:"-"`
	// Memory are the memory stores of a memory folder beside the library
	// (Hermes' memories/) whose edits the sync recorded, in MemoryCommit.
	Memory       []string `json:"memory,omitempty"`
	MemoryCommit Hash     `json:"-"`
	// HermesCurator is a run of Hermes' curator whose archive moves the
	// sync recorded first, as a curator commit.
	HermesCurator *HermesCuratorRun `json:"hermes_curator,omitempty"`
}

// UnconvertedChange is a changed path whose conversion runs a program
// (a filter attribute such as git-lfs's, ident, working-tree-encoding):
// skillrepo does not run it, so it cannot record the path nor tell an
// edit from a checkout git would call clean once its stat data is stale
// (docs/git-format.md, "Line endings and filters"). git records it.
type UnconvertedChange struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, modified, deleted (as FileChange), possibly not an edit
	Reason string `json:"reason"`
	Hint   string `json:"hint"`
}

// worktreeDelta compares the work tree with a tree: files added or
// modified (content read) and tracked files deleted.
type worktreeDelta struct {
	changes []FileChange
	content map[string][]byte
	modes   map[string]gitstore.FileMode
	// staged are paths the person staged with git (the index differs from
	// the tree there) when the delta leaves them to the person's own
	// commit (keepStaged).
	staged []string
}

// worktreeDelta is what 'git add -A' would stage over tree. With
// keepStaged, a path the person staged with git and has not committed is
// left out (listed in staged): it is theirs to commit.
func (l *Library) worktreeDelta(ctx context.Context, store *gitstore.Store, tree Hash, keepStaged bool) (*worktreeDelta, error) {
	files, err := l.repo.ScanWorktree()
	if err != nil {
		return nil, fmt.Errorf("scan work tree: %w", err)
	}
	return l.deltaOf(ctx, store, tree, files, nil, keepStaged)
}

// maxNamedSkills is how many Skill-Name (and Lint-Error) trailers a sync
// commit carries before its body summarises the rest.
const maxNamedSkills = 20

// interrupted is the error of a long read or import stopped by ctx (the
// user pressed Ctrl-C) before its commit: nothing was recorded.
func interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted before the commit, nothing was recorded: %w", err)
	}
	return nil
}

// deltaOf is worktreeDelta over a given file list, with planned files
// (path -> content, regular files) standing in for what is on disk: what
// init --dry-run compares.
func (l *Library) deltaOf(ctx context.Context, store *gitstore.Store, tree Hash, files []gitstore.WorktreeFile, planned map[string][]byte, keepStaged bool) (*worktreeDelta, error) {
	idx, idxTime, err := l.repo.ReadIndex()
	if err != nil {
		return nil, err
	}
	tracked := map[string]gitstore.TreeEntry{}
	if !tree.IsZero() {
		if err := store.WalkTree(tree, "", func(p string, h Hash, m gitstore.FileMode) error {
			tracked[p] = gitstore.TreeEntry{Hash: h, Mode: m}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	d := &worktreeDelta{content: map[string][]byte{}, modes: map[string]gitstore.FileMode{}}
	seen := map[string]bool{}
	// leave reports a path git add -A would not stage from the work tree
	// (assume-unchanged, skip-worktree: git keeps what the index holds),
	// or that the person staged and keepStaged leaves to them.
	leave := func(p string) bool {
		e, inIndex := idx.Entry(l.repo.RepoPath(p))
		if inIndex && (e.AssumeUnchanged || e.SkipWorktree) {
			return true
		}
		if !keepStaged {
			return false
		}
		t, inTree := tracked[p]
		if inIndex != inTree || (inIndex && (e.Hash != t.Hash || e.Mode != t.Mode)) {
			d.staged = append(d.staged, p)
			return true
		}
		return false
	}
	for _, p := range sortedKeys(planned) {
		seen[p] = true
		if t, ok := tracked[p]; ok && t.Hash == gitstore.HashObject(gitstore.BlobObject, planned[p]) && t.Mode == gitstore.ModeRegular {
			continue
		}
		status := "added"
		if _, ok := tracked[p]; ok {
			status = "modified"
		}
		d.changes = append(d.changes, FileChange{Path: p, Status: status})
		d.content[p] = planned[p]
		d.modes[p] = gitstore.ModeRegular
	}
	for k, f := range files {
		if k%64 == 0 {
			if err := interrupted(ctx); err != nil {
				return nil, err
			}
		}
		if seen[f.Path] {
			continue // planned
		}
		seen[f.Path] = true
		if leave(f.Path) {
			continue
		}
		mode := gitstore.ModeOf(f.Info)
		h, _, err := l.repo.WorktreeHash(idx, idxTime, l.repo.RepoPath(f.Path))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		t, ok := tracked[f.Path]
		if ok && t.Hash == h && t.Mode == mode {
			continue
		}
		data, err := l.repo.ReadWorktreeBlob(idx, l.repo.RepoPath(f.Path))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		status := "added"
		if ok {
			status = "modified"
		}
		d.changes = append(d.changes, FileChange{Path: f.Path, Status: status})
		d.content[f.Path] = data
		d.modes[f.Path] = mode
	}
	for p := range tracked {
		if seen[p] {
			continue
		}
		if leave(p) {
			continue
		}
		// Tracked but not listed: deleted, or ignored yet still present.
		full := filepath.Join(l.Root, filepath.FromSlash(p))
		if info, err := os.Lstat(full); err == nil && !info.IsDir() {
			h, _, err := l.repo.WorktreeHash(idx, idxTime, l.repo.RepoPath(p))
			if err == nil && h != tracked[p].Hash {
				data, err := l.repo.ReadWorktreeBlob(idx, l.repo.RepoPath(p))
				if err != nil {
					return nil, err
				}
				d.changes = append(d.changes, FileChange{Path: p, Status: "modified"})
				d.content[p] = data
				d.modes[p] = gitstore.ModeOf(info)
			}
			continue
		}
		d.changes = append(d.changes, FileChange{Path: p, Status: "deleted"})
	}
	sort.Slice(d.changes, func(i, j int) bool { return d.changes[i].Path < d.changes[j].Path })
	sort.Strings(d.staged)
	return d, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// stage puts a delta into a transaction; stopped by ctx, it stages
// nothing more and the transaction is abandoned (the objects written are
// unreferenced, as git leaves after an interrupted add).
func (d *worktreeDelta) stage(ctx context.Context, tx *writeTx) error {
	p := tx.l.progress()
	p.Start("importing files", len(d.changes))
	defer p.Done()
	for k, c := range d.changes {
		if k%64 == 0 {
			if err := interrupted(ctx); err != nil {
				return err
			}
		}
		p.Add(1)
		if c.Status == "deleted" {
			tx.gtx.Stage(c.Path, gitstore.Change{Delete: true})
			continue
		}
		h, err := tx.gtx.Store().Put(gitstore.BlobObject, d.content[c.Path])
		if err != nil {
			return err
		}
		tx.gtx.Stage(c.Path, gitstore.Change{Hash: h, Mode: d.modes[c.Path]})
	}
	return nil
}

// skillsOf names the skills a set of paths belongs to (the folder holding
// SKILL.md, found in the transaction's state).
func skillsOf(tx *writeTx, changes []FileChange) []string {
	set := map[string]bool{}
	for _, c := range changes {
		dir := filepath.ToSlash(filepath.Dir(c.Path))
		for dir != "." && dir != "" {
			if tx.gtx.Exists(dir+"/SKILL.md") || (c.Status == "deleted" && strings.HasSuffix(c.Path, dir+"/SKILL.md")) {
				set[filepath.Base(dir)] = true
				break
			}
			dir = filepath.ToSlash(filepath.Dir(dir))
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Sync records every edit made to the checked-out branch's files outside
// skillrepo (by a person, or an agent writing files directly) as one
// commit. The origin is opts.Origin, else inferred: when every changed
// skill's usage record shows a write after the branch tip's commit time
// that is not one of ours (the usage history holds ours), an agent wrote it (background-review when the record says created_by
// agent, foreground otherwise); else user. No change: a nil Commit.
func (l *Library) Sync(ctx context.Context, opts SyncOptions) (*SyncResult, error) {
	head, err := l.repo.HeadBranch()
	if err != nil {
		return nil, err
	}
	if head == "" {
		return nil, fmt.Errorf("HEAD is detached: check out a branch before sync")
	}
	if opts.Origin != "" && !ValidOrigin(opts.Origin) {
		return nil, fmt.Errorf("unknown origin %q", opts.Origin)
	}
	out := &SyncResult{DryRun: opts.DryRun}
	// Hermes' housekeeping an earlier import tracked: untracked first, in
	// a commit of its own, so no sync ever records a curator tarball.
	un, err := l.untrackHousekeeping(ctx, opts.DryRun)
	if err != nil {
		return nil, err
	}
	out.Untracked, out.UntrackCommit = un.Paths, un.Commit
	// Pins and unpins made in Hermes since the two last agreed: recorded
	// in the pins file first, in a commit of their own (pinsync.go).
	if head == l.MainBranch() {
		if out.Pins, err = l.reconcilePins(ctx, opts.DryRun); err != nil {
			return nil, err
		}
	}
	// A run of Hermes' own curator since the last look: its archive
	// moves are the curator's commit, not the person's (hermes_curator.go).
	if out.HermesCurator, err = l.recordHermesCuratorRun(ctx, opts.DryRun); err != nil {
		return nil, err
	}
	var renamed map[string]string
	res, err := l.update(ctx, updateOptions{Branch: head, DryRun: opts.DryRun, RecordsWorktree: true}, func(tx *writeTx) error {
		d, err := l.worktreeDelta(ctx, tx.gtx.Store(), tx.gtx.Tree(), opts.LeaveStaged)
		if err != nil {
			return err
		}
		out.LeftStaged = d.staged
		if len(d.changes) == 0 {
			return nil
		}
		out.Changes = d.changes
		if opts.DryRun && opts.ReportUnconverted {
			if out.Unconverted, err = l.splitUnconverted(d); err != nil {
				return err
			}
		}
		beforeTip, beforeTree := tx.gtx.Base(), tx.gtx.Tree()
		if err := d.stage(ctx, tx); err != nil {
			return err
		}
		if renamed, err = detectRenames(tx, beforeTree, d.changes); err != nil {
			return err
		}
		if out.PinsCarried, err = carryPins(tx, renamed); err != nil {
			return err
		}
		// Skills touched: look both before (deletions) and after.
		out.Skills = skillsOf(tx, out.Changes)
		if len(d.changes) == 0 {
			return nil // only unconverted paths: nothing to commit, even dry
		}
		origin := opts.Origin
		if origin == "" {
			origin = l.inferOrigin(beforeTip, out.Skills)
		}
		out.Origin = origin
		// An agent's edit is an agent's write: a likely secret in it is
		// refused as the write policy refuses it (issue 40 item 10). The
		// edit stays in the work tree for the person.
		if (Provenance{Origin: origin}).byAgent() {
			msgs, err := stagedSecrets(tx)
			if err != nil {
				return err
			}
			if len(msgs) > 0 {
				return &RefusedError{Guard: GuardSecret, Reason: fmt.Sprintf("%s (This sync records edits as origin %s; they stay in the work tree, unrecorded: redact them, or record them as your own with 'skillrepo sync --origin user'.)", msgs[0], origin)}
			}
		}
		m := Message{Subject: opts.Message}
		if m.Subject == "" {
			m.Subject = syncSubject(out.Skills, d.changes)
		}
		m.Add(TrailerAction, ActionSync)
		// A sync's history is its tree diff; the trailers name the
		// skills for a reader, so thousands are summarised.
		for i, s := range out.Skills {
			if i == maxNamedSkills {
				m.Body = fmt.Sprintf("Records edits to %d skills (%d files); the trailers name the first %d, and 'git show --name-status' lists every file.", len(out.Skills), len(d.changes), maxNamedSkills)
				break
			}
			m.Add(TrailerName, s)
		}
		if opts.Lint {
			var present []string
			for _, s := range out.Skills {
				if tx.gtx.Exists(s + "/" + skill.FileName) {
					present = append(present, s)
				}
			}
			if len(present) > 0 {
				out.LintErrors = l.lintErrorLines(os.DirFS(l.Root), present)
			}
			for i, e := range out.LintErrors {
				if i == maxNamedSkills {
					m.Body += fmt.Sprintf("\n\n%d lint errors were recorded; the trailers give the first %d ('skillrepo lint' reports them all).", len(out.LintErrors), maxNamedSkills)
					m.Body = strings.TrimPrefix(m.Body, "\n\n")
					break
				}
				m.Add(TrailerLintError, e)
			}
		}
		Provenance{Origin: origin, SessionID: opts.SessionID}.addTrailers(&m)
		h, err := tx.Commit(m)
		if errors.Is(err, ErrNoChanges) {
			out.Changes = nil
			return nil
		}
		out.Commit = h
		return err
	})
	if err != nil {
		return nil, err
	}
	if !opts.DryRun && res != nil && res.CheckedOut && len(renamed) > 0 && !out.Commit.IsZero() {
		l.carryUsage(res, renamed)
	}
	// Hermes' memory folder beside the library: its edits too.
	if head == l.MainBranch() {
		if out.MemoryCommit, out.Memory, err = l.syncMemory(ctx, opts); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitUnconverted takes the changes a write would be refused for
// (gitstore's CheckConvertible) out of d, so a dry run stages only the
// others, and returns them with the refusal's reason and hint.
func (l *Library) splitUnconverted(d *worktreeDelta) ([]UnconvertedChange, error) {
	var out []UnconvertedChange
	kept := d.changes[:0:0]
	for _, c := range d.changes {
		err := l.repo.CheckConvertible(l.repo.RepoPath(c.Path))
		var se *gitstore.StateError
		switch {
		case err == nil:
			kept = append(kept, c)
		case errors.As(err, &se):
			out = append(out, UnconvertedChange{Path: c.Path, Status: c.Status, Reason: se.State, Hint: se.Fix})
		default:
			return nil, fmt.Errorf("check %s: %w", c.Path, err)
		}
	}
	d.changes = kept
	return out, nil
}

// detectRenames finds the skills a sync's changes renamed outside
// skillrepo (git mv, or a file manager): a skill folder that vanished is
// taken to be a new skill folder of this sync when their SKILL.md is the
// same, or the same once its name field is changed; exactly one such
// folder must match. It returns old name -> new name (folders).
func detectRenames(tx *writeTx, before Hash, changes []FileChange) (map[string]string, error) {
	var added, gone []string // folders of new and of removed SKILL.md files
	for _, c := range changes {
		if path.Base(c.Path) != skill.FileName {
			continue
		}
		switch c.Status {
		case "added":
			added = append(added, path.Dir(c.Path))
		case "deleted":
			gone = append(gone, path.Dir(c.Path))
		}
	}
	if len(added) == 0 || len(gone) == 0 {
		return nil, nil
	}
	renamed := map[string]string{}
	for _, oldDir := range gone {
		name := path.Base(oldDir)
		if _, err := tx.FindSkill(name); err == nil {
			continue // a skill of that name is still there
		}
		oldBlob, _ := tx.gtx.Store().LookupPath(before, oldDir+"/"+skill.FileName)
		if oldBlob.IsZero() {
			continue
		}
		oldMD, err := tx.gtx.Store().Blob(oldBlob)
		if err != nil {
			return nil, err
		}
		match := ""
		for _, dir := range added {
			newMD, err := tx.gtx.ReadFile(dir + "/" + skill.FileName)
			if err != nil {
				continue
			}
			renamedMD, _ := renameFrontmatter(oldMD, name, path.Base(dir))
			if bytes.Equal(newMD, oldMD) || (renamedMD != nil && bytes.Equal(newMD, renamedMD)) {
				if match != "" {
					match = "" // two candidates: do not guess
					break
				}
				match = dir
			}
		}
		if match != "" {
			renamed[name] = path.Base(match)
		}
	}
	return renamed, nil
}

// carryPins keeps the pin of a pinned skill renamed outside skillrepo:
// pins are kept by name, so the pin would otherwise be lost.
func carryPins(tx *writeTx, renamed map[string]string) (map[string]string, error) {
	data, err := tx.gtx.ReadFile(PinsFile)
	if err != nil || len(renamed) == 0 {
		return nil, nil // no pins, or nothing renamed
	}
	pins := parsePins(data)
	carried := map[string]string{}
	for i, name := range pins {
		if to, ok := renamed[name]; ok {
			pins[i] = to
			carried[name] = to
		}
	}
	if len(carried) == 0 {
		return nil, nil
	}
	sort.Strings(pins)
	return carried, tx.gtx.WriteFile(PinsFile, formatPins(pins), false)
}

func syncSubject(skills []string, changes []FileChange) string {
	switch {
	case len(skills) == 1:
		return "sync: record edits to " + skills[0]
	case len(skills) > 1 && len(skills) <= 3:
		return "sync: record edits to " + strings.Join(skills, ", ")
	case len(skills) > 3:
		return fmt.Sprintf("sync: record edits to %d skills", len(skills))
	}
	if len(changes) == 1 {
		return "sync: record 1 changed file"
	}
	return fmt.Sprintf("sync: record %d changed files", len(changes))
}

// inferOrigin decides who wrote edits found in the work tree.
func (l *Library) inferOrigin(tip Hash, skills []string) string {
	if len(skills) == 0 || tip.IsZero() {
		return OriginUser
	}
	c, err := l.repo.CommitObject(tip)
	if err != nil {
		return OriginUser
	}
	since := c.Committer.When
	snap, err := l.Snapshot(tip.String())
	if err != nil {
		return OriginUser
	}
	recs, _, err := l.UsageOf(snap)
	if err != nil {
		return OriginUser
	}
	ours := l.lastOwnWrites(skills, since.Add(-time.Second))
	agent := true
	for _, s := range skills {
		r, ok := recs[s]
		if !ok {
			return OriginUser
		}
		// Only a write is evidence: last_patched_at, or created_at of a
		// record a create made. A view or use of a skill without a record
		// starts one (created_at now, as the reference's seeding does);
		// such a record has counts and no created_by, and says nothing
		// about who edited the files.
		last, _ := usage.ParseTime(r.LastPatchedAt)
		createdByWrite := r.CreatedBy != nil || (r.UseCount == 0 && r.ViewCount == 0)
		if created, ok := usage.ParseTime(r.CreatedAt); ok && createdByWrite && created.After(last) {
			last = created
		}
		if !last.After(since.Add(-time.Second)) {
			return OriginUser
		}
		// Our own writes stamp the same record (a person's skill patch
		// too); one the usage history holds is ours, already committed,
		// and says nothing of who edited since (issue 40 item 11: the
		// person's next hand edit was recorded as foreground, or as the
		// review's for a skill an agent created).
		if t, ok := ours[s]; ok && !last.After(t) {
			return OriginUser
		}
		agent = agent && r.AgentCreated()
	}
	if agent {
		return OriginBackgroundReview
	}
	return OriginForeground
}

// lastOwnWrites is, for each of skills, the time of the last write of
// ours to it the usage history holds (at or after since).
func (l *Library) lastOwnWrites(skills []string, since time.Time) map[string]time.Time {
	want := map[string]bool{}
	for _, s := range skills {
		want[s] = true
	}
	writes := map[string]bool{usage.HistoryCreate: true, usage.HistoryPatch: true, usage.HistoryArchive: true, usage.HistoryRestore: true, usage.HistoryDelete: true}
	evs, err := l.UsageHistory().Read(usage.HistoryFilter{Since: since, Match: func(e usage.HistoryEvent) bool { return writes[e.Kind] && want[e.Skill] }})
	if err != nil {
		return nil
	}
	out := map[string]time.Time{}
	for _, e := range evs {
		if e.Time.After(out[e.Skill]) {
			out[e.Skill] = e.Time
		}
	}
	return out
}
