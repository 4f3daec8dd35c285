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
	"encoding/json"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// UsageKeys knows the usage keys of a snapshot's skills.
type UsageKeys struct {
	canonical map[string]string // skill name (folder) -> the key to write
	owner     map[string]string // any alias -> skill name (folder)
}

// frontmatterNameLimit is how much of SKILL.md the reference reads for the
// name (tools/skill_usage._read_skill_name).
const frontmatterNameLimit = 4000

// FrontmatterName reads the name field of SKILL.md as the reference's
// curator does: the first "name:" line inside the leading "---" fence,
// within the first 4,000 characters, quotes stripped; "" when there is
// none.
func FrontmatterName(data []byte) string {
	if len(data) > frontmatterNameLimit*4 {
		data = data[:frontmatterNameLimit*4]
	}
	text := string(data)
	if r := []rune(text); len(r) > frontmatterNameLimit {
		text = string(r[:frontmatterNameLimit])
	}
	in := false
	for _, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		if s == "---" {
			if in {
				break
			}
			in = true
			continue
		}
		if in && strings.HasPrefix(s, "name:") {
			if v := strings.Trim(yamlValueText(s[len("name:"):]), `"'`); v != "" {
				return v
			}
		}
	}
	return ""
}

// yamlValueText is a plain scalar's text without the YAML anchor (&n) or
// tag (!!str) written before it: the value a YAML loader, and so the
// reference's skill_view, reads, where a line scan would keep "&n fm-test".
func yamlValueText(v string) string {
	v = strings.TrimSpace(v)
	for strings.HasPrefix(v, "&") || strings.HasPrefix(v, "!") {
		i := strings.IndexAny(v, " \t")
		if i < 0 {
			return ""
		}
		v = strings.TrimSpace(v[i:])
	}
	return v
}

// UsageKeys reads the frontmatter name of every skill in skills (from the
// snapshot's tree) and returns its keys.
func (s *Snapshot) UsageKeys(skills []SkillInfo) (*UsageKeys, error) {
	k := &UsageKeys{canonical: make(map[string]string, len(skills)), owner: make(map[string]string, 3*len(skills))}
	// Folder names first: an alias never takes another skill's folder.
	for _, si := range skills {
		k.canonical[si.Name] = si.Name
		k.owner[si.Name] = si.Name
	}
	for _, si := range skills {
		name, err := s.frontmatterName(si)
		if err != nil {
			return nil, err
		}
		if name != "" && name != si.Name {
			if _, taken := k.owner[name]; !taken {
				k.owner[name] = si.Name
				k.canonical[si.Name] = name
			}
		}
		for _, alias := range []string{si.Dir, path2(si.Category, name), colon(si.Category, name)} {
			if _, taken := k.owner[alias]; alias != "" && !taken {
				k.owner[alias] = si.Name
			}
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
// (skillcatalog.go), so the cost does not grow with the library; reading
// every skill's SKILL.md for it cost a patch on a library of 10,000 skills
// seven times its CPU, and walking every skill folder for the count more
// than twice.
func (s *Snapshot) usageKeyOf(si SkillInfo, recs map[string]*UsageRecord) (string, []string, error) {
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
func hasQualifiedRecord(recs map[string]*UsageRecord, si SkillInfo) bool {
	for _, a := range []string{si.Dir, path2(si.Category, si.Name), colon(si.Category, si.Name)} {
		if _, ok := recs[a]; ok && a != "" && a != si.Name {
			return true
		}
	}
	return false
}

// UsageKey is the key a skill's record is written under: its frontmatter
// name, else its folder name.
func (s *Snapshot) UsageKey(si SkillInfo) string {
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
	return FrontmatterName(data), nil
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

// Key is the key to write skill name's record under.
func (k *UsageKeys) Key(name string) string {
	if c, ok := k.canonical[name]; ok {
		return c
	}
	return name
}

// Skill is the skill (folder name) a record key belongs to, and whether
// it belongs to one.
func (k *UsageKeys) Skill(key string) (string, bool) {
	n, ok := k.owner[key]
	return n, ok
}

// Aliases lists the keys of recs that belong to skill name, the key to
// write first when present.
func (k *UsageKeys) Aliases(recs map[string]*UsageRecord, name string) []string {
	var out []string
	if _, ok := recs[k.Key(name)]; ok {
		out = append(out, k.Key(name))
	}
	for _, key := range sortedKeys(recs) {
		if key != k.Key(name) && k.owner[key] == name {
			out = append(out, key)
		}
	}
	return out
}

// Resolve returns the records of recs merged per skill name (folder):
// every alias of a skill read as one record, by the reference's merge
// rules (docs/reference-behaviour.md §5.2) — counters summed, the
// earliest creation, the latest activity, the highest patch generation,
// created_by "agent" when any alias says so, pinned when any alias is,
// and the strongest state (archived, then stale, then active). Records
// of no skill keep their key. recs is not changed.
func (k *UsageKeys) Resolve(recs map[string]*UsageRecord) map[string]*UsageRecord {
	out := make(map[string]*UsageRecord, len(recs))
	for _, key := range sortedKeys(recs) {
		name, ok := k.owner[key]
		if !ok {
			name = key
		}
		r := recs[key]
		if have, ok := out[name]; ok {
			out[name] = mergeUsage(have, r)
			continue
		}
		c := *r
		out[name] = &c
	}
	return out
}

// mergeUsage merges two records of one skill into a new one.
func mergeUsage(a, b *UsageRecord) *UsageRecord {
	m := *a
	m.UseCount += b.UseCount
	m.ViewCount += b.ViewCount
	m.PatchCount += b.PatchCount
	m.PatchGeneration = max(a.PatchGeneration, b.PatchGeneration)
	m.LastReusedPatchGeneration = max(a.LastReusedPatchGeneration, b.LastReusedPatchGeneration)
	m.CreatedAt = earliest(a.CreatedAt, b.CreatedAt)
	m.LastUsedAt = latest(a.LastUsedAt, b.LastUsedAt)
	m.LastViewedAt = latest(a.LastViewedAt, b.LastViewedAt)
	m.LastPatchedAt = latest(a.LastPatchedAt, b.LastPatchedAt)
	if b.AgentCreated() && !a.AgentCreated() {
		agent := "agent"
		m.CreatedBy = &agent
	} else if m.CreatedBy == nil {
		m.CreatedBy = b.CreatedBy
	}
	m.Pinned = a.Pinned || b.Pinned
	if stateRank(b.State) > stateRank(a.State) {
		m.State, m.ArchivedAt = b.State, b.ArchivedAt
	}
	if len(a.Extra) > 0 || len(b.Extra) > 0 {
		m.Extra = map[string]json.RawMessage{}
		for key, v := range b.Extra {
			m.Extra[key] = v
		}
		for key, v := range a.Extra {
			m.Extra[key] = v
		}
	}
	return &m
}

func stateRank(s string) int {
	switch s {
	case StateArchived:
		return 2
	case StateStale:
		return 1
	}
	return 0
}

// earliest and latest pick one of two usage timestamps; one that does
// not parse loses to one that does, and a tie keeps a.
func earliest(a, b *string) *string { return pickTime(a, b, time.Time.Before) }

func latest(a, b *string) *string { return pickTime(a, b, time.Time.After) }

// pickTime returns b when it parses and a does not, or when both parse
// and better(b, a); else a.
func pickTime(a, b *string, better func(t, u time.Time) bool) *string {
	ta, oka := ParseUsageTime(a)
	tb, okb := ParseUsageTime(b)
	switch {
	case !oka:
		return b
	case !okb:
		return a
	case better(tb, ta):
		return b
	}
	return a
}

// Carry moves every alias record of skill from into the record of the
// skill to (its key toKey), merged, so a rename keeps the skill's usage.
func (k *UsageKeys) Carry(recs map[string]*UsageRecord, from, toKey string) {
	merged := recs[toKey]
	for _, key := range k.Aliases(recs, from) {
		if key == toKey {
			continue
		}
		if merged == nil {
			c := *recs[key]
			merged = &c
		} else {
			merged = mergeUsage(merged, recs[key])
		}
		delete(recs, key)
	}
	if merged != nil {
		recs[toKey] = merged
	}
}

// UsageOf reads the usage sidecar for the skills of snap: every skill's
// record with its aliases merged in, keyed by skill name (folder), and
// the keys. Readers that decide anything from usage read it this way.
func (l *Library) UsageOf(snap *Snapshot) (map[string]*UsageRecord, *UsageKeys, error) {
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
