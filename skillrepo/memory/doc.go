// Package memory is the pure model of the agent's memory stores: MEMORY.md
// (target "memory": notes about the environment) and USER.md (target
// "user": who the user is).
//
// A store file is a list of entries joined by [Delimiter] ("\n§\n"); an
// entry may span several lines. Reading splits on the whole delimiter (a
// lone "§" inside an entry is text), trims every entry, drops empty ones and
// keeps the first of identical duplicates. Writing joins the entries with
// the delimiter and nothing else, so a file written here reads back the same
// in the reference system (Hermes Agent, tools/memory_tool.py).
//
// The functions take a file's current content and return its new content;
// they do no I/O. The write engine (package skillrepo) turns each successful
// change into one commit, which is why there is no backup file: the previous
// version is the parent commit.
//
// Invariants the functions keep, following the reference:
//   - A limit counts characters (Unicode code points) of the joined file,
//     2200 for memory and 1375 for the user profile by default. An add,
//     replace or batch whose result is over the limit changes nothing.
//   - replace and remove find entries containing old_text as a substring.
//     No match, or matches in more than one distinct entry, is an error;
//     identical duplicates resolve to the first.
//   - replace, remove and batch refuse to rewrite a file that does not
//     round-trip through parse and render, or that holds an entry longer
//     than the whole limit: someone edited it by hand, and rewriting it would
//     lose their text. add appends and skips that check.
//   - A batch is all or nothing and is checked against the final size only.
package memory
