// Package merge is skillrepo's own three-way merge: a line-level diff3 for
// one file ([Merge3Labels]) and a path-level merge of whole trees ([MergeTrees]),
// plus the unified diff ([Unified], [DiffStat]) that reviewing a proposal
// needs, on the same line diff.
// go-git only fast-forwards, so approving a proposal after main has moved
// needs this package (docs/git-format.md §8).
//
// The package is pure: it reads and writes byte slices and maps, never a
// repository, so it can be tested against git itself and reused by any
// caller that can list entries and read blobs.
//
// # Line merge
//
// [Merge3Labels] reproduces `git merge-file -p --diff3` (git's "eager" level,
// which is what git uses whenever the diff3 style is asked for):
//
//   - Lines are split after each "\n" and compared byte for byte, so a last
//     line without a newline differs from the same text with one, and a
//     "\r" before the newline is part of the line (CRLF files merge as such).
//   - Each side is diffed against the base with the Myers line diff of
//     github.com/sergi/go-diff (timeouts off, so the diff is minimal), and
//     the change groups are then slid the way git's xdiff compacts them, so
//     ambiguous insertions land where git puts them.
//   - A change on one side only is taken. Changes of both sides that
//     overlap or merely touch (no unchanged base line between them) form one
//     conflict region, unless both made the very same change to the same
//     base lines, which is taken once.
//   - A conflict is written with git's markers, base section included:
//     "<<<<<<< ours", "||||||| base", "=======", ">>>>>>> theirs". Marker
//     lines end in "\r\n" when the surrounding text does, as git decides it.
//
// diff-match-patch's fuzzy PatchApply is never used: it reports success
// while blending or duplicating text and hides every conflict (docs/git-format.md
// §8). When the two sides' diffs are ambiguous (repeated lines), git and
// this package may align them differently; both are valid merges, and the
// tests pin equality with git on every unambiguous input.
//
// # Tree merge
//
// [MergeTrees] merges three path→[Entry] maps. A path changed on one side
// takes that side; changed identically on both sides it takes either;
// changed differently on both it is text-merged with [Merge3Labels] when both are
// regular text files, and reported as a [PathConflict] otherwise (binary
// content, different file types, modify/delete, a file on one side where
// the other has a directory). The result lists the changes to apply to
// "ours" (sorted by path) or the conflicts; a caller that meets a conflict
// writes nothing, so a tree is never half merged. There is no rename
// detection: a skill moved on one side and edited on the other is a
// delete/modify conflict, which is the safe answer for a review queue.
package merge
