package agenttools

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// maxListed caps skills_list, so a huge library cannot flood the context;
// the category filter narrows it.
const maxListed = 500

// maxBatchOps is the reference's batch limit (docs/reference-behaviour.md §4.7).
const maxBatchOps = skillrepo.MaxBatchOps

// findSkill resolves a name as the reference does: the bare folder name
// (first match) or category/name, among the active skills. It looks the
// one name up rather than listing the library, which on 10,000 skills is
// the difference between a lookup and a walk of every skill's tree.
func findSkill(v View, name string) (SkillRef, bool, error) {
	name = strings.Trim(strings.TrimSpace(name), "/")
	if name == "" || strings.HasPrefix(name, ".") {
		return SkillRef{}, false, nil
	}
	return v.Find(name)
}

// findFolder resolves a name as the reference's skill_manage does: the
// skill's folder name, or category/folder — never the frontmatter name
// (skill_view accepts that), and exactly as given: "x " names no skill
// (docs/reference-behaviour.md §4.3).
func findFolder(v View, name string) (SkillRef, bool, error) {
	if name == "" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") {
		return SkillRef{}, false, nil
	}
	s, ok, err := v.Find(name)
	if err != nil || !ok || (s.Name != name && s.Dir != name) {
		return SkillRef{}, false, err
	}
	return s, true, nil
}

// describe is a skill's one-line description: the frontmatter's, or the
// first body line that is not a heading (as skills_list does, docs/reference-behaviour.md §8.2).
func describe(fsys fs.FS, dir string) string {
	data, err := fs.ReadFile(fsys, path.Join(dir, skill.FileName))
	if err != nil {
		return ""
	}
	desc, body := "", string(data)
	if doc, err := skill.Parse(data); err == nil {
		desc, body = doc.Description, doc.Body
	} else {
		// What the reference's parser reads where ours refuses (an
		// unquoted colon, no frontmatter): such skills are listed too.
		desc, _ = skill.HermesFields(data)["description"].(string)
		if _, b, _, err := skill.Split(data); err == nil {
			body = b
		}
	}
	if d := strings.TrimSpace(desc); d != "" {
		return clip(d, skill.MaxDescriptionLength)
	}
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return clip(line, skill.MaxDescriptionLength)
		}
	}
	return ""
}

func (tb *Toolbox) skillsList(cl *call, data []byte) toolResult {
	var args struct {
		Category string `json:"category"`
		Offset   int    `json:"offset"`
		Limit    int    `json:"limit"`
	}
	if r := decodeArgs(SkillsList, data, &args); r != nil {
		return r
	}
	if args.Offset < 0 || args.Limit < 0 {
		return argsRefusal("offset and limit must not be negative")
	}
	limit := maxListed
	if args.Limit > 0 {
		limit = min(args.Limit, maxListed)
	}
	v, err := tb.currentView(cl.ctx)
	if err != nil {
		return failure("list skills: " + err.Error())
	}
	skills, err := v.Skills()
	if err != nil {
		return failure("list skills: " + err.Error())
	}
	// A person-facing caller also sees each skill's lifecycle state and
	// pin; the review decides from skill_view's ownership instead.
	var status map[string]SkillStatus
	if !tb.autonomous() {
		if status, err = tb.lib.Status(cl.ctx, tb.rev()); err != nil {
			return failure("list skills: " + err.Error())
		}
	}
	sort.Slice(skills, func(i, j int) bool {
		if skills[i].Category != skills[j].Category {
			return skills[i].Category < skills[j].Category
		}
		return skills[i].Name < skills[j].Name
	})
	cats := map[string]bool{}
	list := []map[string]any{}
	total := 0
	for _, s := range skills {
		if s.Category != "" {
			cats[s.Category] = true
		}
		if args.Category != "" && s.Category != args.Category {
			continue
		}
		total++
		if total <= args.Offset || len(list) >= limit {
			continue
		}
		entry := map[string]any{"name": s.Name, "category": s.Category, "description": describe(v.FS(), s.Dir)}
		if status != nil {
			st := status[s.Name]
			if st.State == "" {
				st.State = usage.StateActive
			}
			entry["state"], entry["pinned"] = st.State, st.Pinned
		}
		list = append(list, entry)
	}
	res := toolResult{"success": true, "skills": list, "categories": sortedKeys(cats), "count": total}
	if args.Offset > 0 || args.Limit > 0 {
		res["offset"] = args.Offset
	}
	if next := args.Offset + len(list); next < total {
		if args.Offset > 0 || args.Limit > 0 || !tb.autonomous() {
			res["next_offset"] = next
			res["hint"] = fmt.Sprintf("showing %d of %d skills from offset %d; call again with offset %d for more, or pass category to narrow the list", len(list), total, args.Offset, next)
		} else {
			res["hint"] = fmt.Sprintf("showing %d of %d skills; pass category to narrow the list", len(list), total)
		}
	}
	return res
}

// linkedFiles lists a skill's support files by folder.
func linkedFiles(fsys fs.FS, dir string) map[string][]string {
	out := map[string][]string{}
	for _, sub := range skill.SupportDirs {
		files := []string{}
		fs.WalkDir(fsys, path.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, strings.TrimPrefix(p, dir+"/"))
			}
			return nil
		})
		out[sub] = files
	}
	return out
}

// cleanRel checks a path given by the model relative to some root: no
// "..", not absolute, nothing under .git.
func cleanRel(p string) (string, error) {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if p == "" {
		return "", errors.New("path is required")
	}
	if strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':') {
		return "", fmt.Errorf("absolute paths are not allowed: %q; give a path relative to the library", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", fmt.Errorf("path traversal ('..') is not allowed: %q", p)
		}
		if seg == ".git" {
			return "", fmt.Errorf("%q: .git is not part of the library", p)
		}
	}
	return path.Clean(p), nil
}

// readText reads a file for a model: text as is, a placeholder for binary
// content.
func readText(fsys fs.FS, p string) (string, bool, error) {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return "", false, err
	}
	text, binary := textOf(data)
	return text, binary, nil
}

// textOf is a file's content for a model: the text, or a placeholder for
// binary content (true).
func textOf(data []byte) (string, bool) {
	if !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
		return fmt.Sprintf("[binary file, %d bytes]", len(data)), true
	}
	return string(data), false
}

func (tb *Toolbox) skillView(cl *call, data []byte) toolResult {
	var args struct {
		Name     string `json:"name"`
		FilePath string `json:"file_path"`
	}
	if r := decodeArgs(SkillView, data, &args); r != nil {
		return r
	}
	v, err := tb.currentView(cl.ctx)
	if err != nil {
		return failure("view skill: " + err.Error())
	}
	if strings.TrimSpace(args.Name) == "" {
		return argsRefusal("skill_view: name is required: the skill's name as skills_list shows it, or category/name")
	}
	if strings.HasPrefix(args.Name, "/") || strings.Contains(args.Name, "..") {
		return argsRefusal(fmt.Sprintf("invalid skill name %q: give the name, or category/name", args.Name))
	}
	s, ok, err := findSkill(v, args.Name)
	if err != nil {
		return failure("view skill: " + err.Error())
	}
	if !ok {
		return failure(fmt.Sprintf("Skill '%s' not found. Use skills_list to see the available skills.", args.Name))
	}
	file := skill.FileName
	if args.FilePath != "" {
		file, err = cleanRel(args.FilePath)
		if err != nil {
			return argsRefusal(err.Error())
		}
	}
	p := path.Join(s.Dir, file)
	content, binary, err := readText(v.FS(), p)
	if errors.Is(err, fs.ErrNotExist) {
		return toolResult{"success": false, "error": fmt.Sprintf("File not found: %s in skill '%s'.", file, s.Name), "linked_files": linkedFiles(v.FS(), s.Dir)}
	}
	if err != nil {
		return failure("view skill: " + err.Error())
	}
	if !binary {
		tb.reads[p] = true
	}
	res := toolResult{"success": true, "name": s.Name, "category": s.Category, "path": p, "file": file, "content": content}
	if file == skill.FileName {
		res["linked_files"] = linkedFiles(v.FS(), s.Dir)
	}
	if own, err := tb.lib.Ownership(cl.ctx, tb.rev(), s.Name); err == nil {
		res["owner"], res["pinned"] = "user", own.Pinned
		if own.Managed {
			res["owner"] = "curator"
		}
		if tb.autonomous() {
			res["writable"] = own.Managed && !own.Pinned
			if !(own.Managed && !own.Pinned) && tb.opts.Stage != "" && !own.Protected {
				// A review's change to the person's skill is staged.
				res["writable"], res["changes_wait_for_approval"] = true, true
			}
		}
	}
	return res
}

// manageArgs is skill_manage's arguments: the batch shape, or the legacy
// flat shape of one operation.
type manageArgs struct {
	Operations *[]Op `json:"operations"`
	Op
}

// plannedOp is an operation after normalisation and guards.
type plannedOp struct {
	Op
	target  string // library path the op writes (SKILL.md or the file)
	dir     string // the skill's folder
	created bool   // the skill is created by this batch
}

func (tb *Toolbox) skillManage(cl *call, data []byte) toolResult {
	var args manageArgs
	if r := decodeArgs(SkillManage, data, &args); r != nil {
		return r
	}
	ops := []Op{args.Op}
	if args.Operations != nil {
		ops = *args.Operations
		if args.Op.Action != "" {
			return argsRefusal("pass either operations (a list) or the fields of one operation, not both")
		}
	}
	if len(ops) == 0 {
		return argsRefusal("operations must be a non-empty list of operations")
	}
	if len(ops) > maxBatchOps {
		return argsRefusal(fmt.Sprintf("operations has %d entries; the limit is %d per call", len(ops), maxBatchOps))
	}
	v, err := tb.currentView(cl.ctx)
	if err != nil {
		return failure("skill_manage: " + err.Error())
	}
	held, err := tb.lib.Held(tb.target(tb.opts.Branch))
	if err != nil {
		return failure("skill_manage: " + err.Error())
	}
	planned, res := tb.plan(ops, v, held)
	if res != nil {
		return res
	}
	clean := make([]Op, len(planned))
	for i, p := range planned {
		clean[i] = p.Op
	}
	ap, err := tb.lib.Apply(cl.ctx, tb.target(tb.opts.Branch), clean)
	if err != nil {
		return writeRefusal(err, len(clean))
	}
	if ap.Held != nil {
		return tb.heldResult(ap, planned)
	}
	commit, staged := ap.Commit, ap.Staged
	branch := tb.opts.Branch
	switch {
	case staged:
		branch = tb.opts.Stage
		tb.stagedMade = tb.stagedMade || !tb.opts.DryRun
	case !tb.opts.DryRun:
		tb.branchMade, tb.view = true, nil
	}
	results := []map[string]any{}
	var msgs []string
	for _, h := range ap.Joined {
		c := Change{Kind: "skill", Action: "create", Skill: h.Name, Commit: commit, Branch: branch, Staged: staged,
			Summary: fmt.Sprintf("Skill '%s' created (its create was held for these files and lands with them)", h.Name), DryRun: tb.opts.DryRun}
		tb.record(cl, c)
		msgs = append(msgs, c.Summary+".")
		results = append(results, map[string]any{"name": h.Name, "action": "create", "success": true})
	}
	for _, p := range planned {
		if !tb.opts.DryRun {
			tb.reads[p.target] = true // the caller wrote it, so it knows it
		}
		c := Change{Kind: "skill", Action: p.Action, Skill: p.Name, FilePath: p.FilePath, Commit: commit, Branch: branch, Staged: staged, Summary: skillSummary(p, tb.opts.Provenance.Autonomous()), DryRun: tb.opts.DryRun}
		if staged {
			c.Summary = fmt.Sprintf("%s, proposed (proposal %s)", c.Summary, strings.TrimPrefix(branch, skillrepo.ProposalBranchPrefix))
		}
		tb.record(cl, c)
		msgs = append(msgs, c.Summary+".")
		results = append(results, map[string]any{"name": p.Name, "action": p.Action, "file_path": p.FilePath, "success": true})
	}
	if tb.opts.DryRun {
		return toolResult{"success": true, "dry_run": true, "operations_applied": 0, "results": results,
			"message": "dry run: not written. Validated, and would have done: " + strings.Join(msgs, " ")}
	}
	out := toolResult{"success": true, "operations_applied": len(results), "results": results, "commit": commit, "message": strings.Join(msgs, " ")}
	if len(ap.Expired) > 0 {
		refusals := heldRefusals(ap.Expired, fmt.Sprintf("%s passed", skillrepo.HeldTTL))
		tb.refused = append(tb.refused, refusals...)
		var notes []string
		for _, r := range refusals {
			notes = append(notes, r.Reason)
		}
		out["expired_held"] = notes
	}
	if staged {
		id := strings.TrimPrefix(branch, skillrepo.ProposalBranchPrefix)
		out["staged"], out["proposal"] = true, id
		out["note"] = fmt.Sprintf("This call changes a skill the user owns, so it was staged as proposal %s for their approval, not applied. Do not repeat it; mention it in your reply.", id)
	}
	return out
}

// heldResult answers a create the write policy held for the files its
// SKILL.md links (skillrepo.HeldCreate): nothing was written, and the
// session's write_file of each lands it.
func (tb *Toolbox) heldResult(ap Applied, planned []plannedOp) toolResult {
	h := ap.Held
	if tb.opts.DryRun {
		return toolResult{"success": true, "dry_run": true, "held": true, "operations_applied": 0,
			"message": fmt.Sprintf("dry run: not written. Skill '%s' would be held for the files it links: %s", h.Name, strings.Join(h.Missing, "; "))}
	}
	for _, p := range planned {
		tb.reads[p.target] = true // the caller wrote it, so it knows it
	}
	return toolResult{"success": true, "held": true, "operations_applied": 0, "missing": h.Missing,
		"message": fmt.Sprintf("Skill '%s' is held, not written yet: its SKILL.md links files that are not there (%s). "+
			"Write each with write_file (name '%s') in this session and the skill lands with them in one commit; until then skill_view does not find it.",
			h.Name, strings.Join(h.Missing, "; "), h.Name)}
}

// skillSummary is the summary line of a change (docs/reference-behaviour.md §2.9).
// A delete by an autonomous writer archives (the policy moves the skill
// to .archive/); the working agent's delete deletes, as the reference's
// foreground delete does, and says so in its words.
func skillSummary(p plannedOp, autonomous bool) string {
	verb := map[string]string{"create": "created", "patch": "patched", "edit": "rewritten", "write_file": "written", "remove_file": "removed", "delete": "deleted"}[p.Action]
	if p.Action == "delete" && autonomous {
		verb = "archived"
	}
	s := fmt.Sprintf("Skill '%s' %s", p.Name, verb)
	if p.FilePath != "" && p.Action != "create" {
		s += " (" + p.FilePath + ")"
	}
	if p.Action == "delete" && p.AbsorbedInto != nil {
		if into := strings.TrimSpace(*p.AbsorbedInto); into != "" {
			if autonomous {
				s += " into '" + into + "'"
			} else {
				s += ". Content absorbed into '" + into + "'"
			}
		}
	}
	return s
}

// plan normalises the operations and checks what the tools answer in
// their own words before anything is written: the batch's shape, a skill
// to create that exists, one to change that does not. The rules of the
// write itself — secrets, duplicates, ownership, read before write,
// delete — are the library's write policy (package skillrepo, policy.go),
// which the write passes whichever door it came through; the first
// refusal refuses the whole call.
func (tb *Toolbox) plan(ops []Op, v View, held []skillrepo.HeldCreate) ([]plannedOp, toolResult) {
	refuse := func(i int, r toolResult) toolResult {
		if len(ops) > 1 {
			r["failed_index"] = i
			r["error"] = fmt.Sprintf("operation %d: %s (nothing was applied)", i, r["error"])
		}
		return r
	}
	created := map[string]SkillRef{} // skills this batch creates
	destroyed := map[string]bool{}   // (skill, path) already clobbered by an earlier op
	var out []plannedOp
	for i, op := range ops {
		// Names are taken as given, as the reference takes them: a name
		// with a space is refused, not trimmed into another skill's.
		if op.Name == "" {
			return nil, refuse(i, argsRefusal("skill_manage: name is required: the skill's name as skills_list shows it (for create, the new skill's name)"))
		}
		p, r := tb.normalise(op)
		if r != nil {
			return nil, refuse(i, r)
		}
		if p.Action == "delete" && len(ops) > 1 {
			return nil, refuse(i, argsRefusal("delete must be the only operation of its call"))
		}
		if p.Action == "create" {
			if _, exists, err := findFolder(v, p.Name); err != nil {
				return nil, refuse(i, failure("skill_manage: "+err.Error()))
			} else if exists {
				return nil, refuse(i, failure(fmt.Sprintf("A skill named '%s' already exists. View it and patch it instead of creating a duplicate.", p.Name)))
			}
			if _, exists := created[p.Name]; exists {
				return nil, refuse(i, failure(fmt.Sprintf("operation creates '%s' twice", p.Name)))
			}
			dir := p.Name
			if p.Category != "" {
				dir = p.Category + "/" + p.Name
			}
			created[p.Name] = SkillRef{Name: p.Name, Dir: dir, Category: p.Category}
			p.dir, p.created, p.target = dir, true, dir+"/"+skill.FileName
			destroyed[p.target] = true
			out = append(out, p)
			continue
		}
		s, ok := created[p.Name]
		p.created = ok
		if !ok {
			var err error
			if s, ok, err = findFolder(v, p.Name); err != nil {
				return nil, refuse(i, failure("skill_manage: "+err.Error()))
			} else if h := heldNamed(held, p.Name); !ok && h != nil {
				// Held for its files: this write brings them, and the
				// write policy lands the create with it.
				s, ok, p.created = SkillRef{Name: h.Name, Dir: h.Dir}, true, true
			} else if !ok {
				return nil, refuse(i, failure(fmt.Sprintf("Skill '%s' not found. Use skills_list to see the available skills, or create it first with action 'create'.", p.Name)))
			}
		}
		p.Name, p.dir = s.Name, s.Dir
		p.target = s.Dir + "/" + skill.FileName
		if p.FilePath != "" {
			p.target = s.Dir + "/" + p.FilePath
		}
		clobbers := p.Action == "edit" || p.Action == "write_file" || p.Action == "remove_file"
		if clobbers && destroyed[p.target] {
			return nil, refuse(i, argsRefusal(fmt.Sprintf("%s of %s overwrites what an earlier operation of this call wrote; merge them into one operation", p.Action, p.target)))
		}
		if clobbers {
			destroyed[p.target] = true
		}
		out = append(out, p)
	}
	return out, nil
}

// heldNamed is the held create of the skill name, or nil.
func heldNamed(held []skillrepo.HeldCreate, name string) *skillrepo.HeldCreate {
	for i := range held {
		if held[i].Name == name {
			return &held[i]
		}
	}
	return nil
}

// writeRefusal is the result of a write the library refused: a guard of
// the write policy (numbered as plan numbers its refusals, with what the
// model needs to go on), or any other error in its words.
func writeRefusal(err error, n int) toolResult {
	var re *skillrepo.RefusedError
	if !errors.As(err, &re) || re.Guard == "" {
		r := errFailure("", err)
		var pe *previewError
		if errors.As(err, &pe) {
			r["file_preview"] = pe.preview
		}
		return r
	}
	r := guardRefusal(re.Reason)
	switch re.Guard {
	case skillrepo.GuardReadFirst:
		r["read_before_write_required"] = true
	case skillrepo.GuardDuplicate:
		existing := make([]map[string]any, len(re.Duplicates))
		for k, m := range re.Duplicates {
			existing[k] = map[string]any{"name": m.Name, "similarity": m.Similarity, "shared_terms": m.Shared}
		}
		r["existing"], r["duplicate"] = existing, true
	}
	var oe *skillrepo.OpError
	if n > 1 && errors.As(err, &oe) {
		r["failed_index"] = oe.Index
		r["error"] = fmt.Sprintf("operation %d: %s (nothing was applied)", oe.Index, re.Reason)
	}
	return r
}

// normalise checks an operation's shape and fields (docs/reference-behaviour.md §4.1, §4.2).
// rules are the write rules of the library's runtime; a library that
// does not say (a test double) gets Hermes' rules, the strictest.
func (tb *Toolbox) rules() skill.Rules {
	if r, ok := tb.lib.(interface{ Rules() skill.Rules }); ok {
		return r.Rules()
	}
	return skill.RulesFor(skill.Hermes)
}

func (tb *Toolbox) normalise(op Op) (plannedOp, toolResult) {
	p := plannedOp{Op: op}
	if p.Name == "" {
		return p, argsRefusal("each operation needs a name")
	}
	if p.ForceNew && p.Action != "create" {
		return p, argsRefusal("force_new applies to create only")
	}
	switch p.Action {
	case "create":
		if p.ForceNew && strings.TrimSpace(p.Reason) == "" {
			return p, argsRefusal("force_new needs a reason: say how this skill differs from the existing one it overlaps")
		}
		if err := skill.ValidateName(p.Name); err != nil {
			return p, argsRefusal(err.Error())
		}
		if err := skill.ValidateCategory(p.Category); err != nil {
			return p, argsRefusal(err.Error())
		}
		if p.Content == nil || strings.TrimSpace(*p.Content) == "" {
			return p, argsRefusal("create needs content: the whole SKILL.md, with frontmatter name and description")
		}
	case "patch", "edit":
		hasOld, hasNew := p.OldString != nil, p.NewString != nil
		if p.Content != nil && (hasOld || hasNew) {
			return p, argsRefusal("pass EITHER content (a full rewrite of SKILL.md) OR old_string/new_string (a targeted patch), not both")
		}
		if p.Action == "edit" {
			if p.FilePath != "" && p.FilePath != skill.FileName {
				return p, argsRefusal("a full rewrite replaces SKILL.md; use write_file for support files")
			}
			if p.Content == nil {
				return p, argsRefusal("edit needs content: the whole new SKILL.md")
			}
			p.FilePath = ""
			break
		}
		// A patch needs the text it replaces, content alone included:
		// a patch is never a rewrite (docs/reference-behaviour.md §4.1).
		if !hasOld || *p.OldString == "" {
			return p, argsRefusal("patch needs old_string: view the file first and copy the exact text to replace (do not fall back to a rewrite; action 'edit' rewrites SKILL.md whole)")
		}
		if !hasNew {
			return p, argsRefusal("patch needs new_string (an empty string deletes old_string)")
		}
		if p.FilePath != "" {
			fp, err := tb.rules().ValidateSupportPath(p.FilePath)
			if err != nil {
				return p, argsRefusal(err.Error())
			}
			if fp == skill.FileName {
				fp = ""
			}
			p.FilePath = fp
		}
	case "write_file", "remove_file":
		fp, err := tb.rules().ValidateSupportPath(p.FilePath)
		if err != nil {
			return p, argsRefusal(err.Error())
		}
		if fp == skill.FileName {
			// write_file SKILL.md is the reference's full rewrite, checked as
			// one (an invalid SKILL.md is refused, where the reference wrote
			// it and lost the skill); remove_file SKILL.md would leave a
			// folder no skill tool sees (docs/reference-behaviour.md §4.4).
			if p.Action == "remove_file" {
				return p, argsRefusal("remove_file cannot remove SKILL.md: a skill folder without it is no skill, and its files could be neither viewed nor deleted; use action 'delete' to remove the skill")
			}
			if p.FileContent == nil {
				return p, argsRefusal("write_file needs file_content (an empty string is allowed)")
			}
			content := *p.FileContent
			p.Action, p.FilePath, p.Content, p.FileContent = "edit", "", &content, nil
			break
		}
		p.FilePath = fp
		if p.Action == "write_file" {
			if p.FileContent == nil {
				return p, argsRefusal("write_file needs file_content (an empty string is allowed)")
			}
			if err := skill.ValidateFileContent([]byte(*p.FileContent)); err != nil {
				return p, argsRefusal(err.Error())
			}
		}
	case "delete":
	case "":
		return p, argsRefusal("each operation needs an action: create, patch, write_file, remove_file or delete")
	default:
		return p, argsRefusal(fmt.Sprintf("unknown action %q: use create, patch, write_file, remove_file or delete", p.Action))
	}
	return p, nil
}
