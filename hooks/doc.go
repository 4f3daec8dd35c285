// Package hooks installs skillrepo's git hook shim and agent hooks, and
// implements the pre-commit check the shim calls back into. It knows
// nothing of the library's engine, the review, the curator or the worker.
//
// # Agent hooks
//
// [InstallAgent] and [UninstallAgent] merge skillrepo's handlers into the
// JSON settings file an agent reads at a scope, editing the text in place
// (package internal/jsonedit) so every other key and hook keeps its bytes
// and order; a handler is ours when its command holds "hooks run <agent> ".
// What differs between agents — the handlers, the file per scope, the
// skills folder, the format's quirks — is a [Target], which each agent's
// folder implements (agents/<name>/install.go); Codex's hook trust is
// agents/codex. Hermes Agent's shell hooks live in its config.yaml
// ([InstallHermes]). What the handlers run, on each event, is package
// agentsession; the agents' and events' names are package agent's.
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
