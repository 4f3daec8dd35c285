package skillrepo

// The duplicate check's overlap index, kept per clone in
// .git/skillrepo/cache/overlap.bin by package overlap/indexfile (the
// stored index of the active skills of one tree, followed by deltas). A
// create brings it to the tree it writes on by the hash-pruned tree diff
// of the skill catalogue (package catalog), tokenises only the skills that
// differ, and compares the new skill with the candidates the posting
// lists of its terms give: it no longer reads every SKILL.md of the
// library (at 10,000 skills that was ~350 ms of CPU and 35 MiB per
// create; bench/README.md). A damaged file, a delta that does not start
// where the index stands, or a tree the store lacks rebuilds the index
// from the tree.

import (
	"io/fs"
	"slices"

	"github.com/skillrepo/skillrepo/overlap"
	"github.com/skillrepo/skillrepo/overlap/indexfile"
	"github.com/skillrepo/skillrepo/skillrepo/catalog"
)

func (l *Library) overlapIndexPath() string { return l.State().cache("overlap.bin") }

// overlapIndexAt returns the overlap index of s's active skills.
func (l *Library) overlapIndexAt(s *Snapshot) (*overlap.Stored, error) {
	persist := !l.readOnly && l.repo.Stored(s.tree)
	x := indexfile.Open(l.overlapIndexPath(), maxCacheFile)
	if x != nil && x.Tree() != s.tree {
		if err := moveOverlapIndex(x, l, s, persist); err != nil {
			x = nil
		}
	}
	if x == nil {
		return l.buildOverlapIndex(s, persist)
	}
	return x.Stored(), nil
}

// buildOverlapIndex reads every active skill of s and writes the index.
func (l *Library) buildOverlapIndex(s *Snapshot, persist bool) (*overlap.Stored, error) {
	all, err := s.Skills()
	if err != nil {
		return nil, err
	}
	var docs []overlap.Doc
	seen := map[string]bool{}
	fsys := s.FS()
	for _, si := range all {
		if si.Archived || seen[si.Name] {
			continue
		}
		if d, ok := readOverlapDoc(fsys, si); ok {
			seen[si.Name] = true
			docs = append(docs, d)
		}
	}
	return indexfile.Build(l.overlapIndexPath(), s.tree, docs, persist)
}

// readOverlapDoc reads skill si as the full comparison does
// (overlap.ReadSkill); ok is false for a SKILL.md that cannot be read,
// which the comparison leaves out.
func readOverlapDoc(fsys fs.FS, si SkillInfo) (overlap.Doc, bool) {
	sk, err := overlap.ReadSkill(fsys, si.Dir)
	if err != nil {
		return overlap.Doc{}, false
	}
	return overlap.Doc{Key: si.Dir, Name: sk.Name, Terms: overlap.Terms(sk)}, true
}

// moveOverlapIndex brings the index x to s's tree: the skills of the folders that
// differ are taken out, and for every name they touch, the skill the full
// comparison would hold under that name (the first readable active skill
// in folder order) is put in, read from s.
func moveOverlapIndex(x *indexfile.File, l *Library, s *Snapshot, persist bool) error {
	st := x.Stored()
	gone, came, err := catalog.Changes(s.store, x.Tree(), s.tree)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	cameDirs := map[string]bool{}
	var out []string
	for _, si := range gone {
		if !si.Archived {
			touched[si.Name] = true
			if st.Has(si.Dir) {
				out = append(out, si.Dir)
			}
		}
	}
	for _, si := range came {
		if !si.Archived {
			touched[si.Name] = true
			cameDirs[si.Dir] = true
		}
	}
	names := make([]string, 0, len(touched))
	for n := range touched {
		names = append(names, n)
	}
	slices.Sort(names)
	fsys := s.FS()
	var in []overlap.Doc
	for _, name := range names {
		cands, err := activeNamed(l, s, name, came)
		if err != nil {
			return err
		}
		var winner *overlap.Doc
		for _, si := range cands {
			if d, ok := readOverlapDoc(fsys, si); ok {
				winner = &d
				break
			}
		}
		if k, ok := st.KeyOf(name); ok && (winner == nil || k != winner.Key) {
			out = append(out, k)
		}
		if winner != nil && (!st.Has(winner.Key) || cameDirs[winner.Key]) {
			in = append(in, *winner)
		}
	}
	return x.Move(s.tree, out, in, persist)
}

// activeNamed lists the active skills of s named name, in folder order.
// came are the skills the diff found; when the catalogue counts no more
// skills of that name than came holds, they are the answer.
func activeNamed(l *Library, s *Snapshot, name string, came []SkillInfo) ([]SkillInfo, error) {
	var out []SkillInfo
	for _, si := range came {
		if si.Name == name {
			out = append(out, si)
		}
	}
	if n, err := l.folderNameCount(s.store, s.tree, name); err == nil && n == len(out) {
		return activeOnly(out), nil
	}
	all, err := s.Skills()
	if err != nil {
		return nil, err
	}
	out = out[:0]
	for _, si := range all {
		if si.Name == name {
			out = append(out, si)
		}
	}
	return activeOnly(out), nil
}

func activeOnly(skills []SkillInfo) []SkillInfo {
	out := skills[:0:0]
	for _, si := range skills {
		if !si.Archived {
			out = append(out, si)
		}
	}
	slices.SortFunc(out, func(a, b SkillInfo) int {
		switch {
		case a.Dir < b.Dir:
			return -1
		case a.Dir > b.Dir:
			return 1
		}
		return 0
	})
	return out
}
