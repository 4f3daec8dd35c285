package skillrepo

// A skill's usage record has more than one possible key. The reference
// keys a record by the skill's frontmatter name (skill_view's views and
// uses, the curator's lifecycle states and pins) but its skill_manage
// bumps and marks under the name it was called with, which is the folder
// name: a skill whose folder and frontmatter name differ ends up with its
// record split in two, and each half looks less used than the skill is
// (docs/reference-behaviour.md §5.2). skillrepo writes under the
// frontmatter name, as the reference's newest release canonicalises, and
// reads every alias of a skill as one record, merged by the reference's
// rules.

import (
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// UsageKeys reads the frontmatter name of every skill in skills (from the
// snapshot's tree) and returns its keys.
func (s *Snapshot) UsageKeys(skills []SkillInfo) (*usage.Keys, error) {
	k := usage.NewKeys(len(skills))
	// Folder names first: an alias never takes another skill's folder.
	for _, si := range skills {
		k.Claim(si.Name, si.Name, true)
	}
	for _, si := range skills {
		name, err := s.frontmatterName(si)
		if err != nil {
			return nil, err
		}
		if name != si.Name {
			k.Claim(si.Name, name, true)
		}
		for _, alias := range []string{si.Dir, path2(si.Category, name), colon(si.Category, name)} {
			k.Claim(si.Name, alias, false)
		}
	}
	return k, nil
}

// usageKeyOf is skill si's key and aliases among recs, as
// s.UsageKeys(skills).Key and .Aliases give them, reading only si's
// SKILL.md when that cannot change the answer: no other skill has si's
// folder name, si's frontmatter name is its folder name (or absent), and
// recs hold no record under si's path or category-qualified name. Only
// si can then claim a key that is si's, and only those, so the key is the
// folder name and the aliases are that record alone. Every write keys its
// usage event here: the folder name is counted in the skill catalogue
// (package catalog), so the cost does not grow with the library; reading
// every skill's SKILL.md for it cost a patch on a library of 10,000 skills
// seven times its CPU, and walking every skill folder for the count more
// than twice.
func (s *Snapshot) usageKeyOf(si SkillInfo, recs map[string]*usage.Record) (string, []string, error) {
	if name, err := s.frontmatterName(si); err == nil && (name == "" || name == si.Name) &&
		s.onlyFolderNamed(si.Name) && !hasQualifiedRecord(recs, si) {
		if _, ok := recs[si.Name]; ok {
			return si.Name, []string{si.Name}, nil
		}
		return si.Name, nil, nil
	}
	skills, err := s.Skills()
	if err != nil {
		return "", nil, err
	}
	keys, err := s.UsageKeys(skills)
	if err != nil {
		return "", nil, err
	}
	return keys.Key(si.Name), keys.Aliases(recs, si.Name), nil
}

// onlyFolderNamed reports whether exactly one skill of s has folder name
// name.
func (s *Snapshot) onlyFolderNamed(name string) bool {
	if s.l == nil || s.tree.IsZero() {
		return false
	}
	n, err := s.l.folderNameCount(s.store, s.tree, name)
	return err == nil && n == 1
}

// hasQualifiedRecord reports whether recs hold a record under one of the
// aliases UsageKeys gives si beside its names: its folder path and its
// category-qualified names.
func hasQualifiedRecord(recs map[string]*usage.Record, si SkillInfo) bool {
	for _, a := range []string{si.Dir, path2(si.Category, si.Name), colon(si.Category, si.Name)} {
		if _, ok := recs[a]; ok && a != "" && a != si.Name {
			return true
		}
	}
	return false
}

// usageKey is the key a skill's record is written under: its frontmatter
// name, else its folder name.
func (s *Snapshot) usageKey(si SkillInfo) string {
	if name, err := s.frontmatterName(si); err == nil && name != "" {
		return name
	}
	return si.Name
}

func (s *Snapshot) frontmatterName(si SkillInfo) (string, error) {
	h, _ := s.store.LookupPath(s.tree, si.Dir+"/"+skill.FileName)
	if h.IsZero() {
		return "", nil
	}
	data, err := s.store.Blob(h)
	if err != nil {
		return "", err
	}
	return usage.FrontmatterName(data), nil
}

func path2(category, name string) string {
	if category == "" || name == "" {
		return ""
	}
	return category + "/" + name
}

func colon(category, name string) string {
	if category == "" || name == "" {
		return ""
	}
	return category + ":" + name
}

// UsageOf reads the usage sidecar for the skills of snap: every skill's
// record with its aliases merged in, keyed by skill name (folder), and
// the keys. Readers that decide anything from usage read it this way.
func (l *Library) UsageOf(snap *Snapshot) (map[string]*usage.Record, *usage.Keys, error) {
	recs, err := l.Usage().Load()
	if err != nil {
		return nil, nil, err
	}
	skills, err := snap.Skills()
	if err != nil {
		return nil, nil, err
	}
	keys, err := snap.UsageKeys(skills)
	if err != nil {
		return nil, nil, err
	}
	return keys.Resolve(recs), keys, nil
}
