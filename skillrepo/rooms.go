package skillrepo

// The library's rooms, as go-git splits a Repository into its Worktree and
// Remotes: a [Library] opens, reads skills (Snapshot), names its branches,
// and hands out its write policy ([Library.Policy]) and a few handles, each
// the verbs of one concern. A handle is a value over the library, cheap to
// take and valid while the library is open; like the library, it is not
// safe for concurrent writes (docs/architecture.md §1).

// History reads what happened to the library: a skill's events, log and
// blame, commits on the main branch, and the folders archives moved.
type History struct{ l *Library }

// History is the library's history room.
func (l *Library) History() History { return History{l} }

// Proposals are the library's proposal branches: listing, reading and
// diffing them and the merge that approved one, read by the room below
// the domain skillrepo/proposals (publishing one to the team's remote is
// skillrepo/remote's). Approving and rejecting are writes:
// [Policy.ApproveProposal] and [Policy.RejectProposal].
type Proposals struct{ l *Library }

// Proposals is the library's proposals room.
func (l *Library) Proposals() Proposals { return Proposals{l} }

// Owners says who owns each skill (curator-managed or the person's), read
// from history, and which skills are pinned.
type Owners struct{ l *Library }

// Owners is the library's ownership room.
func (l *Library) Owners() Owners { return Owners{l} }

// Memory reads the agent's memory stores (MEMORY.md, USER.md), their
// limits and whether the person edited one on disk; a change is a write:
// [Policy.ChangeMemory].
type Memory struct{ l *Library }

// Memory is the library's memory room.
func (l *Library) Memory() Memory { return Memory{l} }

// Remote is the domain's side of the shared remote (remote.go): the
// handle the remote room, skillrepo/remote, takes for what only the
// domain may do — refs, the commit graph, the engine's transports, main
// moved through the write engine. Sync, push, pull, publish and status
// are the room's (docs/remote.md); the domain does not import it.
type Remote struct{ l *Library }

// Remote is the handle of the library's remote room.
func (l *Library) Remote() Remote { return Remote{l} }

// CuratorRuns are the refs a curator run leaves (its branch, the main
// branch's tip before it) and what Hermes' own curator recorded.
type CuratorRuns struct{ l *Library }

// CuratorRuns is the library's curator-runs room.
func (l *Library) CuratorRuns() CuratorRuns { return CuratorRuns{l} }
