package overlap

import (
	"fmt"
	"sort"
	"strings"
)

// DefaultThreshold is the cosine similarity at or above which two skills
// are reported as overlapping. Rewordings of one skill score 0.6–0.9 on
// this measure, skills that only share vocabulary (the same tool, a
// different job) 0.1–0.3; see the planted library in the tests.
const DefaultThreshold = 0.45

// MaxPrefixMembers is the largest group one shared name prefix makes. A
// prefix shared by more skills is too broad to be one umbrella (every
// skill of a generated library is skill-NNNNN), so the group is split by
// its next name segment.
const MaxPrefixMembers = 25

// Options tune [Find].
type Options struct {
	// Threshold is the pair similarity that links two skills (0 means
	// DefaultThreshold).
	Threshold float64
	// NoPrefix leaves shared name prefixes out: clusters come from
	// content alone.
	NoPrefix bool
}

// Member is one skill of a cluster.
type Member struct {
	Name      string `json:"name"`
	Category  string `json:"category,omitempty"`
	Pinned    bool   `json:"pinned,omitempty"`
	Scheduled bool   `json:"scheduled,omitempty"`
}

// Cluster is a group of skills that likely belong under one umbrella,
// with the evidence that put them together.
type Cluster struct {
	// Umbrella is a suggested name for the umbrella skill.
	Umbrella string `json:"umbrella"`
	// UmbrellaExists is true when Umbrella names a member: fold the others
	// into it rather than creating a new skill.
	UmbrellaExists bool     `json:"umbrella_exists"`
	Members        []Member `json:"members"`
	// Prefix is the name prefix every member shares ("gateway-"), if any.
	Prefix string `json:"prefix,omitempty"`
	// Pairs are the member pairs at or above the threshold, and every
	// pair of a prefix cluster whatever its similarity (Prefix set), so
	// whoever decides the umbrella sees how far apart the members are.
	Pairs []Pair `json:"pairs"`
}

// Names lists the cluster's member names.
func (c *Cluster) Names() []string {
	out := make([]string, len(c.Members))
	for i, m := range c.Members {
		out[i] = m.Name
	}
	return out
}

// Find groups skills that likely belong under one umbrella: skills linked
// by a content similarity at or above the threshold, and every unpinned
// skill of a name prefix (a prefix cluster: gateway-*, pr-*, the
// reference's starting point, docs/reference-behaviour.md §6.6), joined
// transitively. A prefix cluster lists every pair of its members with
// their similarity, low ones included: the name is evidence of a family,
// not proof, and the umbrella decision stays with the model. Clusters
// come largest first, then by first member name; members by name. The
// result is a pure function of the skills and the options.
func Find(skills []Skill, opts Options) []Cluster {
	ix := NewIndex(skills)
	return ix.Clusters(opts)
}

// Clusters is [Find] on an index built already.
func (ix *Index) Clusters(opts Options) []Cluster {
	th := opts.Threshold
	if th <= 0 {
		th = DefaultThreshold
	}
	n := len(ix.skills)
	uf := newUnionFind(n)
	var pairs []Pair
	linked := map[[2]int]bool{}
	for _, p := range ix.Pairs(th) {
		a, b := ix.byName[p.A], ix.byName[p.B]
		pairs = append(pairs, p)
		linked[[2]int{min(a, b), max(a, b)}] = true
		uf.union(a, b)
	}
	if !opts.NoPrefix {
		for _, g := range prefixGroups(ix.skills) {
			names := make([]string, len(g))
			for k, d := range g {
				names[k] = ix.skills[d].Name
			}
			prefix := commonPrefix(names)
			for i, a := range g {
				for _, b := range g[i+1:] {
					uf.union(a, b)
					if linked[[2]int{min(a, b), max(a, b)}] {
						continue
					}
					x, y := min(a, b), max(a, b)
					pairs = append(pairs, Pair{A: ix.skills[x].Name, B: ix.skills[y].Name,
						Similarity: round(dot(ix.vecs[x], ix.vecs[y])), Shared: ix.shared(ix.vecs[x], ix.vecs[y]), Prefix: prefix})
				}
			}
		}
	}
	comps := map[int][]int{}
	for d := 0; d < n; d++ {
		r := uf.find(d)
		comps[r] = append(comps[r], d)
	}
	pairsOf := map[int][]Pair{}
	for _, p := range pairs {
		r := uf.find(ix.byName[p.A])
		pairsOf[r] = append(pairsOf[r], p)
	}
	var out []Cluster
	for r, docs := range comps {
		if len(docs) < 2 {
			continue
		}
		c := Cluster{Pairs: pairsOf[r]}
		if c.Pairs == nil {
			c.Pairs = []Pair{}
		}
		sort.Slice(docs, func(i, j int) bool { return ix.skills[docs[i]].Name < ix.skills[docs[j]].Name })
		for _, d := range docs {
			s := ix.skills[d]
			c.Members = append(c.Members, Member{Name: s.Name, Category: s.Category, Pinned: s.Pinned, Scheduled: s.Scheduled})
		}
		sort.Slice(c.Pairs, func(i, j int) bool {
			a, b := c.Pairs[i], c.Pairs[j]
			if a.Similarity != b.Similarity {
				return a.Similarity > b.Similarity
			}
			if a.A != b.A {
				return a.A < b.A
			}
			return a.B < b.B
		})
		c.Prefix = commonPrefix(c.Names())
		c.Umbrella, c.UmbrellaExists = ix.umbrella(&c, docs)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Members) != len(out[j].Members) {
			return len(out[i].Members) > len(out[j].Members)
		}
		return out[i].Members[0].Name < out[j].Members[0].Name
	})
	return out
}

// prefixGroups returns the unpinned skills (by index) grouped by shared
// name prefix: the first name segment, or more segments while a group is
// larger than MaxPrefixMembers. Names without a separator make no group;
// a pinned skill is never changed, so it joins no prefix cluster (content
// may still link it, flagged).
func prefixGroups(skills []Skill) [][]int {
	var out [][]int
	var split func(docs []int, segs int)
	split = func(docs []int, segs int) {
		groups := map[string][]int{}
		for _, d := range docs {
			words := nameWords(skills[d].Name)
			if len(words) <= segs { // the prefix would be the whole name
				continue
			}
			key := strings.Join(words[:segs], "-")
			groups[key] = append(groups[key], d)
		}
		keys := make([]string, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			g := groups[k]
			switch {
			case len(g) < 2:
			case len(g) > MaxPrefixMembers:
				split(g, segs+1)
			default:
				out = append(out, g)
			}
		}
	}
	var all []int
	for i, s := range skills {
		if !s.Pinned {
			all = append(all, i)
		}
	}
	split(all, 1)
	return out
}

// commonPrefix is the longest run of whole name segments every name
// starts with, with its trailing separator ("gateway-"), or "".
func commonPrefix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	first := nameWords(names[0])
	k := len(first)
	for _, n := range names[1:] {
		w := nameWords(n)
		i := 0
		for i < k && i < len(w) && w[i] == first[i] {
			i++
		}
		k = i
	}
	// A prefix that is a whole member's name is that member, not a family.
	for _, n := range names {
		if len(nameWords(n)) <= k {
			k = len(nameWords(n)) - 1
		}
	}
	if k <= 0 {
		return ""
	}
	return strings.Join(first[:k], "-") + "-"
}

// umbrella suggests a name for the cluster's umbrella: the shared prefix;
// else two or three name words most members share, in the order the most
// central member uses them; else the most central member itself (the one
// most similar to the rest), which the others fold into.
func (ix *Index) umbrella(c *Cluster, docs []int) (string, bool) {
	central, best := docs[0], -1.0
	for _, d := range docs {
		var sum float64
		for _, e := range docs {
			if e != d {
				sum += dot(ix.vecs[d], ix.vecs[e])
			}
		}
		if sum > best {
			central, best = d, sum
		}
	}
	name := ""
	if c.Prefix != "" {
		name = strings.TrimSuffix(c.Prefix, "-")
	} else {
		count := map[string]int{}
		for _, d := range docs {
			seen := map[string]bool{}
			for _, w := range nameWords(ix.skills[d].Name) {
				t := fold([]byte(strings.ToLower(w)))
				if t != "" && !seen[t] {
					seen[t] = true
					count[t]++
				}
			}
		}
		need := max(2, (len(docs)+1)/2)
		var words []string
		for _, w := range nameWords(ix.skills[central].Name) {
			t := fold([]byte(strings.ToLower(w)))
			if count[t] >= need && len(words) < 3 {
				words = append(words, w)
				count[t] = 0 // once
			}
		}
		// One shared word ("image") is a topic, not a name: fold into
		// the central member instead.
		if len(words) >= 2 {
			name = strings.Join(words, "-")
		}
	}
	if name == "" {
		return ix.skills[central].Name, true
	}
	for _, d := range docs {
		if ix.skills[d].Name == name {
			return name, true
		}
	}
	if _, taken := ix.byName[name]; taken {
		// An unrelated skill has the name: the umbrella needs another.
		name = fmt.Sprintf("%s-guide", name)
	}
	return name, false
}

type unionFind struct{ parent []int }

func newUnionFind(n int) *unionFind {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return &unionFind{p}
}

func (u *unionFind) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// union links two sets, the smaller index the root, so roots (and with
// them the result) do not depend on the order of unions.
func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
}
