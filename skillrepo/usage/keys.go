package usage

// A skill's usage record has more than one possible key. The reference
// keys a record by the skill's frontmatter name (skill_view's views and
// uses, the curator's lifecycle states and pins) but its skill_manage
// bumps and marks under the name it was called with, which is the folder
// name: a skill whose folder and frontmatter name differ ends up with its
// record split in two, and each half looks less used than the skill is
// (docs/reference-behaviour.md §5.2). skillrepo writes under the
// frontmatter name, as the reference's newest release canonicalises, and
// reads every alias of a skill as one record, merged by the reference's
// rules. The domain says which keys a skill has (Snapshot.UsageKeys).

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// Keys knows the usage keys of a snapshot's skills.
type Keys struct {
	canonical map[string]string // skill name (folder) -> the key to write
	owner     map[string]string // any alias -> skill name (folder)
}

// NewKeys is an empty set of keys for about n skills.
func NewKeys(n int) *Keys {
	return &Keys{canonical: make(map[string]string, n), owner: make(map[string]string, 3*n)}
}

// Claim gives key to the skill name (its folder name) unless another
// skill has it already; with write it is the key name's record is written
// under. A skill's folder name claims itself first, so an alias never
// takes another skill's folder.
func (k *Keys) Claim(name, key string, write bool) {
	if _, taken := k.owner[key]; key == "" || taken {
		return
	}
	k.owner[key] = name
	if write {
		k.canonical[name] = key
	}
}

// Key is the key to write skill name's record under.
func (k *Keys) Key(name string) string {
	if c, ok := k.canonical[name]; ok {
		return c
	}
	return name
}

// Skill is the skill (folder name) a record key belongs to, and whether
// it belongs to one.
func (k *Keys) Skill(key string) (string, bool) {
	n, ok := k.owner[key]
	return n, ok
}

// Aliases lists the keys of recs that belong to skill name, the key to
// write first when present.
func (k *Keys) Aliases(recs map[string]*Record, name string) []string {
	var out []string
	if _, ok := recs[k.Key(name)]; ok {
		out = append(out, k.Key(name))
	}
	for _, key := range slices.Sorted(maps.Keys(recs)) {
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
func (k *Keys) Resolve(recs map[string]*Record) map[string]*Record {
	out := make(map[string]*Record, len(recs))
	for _, key := range slices.Sorted(maps.Keys(recs)) {
		name, ok := k.owner[key]
		if !ok {
			name = key
		}
		r := recs[key]
		if have, ok := out[name]; ok {
			out[name] = merge(have, r)
			continue
		}
		c := *r
		out[name] = &c
	}
	return out
}

// merge merges two records of one skill into a new one.
func merge(a, b *Record) *Record {
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
	ta, oka := ParseTime(a)
	tb, okb := ParseTime(b)
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
func (k *Keys) Carry(recs map[string]*Record, from, toKey string) {
	merged := recs[toKey]
	for _, key := range k.Aliases(recs, from) {
		if key == toKey {
			continue
		}
		if merged == nil {
			c := *recs[key]
			merged = &c
		} else {
			merged = merge(merged, recs[key])
		}
		delete(recs, key)
	}
	if merged != nil {
		recs[toKey] = merged
	}
}

// frontmatterNameLimit is how much of SKILL.md the reference reads for the
// name (tools/skill_usage._read_skill_name).
const frontmatterNameLimit = 4000

// FrontmatterName reads the name field of SKILL.md as the reference's
// curator does: the first "name:" line inside the leading "---" fence,
// within the first 4,000 characters, quotes stripped; "" when there is
// none. A skill's usage key is this name (Keys).
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
