package skillrepo

// Archive and restore as git operations (docs/architecture.md §4): archiving moves a
// skill folder to .archive/<name>/ in one commit, restoring moves it back
// to where it lived (category included) in one commit, so git log
// --follow sees two renames and the skill's history stays continuous.
// Where an archived folder came from is read from history, not from a
// side file: the commit that introduced .archive/<x>/ has, in its first
// parent, a skill folder with the very same tree.

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/graph"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ActionRestore is the Skill-Action of a restore.
const ActionRestore = "restore"

// CommitInfo is one commit as history readers need it.
type CommitInfo struct {
	Hash    Hash
	Parents []Hash
	Message string
	When    time.Time // committer time
}

// Trailers parses the commit message's trailer block.
func (c *CommitInfo) Trailers() []Trailer { return trailer.Parse(c.Message) }

// Commit reads a commit's parents, message and time. Error wraps
// ErrNotFound for a missing commit.
func (room History) Commit(h Hash) (*CommitInfo, error) {
	l := room.l
	c, err := l.repo.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", gitstore.ShortHash(h), ErrNotFound)
	}
	return &CommitInfo{Hash: h, Parents: c.ParentHashes, Message: c.Message, When: c.Committer.When.UTC()}, nil
}

// DirHash is the tree hash of dir in the snapshot (zero when absent):
// two folders with the same hash hold exactly the same files.
func (s *Snapshot) DirHash(dir string) Hash {
	return s.store.Subtree(s.tree, dir)
}

// treeReader reads trees once per operation: a flat library's root tree
// has an entry per skill, and decoding it again for every one of a
// thousand moved skills would cost seconds.
type treeReader struct {
	store *gitstore.Store
	trees map[Hash]map[string]gitstore.TreeEntry
}

func newTreeReader(store *gitstore.Store) *treeReader {
	return &treeReader{store: store, trees: map[Hash]map[string]gitstore.TreeEntry{}}
}

func (r *treeReader) entries(h Hash) (map[string]gitstore.TreeEntry, error) {
	if m, ok := r.trees[h]; ok {
		return m, nil
	}
	list, err := r.store.Tree(h)
	if err != nil {
		return nil, err
	}
	m := make(map[string]gitstore.TreeEntry, len(list))
	for _, e := range list {
		m[e.Name] = e
	}
	r.trees[h] = m
	return m, nil
}

// lookup returns the entry at p below root (ok false when absent).
func (r *treeReader) lookup(root Hash, p string) (gitstore.TreeEntry, bool, error) {
	if p == "" {
		return gitstore.TreeEntry{Mode: gitstore.ModeDir, Hash: root}, !root.IsZero(), nil
	}
	cur := root
	parts := strings.Split(p, "/")
	for i, name := range parts {
		m, err := r.entries(cur)
		if err != nil {
			return gitstore.TreeEntry{}, false, err
		}
		e, ok := m[name]
		if !ok {
			return gitstore.TreeEntry{}, false, nil
		}
		if i == len(parts)-1 {
			return e, true, nil
		}
		if e.Mode != gitstore.ModeDir {
			return gitstore.TreeEntry{}, false, nil
		}
		cur = e.Hash
	}
	return gitstore.TreeEntry{}, false, nil
}

// dirEntries returns the entries of the folder dir below root (nil when
// absent).
func (r *treeReader) dirEntries(root Hash, dir string) (map[string]gitstore.TreeEntry, error) {
	h, err := r.dirHash(root, dir)
	if err != nil || h.IsZero() {
		return nil, err
	}
	return r.entries(h)
}

// dirHash is the tree hash of dir below root, zero when absent or a file.
func (r *treeReader) dirHash(root Hash, dir string) (Hash, error) {
	e, ok, err := r.lookup(root, dir)
	if err != nil || !ok || e.Mode != gitstore.ModeDir {
		return ZeroHash, err
	}
	return e.Hash, nil
}

// walk calls fn for every file below the tree h, paths prefixed by dir.
func (r *treeReader) walk(h Hash, dir string, fn func(p string, e gitstore.TreeEntry)) error {
	m, err := r.entries(h)
	if err != nil {
		return err
	}
	for name, e := range m {
		p := dir + "/" + name
		if e.Mode == gitstore.ModeDir {
			if err := r.walk(e.Hash, p, fn); err != nil {
				return err
			}
			continue
		}
		if e.Mode != gitstore.ModeSubmodule {
			fn(p, e)
		}
	}
	return nil
}

// dirHashes returns the tree hash of each folder at the transaction's last
// commit (staged changes are not seen); absent folders are left out.
func (tx *writeTx) dirHashes(dirs []string) (map[string]Hash, error) {
	r := newTreeReader(tx.gtx.Store())
	out := make(map[string]Hash, len(dirs))
	for _, d := range dirs {
		h, err := r.dirHash(tx.gtx.Tree(), d)
		if err != nil {
			return nil, err
		}
		if !h.IsZero() {
			out[d] = h
		}
	}
	return out, nil
}

// Move is one folder moved by writeTx.moveDirs.
type Move struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// moveDirs stages many folder moves at once, reading each tree once; it
// is writeTx.Move for bulk use (a curator run archiving a thousand skills).
// Every source must be a folder at the transaction's last commit with no
// staged change below it, every destination free; otherwise nothing is
// staged and the error names the first offending move.
func (tx *writeTx) moveDirs(moves []Move) error {
	r := newTreeReader(tx.gtx.Store())
	type staged struct {
		p string
		c gitstore.Change
	}
	var out []staged
	dest := map[string]bool{}
	for _, m := range moves {
		if _, err := gitstore.CleanPath(m.From); err != nil {
			return err
		}
		if _, err := gitstore.CleanPath(m.To); err != nil {
			return err
		}
		for p := range tx.gtx.Staged() {
			if strings.HasPrefix(p, m.From+"/") || strings.HasPrefix(p, m.To+"/") {
				return fmt.Errorf("move %s to %s: a change is already staged below it", m.From, m.To)
			}
		}
		src, err := r.dirHash(tx.gtx.Tree(), m.From)
		if err != nil {
			return err
		}
		if src.IsZero() {
			return fmt.Errorf("move %s: %w", m.From, ErrNotFound)
		}
		if err := tx.gtx.RefuseSubmodules(m.From, "move"); err != nil {
			return err
		}
		if _, ok, err := r.lookup(tx.gtx.Tree(), m.To); err != nil {
			return err
		} else if ok || dest[m.To] {
			return fmt.Errorf("move %s to %s: destination %w", m.From, m.To, ErrExists)
		}
		dest[m.To] = true
		if err := r.walk(src, "", func(rel string, e gitstore.TreeEntry) {
			out = append(out, staged{m.To + rel, gitstore.Change{Hash: e.Hash, Mode: e.Mode}}, staged{m.From + rel, gitstore.Change{Delete: true}})
		}); err != nil {
			return err
		}
	}
	for _, s := range out {
		tx.gtx.Stage(s.p, s.c)
	}
	return nil
}

// archiveSuffix matches the -YYYYMMDDHHMMSS (and -N) suffix an archive
// gets when .archive/<name> is taken.
var archiveSuffix = regexp.MustCompile(`-[0-9]{14}(-[0-9]+)?$`)

// ArchivedName is the skill name of an archive folder: its base name
// without the collision suffix.
func ArchivedName(dir string) string {
	return archiveSuffix.ReplaceAllString(path.Base(dir), "")
}

// ArchivedFrom reads the first-parent history of rev to find where the
// archived folder dir (".archive/<x>") lived before it was archived: the
// commit that introduced dir, and in its first parent the folder with the
// same tree (the Skill-From trailers and the skill's name are tried
// first, then every skill of that parent). Error wraps ErrNotFound when
// history does not say (the folder was imported already archived, or its
// content changed in the archiving commit).
func (room History) ArchivedFrom(rev, dir string) (from string, at Hash, err error) {
	l := room.l
	h, err := l.repo.ResolveRev(rev)
	if err != nil {
		return "", ZeroHash, err
	}
	store := l.repo.NewStore(true)
	r := newTreeReader(store)
	tree, parents, err := store.CommitInfo(h)
	if err != nil {
		return "", ZeroHash, err
	}
	cur, err := r.dirHash(tree, dir)
	if err != nil {
		return "", ZeroHash, err
	}
	if cur.IsZero() {
		return "", ZeroHash, fmt.Errorf("%s at %s: %w", dir, gitstore.ShortHash(h), ErrNotFound)
	}
	for len(parents) > 0 {
		ptree, pparents, err := store.CommitInfo(parents[0])
		if err != nil {
			return "", ZeroHash, err
		}
		// Cheap test first: an unchanged .archive tree means dir did not
		// appear in this commit.
		a, _, err := r.lookup(tree, ArchiveDir)
		if err != nil {
			return "", ZeroHash, err
		}
		b, _, err := r.lookup(ptree, ArchiveDir)
		if err != nil {
			return "", ZeroHash, err
		}
		if a.Hash != b.Hash {
			prev, err := r.dirHash(ptree, dir)
			if err != nil {
				return "", ZeroHash, err
			}
			if prev.IsZero() {
				from, err := l.sourceOf(r, h, ptree, cur, dir)
				return from, h, err
			}
			cur = prev
		}
		// Drop decoded trees of commits we left behind: a long walk over
		// a large library must not keep every root tree in memory.
		delete(r.trees, tree)
		h, tree, parents = parents[0], ptree, pparents
	}
	return "", ZeroHash, fmt.Errorf("%s has been archived since the first commit: %w", dir, ErrNotFound)
}

// sourceOf finds, in ptree, the skill folder whose tree is want: the
// Skill-From trailers of the commit and the skill's name first, then
// every skill of ptree.
func (l *Library) sourceOf(r *treeReader, commit, ptree, want Hash, dir string) (string, error) {
	var candidates []string
	if c, err := l.History().Commit(commit); err == nil {
		candidates = append(candidates, trailer.Values(c.Trailers(), TrailerFrom)...)
	}
	candidates = append(candidates, ArchivedName(dir))
	for _, c := range candidates {
		if h, err := r.dirHash(ptree, c); err == nil && h == want && !strings.HasPrefix(c, ".") {
			return c, nil
		}
	}
	skills, err := discoverSkills(r.store, ptree)
	if err != nil {
		return "", err
	}
	for _, si := range skills {
		if si.Archived {
			continue
		}
		if h, err := r.dirHash(ptree, si.Dir); err == nil && h == want {
			return si.Dir, nil
		}
	}
	return "", fmt.Errorf("no folder with the content of %s before %s: %w", dir, gitstore.ShortHash(commit), ErrNotFound)
}

// ArchiveMoves returns the skill folders commit h moved into .archive/
// relative to its first parent, each with the folder's tree hash at h
// (Hash): every .archive/<x> that h added, matched to a folder of the
// parent with the same tree that h removed, tried among the Skill-From
// trailers first. Works for hand archives, curator commits and merges.
func (room History) ArchiveMoves(h Hash) ([]ArchivedMove, error) {
	l := room.l
	store := l.repo.NewStore(true)
	r := newTreeReader(store)
	tree, parents, err := store.CommitInfo(h)
	if err != nil {
		return nil, err
	}
	if len(parents) == 0 {
		return nil, nil
	}
	ptree, _, err := store.CommitInfo(parents[0])
	if err != nil {
		return nil, err
	}
	now, err := r.dirEntries(tree, ArchiveDir)
	if err != nil {
		return nil, err
	}
	before, err := r.dirEntries(ptree, ArchiveDir)
	if err != nil {
		return nil, err
	}
	var froms []string
	if c, err := l.History().Commit(h); err == nil {
		froms = trailer.Values(c.Trailers(), TrailerFrom)
	}
	used := map[string]bool{}
	var out []ArchivedMove
	names := make([]string, 0, len(now))
	for name := range now {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		e := now[name]
		if e.Mode != gitstore.ModeDir {
			continue
		}
		if b, ok := before[name]; ok && b.Hash == e.Hash {
			continue
		}
		if _, ok := before[name]; ok {
			continue // changed inside the archive, not moved in
		}
		to := ArchiveDir + "/" + name
		for _, f := range append(froms, ArchivedName(to)) {
			if used[f] || strings.HasPrefix(f, ".") {
				continue
			}
			ph, err := r.dirHash(ptree, f)
			if err != nil {
				return nil, err
			}
			nh, err := r.dirHash(tree, f)
			if err != nil {
				return nil, err
			}
			if ph == e.Hash && nh.IsZero() {
				used[f] = true
				out = append(out, ArchivedMove{Move: Move{From: f, To: to}, Hash: e.Hash})
				break
			}
		}
	}
	return out, nil
}

// ArchivedMove is a folder moved into the archive and its tree there.
type ArchivedMove struct {
	Move
	Hash Hash `json:"-"`
}

// ArchiveOptions is a hand archive of one skill ([Policy.Archive]).
type ArchiveOptions struct {
	Name   string
	Reason string
	DryRun bool
}

// ArchiveResult says where a skill went.
type ArchiveResult struct {
	Name   string        `json:"name"`
	From   string        `json:"from"`
	To     string        `json:"to"`
	Commit Hash          `json:"-"`
	Update *UpdateResult `json:"-"`
}

// archive moves one skill to .archive/<name>/ (suffix -YYYYMMDDHHMMSS when
// taken) as one commit on t with Skill-Action archive and Skill-From
// naming the folder it left, and records the state in the usage sidecar.
// A pinned skill is refused. Errors wrap ErrNotFound, ErrExists (already
// archived), ErrRefused (pinned) and those of the write.
func (l *Library) archive(ctx context.Context, t target, opts ArchiveOptions) (*ArchiveResult, error) {
	prov := t.prov
	out := &ArchiveResult{Name: opts.Name}
	res, err := l.update(ctx, updateOptions{Branch: t.branch, From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		si, err := tx.FindSkill(opts.Name)
		if err != nil {
			return err
		}
		if err := refusePinned(tx, si); err != nil { // pins.go
			return err
		}
		to, err := archiveSkill(tx, si)
		if err != nil {
			return err
		}
		out.Name, out.From, out.To = si.Name, si.Dir, to
		m := moveMessage(ActionArchive, si.Name, si.Dir, opts.Reason, prov)
		m.Add(TrailerReason, opts.Reason)
		out.Commit, err = tx.Commit(m)
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Update = res
	l.recordMove(res, out.Name, usage.StateArchived)
	return out, nil
}

// moveMessage is the message of a hand archive or restore: "skill:
// <action> <name>", and Skill-From naming the folder the skill left.
func moveMessage(action, name, from, body string, prov Provenance) Message {
	m := Message{Subject: "skill: " + action + " " + name, Body: body}
	m.Add(TrailerAction, action)
	m.Add(TrailerName, name)
	prov.addTrailers(&m)
	m.Add(TrailerFrom, from)
	return m
}

// recordMove records the state a landed archive or restore leaves in the
// usage sidecar: state and archived_at (best effort, as all telemetry;
// see [Library.recordUsage] for writes to a proposal branch).
func (l *Library) recordMove(res *UpdateResult, name, state string) {
	action := usage.Restored
	if state == usage.StateArchived {
		action = usage.Archived
	}
	events := []usage.Change{{Name: name, Action: action}}
	l.recordUsage(res, events)
	l.recordHistory(res, events, Provenance{})
}

// RestoreOptions is the restore of one archived skill ([Policy.Restore]).
type RestoreOptions struct {
	// Name is the skill's name, or its archive folder (".archive/x").
	Name   string
	DryRun bool
}

// RestoreResult says where a skill came back to.
type RestoreResult struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
	// Guessed is true when history did not say where the skill lived and
	// it was restored flat, as <name>/ (the reference's behaviour).
	Guessed bool `json:"guessed"`
	// PurgedIn is the commit that purged the skill from the tree, when it
	// was restored from history.
	PurgedIn string        `json:"purged_in,omitempty"`
	Commit   Hash          `json:"-"`
	Update   *UpdateResult `json:"-"`
}

// findArchived finds an archived skill by name: .archive/<name> exactly,
// else the newest .archive/<name>-<14 digits>[-N], else a folder given as
// ".archive/x". Error wraps ErrNotFound.
func findArchived(skills []SkillInfo, name string) (SkillInfo, error) {
	var best *SkillInfo
	for i, si := range skills {
		if !si.Archived {
			continue
		}
		if si.Dir == name || si.Dir == ArchiveDir+"/"+name {
			return si, nil
		}
		if ArchivedName(si.Dir) == name && (best == nil || si.Dir > best.Dir) {
			best = &skills[i]
		}
	}
	if best == nil {
		return SkillInfo{}, WithHint(fmt.Errorf("archived skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list --state archived' to see archived skills")
	}
	return *best, nil
}

// restore moves an archived skill back to the folder it was archived from
// (category included, read from history; <name>/ when history does not
// say) as one commit with Skill-Action restore, and marks it active in the
// usage sidecar. A skill purged from .archive/ is read back from the
// commit before the purge (Library.findPurged). Errors: ErrNotFound (no such archived skill), ErrExists
// (the destination is taken) and those of Library.update.
func (l *Library) restore(ctx context.Context, t target, opts RestoreOptions) (*RestoreResult, error) {
	prov := t.prov
	out := &RestoreResult{}
	res, err := l.update(ctx, updateOptions{Branch: t.branch, From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		skills, err := discoverSkills(tx.gtx.Store(), tx.gtx.Tree())
		if err != nil {
			return err
		}
		si, err := findArchived(skills, strings.Trim(opts.Name, "/"))
		if errors.Is(err, ErrNotFound) && !activeSkill(skills, opts.Name) {
			// Purged from the tree: history still has it.
			p, perr := l.findPurged(tx.gtx.Base().String(), opts.Name)
			if perr != nil {
				return err
			}
			return l.restorePurged(tx, p, prov, out)
		}
		if err != nil {
			return err
		}
		to, guessed, err := l.restoreTarget(tx, tx.gtx.Base().String(), si.Dir)
		if err != nil {
			return err
		}
		if err := tx.gtx.Move(si.Dir, to); err != nil {
			return err
		}
		*out = RestoreResult{Name: path.Base(to), From: si.Dir, To: to, Guessed: guessed}
		body := ""
		if guessed {
			body = fmt.Sprintf("History does not say where %s lived; restored as %s.", si.Dir, to)
		}
		out.Commit, err = tx.Commit(moveMessage(ActionRestore, out.Name, si.Dir, body, prov))
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Update = res
	l.recordMove(res, out.Name, usage.StateActive)
	return out, nil
}

// mergeTip stages the three-way merge of the commit tip into the
// transaction's branch, with base as the merge base, by the same merge as
// proposal approval (per path, line by line within files both sides
// changed), and makes the next writeTx.Commit a merge with tip as its second
// parent. On conflicts nothing is staged and they are returned; theirs
// labels tip's side in conflict details. Call it before staging anything
// else.
func (tx *writeTx) mergeTip(base, tip Hash, theirs string) ([]merge.PathConflict, error) {
	var baseTree Hash
	if !base.IsZero() {
		var err error
		if baseTree, _, err = tx.gtx.Store().CommitInfo(base); err != nil {
			return nil, err
		}
	}
	tipTree, _, err := tx.gtx.Store().CommitInfo(tip)
	if err != nil {
		return nil, err
	}
	labels := merge.Labels{Ours: tx.gtx.Branch(), Base: "merge base", Theirs: theirs}
	merged, err := graph.MergeTrees(tx.gtx.Store(), baseTree, tx.gtx.Tree(), tipTree, labels)
	if err != nil {
		return nil, err
	}
	if !merged.Clean() {
		return merged.Conflicts, nil
	}
	if err := stageMerge(tx, merged.Changes); err != nil {
		return nil, err
	}
	tx.gtx.AddParent(tip)
	return nil, nil
}

// restoreTarget is where the archived folder dir goes back to: where it was
// archived from as history at rev says, else <name>/ at the top (guessed);
// refused when the name is invalid or the folder is taken in tx.
func (l *Library) restoreTarget(tx *writeTx, rev, dir string) (to string, guessed bool, err error) {
	name := ArchivedName(dir)
	to, _, err = l.History().ArchivedFrom(rev, dir)
	if errors.Is(err, ErrNotFound) {
		to, guessed = name, true
	} else if err != nil {
		return "", false, err
	}
	if err := skill.ValidateName(path.Base(to)); err != nil {
		return "", false, err
	}
	if tx.gtx.IsDir(to) {
		return "", false, WithHint(fmt.Errorf("restore %s: %s is taken: %w", name, to, ErrExists),
			"move or rename the skill at "+to+" first")
	}
	return to, guessed, nil
}
