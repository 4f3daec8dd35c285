package agenttools

import (
	"context"
	"io/fs"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// The tools reach the skills library only through the interfaces below,
// so the tools and their guards can be read (and reasoned about) without
// the write engine. [Open] wires them to package skillrepo.

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
	// Find looks up one active skill by folder name or category/name
	// (false when there is none).
	Find(name string) (SkillRef, bool, error)
}

// Ownership says whether an autonomous writer may write to a skill.
type Ownership struct {
	// Managed: history shows a review or the curator created the skill,
	// or a person adopted it. Without such evidence a skill is user-owned.
	Managed bool
	Pinned  bool
	// Protected: the config's protected list names it (Pinned is set too).
	Protected bool
}

// SkillStatus is what a person-facing listing adds to a skill: its
// lifecycle state from the usage sidecar and whether it is pinned.
type SkillStatus struct {
	State  string // active, stale or archived ("" when unknown: active)
	Pinned bool
}

// Reader reads the library.
type Reader interface {
	// View returns a view of a branch's tip (or any revision).
	View(ctx context.Context, rev string) (View, error)
	// Ownership reports who owns the skill named name at rev. An error
	// means the evidence is unavailable, and the guard refuses.
	Ownership(ctx context.Context, rev, name string) (Ownership, error)
	// Status reports every skill's state and pin at rev, by name; a
	// skill without a record is missing from the map.
	Status(ctx context.Context, rev string) (map[string]SkillStatus, error)
}

// MemoryChange is one call of the memory tool.
type MemoryChange struct {
	Target  memory.Target
	Action  string // add, replace, remove or batch
	Content string
	OldText string
	Ops     []memory.Op // for batch
}

// Target is a write's writer, as the library's write policy judges it
// (its provenance, branch, session reads), and whether to write at all.
type Target struct {
	skillrepo.Writer
	// DryRun validates the write completely and writes nothing.
	DryRun bool
}

// Writer writes commits. Each method makes exactly one commit on the
// target branch and returns the commit's hash; an error means nothing was
// written. A dry run returns "" and the error a real write would have met.
type Writer interface {
	// Apply applies skill_manage operations (all or nothing). A delete
	// from an autonomous origin archives the skill. The write lands on
	// the target's Branch, or on its Stage when the policy staged it
	// (staged: a review's change to the person's skill).
	Apply(ctx context.Context, t Target, ops []Op) (Applied, error)
	// Held are the creates the write policy holds for the target's
	// session, waiting for the files they link; EndHeld ends the session
	// and returns those that never landed (skillrepo.Policy.Held).
	Held(t Target) ([]skillrepo.HeldCreate, error)
	EndHeld(t Target) ([]skillrepo.HeldCreate, error)
	// Memory applies a memory change to the store file.
	Memory(ctx context.Context, t Target, ch MemoryChange) (memory.Result, string, error)
}

// Applied is what a skill write did: one commit (none in a dry run), on
// the target's Branch or its Stage (Staged); or nothing, the create held
// for the files it links (Held). Joined are the held creates that landed
// with it, Expired those of the session that waited too long and were
// dropped.
type Applied struct {
	Commit          string
	Staged          bool
	Held            *skillrepo.HeldCreate
	Joined, Expired []skillrepo.HeldCreate
}

// Library is everything the tools need.
type Library interface {
	Reader
	Writer
	// MainBranch names the branch agents read.
	MainBranch() string
}

// Op is one skill_manage operation in the tool's shape
// (docs/reference-behaviour.md §4.1); the write engine defines it, with
// pointers that tell "absent" from "empty" where the reference does.
type Op = skillrepo.Op
