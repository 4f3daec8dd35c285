package catalog

import (
	"path"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// SkillInfo locates one skill in a snapshot.
type SkillInfo struct {
	// Name is the skill's directory name (what skill_manage looks up).
	Name string `json:"name"`
	// Dir is the skill folder, relative to the library root.
	Dir string `json:"path"`
	// Category is the folder above the skill ("" in the flat layout; for
	// archived skills, the folder it was archived from is not known here).
	Category string `json:"category,omitempty"`
	// Archived is true for skills under .archive/.
	Archived bool `json:"archived"`
}

// Discover walks every folder of root that may hold a skill.
func Discover(store *gitstore.Store, root gitstore.Hash) ([]SkillInfo, error) {
	out := []SkillInfo{}
	if root.IsZero() {
		return out, nil
	}
	if err := walkSkills(store, root, "", 0, false, &out); err != nil {
		return nil, err
	}
	sortSkillInfos(out)
	return out, nil
}

// walkSkills adds the skills of tree, the folder dir whose entries sit at
// depth (the root's at 0, .archive's at 1), to out: a folder holding
// SKILL.md is a skill and is not searched further; others are searched
// to depth 3; hidden folders are not searched, but for .archive at the
// root.
func walkSkills(store *gitstore.Store, tree gitstore.Hash, dir string, depth int, archived bool, out *[]SkillInfo) error {
	entries, err := store.Tree(tree)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Mode != gitstore.ModeDir {
			continue
		}
		if strings.HasPrefix(e.Name, ".") {
			if depth == 0 && e.Name == skill.ArchiveDir {
				if err := walkSkills(store, e.Hash, skill.ArchiveDir, 1, true, out); err != nil {
					return err
				}
			}
			continue
		}
		p := path.Join(dir, e.Name)
		sub, err := store.Tree(e.Hash)
		if err != nil {
			return err
		}
		if HasSkillFile(sub) {
			cat := dir
			if archived {
				cat = strings.TrimPrefix(strings.TrimPrefix(dir, skill.ArchiveDir), "/")
			}
			*out = append(*out, SkillInfo{Name: e.Name, Dir: p, Category: cat, Archived: archived})
			continue
		}
		if depth < 3 {
			if err := walkSkills(store, e.Hash, p, depth+1, archived, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// HasSkillFile reports whether a folder's entries hold SKILL.md.
func HasSkillFile(entries []gitstore.TreeEntry) bool {
	for _, e := range entries {
		if e.Name == skill.FileName && e.Mode != gitstore.ModeDir {
			return true
		}
	}
	return false
}
