package skillrepo

// The domain's side of the shared remote (docs/remote.md). The remote
// room, skillrepo/remote, holds sync, push, pull, publish and status
// above the domain; it asks the domain, through the [Remote] handle, for
// what only the domain may do: read refs and the commit graph, reach the
// remote through the engine's transports (go-git's, and the git binary's
// with the network settings that never prompt or stall: the room runs no
// git of its own), move main through the write engine (a fast-forward,
// the approval's three-way merge, this clone's work set aside as a
// proposal) and move the refs a remote shares with a compare-and-swap.
// The domain does not import the room: it keeps this handle, so a
// library stays one writer (docs/architecture.md §3.1).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/graph"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/proposals"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// TrailerRemote marks the merge commit that brought a remote's main in.
const TrailerRemote = "Remote"

// SettledRefPrefix keeps the tips of proposals merged on the host by a
// squash or a rebase (their own commits are not in main; their changes
// are).
const SettledRefPrefix = "refs/skillrepo/settled/"

// ErrNoGit: the shared remote needs the git binary (go-git's push takes
// seconds per commit, docs/git-format.md §9).
var ErrNoGit = errors.New("the git binary is not on PATH")

// ErrMainDiverged: the remote's main and this clone's do not merge
// cleanly (or the merge would not be a valid library).
var ErrMainDiverged = errors.New("main and the remote's main do not merge")

// Remote state of this clone lives here: remote.json, the published
// proposals and the locks of the remote room.
func (s State) Remote() string { return filepath.Join(s.dir, "remote") }

// RemoteLog is the log a background remote sync appends to.
func (s State) RemoteLog() string { return filepath.Join(s.dir, "logs", "remote.log") }

// Ref reads a ref (ErrNotFound when it does not exist).
func (room Remote) Ref(name string) (Hash, error) { return room.l.repo.ReadRef(name) }

// Refs lists the refs under prefix.
func (room Remote) Refs(prefix string) (map[string]Hash, error) { return room.l.repo.ListRefs(prefix) }

// Has reports whether the repository has object h.
func (room Remote) Has(h Hash) bool { return room.l.repo.ObjectExists(h) }

// Folder is the library's folder in a project's repository ("" when the
// library is the whole repository).
func (room Remote) Folder() string { return room.l.repo.Prefix }

// URL is the URL of the git remote named remote.
func (room Remote) URL(remote string) (string, error) { return room.l.repo.RemoteURL(remote) }

// Getenv reads the environment the library was opened with.
func (room Remote) Getenv(k string) string { return room.l.repo.Getenv(k) }

// Now is the library's clock.
func (room Remote) Now() time.Time { return room.l.now() }

// RefsStamp changes whenever a proposal branch is made, moved or deleted:
// the modification stamps of the folder that holds the proposal branches
// and of packed-refs (a ref written, renamed into place or deleted
// changes its folder's stamp), so a command over a thousand proposals
// pays two stats, not a thousand reads.
func (room Remote) RefsStamp() string {
	var b strings.Builder
	for _, p := range []string{filepath.Join(room.l.repo.GitDir, "refs", "heads", "proposals"), filepath.Join(room.l.repo.GitDir, "packed-refs")} {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%s %d %d;", fi.Name(), fi.ModTime().UnixNano(), fi.Size())
		}
	}
	return b.String()
}

// Origin is the Skill-Origin trailer of commit h ("" when it has none or
// cannot be read).
func (room Remote) Origin(h Hash) string {
	c, err := room.l.repo.CommitObject(h)
	if err != nil {
		return ""
	}
	return trailer.Value(trailer.Parse(c.Message), TrailerOrigin)
}

// SameOutsideFolder reports whether commits a and b have the same files
// outside the library's folder (always true for a whole repository).
func (room Remote) SameOutsideFolder(a, b Hash) (bool, error) {
	return room.l.repo.NewStore(true).SameOutsidePrefix(a, b)
}

// Graph is the commit graph for one operation: commit headers are read
// once and cached.
type Graph struct {
	l *Library
	g *graph.Graph
}

// Graph is a fresh commit graph.
func (room Remote) Graph() Graph { return Graph{l: room.l, g: graph.New(room.l.repo.NewStore(true))} }

// MergeBase is the best common ancestor of a and b, and the number of
// commits b has that a lacks.
func (g Graph) MergeBase(a, b Hash) (Hash, int, error) {
	base, onlyB, err := g.g.MergeBase(a, b)
	return base, len(onlyB), err
}

// Contains reports whether commit a contains commit b (b is a or an
// ancestor of it).
func (g Graph) Contains(a, b Hash) bool {
	if a == b || b.IsZero() {
		return true
	}
	if a.IsZero() || !g.l.repo.ObjectExists(b) {
		return false
	}
	base, _, err := g.g.MergeBase(a, b)
	return err == nil && base == b
}

// sharedRef reports whether ref is one the remote room may move: a
// proposal branch, a rejection or settled record, or a remote-tracking
// ref. Main moves only through the write engine.
func sharedRef(ref string) bool {
	for _, p := range []string{proposalRefPrefix, RejectedRefPrefix, SettledRefPrefix, "refs/remotes/", "refs/skillrepo/remotes/"} {
		if strings.HasPrefix(ref, p) {
			return true
		}
	}
	return false
}

// MoveRef moves one of the refs a remote shares (a proposal branch, a
// rejection or settled record, a remote-tracking ref) from old to new (a
// zero new deletes it; a zero old creates it), with a compare-and-swap:
// ErrConflict when it moved meanwhile. Any other ref is refused.
func (room Remote) MoveRef(ref string, new, old Hash, reflog string) error {
	if !sharedRef(ref) {
		return fmt.Errorf("move %s: not a ref the remote shares: %w", ref, ErrRefused)
	}
	if new.IsZero() {
		return room.l.repo.DeleteRef(ref, old)
	}
	return room.l.repo.UpdateRef(ref, new, old, reflog)
}

// SettleProposal settles proposal id, approved on the host, at tip: its
// branch goes, as after a local approval (squashed: a squash or rebase
// put its changes in main, not its commits, so the tip is kept under
// SettledRefPrefix with its trailers), and its pending usage is
// recorded.
func (room Remote) SettleProposal(id string, tip Hash, squashed bool) error {
	l := room.l
	ref := proposalRefPrefix + id
	if squashed {
		if err := l.repo.UpdateRef(SettledRefPrefix+id, tip, ZeroHash, "skillrepo: proposal "+id+" was merged on the host (squash or rebase)"); err != nil && !errors.Is(err, ErrConflict) {
			return err
		}
	}
	if err := l.repo.DeleteRef(ref, tip); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	l.settlePendingUsage(id, true)
	return nil
}

// Outcomes of [Remote.FastForwardMain].
const (
	FastForwardNone  = ""             // main already contains theirs
	FastForwardAhead = "ahead"        // theirs lacks main's commits: main stays
	FastForwardDone  = "fast-forward" // main moved to theirs
)

// FastForwardMain moves main to theirs (from names it, "origin/main")
// when that is a fast-forward, decided under the library lock on main's
// tip then; the work tree follows, and uncommitted edits are never
// overwritten (*DirtyError). It runs even while the config has problems:
// it takes others' commits (perhaps the fix) and makes none of ours.
func (room Remote) FastForwardMain(ctx context.Context, theirs Hash, from, reflog string, dryRun bool) (*UpdateResult, string, error) {
	l := room.l
	outcome := FastForwardNone
	res, err := l.updateAnyway(ctx, updateOptions{DryRun: dryRun, Reflog: reflog}, func(tx *writeTx) error {
		outcome = FastForwardNone
		ours := tx.gtx.Base()
		g := room.Graph()
		if ours == theirs || g.Contains(ours, theirs) {
			return nil
		}
		if !g.Contains(theirs, ours) {
			outcome = FastForwardAhead
			return nil
		}
		outcome = FastForwardDone
		return fastForward(tx, theirs, from)
	})
	return res, outcome, err
}

// fastForward moves the branch to a descendant commit without making a
// commit: the touched paths are the files that differ between the two
// trees, so the engine updates exactly those in the work tree. The
// commits it brings in (from, e.g. "origin/main") are checked first, as
// git's fsck checks them (treecheck.go).
func fastForward(tx *writeTx, to Hash, from string) error {
	store := tx.gtx.Store()
	news, err := graph.New(store).Incoming(tx.gtx.Base(), to)
	if err != nil {
		return err
	}
	if err := checkIncoming(store, from, news); err != nil {
		return err
	}
	if len(news) > 0 {
		if err := tx.holdIncoming(to, from); err != nil {
			return err
		}
	}
	tree, _, err := store.CommitInfo(to)
	if err != nil {
		return err
	}
	files, err := graph.DifferingFiles(tx.gtx.Store(), tx.gtx.Tree(), tree)
	if err != nil {
		return err
	}
	var paths []string
	for _, t := range files {
		for p := range t {
			paths = append(paths, p)
		}
	}
	return tx.gtx.FastForward(to, tree, paths)
}

// Outcomes of [Remote.MergeMain].
const (
	MergeNone        = ""             // main already has theirs
	MergeFastForward = "fast-forward" // main was behind
	MergeMerged      = "merged"       // a merge commit brought theirs in
)

// MergeMain brings theirs (the remote's main, fetched from remote) into
// main through the write engine: a fast-forward when main is behind, the
// three-way merge (files merged line by line, checked and lint-gated as
// an approval is) when both moved. It decides under the library lock on
// main's tip then, so a local write racing it is merged, not lost.
// Errors: ErrMainDiverged (wrapped, with the paths) when the two do not
// merge into a valid library.
func (room Remote) MergeMain(ctx context.Context, theirs Hash, remote string) (string, error) {
	l := room.l
	outcome := MergeNone
	from := remote + "/" + l.MainBranch()
	_, err := l.update(ctx, updateOptions{Reflog: "skillrepo: remote sync: bring in " + from}, func(tx *writeTx) error {
		outcome = MergeNone
		ours := tx.gtx.Base()
		hist := graph.New(tx.gtx.Store())
		base, _, err := hist.MergeBase(ours, theirs)
		if err != nil {
			return err
		}
		switch {
		case base == theirs:
			return nil // nothing new there
		case base == ours || ours.IsZero():
			outcome = MergeFastForward
			return fastForward(tx, theirs, from)
		}
		news, err := hist.Incoming(ours, theirs)
		if err != nil {
			return err
		}
		if err := checkIncoming(tx.gtx.Store(), from, news); err != nil {
			return err
		}
		if err := tx.holdIncoming(theirs, from); err != nil {
			return err
		}
		var baseTree Hash
		if !base.IsZero() {
			if baseTree, _, err = tx.gtx.Store().CommitInfo(base); err != nil {
				return err
			}
		}
		theirTree, _, err := tx.gtx.Store().CommitInfo(theirs)
		if err != nil {
			return err
		}
		m := Message{Subject: fmt.Sprintf("Merge %s into %s", from, l.MainBranch())}
		m.Add(TrailerRemote, remote)
		_, gateErr, err := commitMerge(tx, baseTree, theirs, theirTree, merge.Labels{Ours: l.MainBranch(), Base: "merge base", Theirs: from}, m,
			func(c []merge.PathConflict) error { return fmt.Errorf("%w: %s", ErrMainDiverged, conflictPaths(c)) })
		if err != nil {
			return err
		}
		var ge *GateError
		if errors.As(gateErr, &ge) {
			return fmt.Errorf("%w: the merge adds lint errors: %v", ErrMainDiverged, gateErr)
		}
		if gateErr != nil {
			return gateErr
		}
		outcome = MergeMerged
		return nil
	})
	return outcome, err
}

func conflictPaths(cs []merge.PathConflict) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s (%s)", c.Path, c.Reason)
	}
	return strings.Join(parts, ", ")
}

var errNothingToPropose = errors.New("nothing to propose")

// MainToProposal turns this clone's commits that theirs (the remote's
// main, fetched from from) lacks into proposal id — the branch at main's
// tip, so nothing is dropped — and moves main to theirs, the work tree
// with it. The proposal is made before main moves, so no instant loses
// the work (a crash leaves it in both); when main cannot move, a proposal
// made for it goes again. moved is false when there was nothing to
// propose (main is theirs, or either is empty).
func (room Remote) MainToProposal(ctx context.Context, id string, theirs Hash, from, reason string) (moved bool, err error) {
	l := room.l
	var tip Hash
	made := false
	_, err = l.update(ctx, updateOptions{Reflog: "skillrepo: remote sync: main's own work moved to proposal " + id}, func(tx *writeTx) error {
		tip = tx.gtx.Base()
		if tip.IsZero() || theirs.IsZero() || tip == theirs {
			return errNothingToPropose
		}
		if have, err := l.repo.ReadRef(proposalRefPrefix + id); err != nil || have != tip {
			if err := l.repo.UpdateRef(proposalRefPrefix+id, tip, ZeroHash, "skillrepo: remote sync: "+reason); err != nil {
				return err
			}
			made = true
		}
		return fastForward(tx, theirs, from)
	})
	if errors.Is(err, errNothingToPropose) {
		return false, nil
	}
	if err != nil {
		// Main stays where it was, with the work: the proposal made for
		// it would be an empty one, and goes (issue 40 item 12). The
		// delete names the tip, so a proposal that moved since stays.
		if made {
			if main, merr := l.repo.ResolveBranch(l.MainBranch()); merr == nil && main == tip {
				_ = l.repo.DeleteRef(proposalRefPrefix+id, tip)
			}
		}
		return false, fmt.Errorf("move main's own work to a proposal: %w", err)
	}
	return true, nil
}

// RefPush is one ref a push sends: New over Old (Old is the lease of a
// deletion; zero New deletes).
type RefPush struct {
	Ref      string
	Old, New Hash
}

// Transport is one of the engine's two ways to a remote, the git
// binary's or go-git's (the engine chooses: gitstore's
// transport_choice.go).
type Transport struct{ t gitstore.Transport }

// Transport is the git binary's transport when git is on PATH and goGit
// is not set, else go-git's.
func (room Remote) Transport(goGit bool) Transport { return Transport{room.l.repo.Transport(goGit)} }

// GitTransport is the git binary's transport; ErrNoGit when git is not
// on PATH.
func (room Remote) GitTransport() (Transport, error) {
	t, err := room.l.repo.GitTransport()
	if err != nil {
		return Transport{}, fmt.Errorf("shared remote: %w", ErrNoGit)
	}
	return Transport{t}, nil
}

// Name is "git" or "go-git".
func (t Transport) Name() string { return t.t.Name() }

// List returns the remote's branches and rejection records.
func (t Transport) List(ctx context.Context, remote string) (map[string]Hash, error) {
	return t.t.List(ctx, remote, "refs/heads/", RejectedRefPrefix)
}

// Push sends the updates (atomic: all or none) and returns the remote's
// reason for each one it refused.
func (t Transport) Push(ctx context.Context, remote string, updates []RefPush, atomic, dryRun bool) (map[string]string, error) {
	pu := make([]gitstore.PushUpdate, len(updates))
	for i, u := range updates {
		pu[i] = gitstore.PushUpdate{Ref: u.Ref, Old: u.Old, New: u.New}
	}
	return t.t.Push(ctx, remote, pu, atomic, dryRun)
}

// Fetch updates the remote-tracking refs (pruning deleted ones).
func (t Transport) Fetch(ctx context.Context, remote string, refspecs []string) error {
	return t.t.Fetch(ctx, remote, refspecs)
}

// Network runs a network git command of the shared remote (fetch, push,
// ls-remote) that never prompts and never outlives ctx, git's helpers
// included. The git binary's transport only.
func (t Transport) Network(ctx context.Context, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	return t.t.Network(ctx, stdin, args...)
}

// Command runs git in the library's work tree with its environment. The
// git binary's transport only.
func (t Transport) Command(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	return t.t.Command(ctx, args...)
}

// Bare runs git on the bare repository at dir (a remote on this machine)
// and returns its trimmed output. The git binary's transport only.
func (t Transport) Bare(ctx context.Context, dir string, args ...string) (string, error) {
	return t.t.Bare(ctx, dir, args...)
}

// LintVerdict lints the skills proposal p touches at its tip against
// main, as its approval's gate will, in a sentence for its pull request.
func (room Remote) LintVerdict(p *Proposal) string {
	l := room.l
	if len(p.Skills) == 0 {
		return "no skill touched"
	}
	after, err := l.Snapshot(p.Tip.String())
	if err != nil {
		return "not checked (" + err.Error() + ")"
	}
	var dirs []string
	seen := map[string]bool{}
	store := l.repo.NewStore(true)
	for _, f := range p.Files {
		if d := proposals.SkillDir(store, f.Path, after.tree); d != "" && !strings.HasPrefix(d, ArchiveDir+"/") && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return "no active skill touched"
	}
	var before func() fs.FS
	if !p.Base.IsZero() {
		if snap, err := l.Snapshot(p.Base.String()); err == nil {
			before = snap.FS
		}
	}
	err = l.gateAgainst(after.FS(), before, dirs)
	var ge *GateError
	switch {
	case err == nil:
		bases := make([]string, len(dirs))
		for i, d := range dirs {
			bases[i] = path.Base(d)
		}
		return fmt.Sprintf("clean: no new lint errors in %s", strings.Join(bases, ", "))
	case errors.As(err, &ge):
		msg := ge.Error()
		if len(msg) > 500 {
			msg = strings.ToValidUTF8(msg[:500-len("…")], "") + "…"
		}
		return fmt.Sprintf("%d new lint error(s): %s", len(ge.Found.Findings), msg)
	}
	return "not checked (" + err.Error() + ")"
}
