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

	"github.com/skillrepo/skillrepo/lint"
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

// passTools runs the model's tool calls of one consolidation pass. Every
// guard is code here or in the write engine, and every refusal is a tool
// result the model reads, never an error of the pass:
//   - only candidates are written: curator-managed, not pinned, not named
//     by a scheduled job, not archived by phase 1 of this run; skills the
//     pass created are its own;
//   - a file is read (skill_view) before it is patched, rewritten,
//     removed or moved, and a skill before it is archived;
//   - delete archives, and must say absorbed_into: an existing umbrella,
//     or "" for a true prune;
//   - package integrity: the tree a write would leave is linted (the
//     skills it touched: a dangling link or path is refused), and an
//     archive is refused while a skill this run wrote still points into
//     the archived skill's files; the refusal names what is left behind;
//   - in a dry run every write answers "dry run: not written" and is
//     recorded; nothing reaches the library.
type passTools struct {
	ctx    context.Context
	lib    *skillrepo.Library
	runID  string
	model  string
	branch string // curator/<run-id>
	base   string // the commit the branch forks from
	made   bool   // the branch exists (phase 1 or an earlier write made it)
	dryRun bool
	raw    []byte // .skillrepo/config.yaml, for lint settings

	writable    map[string]bool   // candidates the pass may change
	untouchable map[string]string // name → why not (pinned, scheduled …)
	reads       map[string]bool   // library paths read in this pass
	dryCreated  map[string]bool   // skills a dry run "created"

	calls   []ToolCall
	commits []string
	touched map[string]bool  // folders changed by phase 2
	wrote   map[string]bool  // skills changed by phase 2 (by name)
	moved   map[string]Moved // skills archived by phase 2: from → to

	snap *skillrepo.Snapshot // cached view of rev()
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

// definitions are the tools offered, in the OpenAI function shape.
func (t *passTools) definitions() []openai.Tool {
	def := func(name, desc, params string) openai.Tool {
		return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: name, Description: desc, Parameters: json.RawMessage(params)}}
	}
	return []openai.Tool{
		def(toolSkillsList, "List the active skills of the library (name, category, description). Candidates you may change are marked writable.",
			`{"type":"object","properties":{"category":{"type":"string","description":"only this category"}}}`),
		def(toolSkillView, "Read a skill's SKILL.md (and the list of its files), or one of its files with file_path. Reading is required before changing a file or archiving a skill.",
			`{"type":"object","properties":{"name":{"type":"string"},"file_path":{"type":"string"}},"required":["name"]}`),
		def(toolSkillManage, "Change skills: operations is a list of {action, name, ...}; action create (content: the whole SKILL.md), patch (old_string, new_string, optional file_path), edit (content), write_file (file_path, file_content), remove_file (file_path), delete (archive; absorbed_into REQUIRED: the umbrella that now holds the skill, or \"\" for a true prune; delete must be alone in its call). All operations of one call land as one commit or not at all.",
			`{"type":"object","properties":{"operations":{"type":"array","items":{"type":"object","properties":{"action":{"type":"string","enum":["create","patch","edit","write_file","remove_file","delete"]},"name":{"type":"string"},"category":{"type":"string"},"content":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"},"file_path":{"type":"string"},"file_content":{"type":"string"},"absorbed_into":{"type":"string"}},"required":["action","name"]}}},"required":["operations"]}`),
		def(toolSkillMoveFile, "Move a support file (or folder) from one skill into another, e.g. a sibling's references/retry.md into the umbrella as references/retry.md, as a git rename that keeps its history. Rewrite the links to it afterwards.",
			`{"type":"object","properties":{"name":{"type":"string","description":"the skill the file is in"},"file_path":{"type":"string"},"to_skill":{"type":"string"},"to_file_path":{"type":"string","description":"default: the same path"}},"required":["name","file_path","to_skill"]}`),
	}
}

// dispatch runs one tool call and returns its result text; it never
// fails, and records the call in the audit.
func (t *passTools) dispatch(call openai.ToolCall) string {
	args := strings.TrimSpace(call.Function.Arguments)
	if args == "" {
		args = "{}"
	}
	rec := ToolCall{Name: call.Function.Name, Arguments: clip(args, 400), DryRun: false}
	var res result
	if !json.Valid([]byte(args)) || args[0] != '{' {
		res = fail(fmt.Sprintf("the arguments of %s are not a valid JSON object", call.Function.Name))
	} else {
		switch call.Function.Name {
		case toolSkillsList:
			res = t.skillsList([]byte(args))
		case toolSkillView:
			res = t.skillView([]byte(args))
		case toolSkillManage:
			res = t.skillManage([]byte(args), &rec)
		case toolSkillMoveFile:
			res = t.moveFile([]byte(args), &rec)
		default:
			res = fail(fmt.Sprintf("Tool '%s' is not available in the curator. Allowed tools: skills_list, skill_view, skill_manage, skill_move_file. There is no shell; do not retry %s.", call.Function.Name, call.Function.Name))
		}
	}
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
	t.calls = append(t.calls, rec)
	data, err := json.Marshal(res)
	if err != nil {
		return `{"success":false,"error":"encode tool result"}`
	}
	return string(data)
}

func (t *passTools) skillsList(data []byte) result {
	var args struct {
		Category string `json:"category"`
	}
	if err := json.Unmarshal(data, &args); err != nil {
		return fail("skills_list: " + err.Error())
	}
	skills, err := t.activeSkills()
	if err != nil {
		return fail("skills_list: " + err.Error())
	}
	s, _ := t.view()
	list := []map[string]any{}
	for _, si := range skills {
		if args.Category != "" && si.Category != args.Category {
			continue
		}
		e := map[string]any{"name": si.Name, "category": si.Category, "description": describe(s.FS(), si.Dir), "writable": t.mayWrite(si.Name) == ""}
		if why := t.untouchable[si.Name]; why != "" {
			e["untouchable"] = why
		}
		list = append(list, e)
		if len(list) == 500 {
			break
		}
	}
	return result{"success": true, "skills": list, "count": len(list)}
}

func describe(fsys fs.FS, dir string) string {
	data, err := fs.ReadFile(fsys, path.Join(dir, skill.FileName))
	if err != nil {
		return ""
	}
	doc, err := skill.Parse(data)
	if err != nil {
		return ""
	}
	return clip(strings.TrimSpace(doc.Description), skill.MaxDescriptionLength)
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

func (t *passTools) skillView(data []byte) result {
	var args struct {
		Name     string `json:"name"`
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal(data, &args); err != nil {
		return fail("skill_view: " + err.Error())
	}
	si, ok := t.find(args.Name)
	if !ok {
		return fail(fmt.Sprintf("Skill '%s' not found. Use skills_list to see the skills.", args.Name))
	}
	rel := skill.FileName
	if args.FilePath != "" && args.FilePath != skill.FileName {
		var err error
		if rel, err = skill.ValidateSupportPath(args.FilePath); err != nil {
			return fail(err.Error())
		}
	}
	s, err := t.view()
	if err != nil {
		return fail("skill_view: " + err.Error())
	}
	p := si.Dir + "/" + rel
	content, err := fs.ReadFile(s.FS(), p)
	if errors.Is(err, fs.ErrNotExist) {
		return result{"success": false, "error": fmt.Sprintf("File not found: %s in skill '%s'.", rel, si.Name), "files": filesOf(s.FS(), si.Dir)}
	}
	if err != nil {
		return fail("skill_view: " + err.Error())
	}
	t.reads[p] = true
	res := result{"success": true, "name": si.Name, "category": si.Category, "path": p, "file": rel, "content": string(content)}
	if rel == skill.FileName {
		res["files"] = filesOf(s.FS(), si.Dir)
	}
	if why := t.mayWrite(si.Name); why != "" {
		res["writable"], res["why_not"] = false, why
	} else {
		res["writable"] = true
	}
	return res
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

func (t *passTools) skillManage(data []byte, rec *ToolCall) result {
	var args manageArgs
	if err := json.Unmarshal(data, &args); err != nil {
		return fail("skill_manage: invalid arguments: " + err.Error())
	}
	ops := []skillrepo.Op{args.Op}
	if args.Operations != nil {
		if args.Op.Action != "" {
			return fail("pass either operations (a list) or the fields of one operation, not both")
		}
		ops = *args.Operations
	}
	if len(ops) == 0 || len(ops) > skillrepo.MaxBatchOps {
		return fail(fmt.Sprintf("operations must hold 1 to %d operations", skillrepo.MaxBatchOps))
	}
	created := map[string]bool{}
	for i := range ops {
		op := &ops[i]
		op.Action, op.Name = strings.TrimSpace(op.Action), strings.TrimSpace(op.Name)
		if op.Action == "move_file" {
			return fail("use the skill_move_file tool to move files")
		}
		if op.Action == skillrepo.ActionDelete && len(ops) > 1 {
			return fail("delete must be the only operation of its call")
		}
		if op.Action == skillrepo.ActionCreate {
			if _, exists := t.find(op.Name); exists || t.dryCreated[op.Name] {
				return fail(fmt.Sprintf("A skill named '%s' already exists. View it and patch it instead.", op.Name))
			}
			created[op.Name] = true
			continue
		}
		if created[op.Name] {
			continue
		}
		if r := t.guardExisting(op.Action, *op); r != nil {
			if len(ops) > 1 {
				r["failed_index"] = i
			}
			return r
		}
	}
	rec.Ops = ops
	if t.dryRun {
		for _, op := range ops {
			if op.Action == skillrepo.ActionCreate {
				t.dryCreated[op.Name] = true
			}
		}
		return result{"success": true, "dry_run": true, "message": dryRunAnswer + " (recorded as what this pass would do)"}
	}
	return t.apply(ops)
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
	return t.apply([]skillrepo.Op{op})
}

// apply writes ops as one commit on the run branch, refusing a result
// that breaks a package.
func (t *passTools) apply(ops []skillrepo.Op) result {
	var leftBehind []string
	verify := func(fsys fs.FS, dirs []string) error {
		var err error
		leftBehind, err = t.integrity(fsys, ops, dirs)
		return err
	}
	res, err := t.lib.Apply(t.ctx, skillrepo.ApplyOptions{
		Branch: t.branch, From: t.base, Ops: ops, Verify: verify,
		Provenance: skillrepo.Provenance{Origin: skillrepo.OriginCurator, CuratorRun: t.runID, Model: t.model},
	})
	if err != nil {
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
	t.made, t.snap = true, nil
	commit := res.Commit.String()
	t.commits = append(t.commits, commit)
	var msgs []string
	for i, r := range res.Results {
		msgs = append(msgs, r.Message)
		op := ops[i]
		switch {
		case op.Action == skillrepo.ActionMoveFile:
			t.wrote[op.ToSkill] = true
		case op.Action != skillrepo.ActionDelete:
			t.wrote[op.Name] = true
		}
		if op.Action == skillrepo.ActionCreate {
			t.writable[op.Name] = true
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
			if r.FilePath != "" {
				t.reads[r.Path+"/"+r.FilePath] = true
			}
		}
		if r.MovedTo != "" {
			t.reads[r.MovedTo] = true
		}
	}
	for _, op := range ops {
		if op.Action == skillrepo.ActionMoveFile {
			if si, ok := t.find(op.Name); ok {
				t.touched[si.Dir] = true
			}
		}
	}
	out := result{"success": true, "commit": commit, "message": strings.Join(msgs, " ")}
	if len(leftBehind) > 0 {
		out["left_behind"] = leftBehind
		out["hint"] = "the skill the file left still points at it: archive that skill into the umbrella (delete with absorbed_into) or patch its links"
	}
	return out
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

// integrity checks the tree a write would leave (fsys) and returns the
// warnings to pass on (links a move left behind in its source skill, which
// is about to be archived), or an *integrityError:
//   - the skills written (not a move's source) must lint without errors:
//     a link or a support path that does not exist is refused;
//   - an archive is refused while a skill this pass wrote, or the
//     umbrella, still names a file in the archived skill's folder.
func (t *passTools) integrity(fsys fs.FS, ops []skillrepo.Op, dirs []string) ([]string, error) {
	first := ops[0]
	var check, sources []string
	for _, d := range dirs {
		isSource := false
		for _, op := range ops {
			if op.Action == skillrepo.ActionMoveFile {
				if si, ok := t.find(op.Name); ok && si.Dir == d {
					isSource = true
				}
			}
		}
		if isSource {
			sources = append(sources, d)
		} else {
			check = append(check, d)
		}
	}
	for _, op := range ops {
		if op.Action == skillrepo.ActionMoveFile {
			if si, ok := t.find(op.Name); ok {
				sources = append(sources, si.Dir)
			}
		}
	}
	if err := lint.Gate(serial(fsys), check, t.raw); err != nil {
		var ef *lint.ErrorsFound
		if !errors.As(err, &ef) {
			return nil, err
		}
		var probs []string
		for _, f := range ef.Findings {
			probs = append(probs, fmt.Sprintf("%s:%d %s (%s)", f.Path, f.Line, f.Message, f.Rule))
		}
		return nil, &integrityError{action: first.Action, name: first.Name, problems: probs}
	}
	var warnings []string
	if err := lint.Gate(serial(fsys), sources, t.raw); err != nil {
		var ef *lint.ErrorsFound
		if errors.As(err, &ef) {
			for _, f := range ef.Findings {
				warnings = append(warnings, fmt.Sprintf("%s:%d %s", f.Path, f.Line, f.Message))
			}
		}
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
