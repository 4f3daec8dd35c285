package agenttools

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Tool names.
const (
	SkillsList  = "skills_list"
	SkillView   = "skill_view"
	SkillManage = "skill_manage"
	Memory      = "memory"
	ReadFile    = "read_file"
	SearchFiles = "search_files"
)

// Options configure a toolbox.
type Options struct {
	// Tools are the tools offered, in the order the model sees them.
	Tools []string
	// Provenance goes into every commit's trailers, and its origin
	// chooses the rules of the library's write policy (package skillrepo,
	// policy.go): an autonomous origin (a background review, the curator;
	// the default) writes only curator-managed skills, reads before it
	// writes and deletes only what it absorbed; the working agent
	// (foreground) may write any skill, as the reference's foreground
	// tools may. Refusals name the caller by it ("review", "curator").
	Provenance skillrepo.Provenance
	// Base is what the tools read until they write (a commit or a branch
	// name). Branch is where writes land, created from Base when missing;
	// once written, reads come from Branch. BranchExists reads Branch from
	// the start (a toolbox writing straight to main).
	Base, Branch string
	BranchExists bool
	// StagedBranch takes an autonomous, unattended memory replace or
	// remove, which waits for approval whatever happens to Branch.
	StagedBranch string
	// Stage takes a background review's skill_manage batch that changes
	// a skill the person owns (user-owned, or pinned): the write policy
	// routes it there, made from Base, to wait for their approval
	// whatever happens to Branch (skillrepo.Writer.Stage). Empty: such a
	// write is refused.
	Stage string
	// Session is the writer's session for creates the write policy holds
	// for the files they link (skillrepo.Writer.Session); "" is the
	// provenance's review or session id.
	Session string
	// Attended: a person asked for this run, so memory replace and remove
	// are not held back.
	Attended bool
	// DryRun validates every write completely (guards and engine) and
	// writes nothing: the tool answers "dry run: not written" and the
	// Change records what would have happened.
	DryRun bool
	// Project, when set, is the folder of the project the session worked
	// in: read_file and search_files read it with scope "project",
	// read-only, through the guards of project.go. Empty: no project
	// reads.
	Project string
	// Reads, when set, is the read-before-write memory shared across
	// toolboxes (one per session); nil starts an empty one.
	Reads map[string]bool
	// Progress, when set, hears of every write as it lands.
	Progress func(Change)
	// AllowOverlap skips the write-time duplicate check on create: the
	// curator's consolidation builds umbrellas that necessarily overlap
	// the skills they absorb (docs/reference-behaviour.md §6.6).
	AllowOverlap bool
	// Duplicates, when set, is the duplicate-check index shared across
	// toolboxes (a server making one toolbox per call keeps one, so
	// creates against an unchanged library do not read it again); nil
	// gives the toolbox its own.
	Duplicates *skillrepo.DuplicateIndex
	// MemoryFailures, when set, is the count of failed memory
	// consolidations (no entry matched, over the limit) shared across
	// toolboxes of one session; nil gives the toolbox its own. Past
	// maxMemoryFailures the memory tool answers a terminal "stop
	// retrying" (docs/reference-behaviour.md §7).
	MemoryFailures *int
}

// Refusal is a tool call that did not do what it asked, and why.
type Refusal struct {
	Tool   string `json:"tool"`
	Kind   string `json:"kind"` // guard, unknown_tool, invalid_arguments or error
	Reason string `json:"reason"`
}

// Refusal kinds.
const (
	RefusedGuard   = "guard"
	RefusedUnknown = "unknown_tool"
	RefusedArgs    = "invalid_arguments"
	RefusedError   = "error"
	// RefusedHeld: a create held for the files it links, which never
	// came (skillrepo.HeldCreate): it did not land.
	RefusedHeld = "held"
)

// Change is one write: a commit on a branch (none in a dry run).
type Change struct {
	Kind     string `json:"kind"`   // skill or memory
	Action   string `json:"action"` // create, patch, edit, write_file, remove_file, delete; add, replace, remove, batch
	Skill    string `json:"skill,omitempty"`
	FilePath string `json:"file_path,omitempty"`
	Target   string `json:"target,omitempty"` // memory or user
	Commit   string `json:"commit"`
	Branch   string `json:"branch"`
	Summary  string `json:"summary"`
	// Staged: the change waits on its own proposal whatever happens to the
	// main proposal (memory replace and remove, docs/reference-behaviour.md
	// §7.6; a review's change to the person's skill, Options.Stage).
	Staged bool `json:"staged,omitempty"`
	// DryRun: validated, not written.
	DryRun bool `json:"dry_run,omitempty"`
}

// Result is the outcome of one tool call.
type Result struct {
	// Text is the JSON object the model reads.
	Text string
	// OK reports success (a write, a read, or a duplicate add).
	OK bool
	// Changes are the writes this call made.
	Changes []Change
	// Refusal is why the call did not do what it asked (nil when OK).
	Refusal *Refusal
}

// Toolbox runs tool calls: it holds the state the guards need (what was
// read, what was written) and records every write and every refusal. It is
// not safe for concurrent use.
type Toolbox struct {
	lib        Library
	opts       Options
	branchMade bool
	stagedMade bool

	reads map[string]bool // library paths read in full (or written)
	view  View            // cached view of the current read revision

	changes []Change
	refused []Refusal
	calls   int // tool calls so far

	projectReads int // project reads so far (MaxProjectReads)

	dups *skillrepo.DuplicateIndex // the overlap index, for creates

	memFailures *int // failed memory consolidations since the last success
}

// New makes a toolbox over lib.
func New(lib Library, opts Options) *Toolbox {
	if opts.Provenance.Origin == "" {
		opts.Provenance.Origin = skillrepo.OriginBackgroundReview
	}
	if opts.Base == "" {
		opts.Base = lib.MainBranch()
	}
	if opts.Branch == "" {
		opts.Branch = lib.MainBranch()
	}
	tb := &Toolbox{lib: lib, opts: opts, reads: opts.Reads, branchMade: opts.BranchExists, dups: opts.Duplicates}
	if tb.dups == nil {
		tb.dups = &skillrepo.DuplicateIndex{}
	}
	if tb.reads == nil {
		tb.reads = map[string]bool{}
	}
	if tb.memFailures = opts.MemoryFailures; tb.memFailures == nil {
		tb.memFailures = new(int)
	}
	return tb
}

// Changes are every write so far, in order.
func (tb *Toolbox) Changes() []Change { return append([]Change{}, tb.changes...) }

// Refusals are every refused call so far, in order.
func (tb *Toolbox) Refusals() []Refusal { return append([]Refusal{}, tb.refused...) }

// Wrote reports whether a write landed on Branch.
func (tb *Toolbox) Wrote() bool { return tb.branchMade && !tb.opts.BranchExists }

// Staged reports whether a write landed on StagedBranch or Stage.
func (tb *Toolbox) Staged() bool { return tb.stagedMade }

// Record is what a toolbox did, in a form that outlives it: a review
// whose tools ran in another process (the review-mode MCP server behind
// an agent's own program) hands its record back this way.
type Record struct {
	Changes  []Change  `json:"changes"`
	Refusals []Refusal `json:"refusals"`
	// Wrote: a write landed on Branch; Staged: on StagedBranch or Stage.
	Wrote  bool `json:"wrote"`
	Staged bool `json:"staged"`
	// Calls counts the tool calls made, refused ones included.
	Calls int `json:"calls"`
}

// EndSession ends the toolbox's session for the creates the write policy
// held for their files: each that never landed becomes a refusal (kind
// held), and the record is returned.
func (tb *Toolbox) EndSession() Record {
	held, err := tb.lib.EndHeld(tb.target(tb.opts.Branch))
	if err != nil {
		tb.refused = append(tb.refused, Refusal{Tool: SkillManage, Kind: RefusedError, Reason: "held creates: " + err.Error()})
	}
	tb.refused = append(tb.refused, heldRefusals(held, "the session ended")...)
	return tb.Record()
}

// heldRefusals are the refusals of held creates that never landed.
func heldRefusals(held []skillrepo.HeldCreate, why string) []Refusal {
	var out []Refusal
	for _, h := range held {
		out = append(out, Refusal{Tool: SkillManage, Kind: RefusedHeld,
			Reason: fmt.Sprintf("create of '%s' was held for the files it links and never landed (%s before they came): %s", h.Name, why, strings.Join(h.Missing, "; "))})
	}
	return out
}

// Record is what the toolbox did so far.
func (tb *Toolbox) Record() Record {
	return Record{Changes: tb.Changes(), Refusals: tb.Refusals(), Wrote: tb.Wrote(), Staged: tb.Staged(), Calls: tb.calls}
}

// Tools are the tools offered.
func (tb *Toolbox) Tools() []string { return append([]string{}, tb.opts.Tools...) }

// rev is what the tools read: Branch once it has been written.
func (tb *Toolbox) rev() string {
	if tb.branchMade {
		return tb.opts.Branch
	}
	return tb.opts.Base
}

func (tb *Toolbox) currentView(ctx context.Context) (View, error) {
	if tb.view != nil {
		return tb.view, nil
	}
	v, err := tb.lib.View(ctx, tb.rev())
	if err != nil {
		return nil, err
	}
	tb.view = v
	return v, nil
}

// target is where a write lands, and the writer the library's write
// policy judges: this toolbox's provenance, its session's reads, its
// duplicate index.
func (tb *Toolbox) target(branch string) Target {
	return Target{Writer: skillrepo.Writer{
		Provenance: tb.opts.Provenance, Branch: branch, From: tb.opts.Base, Stage: tb.opts.Stage,
		Read: func(p string) bool { return tb.reads[p] }, AllowOverlap: tb.opts.AllowOverlap, Duplicates: tb.dups,
		Session: tb.opts.Session,
	}, DryRun: tb.opts.DryRun}
}

// autonomous reports whether the toolbox writes for an agent acting on
// its own (a background review, the curator).
func (tb *Toolbox) autonomous() bool { return tb.opts.Provenance.Autonomous() }

// label names the caller in messages: "in this review", "in this curator".
func (tb *Toolbox) label() string { return skillrepo.LabelFor(tb.opts.Provenance.Origin) }

// toolResult is a JSON object returned to the model.
type toolResult map[string]any

func failure(msg string) toolResult { return toolResult{"success": false, "error": msg} }

// errFailure is a failure carrying the error's hint, when it has one (a
// lock held by another writer, an uncommitted edit in the way), in the
// words the CLI prints.
func errFailure(prefix string, err error) toolResult {
	r := failure(prefix + err.Error())
	var h interface{ Hint() string }
	if errors.As(err, &h) && h.Hint() != "" {
		r["hint"] = h.Hint()
	}
	return r
}

// call is the state of one tool call.
type call struct {
	ctx     context.Context
	changes []Change
}

// Call runs one tool call. It never fails: every refusal and error becomes
// a result the model can read.
func (tb *Toolbox) Call(ctx context.Context, name, args string) Result {
	tb.calls++
	c := &call{ctx: ctx}
	if !slices.Contains(tb.opts.Tools, name) {
		msg := tb.deniedMessage(name)
		return tb.refuse(name, RefusedUnknown, msg, failure(msg))
	}
	args = strings.TrimSpace(args)
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) || args[0] != '{' {
		msg := fmt.Sprintf("the arguments of %s are not a valid JSON object; send one JSON object with the fields the tool describes", name)
		return tb.refuse(name, RefusedArgs, msg, failure(msg))
	}
	var res toolResult
	switch name {
	case SkillsList:
		res = tb.skillsList(c, []byte(args))
	case SkillView:
		res = tb.skillView(c, []byte(args))
	case SkillManage:
		res = tb.skillManage(c, []byte(args))
	case Memory:
		res = tb.memoryTool(c, []byte(args))
	case ReadFile:
		res = tb.readFile(c, []byte(args))
	case SearchFiles:
		res = tb.searchFiles(c, []byte(args))
	default:
		msg := fmt.Sprintf("tool %s has no implementation", name)
		return tb.refuse(name, RefusedUnknown, msg, failure(msg))
	}
	if ok, _ := res["success"].(bool); !ok {
		kind := RefusedError
		if k, _ := res["_kind"].(string); k != "" {
			kind = k
		}
		delete(res, "_kind")
		msg, _ := res["error"].(string)
		return tb.refuse(name, kind, msg, res)
	}
	delete(res, "_kind")
	return Result{Text: encode(res), OK: true, Changes: c.changes}
}

// deniedMessage names what the caller may use instead (docs/reference-behaviour.md §2.5).
func (tb *Toolbox) deniedMessage(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tool '%s' is not available in this %s. ", name, tb.label())
	b.WriteString("To read, use skill_view, skills_list, read_file or search_files; to change skills, use skill_manage(operations=[...]) with action create, patch, write_file, remove_file or delete")
	if slices.Contains(tb.opts.Tools, Memory) {
		if tb.opts.Attended || !tb.autonomous() {
			b.WriteString("; for notes, use memory")
		} else {
			b.WriteString("; for notes, use memory (add only; replace and remove wait for approval)")
		}
	}
	fmt.Fprintf(&b, ". Allowed tools: %s. Do not retry %s.", strings.Join(tb.opts.Tools, ", "), name)
	return b.String()
}

func (tb *Toolbox) refuse(tool, kind, reason string, res toolResult) Result {
	r := Refusal{Tool: tool, Kind: kind, Reason: reason}
	tb.refused = append(tb.refused, r)
	return Result{Text: encode(res), Refusal: &r}
}

func (tb *Toolbox) record(c *call, ch Change) {
	tb.changes = append(tb.changes, ch)
	c.changes = append(c.changes, ch)
	if tb.opts.Progress != nil {
		tb.opts.Progress(ch)
	}
}

// guardRefusal marks a result as a guard's refusal for the summary.
func guardRefusal(msg string) toolResult {
	return toolResult{"success": false, "error": msg, "_kind": RefusedGuard}
}

func argsRefusal(msg string) toolResult {
	return toolResult{"success": false, "error": msg, "_kind": RefusedArgs}
}

// encode renders a result as JSON with sorted keys (maps marshal sorted),
// so a replayed review sends the same bytes.
func encode(r toolResult) string {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Sprintf(`{"success":false,"error":%q}`, "encode tool result: "+err.Error())
	}
	return string(data)
}

// decodeArgs unmarshals arguments, reporting type mistakes in words a
// model can fix.
func decodeArgs(tool string, data []byte, v any) toolResult {
	if err := json.Unmarshal(data, v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			// In JSON's words, never Go's ([]skillrepo.Op).
			what := typ.Field
			if what == "" {
				what = "the arguments"
			}
			return argsRefusal(fmt.Sprintf("%s: %s must be %s, not %s", tool, what, jsonKind(typ.Type.Kind()), jsonValueWord(typ.Value)))
		}
		return argsRefusal(fmt.Sprintf("%s: invalid arguments: %v", tool, err))
	}
	return nil
}

// jsonKind is a Go kind in JSON's words.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer, reflect.Interface:
		return "a value of another type"
	}
	return "a whole number"
}

// jsonValueWord is encoding/json's name of the value found ("string",
// "number 1.5", "array") with an article.
func jsonValueWord(v string) string {
	switch {
	case v == "array" || v == "object":
		return "an " + v
	case v == "":
		return "that"
	}
	return "a " + v
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// clip cuts s to n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

//go:embed tools.json tools_foreground.json
var definitionFiles embed.FS

// Definition is a tool as a model is told about it: a name, what it does,
// and a JSON schema of its arguments.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Definitions returns the definitions of the named tools, in that order,
// worded for an autonomous caller (a review, the curator).
func Definitions(names []string) ([]Definition, error) {
	return definitions("tools.json", names)
}

// ForegroundDefinitions returns the definitions of the named tools (of
// skills_list, skill_view, skill_manage and memory), in that order, worded
// for the working agent that writes with its user watching (the MCP
// server): what each tool does, when to use it and the rules it enforces.
// The argument schemas are the same as [Definitions] gives.
func ForegroundDefinitions(names []string) ([]Definition, error) {
	return definitions("tools_foreground.json", names)
}

func definitions(file string, names []string) ([]Definition, error) {
	data, err := definitionFiles.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read tool definitions: %w", err)
	}
	var defs []Definition
	if err := json.Unmarshal(data, &defs); err != nil {
		return nil, fmt.Errorf("parse tool definitions: %w", err)
	}
	byName := map[string]Definition{}
	for _, d := range defs {
		byName[d.Name] = d
	}
	out := make([]Definition, 0, len(names))
	for _, n := range names {
		d, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("no definition for tool %s", n)
		}
		out = append(out, d)
	}
	return out, nil
}
