package skillrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/catalog"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// ArchiveDir holds archived skills: tracked, not discovered as active.
const ArchiveDir = skill.ArchiveDir

// Snapshot is a read-only view of one commit of the library.
type Snapshot struct {
	l      *Library
	store  *gitstore.Store
	commit Hash
	tree   Hash
	skills []SkillInfo // discovered lazily
}

// SkillInfo locates one skill in a snapshot (package catalog lists them).
type SkillInfo = catalog.SkillInfo

// Snapshot opens a read-only view of rev: a branch name, a full ref or a
// commit hash ("" = the main branch). An unborn main branch gives an empty
// snapshot.
func (l *Library) Snapshot(rev string) (*Snapshot, error) {
	if rev == "" {
		rev = l.MainBranch()
	}
	store := l.repo.NewStore(true)
	h, err := l.repo.ResolveRev(rev)
	if err != nil {
		if errors.Is(err, ErrNotFound) && rev == l.MainBranch() && l.repo.IsUnborn() {
			return &Snapshot{l: l, store: store}, nil
		}
		return nil, err
	}
	tree, _, err := store.CommitInfo(h)
	if err != nil {
		return nil, err
	}
	return &Snapshot{l: l, store: store, commit: h, tree: tree}, nil
}

// Commit is the snapshot's commit (zero for an unborn branch).
func (s *Snapshot) Commit() Hash { return s.commit }

// Tree is the snapshot's root tree.
func (s *Snapshot) Tree() Hash { return s.tree }

// ReadFile returns a file's content; the error wraps fs.ErrNotExist when
// absent.
func (s *Snapshot) ReadFile(p string) ([]byte, error) {
	h, _ := s.store.LookupPath(s.tree, p)
	if h.IsZero() {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return s.store.Blob(h)
}

// Exists reports whether p is a file in the snapshot.
func (s *Snapshot) Exists(p string) bool {
	h, _ := s.store.LookupPath(s.tree, p)
	return !h.IsZero()
}

// List returns the files below dir, sorted.
func (s *Snapshot) List(dir string) ([]string, error) {
	sub := s.store.Subtree(s.tree, dir)
	if sub.IsZero() {
		return nil, nil
	}
	var out []string
	err := s.store.WalkTree(sub, dir, func(p string, _ Hash, _ gitstore.FileMode) error {
		out = append(out, p)
		return nil
	})
	return out, err
}

// Skills lists every skill: flat (<name>/SKILL.md), in a category
// (<category>/<name>/SKILL.md, nested categories allowed up to three
// levels) and archived (.archive/<name>/SKILL.md). Hidden folders other
// than .archive are not searched.
func (s *Snapshot) Skills() ([]SkillInfo, error) {
	if s.skills != nil {
		return s.skills, nil
	}
	var out []SkillInfo
	var err error
	if s.l != nil && !s.tree.IsZero() {
		out, err = s.l.catalogSkills(s.store, s.tree) // catalog.go
	} else {
		out, err = discoverSkills(s.store, s.tree)
	}
	if err != nil {
		return nil, err
	}
	s.skills = out
	return out, nil
}

// discoverSkills walks every folder of root that may hold a skill.
func discoverSkills(store *gitstore.Store, root Hash) ([]SkillInfo, error) {
	return catalog.Discover(store, root)
}

// FindSkill looks a skill up by name ("name" or "category/name"); active
// skills win over archived ones. Error wraps ErrNotFound.
func (s *Snapshot) FindSkill(name string) (SkillInfo, error) {
	return findSkill(s.l, s.store, s.tree, name)
}

func findSkill(l *Library, store *gitstore.Store, tree Hash, name string) (SkillInfo, error) {
	name = strings.Trim(name, "/")
	if name == "" {
		return SkillInfo{}, fmt.Errorf("skill name is required")
	}
	isSkill := func(dir string) bool {
		h, _ := store.LookupPath(tree, dir+"/"+skill.FileName)
		return !h.IsZero()
	}
	// A path: the flat layout, or an exact category/name.
	if !strings.HasPrefix(name, ".") && isSkill(name) {
		return skillInfoAt(name), nil
	}
	if strings.Contains(name, "/") {
		return SkillInfo{}, WithHint(fmt.Errorf("skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list' to see the skills")
	}
	// A hint from the index (the checked-out branch's paths): verified in
	// the tree, so a stale index can only cost time, never a wrong answer.
	for _, dir := range l.indexSkillDirs(name) {
		if !strings.HasPrefix(dir, ArchiveDir+"/") && isSkill(dir) {
			return skillInfoAt(dir), nil
		}
	}
	// The skill catalogue lists every skill folder: no tree is read, and
	// a name no skill has (a create's) is known absent from its hashes.
	if l != nil && !tree.IsZero() {
		if l.surelyNoSkillNamed(store, tree, name) {
			return SkillInfo{}, WithHint(fmt.Errorf("skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list' to see the skills")
		}
		if all, err := l.catalogSkills(store, tree); err == nil {
			return findInCatalog(l, store, tree, name, all)
		}
	}
	// Scan the category folders: one tree read per top-level folder.
	var archived []string
	var scan func(t Hash, dir string, depth int) (string, error)
	scan = func(t Hash, dir string, depth int) (string, error) {
		entries, err := store.Tree(t)
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			if e.Mode != gitstore.ModeDir {
				continue
			}
			p := path.Join(dir, e.Name)
			if depth == 0 && strings.HasPrefix(e.Name, ".") {
				if e.Name == ArchiveDir {
					if sub, err := store.Tree(e.Hash); err == nil {
						for _, a := range sub {
							if a.Mode == gitstore.ModeDir && (a.Name == name || strings.HasPrefix(a.Name, name+"-")) && isSkill(ArchiveDir+"/"+a.Name) {
								archived = append(archived, ArchiveDir+"/"+a.Name)
							}
						}
					}
				}
				continue
			}
			if strings.HasPrefix(e.Name, ".") {
				continue
			}
			if e.Name == name && isSkill(p) {
				return p, nil
			}
			if depth >= 3 {
				continue
			}
			d, err := store.Decoded(e.Hash)
			if err != nil {
				return "", err
			}
			if _, ok := d.Find(skill.FileName); ok {
				continue // a skill folder: nothing nested is a skill
			}
			if found, err := scan(e.Hash, p, depth+1); err != nil || found != "" {
				return found, err
			}
		}
		return "", nil
	}
	found, err := scan(tree, "", 0)
	if err != nil {
		return SkillInfo{}, err
	}
	if found != "" {
		return skillInfoAt(found), nil
	}
	for _, a := range archived {
		if path.Base(a) == name {
			return skillInfoAt(a), nil
		}
	}
	if len(archived) > 0 {
		sort.Strings(archived)
		return skillInfoAt(archived[len(archived)-1]), nil
	}
	// The name the agent sees is the frontmatter's: a skill whose folder
	// is lm-evaluation-harness but whose SKILL.md says
	// name: evaluating-llms-harness is listed by the index under the
	// latter, so it is found by it too. Only a miss pays for reading
	// every SKILL.md; more than one match is ambiguous and says so.
	if byName, err := findByFrontmatterName(l, store, tree, name); err != nil || byName != nil {
		if err != nil {
			return SkillInfo{}, err
		}
		return *byName, nil
	}
	return SkillInfo{}, WithHint(fmt.Errorf("skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list' to see the skills")
}

// findInCatalog is findSkill's search by folder name over the skill
// catalogue's list (sorted by folder, which is the order a depth-first
// walk of the trees meets them): an active skill of that folder name,
// else an archived one (.archive/<name> or the newest .archive/<name>-…),
// else the skill whose frontmatter declares the name.
func findInCatalog(l *Library, store *gitstore.Store, tree Hash, name string, all []SkillInfo) (SkillInfo, error) {
	var archived []string
	for _, si := range all {
		if !si.Archived && si.Name == name {
			return si, nil
		}
		if rest, ok := strings.CutPrefix(si.Dir, ArchiveDir+"/"); ok && si.Archived && !strings.Contains(rest, "/") &&
			(rest == name || strings.HasPrefix(rest, name+"-")) {
			archived = append(archived, si.Dir)
		}
	}
	for _, a := range archived {
		if path.Base(a) == name {
			return skillInfoAt(a), nil
		}
	}
	if len(archived) > 0 {
		sort.Strings(archived)
		return skillInfoAt(archived[len(archived)-1]), nil
	}
	if byName, err := findByFrontmatterName(l, store, tree, name); err != nil || byName != nil {
		if err != nil {
			return SkillInfo{}, err
		}
		return *byName, nil
	}
	return SkillInfo{}, WithHint(fmt.Errorf("skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list' to see the skills")
}

// findByFrontmatterName finds the active skill whose SKILL.md names it
// name; nil when none does. The skill catalogue keeps every active
// skill's declared name (package catalog), so a miss reads only the
// SKILL.md files that changed since the catalogue's tree: a create looks
// its name up here, and reading every SKILL.md for it cost a create on a
// library of 10,000 skills most of its CPU.
func findByFrontmatterName(l *Library, store *gitstore.Store, tree Hash, name string) (*SkillInfo, error) {
	var found []SkillInfo
	if l != nil && !tree.IsZero() {
		var err error
		if found, err = l.skillsDeclaring(store, tree, name); err != nil {
			return nil, err
		}
	} else {
		all, err := discoverSkills(store, tree)
		if err != nil {
			return nil, err
		}
		for _, si := range all {
			if si.Archived {
				continue
			}
			h, _ := store.LookupPath(tree, si.Dir+"/"+skill.FileName)
			if h.IsZero() {
				continue
			}
			data, err := store.Blob(h)
			if err != nil {
				return nil, err
			}
			if catalog.DeclaredName(data) == name {
				found = append(found, si)
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return &found[0], nil
	}
	var dirs []string
	for _, si := range found {
		dirs = append(dirs, si.Dir)
	}
	return nil, WithHint(fmt.Errorf("skill %q: %d skills give that name in their frontmatter (%s): %w", name, len(found), strings.Join(dirs, ", "), ErrNotFound),
		"name the skill by its folder")
}

// skillInfoAt describes the skill in folder dir (flat, in a category, or
// archived).
func skillInfoAt(dir string) SkillInfo {
	si := SkillInfo{Name: path.Base(dir), Dir: dir, Category: strings.TrimSuffix(strings.TrimSuffix(dir, path.Base(dir)), "/")}
	if rest, ok := strings.CutPrefix(dir, ArchiveDir+"/"); ok {
		si.Archived = true
		si.Category = strings.TrimSuffix(strings.TrimSuffix(rest, si.Name), "/")
	}
	return si
}

// indexSkillDirs returns the folders the index lists a SKILL.md under
// whose name is name: a hint, checked against the tree by the caller. It
// scans the index's names in place; nothing is decoded.
func (l *Library) indexSkillDirs(name string) []string {
	if l == nil {
		return nil
	}
	idx, _, err := l.repo.ReadIndex()
	if err != nil {
		return nil
	}
	suffix := []byte("/" + name + "/" + skill.FileName)
	var out []string
	under := "" // the library's folder in the index's names
	if l.repo.Prefix != "" {
		under = l.repo.Prefix + "/"
	}
	idx.EachName(under, func(n []byte) {
		n = n[len(under):]
		if bytes.HasSuffix(n, suffix) || bytes.Equal(n, suffix[1:]) {
			out = append(out, string(n[:len(n)-len(skill.FileName)-1]))
		}
	})
	return out
}

// FindSkill looks a skill up in the transaction's current state.
func (tx *writeTx) FindSkill(name string) (SkillInfo, error) {
	if tx.gtx.HasStaged() {
		// Staged changes are not in a tree yet: look them up directly.
		if tx.gtx.Exists(name + "/" + skill.FileName) {
			return skillInfoAt(name), nil
		}
		for p, c := range tx.gtx.Staged() {
			if !c.Delete && strings.HasSuffix(p, "/"+name+"/"+skill.FileName) && !strings.HasPrefix(p, ".") {
				return skillInfoAt(strings.TrimSuffix(p, "/"+skill.FileName)), nil
			}
		}
	}
	si, err := findSkill(tx.l, tx.gtx.Store(), tx.gtx.Tree(), name)
	if err == nil && tx.gtx.HasStaged() && !tx.gtx.Exists(si.Dir+"/"+skill.FileName) {
		return SkillInfo{}, fmt.Errorf("skill %q: %w", name, ErrNotFound)
	}
	return si, err
}

// findUmbrella finds the skill a delete's absorbed_into names: an active
// skill by its folder or category/folder, as the reference looks skills up
// for skill_manage (docs/reference-behaviour.md §4.3) — never by the name
// its frontmatter gives it, never an archived one.
func (tx *writeTx) findUmbrella(name string) (SkillInfo, error) {
	si, err := tx.FindSkill(name)
	if err != nil {
		return si, err
	}
	name = strings.Trim(name, "/")
	if si.Archived || (si.Dir != name && path.Base(si.Dir) != name) {
		return SkillInfo{}, fmt.Errorf("skill %q: %w", name, ErrNotFound)
	}
	return si, nil
}

// FS returns the snapshot as an fs.FS (for lint).
func (s *Snapshot) FS() fs.FS { return &treeFS{s: s} }

type treeFS struct{ s *Snapshot }

func (t *treeFS) entryAt(name string) (gitstore.TreeEntry, error) {
	if !fs.ValidPath(name) {
		return gitstore.TreeEntry{}, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return gitstore.TreeEntry{Name: ".", Mode: gitstore.ModeDir, Hash: t.s.tree}, nil
	}
	cur := t.s.tree
	parts := strings.Split(name, "/")
	for i, part := range parts {
		entries, err := t.s.store.Tree(cur)
		if err != nil {
			return gitstore.TreeEntry{}, err
		}
		var found *gitstore.TreeEntry
		for k := range entries {
			if entries[k].Name == part {
				found = &entries[k]
				break
			}
		}
		if found == nil || (i < len(parts)-1 && found.Mode != gitstore.ModeDir) {
			return gitstore.TreeEntry{}, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		if i == len(parts)-1 {
			return *found, nil
		}
		cur = found.Hash
	}
	return gitstore.TreeEntry{}, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (t *treeFS) Open(name string) (fs.File, error) {
	e, err := t.entryAt(name)
	if err != nil {
		return nil, err
	}
	if e.Mode == gitstore.ModeDir {
		entries, err := t.s.store.Tree(e.Hash)
		if err != nil {
			return nil, err
		}
		return &treeDir{name: name, entries: entries, fsys: t}, nil
	}
	data, err := t.s.store.Blob(e.Hash)
	if err != nil {
		return nil, err
	}
	return &treeFile{name: name, mode: e.Mode, r: strings.NewReader(string(data)), size: int64(len(data))}, nil
}

func (t *treeFS) ReadFile(name string) ([]byte, error) {
	e, err := t.entryAt(name)
	if err != nil {
		return nil, err
	}
	if e.Mode == gitstore.ModeDir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	return t.s.store.Blob(e.Hash)
}

func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := t.entryAt(name)
	if err != nil {
		return nil, err
	}
	if e.Mode != gitstore.ModeDir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	entries, err := t.s.store.Tree(e.Hash)
	if err != nil {
		return nil, err
	}
	return dirEntries(entries), nil
}

func dirEntries(entries []gitstore.TreeEntry) []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, treeDirEntry{e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

type treeFileInfo struct {
	name string
	mode gitstore.FileMode
	size int64
}

func (i treeFileInfo) Name() string { return path.Base(i.name) }
func (i treeFileInfo) Size() int64  { return i.size }
func (i treeFileInfo) Mode() fs.FileMode {
	switch i.mode {
	case gitstore.ModeDir:
		return fs.ModeDir | 0o755
	case gitstore.ModeExecutable:
		return 0o755
	case gitstore.ModeSymlink:
		return fs.ModeSymlink | 0o777
	}
	return 0o644
}
func (i treeFileInfo) ModTime() time.Time { return time.Time{} }
func (i treeFileInfo) IsDir() bool        { return i.mode == gitstore.ModeDir }
func (i treeFileInfo) Sys() any           { return nil }

type treeDirEntry struct{ e gitstore.TreeEntry }

func (d treeDirEntry) Name() string      { return d.e.Name }
func (d treeDirEntry) IsDir() bool       { return d.e.Mode == gitstore.ModeDir }
func (d treeDirEntry) Type() fs.FileMode { return treeFileInfo{mode: d.e.Mode}.Mode().Type() }
func (d treeDirEntry) Info() (fs.FileInfo, error) {
	return treeFileInfo{name: d.e.Name, mode: d.e.Mode}, nil
}

type treeFile struct {
	name string
	mode gitstore.FileMode
	r    *strings.Reader
	size int64
}

func (f *treeFile) Stat() (fs.FileInfo, error) {
	return treeFileInfo{name: f.name, mode: f.mode, size: f.size}, nil
}
func (f *treeFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *treeFile) Close() error               { return nil }

type treeDir struct {
	name    string
	entries []gitstore.TreeEntry
	fsys    *treeFS
	off     int
}

func (d *treeDir) Stat() (fs.FileInfo, error) {
	return treeFileInfo{name: d.name, mode: gitstore.ModeDir}, nil
}
func (d *treeDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *treeDir) Close() error { return nil }
func (d *treeDir) ReadDir(n int) ([]fs.DirEntry, error) {
	all := dirEntries(d.entries)
	rest := all[d.off:]
	if n <= 0 {
		d.off = len(all)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.off += n
	return rest[:n], nil
}
