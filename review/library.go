package review

import (
	"context"
	"io/fs"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// The review reaches the skills library only through the interfaces below,
// so the loop, its tools and its guards can be read (and reasoned about)
// without the write engine. [Open] wires them to package skillrepo.

// SkillRef is a skill as a view lists it.
type SkillRef struct {
	Name     string // directory name
	Dir      string // slash path of the skill folder from the library root
	Category string // "" for a top-level skill
}

// View is a read-only view of one commit of the library.
type View interface {
	// Commit is the commit the view shows.
	Commit() string
	// FS is the commit's tree: slash paths relative to the library root.
	FS() fs.FS
	// Skills lists the active (not archived) skills.
	Skills() ([]SkillRef, error)
}

// Ownership says whether a background review may write to a skill.
type Ownership struct {
	// Managed: history shows a review or the curator created the skill,
	// or a person adopted it. Without such evidence a skill is user-owned.
	Managed bool
	Pinned  bool
}

// Reader reads the library.
type Reader interface {
	// View returns a view of a branch's tip (or any revision).
	View(ctx context.Context, rev string) (View, error)
	// Ownership reports who owns the skill named name at rev. An error
	// means the evidence is unavailable, and the guard refuses.
	Ownership(ctx context.Context, rev, name string) (Ownership, error)
}

// Provenance is what every commit of a review records in its trailers.
type Provenance struct {
	ReviewID         string
	SessionID        string
	Model            string
	TranscriptSHA256 string
}

// MemoryChange is one call of the memory tool.
type MemoryChange struct {
	Target  memory.Target
	Action  string // add, replace, remove or batch
	Content string
	OldText string
	Ops     []memory.Op // for batch
}

// Writer writes commits. Each method makes exactly one commit on branch,
// creating the branch at from when it does not exist yet, and returns the
// commit's hash; an error means nothing was written.
type Writer interface {
	// Apply applies skill_manage operations (all or nothing). A delete
	// with AbsorbedInto archives the skill.
	Apply(ctx context.Context, branch, from string, ops []Op, prov Provenance) (string, error)
	// Memory applies a memory change to the store file on branch.
	Memory(ctx context.Context, branch, from string, ch MemoryChange, prov Provenance) (memory.Result, string, error)
}

// Merger lands a finished review's proposal branch on the main branch.
type Merger interface {
	// Merge merges branch, forked from main at base, into the main branch
	// and returns the new main tip. It fails, changing nothing, when the
	// merge conflicts.
	Merge(ctx context.Context, branch, base string, prov Provenance) (string, error)
}

// Library is everything a review needs.
type Library interface {
	Reader
	Writer
	Merger
	// MainBranch names the branch agents read (a review forks from it).
	MainBranch() string
}

// Op is one skill_manage operation in the tool's shape (docs/reference-behaviour.md §4.1); the
// write engine defines it, with pointers that tell "absent" from "empty"
// where the reference does.
type Op = skillrepo.Op
