package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// Skill actions (the reference skill_manage vocabulary plus ours).
const (
	ActionCreate     = "create"
	ActionPatch      = "patch"
	ActionEdit       = "edit"
	ActionDelete     = "delete"
	ActionWriteFile  = "write_file"
	ActionRemoveFile = "remove_file"
	// ActionMoveFile re-homes a support file from one skill into another
	// (the curator's consolidation): one git rename, so history and blame
	// can follow the file into its new skill.
	ActionMoveFile = "move_file"
	ActionArchive  = "archive"
	ActionImport   = "import"
	ActionSync     = "sync"
)

// MaxBatchOps is the most operations one Apply takes.
const MaxBatchOps = 20

// Op is one skill_manage operation, in the reference's JSON shape
// (docs/reference-behaviour.md §4.1). Pointer fields distinguish "absent" from "empty".
type Op struct {
	Action       string  `json:"action"`
	Name         string  `json:"name"`
	Category     string  `json:"category,omitempty"`
	Content      *string `json:"content,omitempty"`
	OldString    *string `json:"old_string,omitempty"`
	NewString    *string `json:"new_string,omitempty"`
	ReplaceAll   bool    `json:"replace_all,omitempty"`
	FilePath     string  `json:"file_path,omitempty"`
	FileContent  *string `json:"file_content,omitempty"`
	AbsorbedInto *string `json:"absorbed_into,omitempty"`
	// ForceNew (create only) creates the skill although it overlaps an
	// existing one; Reason says why, and goes into a Force-New trailer.
	ForceNew bool   `json:"force_new,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// ToSkill and ToPath are where move_file puts FilePath: a support
	// path in another skill (ToPath "" keeps FilePath).
	ToSkill string `json:"to_skill,omitempty"`
	ToPath  string `json:"to_file_path,omitempty"`
}

// Provenance is who wrote a change; it becomes the commit's trailers.
type Provenance struct {
	Origin           string // user, foreground, background-review, curator, import
	ReviewID         string
	SessionID        string
	Model            string
	TranscriptSHA256 string
	CuratorRun       string
	// GoalID names the standing goal the writing session pursued
	// (package goals), so skill log shows what was learned for which goal.
	GoalID string
	// Agent is the client that wrote through the MCP server
	// ("name/version" from its initialize handshake).
	Agent string
	// ToolUseID is the client's id of the tool call that wrote.
	ToolUseID string
}

func (p Provenance) addTrailers(m *Message) {
	origin := p.Origin
	if origin == "" {
		origin = OriginUser
	}
	m.Add(TrailerOrigin, origin)
	m.Add(TrailerReviewID, p.ReviewID)
	m.Add(TrailerSessionID, p.SessionID)
	m.Add(TrailerModel, p.Model)
	m.Add(TrailerTranscriptSHA, p.TranscriptSHA256)
	m.Add(TrailerCuratorRun, p.CuratorRun)
	m.Add(TrailerGoalID, p.GoalID)
	m.Add(TrailerAgent, p.Agent)
	m.Add(TrailerToolUseID, p.ToolUseID)
}

// Autonomous reports whether the origin is an agent acting on its own
// (background review or curator), which may not hard-delete.
func (p Provenance) Autonomous() bool {
	return p.Origin == OriginBackgroundReview || p.Origin == OriginCurator
}

// applyOptions is one atomic batch of skill operations.
type applyOptions struct {
	// Branch to write ("" = main); From creates it when missing (e.g.
	// proposals/<id> from main).
	Branch, From string
	Ops          []Op
	Provenance   Provenance
	DryRun       bool
	// check and verify are the write policy's (policy.go), set only by
	// [Policy.Apply], so no door assembles rules of its own: check runs
	// before each operation with the transaction as it stands (the
	// guards); verify runs on the tree the batch produces, with the
	// folders of the skills it touched, before the ref moves (the lint
	// gate). An error of either refuses the batch. Library.apply without
	// them writes what it is given, validated by the engine only: the
	// domain's own writes (an import, a test's seed), never a door's.
	check  func(tx *writeTx, i int, op Op) error
	verify func(fsys fs.FS, skillDirs []string) error
	// scan runs once the batch is staged, before its commit, on every
	// file the commit writes (the secret guard's batch-wide look).
	scan func(tx *writeTx) error
}

// OpResult is what one operation did.
type OpResult struct {
	Name         string `json:"name"`
	Action       string `json:"action"`
	Path         string `json:"path"`
	FilePath     string `json:"file_path,omitempty"`
	Message      string `json:"message"`
	Replacements int    `json:"replacements,omitempty"`
	Archived     bool   `json:"archived,omitempty"`
	ArchivedTo   string `json:"archived_to,omitempty"`
	// Pruned: a curator archive that names no umbrella (absorbed_into "").
	Pruned bool `json:"pruned,omitempty"`
	// MovedTo is where move_file put the file (a library path).
	MovedTo string `json:"moved_to,omitempty"`
}

// ApplyResult is the outcome of a batch: one commit.
type ApplyResult struct {
	Commit  Hash
	Update  *UpdateResult
	Results []OpResult
}

// OpError is a batch that failed at one operation; nothing was written.
type OpError struct {
	Index           int // 0-based
	Op              Op
	CompletedBefore int
	Err             error
	// Of is how many operations the batch held; a batch of one (every
	// single-skill command) is not numbered.
	Of int
}

func (e *OpError) Error() string {
	if e.Of == 1 {
		return e.Err.Error()
	}
	return fmt.Sprintf("operation %d (%s %s): %v", e.Index+1, e.Op.Action, e.Op.Name, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

// Apply runs a batch of skill operations as one commit: every operation is
// validated and applied in order against the branch as the batch leaves it,
// and the first failure discards the whole batch. Errors: *OpError wrapping
// skill.ErrInvalid, ErrNotFound, ErrExists or ErrRefused; and those of
// Library.update.
func (l *Library) apply(ctx context.Context, opts applyOptions) (*ApplyResult, error) {
	if err := validateBatch(opts.Ops); err != nil {
		return nil, err
	}
	if opts.Provenance.Origin == "" {
		opts.Provenance.Origin = OriginUser
	}
	if !ValidOrigin(opts.Provenance.Origin) {
		return nil, fmt.Errorf("unknown origin %q: use user, foreground, background-review, curator or import", opts.Provenance.Origin)
	}
	var results []OpResult
	var msg Message
	res, err := l.update(ctx, updateOptions{Branch: opts.Branch, From: opts.From, DryRun: opts.DryRun}, func(tx *writeTx) error {
		results = results[:0]
		for i, op := range opts.Ops {
			if opts.check != nil {
				if err := opts.check(tx, i, op); err != nil {
					return &OpError{Index: i, Op: op, CompletedBefore: i, Err: err, Of: len(opts.Ops)}
				}
			}
			r, err := applyOp(tx, op, opts.Provenance)
			if err != nil {
				return &OpError{Index: i, Op: op, CompletedBefore: i, Err: err, Of: len(opts.Ops)}
			}
			results = append(results, r)
		}
		if opts.scan != nil {
			if err := opts.scan(tx); err != nil {
				return err
			}
		}
		msg = batchMessage(opts.Ops, results, opts.Provenance)
		h, err := tx.Commit(msg)
		if errors.Is(err, ErrNoChanges) {
			return fmt.Errorf("the operations change nothing: %w", ErrNoChanges)
		}
		if err != nil || opts.verify == nil {
			return err
		}
		var dirs []string
		seen := map[string]bool{}
		for _, r := range results {
			if r.Path != "" && !r.Archived && !seen[r.Path] {
				seen[r.Path] = true
				dirs = append(dirs, r.Path)
			}
		}
		snap := &Snapshot{l: l, store: tx.gtx.Store(), commit: h, tree: tx.gtx.Tree()}
		return opts.verify(snap.FS(), dirs)
	})
	if err != nil {
		return nil, err
	}
	if !opts.DryRun {
		events := opsUsage(opts.Ops, opts.Provenance)
		l.recordUsage(res, events)
		l.recordHistory(res, events, opts.Provenance)
	}
	out := &ApplyResult{Update: res, Results: results}
	if len(res.Commits) > 0 {
		out.Commit = res.Commits[len(res.Commits)-1]
	}
	return out, nil
}

// validateBatch applies the reference's batch rules (docs/reference-behaviour.md §4.7) before
// anything is read.
func validateBatch(ops []Op) error {
	if len(ops) == 0 {
		return fmt.Errorf("operations must be a non-empty list: %w", skill.ErrInvalid)
	}
	if len(ops) > MaxBatchOps {
		return fmt.Errorf("%d operations in one batch; the limit is %d: %w", len(ops), MaxBatchOps, skill.ErrInvalid)
	}
	created := map[string]int{}
	touched := map[string]bool{}
	for i, op := range ops {
		fail := func(format string, args ...any) error {
			return &OpError{Index: i, Op: op, CompletedBefore: 0, Err: fmt.Errorf(format+": %w", append(args, skill.ErrInvalid)...), Of: len(ops)}
		}
		if op.Action == "" {
			return fail("action is required")
		}
		if op.Name == "" {
			return fail("name is required")
		}
		switch op.Action {
		case ActionCreate, ActionPatch, ActionEdit, ActionWriteFile, ActionRemoveFile, ActionMoveFile:
		case ActionDelete:
			if len(ops) > 1 {
				return fail("delete must be the only operation of its call")
			}
		default:
			return fail("unknown action %q (want create, patch, edit, delete, write_file, remove_file or move_file)", op.Action)
		}
		if op.ForceNew && op.Action != ActionCreate {
			return fail("force_new applies to create only")
		}
		if op.ForceNew && strings.TrimSpace(op.Reason) == "" {
			return fail("force_new needs a reason: say why this is not the existing skill")
		}
		if op.Action == ActionCreate {
			if _, dup := created[op.Name]; dup {
				return fail("skill %q is created twice", op.Name)
			}
			for j := 0; j < i; j++ {
				if ops[j].Name == op.Name {
					return fail("create of %q must come before its other operations", op.Name)
				}
			}
			created[op.Name] = i
		}
		// Clobber guard: a destructive op on a (skill, file) an earlier op
		// already touched. Patch chains are allowed.
		target := op.Name + "\x00" + normalizedTarget(op)
		destructive := op.Action != ActionPatch || (op.Content != nil && op.OldString == nil)
		if destructive && touched[target] {
			return fail("%s would overwrite what an earlier operation wrote to %s", op.Action, normalizedTarget(op))
		}
		touched[target] = true
	}
	return nil
}

func normalizedTarget(op Op) string {
	if op.FilePath == "" || op.Action == ActionCreate || op.Action == ActionEdit {
		return skill.FileName
	}
	p, err := skill.ValidateSupportPath(op.FilePath)
	if err != nil {
		return op.FilePath
	}
	return p
}

func applyOp(tx *writeTx, op Op, prov Provenance) (OpResult, error) {
	r := OpResult{Name: op.Name, Action: op.Action}
	switch op.Action {
	case ActionCreate:
		return r, createSkill(tx, op, &r)
	case ActionEdit:
		if op.Content == nil {
			return r, fmt.Errorf("content is required for edit: %w", skill.ErrInvalid)
		}
		return r, editSkill(tx, op, &r)
	case ActionPatch:
		if op.Content != nil && (op.OldString != nil || op.NewString != nil) {
			return r, fmt.Errorf("pass either content (a full rewrite) or old_string/new_string (a patch), not both: %w", skill.ErrInvalid)
		}
		// content alone is no patch: a patch needs the text it replaces
		// (docs/reference-behaviour.md §4.1); action edit rewrites.
		return r, patchSkill(tx, op, &r)
	case ActionDelete:
		return r, deleteSkill(tx, op, prov, &r)
	case ActionWriteFile:
		return r, writeFile(tx, op, &r)
	case ActionRemoveFile:
		return r, removeFile(tx, op, &r)
	case ActionMoveFile:
		return r, moveFile(tx, op, &r)
	}
	return r, fmt.Errorf("unknown action %q: %w", op.Action, skill.ErrInvalid)
}

func createSkill(tx *writeTx, op Op, r *OpResult) error {
	if err := skill.ValidateName(op.Name); err != nil {
		return err
	}
	if err := skill.ValidateCategory(op.Category); err != nil {
		return err
	}
	if op.Content == nil {
		return fmt.Errorf("content is required for create: %w", skill.ErrInvalid)
	}
	if _, err := skill.Validate([]byte(*op.Content), tx.l.Rules().ValidateOptions(true)); err != nil {
		return err
	}
	if si, err := tx.FindSkill(op.Name); err == nil {
		return fmt.Errorf("a skill named %q already exists at %s: %w", op.Name, si.Dir, ErrExists)
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	dir := path.Join(op.Category, op.Name)
	if tx.gtx.IsDir(dir) {
		return fmt.Errorf("folder %s already holds files: %w", dir, ErrExists)
	}
	if err := tx.gtx.WriteFile(dir+"/"+skill.FileName, []byte(*op.Content), false); err != nil {
		return err
	}
	r.Path = dir
	r.Message = fmt.Sprintf("Skill '%s' created.", op.Name)
	return nil
}

func editSkill(tx *writeTx, op Op, r *OpResult) error {
	si, err := tx.FindSkill(op.Name)
	if err != nil {
		return err
	}
	if err := refuseArchived(si); err != nil {
		return err
	}
	opts := tx.l.Rules().ValidateOptions(false)
	if opts.Before, err = tx.gtx.ReadFile(si.Dir + "/" + skill.FileName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, err := skill.Validate([]byte(*op.Content), opts); err != nil {
		return err
	}
	if err := tx.gtx.WriteFile(si.Dir+"/"+skill.FileName, []byte(*op.Content), false); err != nil {
		return err
	}
	r.Path = si.Dir
	r.Message = fmt.Sprintf("Skill '%s' updated (full rewrite).", op.Name)
	return nil
}

func refuseArchived(si SkillInfo) error {
	if si.Archived {
		return fmt.Errorf("skill %q is archived (%s); restore it first with 'skillrepo skill restore %s': %w", si.Name, si.Dir, si.Name, ErrNotFound)
	}
	return nil
}

func patchSkill(tx *writeTx, op Op, r *OpResult) error {
	if op.OldString == nil || *op.OldString == "" {
		return fmt.Errorf("old_string is required: view the file first and pass the exact text to replace (do not fall back to write_file): %w", skill.ErrInvalid)
	}
	if op.NewString == nil {
		return fmt.Errorf("new_string is required (an empty string deletes the match): %w", skill.ErrInvalid)
	}
	si, err := tx.FindSkill(op.Name)
	if err != nil {
		return err
	}
	if err := refuseArchived(si); err != nil {
		return err
	}
	rel := skill.FileName
	if op.FilePath != "" {
		if rel, err = tx.l.Rules().ValidateSupportPath(op.FilePath); err != nil {
			return err
		}
	}
	target := si.Dir + "/" + rel
	if err := checkNoSymlink(tx, si.Dir, rel); err != nil {
		return err
	}
	old, err := tx.gtx.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file not found: %s: %w", target, ErrNotFound)
	}
	if err != nil {
		return err
	}
	updated, n, _, err := skill.Replace(string(old), *op.OldString, *op.NewString, op.ReplaceAll)
	if err != nil {
		preview := string(old)
		if len(preview) > 500 {
			preview = preview[:500]
			for !utf8.ValidString(preview) {
				preview = preview[:len(preview)-1]
			}
		}
		return fmt.Errorf("%s: %w", target, &PatchError{Err: err, Preview: preview})
	}
	if rel == skill.FileName {
		if _, err := skill.Validate([]byte(updated), skill.ValidateOptions{Before: old}); err != nil {
			return fmt.Errorf("patch would break SKILL.md structure: %w", err)
		}
	} else if err := skill.ValidateFileContent([]byte(updated)); err != nil {
		return err
	}
	if err := tx.gtx.WriteFile(target, []byte(updated), isExecutable(tx, target)); err != nil {
		return err
	}
	r.Path = si.Dir
	if rel != skill.FileName {
		r.FilePath = rel
	}
	r.Replacements = n
	plural := "replacement"
	if n != 1 {
		plural += "s"
	}
	r.Message = fmt.Sprintf("Patched %s in skill '%s' (%d %s).", rel, op.Name, n, plural)
	return nil
}

// PatchError is a patch whose old_string did not match (uniquely); Preview
// is the start of the file, so a model can correct itself.
type PatchError struct {
	Err     error
	Preview string
}

func (e *PatchError) Error() string { return e.Err.Error() }
func (e *PatchError) Unwrap() error { return e.Err }

func isExecutable(tx *writeTx, p string) bool {
	_, m, ok := tx.gtx.Stat(p)
	return ok && m == 0o100755
}

// checkNoSymlink refuses a path inside a skill that goes through a symlink
// in the tree (which could point outside the skill).
func checkNoSymlink(tx *writeTx, dir, rel string) error {
	parts := strings.Split(rel, "/")
	cur := dir
	for _, p := range parts {
		cur += "/" + p
		if _, m, ok := tx.gtx.Stat(cur); ok && m == 0o120000 {
			return fmt.Errorf("path escapes the skill through the symlink %s: %w", cur, skill.ErrInvalid)
		}
	}
	return nil
}

func deleteSkill(tx *writeTx, op Op, prov Provenance, r *OpResult) error {
	si, err := tx.FindSkill(op.Name)
	if err != nil {
		return err
	}
	if err := refuseArchived(si); err != nil {
		return err
	}
	if err := refusePinned(tx, si); err != nil { // pins.go
		return err
	}
	absorbed := ""
	if op.AbsorbedInto != nil {
		absorbed = strings.TrimSpace(*op.AbsorbedInto)
	}
	// The curator may prune: absorbed_into given and empty says, on the
	// record, that nothing absorbed the skill (docs/reference-behaviour.md
	// §6.6). A review may not, and an undeclared delete is never one.
	prune := prov.Origin == OriginCurator && op.AbsorbedInto != nil && absorbed == ""
	if prov.Autonomous() && absorbed == "" && !prune {
		return refusedf("a %s may only archive a skill it has absorbed into an umbrella: pass absorbed_into naming the skill that now holds %q's content; keeping %q active", prov.Origin, op.Name, op.Name)
	}
	if absorbed != "" {
		if absorbed == op.Name {
			return fmt.Errorf("absorbed_into must name another skill, not %q itself: %w", op.Name, skill.ErrInvalid)
		}
		if _, err := tx.findUmbrella(absorbed); err != nil {
			return fmt.Errorf("absorbed_into skill %q does not exist (name it by its folder, not by the name its frontmatter gives it); create or patch the umbrella skill first: %w", absorbed, ErrNotFound)
		}
	}
	r.Path = si.Dir
	if prov.Autonomous() {
		to, err := archiveSkill(tx, si)
		if err != nil {
			return err
		}
		r.Archived, r.ArchivedTo = true, to
		r.Message = fmt.Sprintf("Skill '%s' archived (archived to %s). Content absorbed into '%s'.", op.Name, to, absorbed)
		if prune {
			r.Pruned = true
			r.Message = fmt.Sprintf("Skill '%s' archived (archived to %s). Pruned: no other skill absorbed it.", op.Name, to)
		}
		return nil
	}
	if err := tx.gtx.RemoveAll(si.Dir); err != nil {
		return err
	}
	r.Message = fmt.Sprintf("Skill '%s' deleted.", op.Name)
	if absorbed != "" {
		r.Message += fmt.Sprintf(" Content absorbed into '%s'.", absorbed)
	}
	return nil
}

// archiveSkill stages moving a skill to .archive/<name>/ (with a
// -YYYYMMDDHHMMSS suffix when that is taken) and returns the new folder.
func archiveSkill(tx *writeTx, si SkillInfo) (string, error) {
	if si.Archived {
		return "", fmt.Errorf("skill %q is already archived at %s: %w", si.Name, si.Dir, ErrExists)
	}
	to := ArchiveDir + "/" + si.Name
	if tx.gtx.IsDir(to) {
		to += "-" + tx.l.repo.Now().UTC().Format("20060102150405")
	}
	if tx.gtx.IsDir(to) {
		return "", fmt.Errorf("archive folder %s is taken: %w", to, ErrExists)
	}
	return to, tx.gtx.Move(si.Dir, to)
}

func writeFile(tx *writeTx, op Op, r *OpResult) error {
	rel, err := tx.l.Rules().ValidateSupportPath(op.FilePath)
	if err != nil {
		return err
	}
	if op.FileContent == nil {
		return fmt.Errorf("file_content is required (an empty string is allowed): %w", skill.ErrInvalid)
	}
	content := []byte(*op.FileContent)
	if err := skill.ValidateFileContent(content); err != nil {
		return err
	}
	si, err := tx.FindSkill(op.Name)
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("skill %q not found; create it first with action=create: %w", op.Name, ErrNotFound)
	}
	if err != nil {
		return err
	}
	if err := refuseArchived(si); err != nil {
		return err
	}
	if rel == skill.FileName {
		before, err := tx.gtx.ReadFile(si.Dir + "/" + skill.FileName)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if _, err := skill.Validate(content, skill.ValidateOptions{Before: before}); err != nil {
			return err
		}
	}
	if err := checkNoSymlink(tx, si.Dir, rel); err != nil {
		return err
	}
	target := si.Dir + "/" + rel
	if tx.gtx.IsDir(target) {
		return fmt.Errorf("%s is a folder: %w", target, skill.ErrInvalid)
	}
	if err := tx.gtx.WriteFile(target, content, isExecutable(tx, target) || strings.HasPrefix(rel, "scripts/") && strings.HasPrefix(string(content), "#!")); err != nil {
		return err
	}
	r.Path, r.FilePath = si.Dir, rel
	r.Message = fmt.Sprintf("File '%s' written to skill '%s'.", rel, op.Name)
	return nil
}

func removeFile(tx *writeTx, op Op, r *OpResult) error {
	rel, err := tx.l.Rules().ValidateSupportPath(op.FilePath)
	if err != nil {
		return err
	}
	if rel == skill.FileName {
		return fmt.Errorf("SKILL.md cannot be removed; delete the skill instead: %w", skill.ErrInvalid)
	}
	si, err := tx.FindSkill(op.Name)
	if err != nil {
		return err
	}
	if err := refuseArchived(si); err != nil {
		return err
	}
	target := si.Dir + "/" + rel
	if !tx.gtx.Exists(target) {
		var avail []string
		for _, d := range skill.SupportDirs {
			files, _ := tx.gtx.List(si.Dir + "/" + d)
			for _, f := range files {
				avail = append(avail, strings.TrimPrefix(f, si.Dir+"/"))
			}
		}
		list := "none"
		if len(avail) > 0 {
			list = strings.Join(avail, ", ")
		}
		return fmt.Errorf("file not found: %s (available files: %s): %w", rel, list, ErrNotFound)
	}
	if err := tx.gtx.Remove(target); err != nil {
		return err
	}
	r.Path, r.FilePath = si.Dir, rel
	r.Message = fmt.Sprintf("File '%s' removed from skill '%s'.", rel, op.Name)
	return nil
}

// moveFile re-homes one support file (or a support folder) of skill
// op.Name to op.ToPath (default: the same path) in skill op.ToSkill, as a
// rename: the blob and mode are kept, so git sees the file move. The
// destination must be free; neither skill may be archived.
func moveFile(tx *writeTx, op Op, r *OpResult) error {
	rel, err := skill.ValidateSupportPath(op.FilePath)
	if err != nil {
		return err
	}
	if rel == skill.FileName {
		return fmt.Errorf("SKILL.md cannot be moved; patch the umbrella with its content instead: %w", skill.ErrInvalid)
	}
	if op.ToSkill == "" {
		return fmt.Errorf("to_skill is required: the skill that receives %s: %w", rel, skill.ErrInvalid)
	}
	toRel := rel
	if op.ToPath != "" {
		if toRel, err = skill.ValidateSupportPath(op.ToPath); err != nil {
			return err
		}
		if toRel == skill.FileName {
			return fmt.Errorf("a moved file cannot become SKILL.md: %w", skill.ErrInvalid)
		}
	}
	src, err := tx.FindSkill(op.Name)
	if err != nil {
		return err
	}
	if err := refuseArchived(src); err != nil {
		return err
	}
	dst, err := tx.FindSkill(op.ToSkill)
	if err != nil {
		return fmt.Errorf("to_skill %q: %w", op.ToSkill, err)
	}
	if err := refuseArchived(dst); err != nil {
		return err
	}
	if src.Dir == dst.Dir && rel == toRel {
		return fmt.Errorf("%s/%s would move onto itself: %w", src.Dir, rel, skill.ErrInvalid)
	}
	if err := checkNoSymlink(tx, src.Dir, rel); err != nil {
		return err
	}
	if err := checkNoSymlink(tx, dst.Dir, toRel); err != nil {
		return err
	}
	from, to := src.Dir+"/"+rel, dst.Dir+"/"+toRel
	if tx.gtx.Exists(to) || tx.gtx.IsDir(to) {
		return fmt.Errorf("%s already exists in skill '%s'; choose another to_file_path: %w", toRel, dst.Name, ErrExists)
	}
	if h, m, ok := tx.gtx.Stat(from); ok {
		tx.gtx.Stage(to, gitstore.Change{Hash: h, Mode: m})
		tx.gtx.Stage(from, gitstore.Change{Delete: true})
	} else if err := tx.gtx.Move(from, to); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file not found: %s in skill '%s': %w", rel, src.Name, ErrNotFound)
	} else if err != nil {
		return err
	}
	r.Path, r.FilePath, r.MovedTo = dst.Dir, rel, to
	r.Message = fmt.Sprintf("Moved %s from skill '%s' to %s in skill '%s'.", rel, src.Name, toRel, dst.Name)
	return nil
}

// batchMessage is the commit message of a batch: "skill: <action> <name>"
// for one operation, a summary for several; the trailers name every skill.
func batchMessage(ops []Op, results []OpResult, prov Provenance) Message {
	action := ops[0].Action
	if len(results) > 0 {
		action = results[0].Action
	}
	names := []string{}
	seen := map[string]bool{}
	for i, op := range ops {
		a := op.Action
		if i < len(results) {
			a = results[i].Action
		}
		if a != action {
			action = "batch"
		}
		for _, n := range []string{op.Name, op.ToSkill} {
			if n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if action == ActionDelete && len(results) == 1 && results[0].Archived {
		action = ActionArchive
	}
	var m Message
	switch {
	case len(ops) == 1 && action == ActionMoveFile && len(results) == 1:
		m.Subject = fmt.Sprintf("skill: move %s/%s to %s", ops[0].Name, results[0].FilePath, results[0].MovedTo)
	case len(ops) == 1 && ops[0].FilePath != "" && action != ActionEdit:
		m.Subject = fmt.Sprintf("skill: %s %s %s", action, ops[0].Name, normalizedTarget(ops[0]))
	case len(ops) == 1:
		m.Subject = fmt.Sprintf("skill: %s %s", action, ops[0].Name)
	default:
		m.Subject = fmt.Sprintf("skill: %s of %d operations on %s", action, len(ops), strings.Join(names, ", "))
	}
	var body []string
	if len(ops) > 1 {
		for _, r := range results {
			body = append(body, "- "+r.Message)
		}
	}
	m.Body = strings.Join(body, "\n")
	m.Add(TrailerAction, action)
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, n := range sorted {
		m.Add(TrailerName, n)
	}
	prov.addTrailers(&m)
	for _, op := range ops {
		if op.AbsorbedInto != nil {
			m.Add(TrailerAbsorbedInto, *op.AbsorbedInto)
		}
	}
	for _, op := range ops {
		if op.ForceNew {
			m.Add(TrailerForceNew, trailer.OneLine(op.Reason))
		}
	}
	for _, r := range results {
		if r.Pruned {
			m.Add(TrailerReason, "pruned: absorbed into no other skill")
		}
	}
	for _, r := range results {
		if r.Archived {
			m.Add(TrailerFrom, r.Path)
		}
	}
	return m
}
