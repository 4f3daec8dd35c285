package agenttools

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// A create whose SKILL.md links support files it does not bring is held,
// not refused and not written: Hermes' own hint teaches the model to
// create a skill and then add its files with write_file, one call each,
// and a write is verified where it lands, so the create alone would fail
// the lint gate (a dangling link). The toolbox keeps the held operations
// and lands them together with the call that brings the files, in one
// commit; a pass that ends with a create still held reports it. So the
// two-call flow works and the library never rests failing lint
// (docs/architecture.md §2.1, docs/reference-behaviour.md §4.10).

// Held is the creates a session holds until the files they link arrive,
// by skill name; one value is shared by the toolboxes of one session
// (the MCP server makes one toolbox per call).
type Held struct {
	ops     map[string][]Op     // the held batch, by the skill it creates
	missing map[string][]string // the linked files it waits for
}

// names are the skills held, sorted.
func (h *Held) names() []string {
	out := make([]string, 0, len(h.ops))
	for n := range h.ops {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// join returns ops with the held batch of every skill they name put
// first; a create of a held skill replaces its held batch (the model
// started over).
func (h *Held) join(ops []Op) []Op {
	if len(h.ops) == 0 {
		return ops
	}
	var first []Op
	taken := map[string]bool{}
	for _, op := range ops {
		if op.Action == "create" {
			delete(h.ops, op.Name)
			continue
		}
		if held, ok := h.ops[op.Name]; ok && !taken[op.Name] {
			taken[op.Name] = true
			first = append(first, held...)
		}
	}
	if len(first) == 0 {
		return ops
	}
	return append(first, ops...)
}

// landed forgets the held batches of skills that landed.
func (h *Held) landed(ops []Op) {
	for _, op := range ops {
		delete(h.ops, op.Name)
		delete(h.missing, op.Name)
	}
}

// hold keeps ops when err is the lint gate's refusal of a batch that
// creates one skill and fails only for links into that skill's folder to
// files not there yet; it returns the tool's answer, or nil when the
// refusal stands.
func (h *Held) hold(err error, ops []plannedOp) toolResult {
	var ge *skillrepo.GateError
	if !errors.As(err, &ge) || len(ops) == 0 || ops[0].Action != "create" {
		return nil
	}
	name, dir := ops[0].Name, ops[0].dir
	for i, p := range ops {
		if p.Name != name || (i > 0 && p.Action == "create") {
			return nil
		}
	}
	var missing []string
	for _, f := range ge.Found.Findings {
		if !linkRules[f.Rule] || f.Skill != dir {
			return nil
		}
		missing = append(missing, f.Message)
	}
	if len(missing) == 0 {
		return nil
	}
	if h.ops == nil {
		h.ops, h.missing = map[string][]Op{}, map[string][]string{}
	}
	batch := make([]Op, len(ops))
	for i, p := range ops {
		batch[i] = p.Op
	}
	h.ops[name], h.missing[name] = batch, missing
	return toolResult{"success": true, "held": true, "operations_applied": 0,
		"message": fmt.Sprintf("Skill '%s' is held, not written yet: its SKILL.md links files it does not bring (%s). "+
			"Write each with write_file (name '%s') and the skill lands with them in one commit; until then skill_view does not find it.",
			name, strings.Join(missing, "; "), name)}
}

// report is the refusals of the creates still held when a pass ends.
func (h *Held) report() []Refusal {
	var out []Refusal
	for _, n := range h.names() {
		out = append(out, Refusal{Tool: SkillManage, Kind: RefusedHeld,
			Reason: fmt.Sprintf("create of '%s' was held for files it links and never landed: %s", n, strings.Join(h.missing[n], "; "))})
	}
	return out
}

// linkRules are lint's rules of a link or path to a file that is not
// there (as the write policy's gate names them).
var linkRules = map[string]bool{"link-dangling": true, "path-dangling": true}
