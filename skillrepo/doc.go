// Package skillrepo is the skills library: a folder of SKILL.md packages
// that is also a git work tree. It opens and initialises libraries, writes
// every change as a commit with provenance trailers, reads skills from any
// branch or commit, and keeps the usage sidecar: operations, proposals,
// ownership, pins, usage, history, init and sync. Whole concerns live in
// its rooms: packages below it that it opens (skillrepo/history: the
// history index, log and blame; skillrepo/usage: the sidecar and the
// usage history), and the shared remote above it (skillrepo/remote: sync,
// push, pull, publish), which takes the [Remote] handle and which this
// package does not import. It imports no go-git: git is reached through
// the engine below.
//
// # The engine underneath
//
// Git itself — objects, packs, trees, the index, refs and their lock
// files, the repository lock, the intent record and crash recovery,
// durability, maintenance and the work-tree update — is the engine,
// package skillrepo/internal/gitstore, which [Library] holds privately.
// Its doc states the write ordering and why it survives a crash. This
// package is the engine's only writer, and its only user but for the
// rooms below it that read through it (skillrepo/history; internal/archtest
// checks both): the packages above it — the CLI, hooks, review, curator, worker, MCP server
// — speak to a library through the verbs here (the write policy's, reads
// of skills, proposals, branches and curator run refs in branches.go, the
// per-clone [State] folders), never through refs, raw tree writes or paths
// under .git. [Open] runs the engine's crash recovery before it returns.
//
// # One door for writes
//
// Every write a door makes is a verb of the write policy, [Policy] (built
// by [Library.Policy] from the writer's provenance): skill batches
// ([Policy.Apply]), pin, unpin, adopt, disown and move with their checks
// inside, archive and restore, memory, approvals and rejections named for
// the writer, and the curator's run branch, landing, rollback and purge
// (policy.go, policy_writes.go, policy_run.go). Underneath, every write of
// this package goes through the unexported Library.update, which hands the
// engine's transaction to the domain code as a writeTx whose commits carry
// the provenance trailers of a [Message]; no raw transaction and no
// unguarded batch is exported (internal/archtest, TestOneDoorForWrites).
//
// # Why this package is the domain
//
// Its import path, github.com/skillrepo/skillrepo/skillrepo, repeats the
// module's name because the package is what the module is about: the
// skills library as a git repository. Everything else is a door to it
// (cmd/skillrepo, hooks, mcpserver), an agent working on it (review,
// curator, goals) or a pure helper below it (skill, merge, memory, lint).
// Renaming it (to "library", say) would say less at call sites
// (library.Open, library.Message) and touch every file of the module for
// no gain in meaning.
//
// # Reading
//
// [Library.Snapshot] is a read-only view of any branch or commit: skill
// discovery (flat <name>/SKILL.md, <category>/<name>/SKILL.md and
// .archive/<name>/SKILL.md) and an [io/fs.FS] for the linter.
//
// # Errors
//
// Functions return errors wrapping [ErrNotFound], [ErrExists],
// [ErrConflict] (*[DirtyError], *[RefMovedError]), [ErrLocked]
// (*[LockedError]) and [ErrRefused] (*[RefusedError]); validation errors
// wrap skill.ErrInvalid.
package skillrepo
