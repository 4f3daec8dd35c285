package agenttools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/skillrepo/secrets"
)

// maxMemoryFailures is how many failed consolidations (an add or replace
// over the limit, an old_text that matched nothing, a batch refused for
// either) a turn may have before the memory tool tells the model to stop
// retrying: the reference's per-turn cap, so a fragile replace cannot loop
// a turn to its budget (docs/reference-behaviour.md §7).
const maxMemoryFailures = 3

// memoryFailed counts a refused memory change; past the cap it returns the
// reference's terminal answer, which ends the retries without a retry hint.
func (tb *Toolbox) memoryFailed(merr *memory.Error, batch bool) toolResult {
	consolidation := errors.Is(merr, memory.ErrNoMatch) || errors.Is(merr, memory.ErrOverLimit)
	if batch { // a batch refused for any of its operations, as the reference counts it
		consolidation = consolidation || errors.Is(merr, memory.ErrInvalidOp) || errors.Is(merr, memory.ErrEmpty) || errors.Is(merr, memory.ErrAmbiguous)
	}
	if !consolidation {
		return nil
	}
	*tb.memFailures++
	if *tb.memFailures <= maxMemoryFailures {
		return nil
	}
	return toolResult{"success": false, "done": true, "error": fmt.Sprintf("Memory consolidation failed %d times this turn. "+
		"Stop retrying memory calls — leave memory unchanged for now and continue with your reply to the user. "+
		"The fact can be saved in a later turn.", *tb.memFailures)}
}

func (tb *Toolbox) memoryTool(cl *call, data []byte) toolResult {
	var args struct {
		Action     string      `json:"action"`
		Target     string      `json:"target"`
		Content    string      `json:"content"`
		OldText    string      `json:"old_text"`
		Operations []memory.Op `json:"operations"`
	}
	if r := decodeArgs(Memory, data, &args); r != nil {
		return r
	}
	target, err := memory.ParseTarget(args.Target)
	if err != nil {
		return argsRefusal(err.Error())
	}
	ch := MemoryChange{Target: target, Action: args.Action, Content: args.Content, OldText: args.OldText}
	texts := []string{args.Content}
	destructive := false
	if len(args.Operations) > 0 {
		ch.Action, ch.Ops = "batch", args.Operations
		for _, op := range args.Operations {
			texts = append(texts, op.Content)
			destructive = destructive || op.Action == "replace" || op.Action == "remove"
		}
	} else {
		switch args.Action {
		case "add":
			if strings.TrimSpace(args.Content) == "" {
				return argsRefusal("content is required for 'add'")
			}
		case "replace", "remove":
			destructive = true
		default:
			return argsRefusal(fmt.Sprintf("unknown action %q: use add, replace or remove (or operations)", args.Action))
		}
	}
	for _, t := range texts {
		if found := secrets.Find(t); len(found) > 0 {
			return guardRefusal(secrets.Refusal("the memory content", found))
		}
	}
	// An automatic review may add to memory; its replace and remove (and a
	// batch holding one) wait on a proposal of their own (docs/reference-behaviour.md §7.6), so a
	// skill review can never silently delete what the user told the agent.
	staged := destructive && !tb.opts.Attended && tb.autonomous() && tb.opts.StagedBranch != ""
	branch := tb.opts.Branch
	dest := tb.target(branch)
	if staged {
		branch = tb.opts.StagedBranch
		dest = tb.target(branch)
		if tb.branchMade && !tb.opts.DryRun {
			// The staged branch starts from the review's own branch when
			// the review has written, so a replace or remove sees what
			// this review added (an entry it adds, then rewords). The
			// reference applies a staged change at approval to the
			// memory as it is then, which holds the review's adds; here
			// the proposal carries them (merged with the review, they
			// are already in main and the proposal shows only its own
			// commits).
			dest.From = tb.opts.Branch
		}
	}
	res, commit, err := tb.lib.Memory(cl.ctx, dest, ch)
	var merr *memory.Error
	if errors.As(err, &merr) {
		if terminal := tb.memoryFailed(merr, ch.Action == "batch"); terminal != nil {
			return terminal
		}
		out := toolResult{"success": false, "error": merr.Msg}
		if merr.Current != nil {
			out["current_entries"] = merr.Current
		}
		if merr.Matches != nil {
			out["matches"] = merr.Matches
		}
		if merr.Usage != "" {
			out["usage"] = merr.Usage
		}
		return out
	}
	if err != nil {
		return errFailure("memory: ", err)
	}
	*tb.memFailures = 0 // the consolidation made progress
	if tb.opts.DryRun {
		c := Change{Kind: "memory", Action: ch.Action, Target: string(target), Branch: branch, Staged: staged, DryRun: true,
			Summary: fmt.Sprintf("memory %s of %s (dry run)", ch.Action, target)}
		tb.record(cl, c)
		return toolResult{"success": true, "dry_run": true, "target": string(target), "usage": res.Usage(), "entry_count": res.Entries,
			"message": "dry run: not written. " + res.Message}
	}
	if commit == "" { // nothing changed (a duplicate add)
		return toolResult{"success": true, "done": true, "target": string(target), "usage": res.Usage(), "entry_count": res.Entries, "message": res.Message}
	}
	label := "Memory"
	if target == memory.User {
		label = "User profile"
	}
	c := Change{Kind: "memory", Action: ch.Action, Target: string(target), Commit: commit, Branch: branch, Staged: staged,
		Summary: fmt.Sprintf("%s updated (%s)", label, ch.Action)}
	if staged {
		tb.stagedMade = true
		id := strings.TrimPrefix(tb.opts.StagedBranch, "proposals/")
		c.Summary = fmt.Sprintf("%s %s staged as proposal %s", label, ch.Action, id)
		tb.record(cl, c)
		return toolResult{"success": true, "staged": true, "proposal_staged": true, "proposal": id,
			"message": fmt.Sprintf("Staged as proposal %s: a %s of %s from an automatic review waits for the user's approval. Not applied yet; do not repeat it.", id, ch.Action, label)}
	}
	tb.branchMade, tb.view = true, nil
	tb.record(cl, c)
	return toolResult{"success": true, "done": true, "target": string(target), "usage": res.Usage(), "entry_count": res.Entries,
		"message": res.Message, "note": "Write saved. This update is complete — do not repeat it."}
}
