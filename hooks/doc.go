// Package hooks installs skillrepo's git hook shim and agent hooks, and
// implements the pre-commit check the shim calls back into. It knows
// nothing of the library's engine, the review, the curator or the worker.
//
// # Agent hooks
//
// [InstallAgent] and [UninstallAgent] merge skillrepo's handlers into
// Claude Code's settings.json or Codex's hooks.json of a scope, editing
// the JSON in place (gjson/sjson) so every other key and hook stays, in
// order; a handler is ours when its command holds "hooks run <agent> ".
// What those handlers run, on each event, is package agentsession: this
// package only installs, and names the agents and events ([Agent],
// [ParseEvent]).
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
// will be recorded), never the work tree, under the settings of the staged
// .skillrepo/config.yaml, which must itself have no problem. It shells out
// to the git binary, which is always present when a git hook runs; package
// lint itself stays pure and sees the index only as an fs.FS ([IndexFS]).
package hooks
