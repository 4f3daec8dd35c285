// Package goals keeps an agent working on a standing goal until a judge
// model says the goal is met (docs/reference-behaviour.md §9).
//
// A goal belongs to one agent session. Its state is a small JSON file,
// .git/skillrepo/goals/<session>.json, replaced atomically and changed
// only under the session's lock, so two hook calls for one session never
// lose a turn count. A goal set before the agent starts, with no session,
// waits in next.json until the agent's SessionStart hook binds it
// ([Store.BindPending]).
//
// After every turn the agent's Stop hook calls [Evaluator.AfterTurn]. It
// counts the turn, asks the judge, and returns an [Outcome]: let the agent
// stop (done, wait, paused, or a failure of our own), or block it with a
// continuation prompt. Three rules keep an agent from ever being trapped:
//
//   - the turn budget (max_turns, default 20) pauses the goal when spent;
//     Codex has no cap of its own on a Stop hook that keeps blocking, so
//     this budget is the only guard there;
//   - the judge fails open, as the reference's does: one that errors,
//     times out or answers nothing means continue (the turn budget is the
//     backstop), and three unreadable verdicts in a row pause the goal; a
//     failure of our own (the goal's state unreadable) lets the agent stop;
//   - without a session id nothing is ever blocked.
//
// The package knows nothing of git or of any agent's hook format; the
// hooks package translates an agent's event into a [Turn] and an
// [Outcome] back into the agent's output JSON.
package goals
