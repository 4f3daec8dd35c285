// Package skillrepo is the skills library: a folder of SKILL.md packages
// that is also a git work tree. It opens and initialises libraries, writes
// every change as a commit with provenance trailers, reads skills from any
// branch or commit, and keeps the usage sidecar. It is the only package of
// skillrepo that imports go-git.
//
// # The write engine
//
// Every write goes through [Library.Update] (skill operations through
// [Library.Apply], which calls it). A write:
//
//  1. takes the library lock, an flock on .git/skillrepo/lock (a second
//     writer waits, then fails with [ErrLocked] naming the holder; the
//     kernel drops the lock when a holder dies), and finishes any
//     interrupted earlier write (step 7 below);
//  2. reads the branch tip and builds the new blobs, trees and commit(s)
//     directly in the object store, rebuilding only the trees on the
//     changed paths (tree.go: the untouched entries of a tree are copied
//     as bytes); each object is written to a temp file under
//     .git/skillrepo/tmp and renamed into objects/ — unreachable until a
//     ref names it, so an abandoned write is garbage git ignores;
//  3. when the branch is checked out, checks every touched path against
//     the index and the work tree and refuses ([DirtyError], exit 3) if
//     one holds content that is neither the old nor the new version: an
//     uncommitted edit is never overwritten;
//  4. writes and fsyncs the intent record .git/skillrepo/intent.json
//     (ref, old tip, new tip, paths) and renames it into place;
//  5. moves the branch ref with git's lockfile protocol: <ref>.lock is
//     created exclusively, written, fsynced, compared against the current
//     value (loose, then packed) and renamed over the ref — a
//     compare-and-swap git itself honours; a moved ref reruns the write on
//     the new tip (up to three times);
//  6. when the branch is checked out, writes each touched file (temp file
//     in .git/skillrepo/tmp, fsync, rename; a moved file is renamed) or
//     removes it, then rewrites the index through index.lock with fresh
//     stat data for those paths only, so git status is clean afterwards,
//     and fsyncs the touched folders (up to 64; a bulk move relies on the
//     file system journaling metadata in order, as ext4 and xfs do);
//  7. removes the intent record.
//
// Why this survives a crash (kill -9 or power loss) at any instant:
//
//   - Before step 4 nothing visible changed: new objects are unreachable,
//     temp files live in .git/skillrepo/tmp, which the next command
//     deletes. The branch, index and work tree still agree.
//   - Between 4 and 5 the intent record exists but the ref still holds
//     the old tip: recovery sees ref == old and discards the record.
//     A torn record cannot exist: it is published by a rename.
//   - After 5 the ref holds the new tip, and the objects it names were
//     made durable before it moved (see Durability). The work tree and index may hold
//     any mix of old and new versions of the touched paths (each file is
//     replaced by a rename, never half-written; the index by a rename).
//     Recovery rewrites exactly the recorded paths to the new version,
//     except a file whose content is neither the old nor the new version
//     (a user's edit made after the crash), which it keeps; then it
//     rewrites their index entries and removes the record.
//   - A stale <ref>.lock holding nothing or our new tip, and an index.lock
//     newer than the record whose writer is dead, are removed by recovery.
//
// Durability comes in one of two forms, the same ordering either way. By
// default on Linux (work tree and .git on one file system) nothing is
// fsynced as it is written; instead syncfs(2) runs twice: after step 4,
// so the objects and the intent record are on disk before the ref moves,
// and after step 6, before the record is removed. The form is chosen
// before step 2, so the objects are covered too. Elsewhere, or with
// SKILLREPO_SYNC=file, every object, the intent record, the ref lock, each
// work-tree file, the index and their folders are fsynced as written.
// Every fsync goes through Library.syncFile, syncDir or writeDurable, and
// a test counts them in both forms.
// syncfs flushes the whole file system: on a machine busy writing large
// files it can take longer than per-file fsyncs, which is what
// SKILLREPO_SYNC=file is for.
//
// Recovery runs at [Open] (one stat when there is nothing to do) and at
// the start of every write, under the lock. Afterwards the branch, the
// index and the work tree agree and git fsck is clean.
//
// go-git's worktree Status/Add and its ref and index writers are not on
// this path: Status walks the whole tree, and go-git rewrites refs and the
// index in place without git's lock files (docs/git-format.md §11).
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
