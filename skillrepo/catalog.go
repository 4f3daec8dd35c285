package skillrepo

import (
	"github.com/skillrepo/skillrepo/skillrepo/catalog"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// The skill catalogue (package catalog): the skill folders of a tree,
// kept per clone in .git/skillrepo/cache/skills.bin and brought to any
// other tree by the hash-pruned tree diff. The library holds it and says
// where it lives and whether a tree may be saved.

func (l *Library) catalogPath() string { return l.State().cache("skills.bin") }

// catalogAt names tree for the catalogue: a tree that is not in the
// repository (a dry run's), or a read-only library, gets a copy of the
// catalogue, kept nowhere.
func (l *Library) catalogAt(store *gitstore.Store, tree Hash) catalog.At {
	return catalog.At{Store: store, Tree: tree, Path: l.catalogPath(), Persist: !l.readOnly && l.repo.Stored(tree)}
}

// catalogSkills lists the skills of tree through the catalogue.
func (l *Library) catalogSkills(store *gitstore.Store, tree Hash) ([]SkillInfo, error) {
	return l.catalog.Skills(l.catalogAt(store, tree))
}

// folderNameCount is how many skills of tree (active and archived) have
// the folder name name. A hash collision can only count too many.
func (l *Library) folderNameCount(store *gitstore.Store, tree Hash, name string) (int, error) {
	return l.catalog.FolderNameCount(l.catalogAt(store, tree), name)
}

// skillsDeclaring lists the active skills of tree whose SKILL.md declares
// the name name (its frontmatter, as YAML reads it).
func (l *Library) skillsDeclaring(store *gitstore.Store, tree Hash, name string) ([]SkillInfo, error) {
	return l.catalog.Declaring(l.catalogAt(store, tree), name)
}

// surelyNoSkillNamed reports, without reading the catalogue's records,
// that tree holds no skill findSkill could find by name; false means
// "look".
func (l *Library) surelyNoSkillNamed(store *gitstore.Store, tree Hash, name string) bool {
	return l.catalog.SurelyNoneNamed(l.catalogAt(store, tree), name)
}
