// Package hooks installs skillrepo's git hook shims and agent hooks, and
// implements the hook entry points they call back into.
//
// # Agent hooks
//
// [InstallAgent] and [UninstallAgent] merge skillrepo's handlers into
// Claude Code's settings.json or Codex's hooks.json of a scope, editing
// the JSON in place (gjson/sjson) so every other key and hook stays, in
// order; a handler is ours when its command holds "hooks run <agent> ".
// [RunAgentHook] is what those handlers run: it reads the event JSON the
// agent sends on stdin and does that event's part of the loop: the
// session-start sync (detached), memory snapshot and reloadSkills, skill
// use counting once per tool_use_id, the nudge counters at Stop (after a
// pluggable [StopJudge]), the review queue and a detached worker (package
// worker). The caller logs any error and exits 0. docs/agents.md states
// the contract.
//
// # Shims
//
// [InstallGit] writes a small generated shell script as the repository's
// pre-commit hook (in the folder `git rev-parse --git-path hooks` names,
// so core.hooksPath and linked worktrees are honoured). The script is
// marked as generated and only calls `skillrepo hooks run pre-commit`; the
// logic stays in Go. A pre-commit hook the user already had is renamed to
// pre-commit.skillrepo-chained and run first, so installing never loses a
// hook. Installing again rewrites the shim and changes nothing else.
//
// # Entry points
//
// [PreCommit] lints what is about to be committed: the staged version of
// every skill the commit touches, read from git's index (GIT_INDEX_FILE is
// honoured, so `git commit -a` and partial commits are checked as they
// will be recorded), never the work tree. It shells out to the git binary,
// which is always present when a git hook runs; package lint itself stays
// pure and sees the index only as an fs.FS ([IndexFS]).
package hooks
