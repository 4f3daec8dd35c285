package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Tool names.
const (
	toolSkillsList  = "skills_list"
	toolSkillView   = "skill_view"
	toolSkillManage = "skill_manage"
	toolMemory      = "memory"
	toolReadFile    = "read_file"
	toolSearchFiles = "search_files"
)

// toolDef is one entry of prompts/tools.json.
type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toolDefs returns the definitions of the named tools, in that order.
func toolDefs(names []string) ([]openai.Tool, error) {
	data, err := promptFiles.ReadFile("prompts/tools.json")
	if err != nil {
		return nil, fmt.Errorf("read tool definitions: %w", err)
	}
	var defs []toolDef
	if err := json.Unmarshal(data, &defs); err != nil {
		return nil, fmt.Errorf("parse tool definitions: %w", err)
	}
	byName := map[string]toolDef{}
	for _, d := range defs {
		byName[d.Name] = d
	}
	var tools []openai.Tool
	for _, n := range names {
		d, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("no definition for tool %s", n)
		}
		tools = append(tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: d.Name, Description: d.Description, Parameters: d.Parameters,
		}})
	}
	return tools, nil
}

// Refusal is a tool call that did not do what it asked, and why.
type Refusal struct {
	Tool   string `json:"tool"`
	Kind   string `json:"kind"` // guard, unknown_tool, invalid_arguments or error
	Reason string `json:"reason"`
}

// Refusal kinds.
const (
	refusedGuard   = "guard"
	refusedUnknown = "unknown_tool"
	refusedArgs    = "invalid_arguments"
	refusedError   = "error"
)

// Change is one write a review made: a commit on a proposal branch.
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
	// review's main proposal (memory replace and remove, docs/reference-behaviour.md §7.6).
	Staged bool `json:"staged,omitempty"`
}

// toolbox runs the tool calls of one review: it holds the per-review
// state the guards need (what was read, what was written) and records
// every write and every refusal.
type toolbox struct {
	ctx          context.Context
	lib          Library
	prov         Provenance
	base         string // main's commit when the review started
	branch       string // proposals/<review-id>
	stagedBranch string // proposals/<review-id>-memory
	branchMade   bool
	stagedMade   bool
	memory       bool // the memory tool is offered
	attended     bool // asked for by hand (--focus): memory replace/remove apply
	allowed      []string

	reads map[string]bool // library paths this review has read in full (or written)
	view  View            // cached view of the current read revision

	changes  []Change
	refused  []Refusal
	progress func(Change)
}

// rev is what the review reads: its own branch once it has written there.
func (tb *toolbox) rev() string {
	if tb.branchMade {
		return tb.branch
	}
	return tb.base
}

func (tb *toolbox) currentView() (View, error) {
	if tb.view != nil {
		return tb.view, nil
	}
	v, err := tb.lib.View(tb.ctx, tb.rev())
	if err != nil {
		return nil, err
	}
	tb.view = v
	return v, nil
}

// toolResult is a JSON object returned to the model.
type toolResult map[string]any

func failure(msg string) toolResult { return toolResult{"success": false, "error": msg} }

// dispatch runs one tool call and returns the text of its result. It never
// fails: every refusal and error becomes a result the model can read.
func (tb *toolbox) dispatch(call openai.ToolCall) string {
	name := call.Function.Name
	if !contains(tb.allowed, name) {
		msg := tb.deniedMessage(name)
		tb.refuse(name, refusedUnknown, msg)
		return encode(failure(msg))
	}
	args := strings.TrimSpace(call.Function.Arguments)
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) || args[0] != '{' {
		msg := fmt.Sprintf("the arguments of %s are not a valid JSON object; send one JSON object with the fields the tool describes", name)
		tb.refuse(name, refusedArgs, msg)
		return encode(failure(msg))
	}
	var res toolResult
	switch name {
	case toolSkillsList:
		res = tb.skillsList([]byte(args))
	case toolSkillView:
		res = tb.skillView([]byte(args))
	case toolSkillManage:
		res = tb.skillManage([]byte(args))
	case toolMemory:
		res = tb.memoryTool([]byte(args))
	case toolReadFile:
		res = tb.readFile([]byte(args))
	case toolSearchFiles:
		res = tb.searchFiles([]byte(args))
	}
	if ok, _ := res["success"].(bool); !ok {
		kind := refusedError
		if k, _ := res["_kind"].(string); k != "" {
			kind = k
		}
		msg, _ := res["error"].(string)
		tb.refuse(name, kind, msg)
	}
	delete(res, "_kind")
	return encode(res)
}

// deniedMessage names what a review may use instead (docs/reference-behaviour.md §2.5).
func (tb *toolbox) deniedMessage(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tool '%s' is not available in this review. ", name)
	b.WriteString("To read, use skill_view, skills_list, read_file or search_files; to change skills, use skill_manage(operations=[...]) with action create, patch, write_file, remove_file or delete")
	if tb.memory {
		if tb.attended {
			b.WriteString("; for notes, use memory")
		} else {
			b.WriteString("; for notes, use memory (add only; replace and remove wait for approval)")
		}
	}
	fmt.Fprintf(&b, ". Allowed tools: %s. Do not retry %s.", strings.Join(tb.allowed, ", "), name)
	return b.String()
}

func (tb *toolbox) refuse(tool, kind, reason string) {
	tb.refused = append(tb.refused, Refusal{Tool: tool, Kind: kind, Reason: reason})
}

func (tb *toolbox) record(c Change) {
	tb.changes = append(tb.changes, c)
	if tb.progress != nil {
		tb.progress(c)
	}
}

// guardRefusal marks a result as a guard's refusal for the summary.
func guardRefusal(msg string) toolResult {
	return toolResult{"success": false, "error": msg, "_kind": refusedGuard}
}

func argsRefusal(msg string) toolResult {
	return toolResult{"success": false, "error": msg, "_kind": refusedArgs}
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
			return argsRefusal(fmt.Sprintf("%s: field %q must be %s, not %s", tool, typ.Field, typ.Type, typ.Value))
		}
		return argsRefusal(fmt.Sprintf("%s: invalid arguments: %v", tool, err))
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
