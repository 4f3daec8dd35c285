// Package remote is the library's shared remote (docs/remote.md): sync
// (fetch, main brought in and sent out with a lease, lost races retried,
// this clone's work set aside as a proposal when it cannot be shared),
// push and pull, publishing a proposal with its pull request (gh, glab),
// and what status shows of it — a room of the domain, as go-git's Remote
// is a room of its Repository.
//
// It sits above the domain (docs/architecture.md §1, §3.1): it opens a
// [skillrepo.Library] and asks it, through the handle
// [skillrepo.Library.Remote] hands out (the [domain] interface below,
// defined here where it is used), for what only the domain may do — read
// refs and the commit graph, reach the remote through the engine's
// transports, move main through the write engine, move the refs a remote
// shares. It imports neither the engine nor go-git and runs no git of its
// own; the domain does not import it.
package remote

import (
	"context"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// domain is what the room asks of the library beyond its front door
// (skillrepo.Remote, rooms.go, is the one implementation).
type domain interface {
	Ref(name string) (skillrepo.Hash, error)
	Refs(prefix string) (map[string]skillrepo.Hash, error)
	Has(h skillrepo.Hash) bool
	Folder() string
	URL(remote string) (string, error)
	Getenv(k string) string
	Now() time.Time
	RefsStamp() string
	Origin(commit skillrepo.Hash) string
	SameOutsideFolder(a, b skillrepo.Hash) (bool, error)
	LintVerdict(p *skillrepo.Proposal) string
	Graph() skillrepo.Graph

	Transport(goGit bool) skillrepo.Transport
	GitTransport() (skillrepo.Transport, error)

	MoveRef(ref string, new, old skillrepo.Hash, reflog string) error
	SettleProposal(id string, tip skillrepo.Hash, squashed bool) error
	FastForwardMain(ctx context.Context, theirs skillrepo.Hash, from, reflog string, dryRun bool) (*skillrepo.UpdateResult, string, error)
	MergeMain(ctx context.Context, theirs skillrepo.Hash, remote string) (string, error)
	MainToProposal(ctx context.Context, id string, theirs skillrepo.Hash, from, reason string) (bool, error)
}

// Remote is one library's shared remote. Like the library, it is not safe
// for concurrent use; remote operations of one clone take its remote
// lock (state.go).
type Remote struct {
	lib *skillrepo.Library
	d   domain
}

// New is lib's shared remote, valid while lib is open.
func New(lib *skillrepo.Library) *Remote { return &Remote{lib: lib, d: lib.Remote()} }

// proposalRefPrefix is where proposal branches live.
const proposalRefPrefix = "refs/heads/" + skillrepo.ProposalBranchPrefix

// branchRef is a branch's full ref name.
func branchRef(branch string) string {
	if strings.HasPrefix(branch, "refs/") {
		return branch
	}
	return "refs/heads/" + branch
}
