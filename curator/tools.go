package curator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Tool names of phase 2.
const (
	toolSkillsList    = "skills_list"
	toolSkillView     = "skill_view"
	toolSkillManage   = "skill_manage"
	toolSkillMoveFile = "skill_move_file"
)

// dryRunAnswer is what every write tool says in a dry run.
const dryRunAnswer = "dry run: not written"

// passTools runs the model's tool calls of one consolidation pass.
// skills_list, skill_view and skill_manage are package agenttools' (the
// review's tools, guards and messages, under the Autonomous policy with
// the label "curator"); skill_move_file is the curator's own. Every guard
// is code, and every refusal is a tool result the model reads, never an
// error of the pass. On top of agenttools' guards (curator-managed only,
// pinned refused, read before write, delete names an existing umbrella
// and archives, secrets, batches):
//   - only candidates are written: not named by a scheduled job, not
//     archived by phase 1 of this run; skills the pass created are its
//     own;
//   - a skill is read (skill_view) before it is archived or a file is
//     moved out of it;
//   - delete with absorbed_into "" is a true prune: it archives too;
//   - package integrity: the tree a write would leave is linted (the
//     skills it touched: a dangling link or path is refused), and an
//     archive is refused while a skill this pass wrote, or the umbrella,
//     still names a file in the archived skill's folder; the refusal
//     names what is left behind;
//   - in a dry run every write answers "dry run: not written" and is
//     recorded; nothing reaches the library. A write that depends on a
//     skill the dry run only pretended to create is recorded unchecked.
type passTools struct {
	ctx    context.Context
	lib    *skillrepo.Library
	runID  string
	model  string
	branch string // curator/<run-id>
	base   string // the commit the branch forks from
	made   bool   // the branch exists (phase 1 or an earlier write made it)
	dryRun bool

	writable    map[string]bool   // candidates the pass may change
	managed     map[string]bool   // every curator-managed skill (candidates)
	pinned      map[string]bool   // pinned candidates
	untouchable map[string]string // name → why not (pinned, scheduled …)
	reads       map[string]bool   // library paths read in this pass (shared with agenttools)
	dryCreated  map[string]bool   // skills a dry run "created"

	tb *agenttools.Toolbox

	calls   []ToolCall
	commits []string
	touched map[string]bool  // folders changed by phase 2
	wrote   map[string]bool  // skills changed by phase 2 (by name)
	moved   map[string]Moved // skills archived by phase 2: from → to
	last    *skillrepo.ApplyResult
	// leftBehind are the last write's warnings: links a move left in its
	// source skill.
	leftBehind []string

	snap *skillrepo.Snapshot // cached view of rev()
}

// toolbox is agenttools' toolbox over the run branch as it stands; it is
// made again after each write of the curator's own, so its cached view is
// never stale (the read-before-write memory is shared).
func (t *passTools) toolbox() *agenttools.Toolbox {
	if t.tb == nil {
		t.tb = agenttools.New(passLibrary{Library: agenttools.Open(t.lib), t: t}, agenttools.Options{
			Tools:      []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage},
			Provenance: t.provenance(),
			Base:       t.base, Branch: t.branch, BranchExists: t.made,
			DryRun: t.dryRun, Reads: t.reads,
			AllowOverlap: true,
		})
	}
	return t.tb
}

func (t *passTools) provenance() skillrepo.Provenance {
	return skillrepo.Provenance{Origin: skillrepo.OriginCurator, CuratorRun: t.runID, Model: t.model}
}

// passLibrary is agenttools' adapter with the curator's two differences:
// ownership is what the curator decided for this run (its Ownership
// interface; a skill the pass created is its own by history), and every
// write goes through the package-integrity check.
type passLibrary struct {
	agenttools.Library
	t *passTools
}

func (p passLibrary) Ownership(ctx context.Context, rev, name string) (agenttools.Ownership, error) {
	if own, ok := p.t.decided(name); ok {
		return agenttools.Ownership{Managed: own.Managed, Pinned: own.Pinned}, nil
	}
	return p.Library.Ownership(ctx, rev, name)
}

// decided is a candidate's ownership as the run decided it (the write
// policy's Owners): a skill the pass created is its own by history.
func (t *passTools) decided(name string) (skillrepo.ReviewOwner, bool) {
	if t.managed[name] || t.pinned[name] {
		return skillrepo.ReviewOwner{Managed: t.managed[name], Pinned: t.pinned[name]}, true
	}
	return skillrepo.ReviewOwner{}, false
}

// Apply writes on the pass's branch: the curator has no stage, so its
// writes are never staged.
func (p passLibrary) Apply(ctx context.Context, target agenttools.Target, ops []skillrepo.Op) (agenttools.Applied, error) {
	commit, err := p.t.write(ctx, target.DryRun, ops)
	return agenttools.Applied{Commit: commit}, err
}

func (t *passTools) rev() string {
	if t.made {
		return t.branch
	}
	return t.base
}

func (t *passTools) view() (*skillrepo.Snapshot, error) {
	if t.snap != nil {
		return t.snap, nil
	}
	s, err := t.lib.Snapshot(t.rev())
	if err != nil {
		return nil, err
	}
	t.snap = s
	return s, nil
}

// activeSkills lists the skills of the current view outside .archive/.
func (t *passTools) activeSkills() ([]skillrepo.SkillInfo, error) {
	s, err := t.view()
	if err != nil {
		return nil, err
	}
	all, err := s.Skills()
	if err != nil {
		return nil, err
	}
	out := all[:0:0]
	for _, si := range all {
		if !si.Archived {
			out = append(out, si)
		}
	}
	return out, nil
}

func (t *passTools) find(name string) (skillrepo.SkillInfo, bool) {
	skills, err := t.activeSkills()
	if err != nil {
		return skillrepo.SkillInfo{}, false
	}
	name = strings.Trim(strings.TrimSpace(name), "/")
	for _, si := range skills {
		if si.Name == name || si.Dir == name {
			return si, true
		}
	}
	return skillrepo.SkillInfo{}, false
}

type result map[string]any

func fail(msg string) result { return result{"success": false, "error": msg} }

// definitions are the tools offered, in the OpenAI function shape:
// agenttools' words for its three, ours for skill_move_file.
func (t *passTools) definitions() ([]openai.Tool, error) {
	defs, err := agenttools.Definitions([]string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage})
	if err != nil {
		return nil, err
	}
	var out []openai.Tool
	for _, d := range defs {
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: d.Name, Description: d.Description, Parameters: d.Parameters}})
	}
	out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name:        toolSkillMoveFile,
		Description: "Move a support file (or folder) from one skill into another, e.g. a sibling's references/retry.md into the umbrella as references/retry.md, as a git rename that keeps its history. View the source skill first; rewrite the links to the file afterwards.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the skill the file is in"},"file_path":{"type":"string"},"to_skill":{"type":"string"},"to_file_path":{"type":"string","description":"default: the same path"}},"required":["name","file_path","to_skill"]}`),
	}})
	return out, nil
}

// dispatch runs one tool call and returns its result text; it never
// fails, and records the call in the audit.
func (t *passTools) dispatch(call openai.ToolCall) string {
	args := strings.TrimSpace(call.Function.Arguments)
	if args == "" {
		args = "{}"
	}
	rec := ToolCall{Name: call.Function.Name, Arguments: clip(args, 400)}
	var text string
	switch call.Function.Name {
	case toolSkillManage:
		text = t.skillManage(args, &rec)
	case toolSkillMoveFile:
		text = t.encode(t.moveFile([]byte(args), &rec), &rec)
	default:
		r := t.toolbox().Call(t.ctx, call.Function.Name, args)
		text = t.record(r, &rec)
	}
	t.calls = append(t.calls, rec)
	return text
}

// record fills the audit from an agenttools result.
func (t *passTools) record(r agenttools.Result, rec *ToolCall) string {
	rec.OK = r.OK
	var fields struct {
		Message string `json:"message"`
		Error   string `json:"error"`
		Commit  string `json:"commit"`
	}
	_ = json.Unmarshal([]byte(r.Text), &fields)
	rec.Result, rec.Commit = fields.Message, fields.Commit
	if !r.OK {
		rec.Result = fields.Error
	}
	for _, ch := range r.Changes {
		if ch.DryRun {
			rec.DryRun = true
		}
	}
	return r.Text
}

// encode renders a result of the curator's own and fills the audit.
func (t *passTools) encode(res result, rec *ToolCall) string {
	rec.OK, _ = res["success"].(bool)
	if d, _ := res["dry_run"].(bool); d {
		rec.DryRun = true
	}
	if rec.OK {
		rec.Result, _ = res["message"].(string)
	} else {
		rec.Result, _ = res["error"].(string)
	}
	rec.Commit, _ = res["commit"].(string)
	data, err := json.Marshal(res)
	if err != nil {
		return `{"success":false,"error":"encode tool result"}`
	}
	return string(data)
}

// filesOf lists a skill's support files (paths inside the skill).
func filesOf(fsys fs.FS, dir string) []string {
	out := []string{}
	for _, sub := range skill.SupportDirs {
		fs.WalkDir(fsys, path.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, strings.TrimPrefix(p, dir+"/"))
			}
			return nil
		})
	}
	return out
}

// mayWrite says why the pass may not change skill name ("" = it may).
func (t *passTools) mayWrite(name string) string {
	if why := t.untouchable[name]; why != "" {
		return why
	}
	if t.writable[name] || t.dryCreated[name] {
		return ""
	}
	return "it is not a candidate of this pass (not curator-managed: it belongs to the user; `skillrepo skill adopt " + name + "` hands it to the curator)"
}

func (t *passTools) refuse(action, name, why string) result {
	r := fail(fmt.Sprintf("Refusing curator %s for '%s': %s.", action, name, why))
	r["guard"] = true
	return r
}

// manageArgs is skill_manage's arguments: a list, or one flat operation.
type manageArgs struct {
	Operations *[]skillrepo.Op `json:"operations"`
	skillrepo.Op
}

// skillManage runs the curator's guards, then agenttools' skill_manage;
// a prune (delete with absorbed_into "", which agenttools refuses to an
// autonomous caller) and a dry-run write that depends on a skill the dry
// run only pretended to create are handled here.
func (t *passTools) skillManage(args string, rec *ToolCall) string {
	var a manageArgs
	if err := json.Unmarshal([]byte(args), &a); err == nil {
		ops := []skillrepo.Op{a.Op}
		if a.Operations != nil {
			ops = *a.Operations
		}
		for i := range ops {
			ops[i].Action, ops[i].Name = strings.TrimSpace(ops[i].Action), strings.TrimSpace(ops[i].Name)
		}
		rec.Ops = ops
		if res := t.curatorGuards(ops); res != nil {
			return t.encode(res, rec)
		}
		if len(ops) == 1 && ops[0].Action == skillrepo.ActionDelete && ops[0].AbsorbedInto != nil && strings.TrimSpace(*ops[0].AbsorbedInto) == "" {
			return t.encode(t.prune(ops[0]), rec)
		}
		if t.dryRun && t.dependsOnDryCreate(ops) {
			return t.encode(result{"success": true, "dry_run": true, "message": dryRunAnswer + " (recorded as what this pass would do; it builds on a skill the dry run did not create)"}, rec)
		}
	}
	text := t.record(t.toolbox().Call(t.ctx, toolSkillManage, args), rec)
	if rec.OK && t.dryRun {
		for _, op := range rec.Ops {
			if op.Action == skillrepo.ActionCreate {
				t.dryCreated[op.Name] = true
			}
		}
	}
	return text
}

// curatorGuards are the checks agenttools does not make: untouchable
// candidates (scheduled, archived by phase 1), and a read of the skill
// before it is archived.
func (t *passTools) curatorGuards(ops []skillrepo.Op) result {
	created := map[string]bool{}
	for i, op := range ops {
		if op.Action == skillrepo.ActionCreate {
			created[op.Name] = true
			continue
		}
		if created[op.Name] || t.dryCreated[op.Name] {
			continue
		}
		si, ok := t.find(op.Name)
		if !ok {
			continue // agenttools says it is not found, in its words
		}
		if why := t.untouchable[si.Name]; why != "" && !t.pinned[si.Name] {
			r := t.refuse(op.Action, si.Name, why)
			if len(ops) > 1 {
				r["failed_index"] = i
			}
			return r
		}
		if op.Action == skillrepo.ActionDelete && !t.pinned[si.Name] && t.mayWrite(si.Name) == "" && !t.reads[si.Dir+"/"+skill.FileName] {
			r := t.refuse("delete", si.Name, fmt.Sprintf("it has not been read in this pass; view it (skill_view(name='%s')) and its files before archiving it, then retry once", si.Name))
			r["read_before_write_required"] = true
			return r
		}
	}
	return nil
}

// dependsOnDryCreate reports whether ops name a skill the dry run only
// pretended to create.
func (t *passTools) dependsOnDryCreate(ops []skillrepo.Op) bool {
	for _, op := range ops {
		if t.dryCreated[op.Name] || t.dryCreated[op.ToSkill] || op.AbsorbedInto != nil && t.dryCreated[strings.TrimSpace(*op.AbsorbedInto)] {
			return true
		}
	}
	return false
}

// prune archives a skill no umbrella absorbed (delete with absorbed_into
// ""): the curator's vocabulary, which agenttools refuses to a review.
func (t *passTools) prune(op skillrepo.Op) result {
	if r := t.guardExisting(skillrepo.ActionDelete, op); r != nil {
		return r
	}
	if t.dryRun {
		return result{"success": true, "dry_run": true, "message": dryRunAnswer + " (recorded as what this pass would do)"}
	}
	commit, err := t.write(t.ctx, false, []skillrepo.Op{op})
	if err != nil {
		return t.writeFailure(err)
	}
	t.tb = nil
	return result{"success": true, "commit": commit, "message": t.lastMessage()}
}

// guardExisting checks a write to a skill that existed before the call:
// it exists, the pass may change it, the file was read, and a delete
// says absorbed_into.
func (t *passTools) guardExisting(action string, op skillrepo.Op) result {
	if t.dryRun && t.dryCreated[op.Name] {
		return nil
	}
	si, ok := t.find(op.Name)
	if !ok {
		return fail(fmt.Sprintf("Skill '%s' not found. Use skills_list, or create it first with action 'create'.", op.Name))
	}
	if why := t.mayWrite(si.Name); why != "" {
		return t.refuse(action, si.Name, why)
	}
	target := si.Dir + "/" + skill.FileName
	// A move changes no file's content: the skill's SKILL.md (its links)
	// is what must have been read.
	if op.FilePath != "" && action != skillrepo.ActionEdit && action != skillrepo.ActionDelete && action != "move" {
		rel, err := skill.ValidateSupportPath(op.FilePath)
		if err != nil {
			return fail(err.Error())
		}
		target = si.Dir + "/" + rel
	}
	if action == skillrepo.ActionDelete {
		if op.AbsorbedInto == nil {
			return t.refuse(action, si.Name, fmt.Sprintf("delete must say absorbed_into: the umbrella that now holds its content, or \"\" for a true prune. Keeping '%s' active", si.Name))
		}
		into := strings.TrimSpace(*op.AbsorbedInto)
		if into == si.Name {
			return t.refuse(action, si.Name, "absorbed_into must name another skill")
		}
		if into != "" {
			if _, ok := t.find(into); !ok && !t.dryCreated[into] {
				return t.refuse(action, si.Name, fmt.Sprintf("absorbed_into '%s' does not exist. Create or patch the umbrella first", into))
			}
		}
	}
	s, err := t.view()
	if err != nil {
		return fail(err.Error())
	}
	if _, err := fs.Stat(s.FS(), target); err == nil && !t.reads[target] && action != skillrepo.ActionWriteFile {
		r := t.refuse(action, si.Name, fmt.Sprintf("%s has not been read in this pass. Call skill_view(name='%s'%s) first, then retry once", strings.TrimPrefix(target, si.Dir+"/"), si.Name, filePathArg(si.Dir, target)))
		r["read_before_write_required"] = true
		return r
	}
	return nil
}

func filePathArg(dir, target string) string {
	rel := strings.TrimPrefix(target, dir+"/")
	if rel == skill.FileName {
		return ""
	}
	return fmt.Sprintf(", file_path='%s'", rel)
}

func (t *passTools) moveFile(data []byte, rec *ToolCall) result {
	var op skillrepo.Op
	if err := json.Unmarshal(data, &op); err != nil {
		return fail("skill_move_file: invalid arguments: " + err.Error())
	}
	op.Action = skillrepo.ActionMoveFile
	op.Name, op.ToSkill = strings.TrimSpace(op.Name), strings.TrimSpace(op.ToSkill)
	if op.ToSkill == "" || op.FilePath == "" {
		return fail("skill_move_file needs name, file_path and to_skill")
	}
	if r := t.guardExisting("move", op); r != nil {
		return r
	}
	if !t.dryCreated[op.ToSkill] {
		dst, ok := t.find(op.ToSkill)
		if !ok {
			return fail(fmt.Sprintf("to_skill '%s' not found; create the umbrella first", op.ToSkill))
		}
		if why := t.mayWrite(dst.Name); why != "" {
			return t.refuse("move", dst.Name, why)
		}
	}
	rec.Ops = []skillrepo.Op{op}
	if t.dryRun {
		return result{"success": true, "dry_run": true, "message": dryRunAnswer + " (recorded as what this pass would do)"}
	}
	commit, err := t.write(t.ctx, false, []skillrepo.Op{op})
	if err != nil {
		return t.writeFailure(err)
	}
	t.tb = nil
	out := result{"success": true, "commit": commit, "message": t.lastMessage()}
	if len(t.leftBehind) > 0 {
		out["left_behind"] = t.leftBehind
		out["hint"] = "the skill the file left still points at it: archive that skill into the umbrella (delete with absorbed_into) or patch its links"
	}
	return out
}

func (t *passTools) lastMessage() string {
	var msgs []string
	if t.last != nil {
		for _, r := range t.last.Results {
			msgs = append(msgs, r.Message)
		}
	}
	return strings.Join(msgs, " ")
}

func (t *passTools) writeFailure(err error) result {
	r := fail(err.Error())
	var pe *skillrepo.PatchError
	if errors.As(err, &pe) {
		r["file_preview"] = pe.Preview
	}
	var ie *integrityError
	if errors.As(err, &ie) {
		r["left_behind"] = ie.problems
		r["guard"] = true
	}
	return r
}

// write is every write of the pass, agenttools' and the curator's own:
// one commit on the run branch with the curator's provenance, refused
// when it would break a package. A dry run validates and writes nothing.
// It keeps the pass's books: the branch exists, what was touched, what
// was archived where.
func (t *passTools) write(ctx context.Context, dryRun bool, ops []skillrepo.Op) (string, error) {
	t.leftBehind = nil
	// A move's source is changed too; find it before the write.
	var sources []string
	for _, op := range ops {
		if op.Action == skillrepo.ActionMoveFile {
			if si, ok := t.find(op.Name); ok {
				sources = append(sources, si.Dir)
			}
		}
	}
	var pol *skillrepo.Policy
	pol, err := t.lib.Policy(skillrepo.Writer{
		Provenance: t.provenance(), Branch: t.branch, From: t.base,
		Read: func(p string) bool { return t.reads[p] }, Owners: t.decided, AllowOverlap: true,
		Integrity: func(fsys fs.FS, dirs []string) error {
			var err error
			t.leftBehind, err = t.integrity(pol, fsys, ops)
			return err
		},
	})
	if err != nil {
		return "", err
	}
	pres, err := pol.Apply(ctx, ops, dryRun)
	if err != nil {
		return "", err
	}
	res := pres.ApplyResult
	if dryRun {
		return "", nil
	}
	t.last = res
	t.made, t.snap = true, nil
	commit := res.Commit.String()
	t.commits = append(t.commits, commit)
	for i, r := range res.Results {
		op := ops[i]
		switch {
		case op.Action == skillrepo.ActionMoveFile:
			t.wrote[op.ToSkill] = true
		case op.Action != skillrepo.ActionDelete:
			t.wrote[op.Name] = true
		}
		if op.Action == skillrepo.ActionCreate {
			t.writable[op.Name], t.managed[op.Name] = true, true
		}
		if r.Path != "" {
			t.touched[r.Path] = true
		}
		if r.ArchivedTo != "" {
			t.moved[op.Name] = Moved{Name: op.Name, From: r.Path, To: r.ArchivedTo}
			t.touched[r.ArchivedTo] = true
			delete(t.writable, op.Name)
			delete(t.wrote, op.Name)
		}
		// What the pass wrote it knows: no need to view it again.
		if r.Path != "" {
			t.reads[r.Path+"/"+skill.FileName] = true
			if r.FilePath != "" && op.Action != skillrepo.ActionMoveFile {
				t.reads[r.Path+"/"+r.FilePath] = true
			}
		}
		if r.MovedTo != "" {
			t.reads[r.MovedTo] = true
		}
	}
	for _, d := range sources {
		t.touched[d] = true
	}
	return commit, nil
}

// integrityError refuses a write that would break a package.
type integrityError struct {
	action, name string
	problems     []string
}

func (e *integrityError) Error() string {
	return fmt.Sprintf("Refusing curator %s for '%s': it would leave %s. Nothing was written; move the files with skill_move_file and rewrite the links first.",
		e.action, e.name, strings.Join(e.problems, "; "))
}

// integrity is the curator's own check of the tree a write would leave
// (fsys), after the write policy's lint gate passed it: it returns the
// warnings to pass on (links a move left behind in its source skill,
// which is about to be archived), or an *integrityError when an archive
// would leave a skill this pass wrote, or the umbrella, naming a file in
// the archived skill's folder.
func (t *passTools) integrity(pol *skillrepo.Policy, fsys fs.FS, ops []skillrepo.Op) ([]string, error) {
	first := ops[0]
	var sources []string
	for _, op := range ops {
		if op.Action == skillrepo.ActionMoveFile {
			if si, ok := t.find(op.Name); ok {
				sources = append(sources, si.Dir)
			}
		}
	}
	var warnings []string
	for _, f := range pol.LintErrors(fsys, sources) {
		warnings = append(warnings, fmt.Sprintf("%s:%d %s", f.Path, f.Line, f.Message))
	}
	if first.Action == skillrepo.ActionDelete {
		si, ok := t.find(first.Name)
		if !ok {
			return warnings, nil
		}
		watch := map[string]bool{}
		for n := range t.wrote {
			watch[n] = true
		}
		if first.AbsorbedInto != nil && *first.AbsorbedInto != "" {
			watch[strings.TrimSpace(*first.AbsorbedInto)] = true
		}
		delete(watch, si.Name)
		if probs := pointersInto(fsys, t, watch, si); len(probs) > 0 {
			return nil, &integrityError{action: "delete", name: si.Name, problems: probs}
		}
	}
	return warnings, nil
}

// pointersInto finds lines of the watched skills' Markdown that name a
// file inside archived skill si's folder.
func pointersInto(fsys fs.FS, t *passTools, watch map[string]bool, si skillrepo.SkillInfo) []string {
	stop := `\s()\[\]<>"'` + "`"
	re := regexp.MustCompile(`(^|[` + stop + `]|[^` + stop + `]*[^A-Za-z0-9_.` + stop + `-])` + regexp.QuoteMeta(path.Base(si.Dir)) + `/(references|templates|scripts|assets|SKILL\.md)\b[^` + stop + `]*`)
	names := make([]string, 0, len(watch))
	for n := range watch {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		other, ok := t.find(n)
		if !ok {
			continue
		}
		files := []string{skill.FileName}
		for _, f := range filesOf(fsys, other.Dir) {
			if strings.HasSuffix(strings.ToLower(f), ".md") {
				files = append(files, f)
			}
		}
		for _, f := range files {
			data, err := fs.ReadFile(fsys, other.Dir+"/"+f)
			if err != nil {
				continue
			}
			for i, line := range strings.Split(string(data), "\n") {
				if m := re.FindString(line); m != "" {
					m = strings.TrimLeft(m, " \t()[]<>\"'`")
					out = append(out, fmt.Sprintf("%s/%s:%d still points at %s, which would stay behind in the archive", other.Dir, f, i+1, m))
				}
			}
		}
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
