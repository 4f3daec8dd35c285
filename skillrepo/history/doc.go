// Package history reads what happened to the skills of a library: for
// every commit, which skill folders differ from each parent (the history
// index, kept in a cache file), a skill's log followed through renames,
// moves, archive and restore, and blame. It reads git through the engine
// (package skillrepo/internal/gitstore) and writes nothing but its cache;
// the domain (package skillrepo) opens it and adds what needs the
// library: finding a skill in a branch, the trailer vocabulary and the
// ownership computed from the records (docs/architecture.md §1).
package history

import "github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"

// Hash is a git object id, the engine's (the same type as
// skillrepo.Hash).
type Hash = gitstore.Hash

// Progress hears how far the indexing of commits not yet in the cache has
// got (the same methods as skillrepo.Progress).
type Progress interface {
	Start(what string, total int)
	Add(n int)
	Done()
}
