package agentsession

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// sessionStart records outside edits, hands the agent its memory and
// asks it to re-read the skills when they changed since this session (or
// the last one) saw them, and queues a curator run when one is due.
//
// The sync scans the whole work tree (as git status does), which on a
// large library takes longer than an agent should wait at start-up, so
// it runs detached; the memory is read from the work tree's files, so an
// edit made outside skillrepo reaches the agent even before the sync has
// recorded it.
func (h *hookRun) sessionStart(ctx context.Context) error {
	h.touch()
	if h.opts.StartSync != nil {
		if err := h.opts.StartSync(h.lib); err != nil {
			h.rep.notef("start sync: %v", err)
		}
	} else if res, err := h.lib.Sync(ctx, skillrepo.SyncOptions{LeaveStaged: true}); err != nil {
		h.rep.notef("sync skipped: %v", err)
	} else if !res.Commit.IsZero() {
		h.rep.notef("recorded outside edits of %s as %.12s", strings.Join(res.Skills, ", "), res.Commit)
	}
	var blocks []string
	limits := h.lib.Memory().Limits()
	// A resumed session's conversation already holds the memory it was
	// given when it started (the snapshot is frozen per session, as the
	// reference's system prompt is): giving it again would repeat it.
	resumed := h.in.Source == "resume" && sessionSeen(h.state().Hooks(), h.in.SessionID)
	if resumed {
		h.rep.notef("resumed session: its conversation holds its memory already")
	}
	for _, t := range []memory.Target{memory.Memory, memory.User} {
		if resumed {
			break
		}
		p, err := h.lib.Memory().Path(t)
		if err != nil {
			h.rep.notef("memory: %v", err)
			continue
		}
		// Bounded: the file goes into the agent's context, which holds a
		// few thousand characters of it at most (limits[t]).
		data, err := boundedread.ReadFile(filepath.Join(h.lib.Root, filepath.FromSlash(p)), memoryFileLimit)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.rep.notef("memory: %v", err)
			continue
		}
		if b := memory.PromptBlock(memory.File{Target: t, Limit: limits[t], Content: string(data)}); b != "" {
			blocks = append(blocks, b)
		}
	}
	reload := false
	if tip, err := h.lib.MainTip(); err == nil {
		reload, err = seeTip(h.state().Hooks(), h.in.SessionID, tip.String(), h.now)
		if err != nil {
			h.rep.notef("skills seen: %v", err)
		}
	}
	h.curatorIfDue()
	h.remoteAtStart()
	h.pruneSessions()
	if h.opts.Goals != nil && h.in.SessionID != "" {
		line, err := h.opts.Goals.SessionStarted(h.lib, h.in.SessionID)
		if err != nil {
			h.rep.notef("goal: %v", err)
		} else if line != "" {
			blocks = append(blocks, line)
		}
	}
	trouble := strings.Join(nonEmpty(h.welcomeLine(), h.troubleLine(), h.newsLines()), "\n")
	if held := h.lib.HeldSettings(); len(held) > 0 {
		keys := make([]string, len(held))
		for i, k := range held {
			keys[i] = k.Key
		}
		line := fmt.Sprintf("skillrepo: the remote changed %s; this clone keeps the values it had until you read the change (git log -p %s) and run 'skillrepo config accept'", strings.Join(keys, ", "), config.Path)
		trouble = strings.TrimSpace(trouble + "\n" + line)
	}
	if len(blocks) == 0 && !reload && trouble == "" {
		return nil
	}
	reply := map[string]any{}
	if trouble != "" {
		// For the person, not the model: every agent shows a
		// systemMessage to the user (docs/agents.md, "Told in the
		// agent").
		reply["systemMessage"] = trouble
	}
	if len(blocks) == 0 && !reload {
		return h.reply(reply)
	}
	out := map[string]any{"hookEventName": agent.EventSessionStart}
	if len(blocks) > 0 {
		out["additionalContext"] = strings.Join(blocks, "\n\n")
	}
	// Codex's SessionStart output schema has no reloadSkills (it rejects
	// unknown fields); it reads skills at the start of every turn anyway.
	if reload && h.opts.Agent.ReloadSkills() {
		out["reloadSkills"] = true
	}
	reply["hookSpecificOutput"] = out
	return h.reply(reply)
}

// curatorIfDue checks the curator's schedule as the reference does at
// agent start: the first sight of a library seeds it; a due run is
// queued for the worker.
func (h *hookRun) curatorIfDue() {
	if h.lib.Config.Curator.Owner == config.CuratorOwnerHermes {
		return // Hermes' own curator runs; sync records its runs
	}
	store := curator.StoreOf(h.lib)
	st, err := store.Load()
	if err != nil {
		h.rep.notef("curator: %v", err)
		return
	}
	d := curator.Due(st, curator.ScheduleOf(h.lib.Config.Curator), h.now)
	switch {
	case d.Seed:
		if _, err := store.Seed(h.now); err != nil {
			h.rep.notef("curator seed: %v", err)
		}
	case d.Due:
		e, merged, err := queue.New(h.state().Queue()).Enqueue(queue.Entry{Kind: queue.KindCurator, Agent: string(h.opts.Agent.Name()), Due: queue.Due{Reason: "curator due at session start"},
			Model: h.in.Model, Cwd: h.in.Cwd, Program: h.agentProgram(), Env: queue.SessionEnv(h.opts.Getenv)})
		if err != nil {
			h.rep.notef("curator enqueue: %v", err)
			return
		}
		if !merged {
			h.rep.notef("queued curator run %s", e.ID)
		}
		h.ensureWorker()
	}
}
