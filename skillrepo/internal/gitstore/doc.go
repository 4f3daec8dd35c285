// Package gitstore is skillrepo's git engine: the object store (loose
// objects, packs), trees, the index codec, refs and git's lock-file
// compare-and-swap, the repository lock, the intent record and its
// recovery, durability barriers, background maintenance (git gc) and the
// update of the touched paths in the work tree and index. It speaks git —
// hashes, trees, commits, refs, a transaction that commits and moves a
// ref — and knows nothing of skills: the skills domain (package
// skillrepo) sits on top of it. It is the only package of skillrepo that
// imports go-git (internal/archtest checks both arrows).
//
// # API
//
// Opening and the repository:
//
//   - [Open], [Init], [Repo] (Root, GitDir, DefaultBranch, Prefix), [Repo.Close],
//     [Repo.Recover], [Repo.RecoverLocked], [Repo.Lock], [Repo.StateDir],
//     [Repo.Now], [Repo.Getenv], [Repo.GitEnv], [Repo.Signatures].
//   - Refs: [Repo.ReadRef], [Repo.UpdateRef] (compare-and-swap),
//     [Repo.DeleteRef], [Repo.ListRefs], [Repo.HeadBranch],
//     [Repo.ResolveBranch], [Repo.ResolveRev], [BranchRef].
//   - Remotes without the git binary: [Repo.RemoteRefs], [Repo.RemotePush],
//     [Repo.RemoteFetch].
//
// Writing — the transaction:
//
//   - [Repo.Update] runs a function with a [Tx] and commits it as one
//     atomic write of a branch ([UpdateOptions], [UpdateResult]).
//   - [Tx] reads ([Tx.ReadFile], [Tx.Exists], [Tx.IsDir], [Tx.List],
//     [Tx.Stat], [Tx.Staged], [Tx.Base], [Tx.Tree], [Tx.Branch]), stages
//     ([Tx.WriteFile], [Tx.Remove], [Tx.RemoveAll], [Tx.Move], [Tx.Stage],
//     [Tx.AddParent]) and commits ([Tx.Commit], [Tx.CommitEmpty],
//     [Tx.FastForward]).
//
// Reading — the snapshot reader:
//
//   - [Store] ([Repo.NewStore], [Tx.Store]): [Store.Blob], [Store.Tree],
//     [Store.Entry], [Store.Decoded], [Store.LookupPath], [Store.Subtree],
//     [Store.WalkTree], [Store.CommitInfo], [Store.RawCommit], and
//     [Store.Put] / [Store.Sync] for objects a caller builds itself (a
//     merge commit).
//   - [ObjectReader] ([Repo.NewObjectReader]) for long history walks;
//     [Repo.CommitObject], [Repo.ObjectExists].
//   - The index and work tree: [Repo.ReadIndex], [Index.EachName],
//     [Repo.WorktreeHash], [Repo.ScanWorktree], [ScanFolder], [ModeOf].
//   - A library in a folder of a project's repository (prefix.go):
//     [Options].Prefix, [Repo.RepoPath], [Store.RootCommitInfo],
//     [Store.SameOutsidePrefix], [CleanPrefix], [PrefixStateName].
//   - Values: [Hash], [ZeroHash], [NewHash], [IsHash], [ShortHash],
//     [FileMode] and its Mode* constants, [ObjectType], [TreeEntry],
//     [DecodedTree], [Change], [Signature], [Commit], [HashObject],
//     [EncodeCommit], [CompareTreeNames], [TreeEntryLess], [CleanPath].
//
// Errors: [ErrNotFound], [ErrExists], [ErrConflict] (*[DirtyError],
// *[RefMovedError]), [ErrLocked] (*[LockedError]), [ErrNoChanges],
// [ErrPushRejected].
//
// # The write path
//
// Every write goes through [Repo.Update]. A write:
//
//  1. takes the repository lock, an flock on .git/skillrepo/lock (a second
//     writer waits, then fails with [ErrLocked] naming the holder; the
//     kernel drops the lock when a holder dies), and finishes any
//     interrupted earlier write (step 7 below);
//  2. reads the branch tip and builds the new blobs, trees and commit(s)
//     directly in the object store, rebuilding only the trees on the
//     changed paths (tree.go: the untouched entries of a tree are copied
//     as bytes); each object is written to a temp file under
//     .git/skillrepo/tmp and renamed into objects/ — unreachable until a
//     ref names it, so an abandoned write is garbage git ignores;
//  3. writes the intent record .git/skillrepo/intent.json (ref, old tip,
//     new tip, paths, whether the branch looks checked out, and the nonce
//     of the index.lock it is about to take), renames it into place and
//     makes it and the objects durable (see Durability);
//  4. takes git's index.lock (indexlock.go), waiting, like for the
//     repository lock, while a git command holds it, and under it reads
//     HEAD, the branch and the index. They must belong together: git
//     switch writes the index, releases index.lock and only then moves
//     HEAD, so an index whose tree (its cache-tree root) is not HEAD's
//     and was written a moment ago means HEAD is about to follow, and
//     the write waits for it; an index written a moment ago whose tree
//     is HEAD's may still be a switch between two branches at one commit,
//     so the git commands that move HEAD after writing the index and are
//     still running in the work tree are waited for first (issue 40
//     item 5: TestLoadSwitchCreate). A branch that moved since step 2 reruns
//     the write on the new tip: twice, then a last time that takes
//     index.lock (and writes a record naming it) before step 2 and holds
//     it throughout, so no git commit can move the branch under it and a
//     person committing in a loop cannot starve the write. HEAD decides here
//     whether the branch is checked out; if that differs from the
//     record, the record is rewritten;
//  5. when the branch is checked out, checks every touched path against
//     that index and the work tree and refuses ([DirtyError], exit 3) if
//     one holds content that is neither the old nor the new version (an
//     uncommitted edit is never overwritten); then writes each touched
//     file (temp file in .git/skillrepo/tmp, rename; a moved file is
//     renamed) or removes it, and replaces the index (temp file, rename)
//     with fresh stat data for those paths only, so git status is clean
//     afterwards. If a file cannot be written, what was written is put
//     back and the write fails: nothing landed;
//  6. moves the branch ref with git's lockfile protocol: <ref>.lock is
//     created exclusively, written, compared against the current value
//     (loose, then packed) and renamed over the ref — a compare-and-swap
//     git itself honours. The index is in place before the ref moves,
//     and both under index.lock: git commit reads HEAD, then the index,
//     then takes index.lock, so it sees the old branch with the old index
//     or the new branch with the new index, never the new branch with the
//     old index, whose commit would undo this write. Then, still holding
//     index.lock, it waits (at most 200 ms) for the git processes running
//     in the work tree that may have read HEAD or the branch before the
//     move: git switch reads both before it takes index.lock, and would
//     otherwise check out the old tip, or keep this write's new files as
//     its own additions; while the write holds the lock it fails instead
//     (gitreaders_linux.go). It releases index.lock;
//  7. fsyncs the touched folders (up to 64; a bulk move relies on the
//     file system journaling metadata in order, as ext4 and xfs do) and
//     removes the intent record.
//
// Why this survives a crash (kill -9 or power loss) at any instant:
//
//   - Before step 3 nothing visible changed: new objects are unreachable,
//     temp files live in .git/skillrepo/tmp, which the next command
//     deletes. The branch, index and work tree still agree.
//   - Between 3 and 6 the intent record exists and the ref still holds
//     the old tip; the work tree and index may hold any mix of old and
//     new versions of the touched paths (each file is replaced by a
//     rename, never half-written; the index by a rename). Recovery puts
//     the recorded paths back to the old version, except a file (or index
//     entry) that holds neither version (a user's edit made after the
//     crash), which it keeps, and removes the record. A torn record
//     cannot exist: it is published by a rename.
//   - After 6 the ref holds the new tip, and the objects it names were
//     made durable before it moved (see Durability); the work tree and
//     index were complete before it. Recovery brings the recorded paths to
//     the new version (idempotent), keeping a user's edit, and removes
//     the record.
//   - A stale <ref>.lock holding nothing or our new tip is removed by
//     recovery, and so is an index.lock holding exactly the nonce the
//     record names (ours: from its creation, a hard link of a temp file
//     holding the nonce, to its removal, it holds nothing else). Any other
//     index.lock is a git command's: recovery waits for it, then reports
//     it ([LockedError]); it never removes it.
//
// Durability comes in one of two forms, the same ordering either way. By
// default on Linux (work tree and .git on one file system) nothing is
// fsynced as it is written; instead syncfs(2) runs twice: after step 3,
// so the objects and the intent record are on disk before the work tree,
// index or ref change,
// and after step 6, before the record is removed. The form is chosen
// before step 2, so the objects are covered too. Elsewhere, or with
// SKILLREPO_SYNC=file, every object, the intent record, the ref lock, each
// work-tree file, the index and their folders are fsynced as written.
// Every fsync goes through Repo.syncFile, syncDir or writeDurable, and
// a test counts them in both forms.
// syncfs flushes the whole file system: on a machine busy writing large
// files it can take longer than per-file fsyncs, which is what
// SKILLREPO_SYNC=file is for.
//
// Recovery runs at [Repo.Recover] (one stat when there is nothing to do;
// the library calls it when it opens) and at the start of every write,
// under the lock. Afterwards the branch, the index and the work tree
// agree and git fsck is clean.
//
// go-git's worktree Status/Add and its ref and index writers are not on
// this path: Status walks the whole tree, and go-git rewrites refs and the
// index in place without git's lock files (docs/git-format.md).
package gitstore
