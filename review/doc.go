// Package review is the background review: it reads a finished
// conversation and lets a model improve the skills library (and the
// agent's memory) from it, through a small set of tools whose every write
// is a commit on a proposal branch. It reproduces the reference system's
// review fork (Hermes Agent; docs/reference-behaviour.md §1–§4, §7) with git underneath.
//
// # Reading transcripts
//
// [Read] turns OpenAI chat-messages JSON (a list, or an object with
// "messages"), Claude Code session files (and Hermes Agent's trace
// export, which has their shape), Codex rollouts and Gemini CLI session
// files (all JSON Lines; Gemini CLI's rules are in transcript_gemini.go)
// into one model:
// [Message]s in chat-completions shape and [Event]s, the user turns and
// model iterations the nudge counters count. For Claude Code:
//   - one API response is spread over one line per content block sharing a
//     message id; those lines make one assistant message and one iteration,
//     even with tool results between them;
//   - a user turn is text the user typed or a custom slash command; tool
//     results, isMeta lines (skill text, caveats), local command output,
//     compaction summaries, "[Request interrupted by user…]" markers and
//     local commands (/compact, /mcp: followed by local output) are not;
//   - sidechain lines (subagents) and lines written by Claude Code itself
//     (model "<synthetic>", API error notices) are left out;
//   - thinking blocks are not replayed.
//
// For Codex (enveloped rollouts and the older bare-item shape):
//   - a user turn is a user_message event, or, in files without those, a
//     user message that is not Codex's own context (environment,
//     AGENTS.md, an aborted-turn notice); developer messages are left out;
//   - a model iteration is a run of model output (reasoning, text, calls)
//     that a tool result or a user message ends; calls are paired with
//     their outputs by call_id; freeform calls (apply_patch) carry their
//     input as {"input": …};
//   - turn_aborted after the last turn's answer marks it interrupted.
//
// Errors are [*ParseError]s naming the file and line.
//
// # Triggers
//
// [Advance] counts the part of a transcript a session's [Counters] have not
// seen yet, with the reference's rules: user turns toward the memory
// interval, model iterations toward the skill interval, a counter reset
// when the agent itself called memory or skill_manage successfully, and no
// review when the last turn was interrupted or has no final answer.
// [CounterStore] keeps the counters as versioned JSON under
// .git/skillrepo/review/sessions/, one locked file per session.
//
// # The loop
//
// [Run] replays the conversation (a system prompt byte for byte, so a
// provider's prefix cache hits; tool calls paired with their results the
// way every provider demands), appends the review instructions (embedded
// text files in prompts/, our paraphrase of docs/reference-behaviour.md §3), and offers
// skills_list, skill_view, skill_manage, memory (only when memory is
// reviewed), read_file and search_files — which, with Options.Project,
// also read the session's project, read-only and guarded (package
// agenttools, project.go), and the prompt says so. It allows at most 16 model calls
// and an input budget of min(600k, 75% of the context window) tokens, 120k
// when the window is unknown, checked before each call; a conversation
// that would not fit is sent as a digest (docs/reference-behaviour.md §2.6). Failed calls are
// retried a bounded number of times (HTTP 408, 409, 429, 5xx, network
// errors, timeouts).
//
// # Guards
//
// The tools are package agenttools's; every guard is the domain's write
// policy (package skillrepo, policy.go; docs/architecture.md §2.1), which
// each tool call writes through as an autonomous writer: writes to
// curator-managed skills that are not pinned (the person's skills through
// a proposal), read before write, delete only with absorbed_into
// (archiving), the secret scan, the duplicate check, the lint gate, the
// batch rules. Every refusal is a tool result the model can read,
// recorded in the [Summary].
//
// # Where writes land
//
// The first write creates proposals/<review-id> from the main branch as it
// was when the review started; each successful tool call is one commit
// there (Skill-Origin: background-review, Review-Id, Session-Id, Model,
// Transcript-Sha256), and the review reads its own writes from it. A
// review that completes (or stops at the call cap) is merged into main
// unless review.write_approval is set; one that fails (model error, budget)
// leaves its branch unmerged. Memory replace and remove from an automatic
// review go to proposals/<review-id>-memory, and a change to a skill the
// person owns (user-owned, or pinned; a protected one is refused) to
// proposals/<review-id>-user: both always wait for the person.
//
// The library is reached through the interfaces of package agenttools
// and a [Merger]; [Open] wires them to package skillrepo.
package review
