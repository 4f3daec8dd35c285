// Package agentsession is what runs on each agent hook event: the
// agent-session side of skillrepo's loop. Package hooks installs the
// handlers into an agent's settings; those handlers call `skillrepo hooks
// run <agent> <event>`, which calls [Run].
//
// [Run] reads the event JSON the agent sends on stdin and does that
// event's part of the loop, one file per concern:
//
//   - start.go: SessionStart — the outside-edit sync (detached), the
//     memory snapshot, reloadSkills when the skills changed since the
//     session saw them (seen.go), a due curator run, a goal set for the
//     next session;
//   - uses.go: PostToolUse and UserPromptExpansion — skill use counting,
//     once per tool_use_id;
//   - stop.go: Stop — the pluggable [StopJudge] first (the goal loop),
//     then the nudge counters over the transcript (transcript.go, read
//     incrementally from a mark: marks.go) and a queued review;
//     UserPromptSubmit — a typed prompt pauses a pending goal, and
//     interrupts a running review on the local model (interrupt.go);
//   - end.go: SessionEnd — the final review, and a detached worker
//     (package worker) whenever work is queued;
//   - log.go: the hooks log the caller writes [Report] notes to.
//
// The caller logs any error and exits 0: a hook never breaks the agent.
// docs/agents.md states the contract.
package agentsession
