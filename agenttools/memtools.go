package agenttools

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
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
		if found := skillrepo.FindSecrets(t); len(found) > 0 {
			return guardRefusal(skillrepo.SecretRefusal("the memory content", found))
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

// maxReadChars caps one read_file result.
const maxReadChars = 100_000

func (tb *Toolbox) readFile(cl *call, data []byte) toolResult {
	var args struct {
		Path   string `json:"path"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
	}
	if r := decodeArgs(ReadFile, data, &args); r != nil {
		return r
	}
	p, err := cleanRel(args.Path)
	if err != nil {
		return argsRefusal(err.Error())
	}
	v, err := tb.currentView(cl.ctx)
	if err != nil {
		return failure("read_file: " + err.Error())
	}
	text, binary, err := readText(v.FS(), p)
	if errors.Is(err, fs.ErrNotExist) {
		return failure(fmt.Sprintf("File not found: %s (paths are relative to the library root; search_files with target 'files' lists them)", p))
	}
	if err != nil {
		return failure(fmt.Sprintf("read_file %s: %v", p, err))
	}
	if binary {
		return toolResult{"success": true, "path": p, "content": text}
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	from := max(args.Offset, 1) - 1
	to := len(lines)
	if args.Limit > 0 {
		to = min(to, from+args.Limit)
	}
	from = min(from, len(lines))
	part := strings.Join(lines[from:to], "")
	truncated := false
	if len([]rune(part)) > maxReadChars {
		part, truncated = clip(part, maxReadChars), true
	}
	whole := from == 0 && to == len(lines) && !truncated
	if whole {
		tb.reads[p] = true // a full read counts as a view (docs/reference-behaviour.md §2.5)
	}
	res := toolResult{"success": true, "path": p, "content": part, "total_lines": len(lines)}
	if !whole {
		res["partial"] = fmt.Sprintf("lines %d-%d of %d", from+1, to, len(lines))
	}
	if truncated {
		res["truncated"] = true
	}
	return res
}

func (tb *Toolbox) searchFiles(cl *call, data []byte) toolResult {
	var args struct {
		Pattern string `json:"pattern"`
		Target  string `json:"target"`
		Path    string `json:"path"`
		Limit   int    `json:"limit"`
	}
	if r := decodeArgs(SearchFiles, data, &args); r != nil {
		return r
	}
	if args.Pattern == "" {
		return argsRefusal("pattern is required")
	}
	root := "."
	if args.Path != "" && args.Path != "." {
		p, err := cleanRel(args.Path)
		if err != nil {
			return argsRefusal(err.Error())
		}
		root = p
	}
	limit := args.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	v, err := tb.currentView(cl.ctx)
	if err != nil {
		return failure("search_files: " + err.Error())
	}
	var match func(p string) bool
	var re *regexp.Regexp
	switch args.Target {
	case "files":
		if _, err := path.Match(args.Pattern, ""); err != nil {
			return argsRefusal(fmt.Sprintf("bad glob %q: %v", args.Pattern, err))
		}
		match = func(p string) bool {
			ok, _ := path.Match(args.Pattern, p)
			base, _ := path.Match(args.Pattern, path.Base(p))
			return ok || base
		}
	case "", "content":
		re, err = regexp.Compile(args.Pattern)
		if err != nil {
			re = regexp.MustCompile(regexp.QuoteMeta(args.Pattern))
		}
	default:
		return argsRefusal(fmt.Sprintf("unknown target %q: use content or files", args.Target))
	}
	var found []map[string]any
	more := false
	err = fs.WalkDir(v.FS(), root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if len(found) >= limit {
			more = true
			return fs.SkipAll
		}
		if match != nil {
			if match(p) {
				found = append(found, map[string]any{"path": p})
			}
			return nil
		}
		text, binary, err := readText(v.FS(), p)
		if err != nil || binary {
			return nil
		}
		for i, line := range strings.Split(text, "\n") {
			if re.MatchString(line) {
				if len(found) >= limit {
					more = true
					return fs.SkipAll
				}
				found = append(found, map[string]any{"path": p, "line": i + 1, "text": clip(strings.TrimRight(line, "\r"), 200)})
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return failure(fmt.Sprintf("no such folder: %s", root))
	}
	if err != nil {
		return failure("search_files: " + err.Error())
	}
	if found == nil {
		found = []map[string]any{}
	}
	res := toolResult{"success": true, "matches": found, "count": len(found)}
	if more {
		res["truncated"] = true
		res["hint"] = "more matches exist; narrow the pattern or the path"
	}
	return res
}
