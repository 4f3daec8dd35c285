package overlap

import (
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// testLibrary is 300 unrelated skills with the planted families and the
// false friends shuffled in.
func testLibrary() []Skill {
	lib := append(filler(300, 7), skillsOf(dockerCleanup, pgBloat, gateway, prFamily, falseFriends)...)
	rand.New(rand.NewSource(3)).Shuffle(len(lib), func(i, j int) { lib[i], lib[j] = lib[j], lib[i] })
	return lib
}

func namesOf(ps []planted) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.name)
	}
	sort.Strings(out)
	return out
}

func TestSimilarityOfPlantedPairs(t *testing.T) {
	ix := NewIndex(testLibrary())
	tests := []struct {
		a, b    string
		overlap bool
	}{
		{"docker-image-cleanup", "prune-stale-container-images", true}, // renamed, reworded, reordered
		{"docker-image-cleanup", "docker-disk-full", true},
		{"pg-vacuum-bloat", "postgres-table-bloat-fix", true}, // renamed, steps reversed
		{"api-token-rotation", "llm-tokenizer-debugging", false},
		{"go-heap-memory-profiling", "agent-memory-curation", false},
		{"docker-image-cleanup", "image-thumbnail-resize", false},
		{"docker-image-cleanup", "docker-compose-healthchecks", false},
		{"prune-stale-container-images", "docker-compose-healthchecks", false},
		{"gateway-retry-backoff", "api-token-rotation", false},
	}
	for _, tc := range tests {
		sim := ix.Similarity(tc.a, tc.b)
		t.Logf("%s ~ %s = %.3f", tc.a, tc.b, sim)
		if got := sim >= DefaultThreshold; got != tc.overlap {
			t.Errorf("similarity(%s, %s) = %.3f: overlap %v, want %v", tc.a, tc.b, sim, got, tc.overlap)
		}
	}
}

func TestFindPlantedClusters(t *testing.T) {
	clusters := Find(testLibrary(), Options{})
	of := map[string]*Cluster{}
	for i := range clusters {
		for _, m := range clusters[i].Members {
			of[m.Name] = &clusters[i]
		}
	}
	tests := []struct {
		family    []string
		prefix    string
		umbrella  string
		bySimilar bool // at least one content pair is evidence
	}{
		// docker-compose-healthchecks shares the docker- prefix: a prefix
		// cluster lists it, linked by its name only (checked below).
		{family: []string{"docker-compose-healthchecks", "docker-disk-full", "docker-image-cleanup", "prune-stale-container-images"}, umbrella: "docker-image", bySimilar: true},
		{family: namesOf(pgBloat), umbrella: "pg-vacuum-bloat", bySimilar: true},
		{family: namesOf(gateway), prefix: "gateway-", umbrella: "gateway"},
		{family: namesOf(prFamily), prefix: "pr-", umbrella: "pr"},
	}
	for _, tc := range tests {
		t.Run(tc.family[0], func(t *testing.T) {
			c := of[tc.family[0]]
			if c == nil {
				t.Fatalf("%s is in no cluster", tc.family[0])
			}
			if got := c.Names(); !reflect.DeepEqual(got, tc.family) {
				t.Fatalf("cluster = %v, want %v", got, tc.family)
			}
			if c.Prefix != tc.prefix {
				t.Errorf("prefix = %q, want %q", c.Prefix, tc.prefix)
			}
			if tc.umbrella != "" && c.Umbrella != tc.umbrella {
				t.Errorf("umbrella = %q, want %q", c.Umbrella, tc.umbrella)
			}
			if c.Umbrella == "" {
				t.Errorf("no umbrella suggested")
			}
			if tc.bySimilar && len(c.Pairs) == 0 {
				t.Errorf("no similarity evidence in %+v", c)
			}
			for _, p := range c.Pairs {
				if !strongPair(p) && !prefixPair(p) {
					t.Errorf("weak evidence %+v", p)
				}
			}
		})
	}
	// A false friend shares words, not a purpose: no content pair links
	// it; only a shared name prefix may list it beside a family.
	for _, ff := range falseFriends {
		c := of[ff.name]
		if c == nil {
			continue
		}
		for _, p := range c.Pairs {
			if (p.A == ff.name || p.B == ff.name) && !prefixPair(p) {
				t.Errorf("false friend %s linked by content: %+v", ff.name, p)
			}
		}
	}
	// The filler shares a Zipf vocabulary but no purpose: it makes no
	// cluster but the prefix clusters of names that happen to share a
	// first word.
	for _, c := range clusters {
		for _, n := range c.Names() {
			if slices.Contains(planted4(), n) || slices.Contains(namesOf(falseFriends), n) {
				continue
			}
			if c.Prefix == "" {
				t.Errorf("unplanted cluster %v (%+v)", c.Names(), c.Pairs)
			}
			for _, p := range c.Pairs {
				if !prefixPair(p) {
					t.Errorf("unplanted content pair %+v", p)
				}
			}
			break
		}
	}
}

// strongPair is content evidence: similar enough, with shared terms.
func strongPair(p Pair) bool { return p.Similarity >= DefaultThreshold && len(p.Shared) > 0 }

// prefixPair is a prefix cluster's pair below the threshold: its prefix
// set and both names starting with it.
func prefixPair(p Pair) bool {
	return p.Similarity < DefaultThreshold && p.Prefix != "" && strings.HasPrefix(p.A, p.Prefix) && strings.HasPrefix(p.B, p.Prefix)
}

// A prefix cluster lists every unpinned member of the prefix, however
// unlike the others its text is, with each pair's similarity; a pinned
// skill of the prefix is never changed and joins no prefix cluster.
func TestPrefixClusterListsEveryMember(t *testing.T) {
	skills := append(filler(50, 11),
		Skill{Name: "pr-review-checklist", Description: "Use when reviewing a pull request. Check tests, naming and the PR description.", Body: "Read the PR description first, then the tests."},
		Skill{Name: "pr-description-writing", Description: "Use when opening a pull request. Write what, why and how it was tested.", Body: "Every pull request description says what changed and why."},
		Skill{Name: "pr-merge-conflicts", Description: "Use when a branch no longer merges cleanly. Rebase and resolve conflicts hunk by hunk.", Body: "Fetch, rebase onto main, resolve each conflict, run the tests, force-push with lease."},
		Skill{Name: "pr-labels", Description: "Use when triaging. Label pull requests by area.", Body: "Labels: area/*, kind/*.", Pinned: true},
	)
	var pr *Cluster
	clusters := Find(skills, Options{})
	for i := range clusters {
		if slices.Contains(clusters[i].Names(), "pr-merge-conflicts") {
			pr = &clusters[i]
		}
	}
	if pr == nil {
		t.Fatalf("pr-merge-conflicts is in no cluster: %+v", clusters)
	}
	if want := []string{"pr-description-writing", "pr-merge-conflicts", "pr-review-checklist"}; !reflect.DeepEqual(pr.Names(), want) {
		t.Fatalf("pr-* cluster = %v, want %v (every unpinned member, the pinned one left out)", pr.Names(), want)
	}
	if pr.Prefix != "pr-" || pr.Umbrella != "pr" {
		t.Errorf("prefix %q, umbrella %q", pr.Prefix, pr.Umbrella)
	}
	if len(pr.Pairs) != 3 {
		t.Fatalf("pairs = %+v, want all 3", pr.Pairs)
	}
	ix := NewIndex(skills)
	for _, p := range pr.Pairs {
		if want := ix.Similarity(p.A, p.B); p.Similarity != want {
			t.Errorf("%s ~ %s = %v, want the measured %v", p.A, p.B, p.Similarity, want)
		}
		if p.Similarity < DefaultThreshold && p.Prefix != "pr-" {
			t.Errorf("pair below the threshold without its prefix: %+v", p)
		}
	}
}

func planted4() []string {
	return slices.Concat(namesOf(dockerCleanup), namesOf(pgBloat), namesOf(gateway), namesOf(prFamily))
}

func TestQuery(t *testing.T) {
	lib := testLibrary()
	var without []Skill
	for _, s := range lib {
		if s.Name != "prune-stale-container-images" && s.Name != "postgres-table-bloat-fix" {
			without = append(without, s)
		}
	}
	ix := NewIndex(without)
	find := func(ps []planted, name string) Skill {
		for _, p := range ps {
			if p.name == name {
				return Skill{Name: p.name, Description: p.desc, Body: p.body}
			}
		}
		t.Fatalf("no planted %s", name)
		return Skill{}
	}
	tests := []struct {
		name  string
		query Skill
		want  []string
	}{
		{"reworded docker copy", find(dockerCleanup, "prune-stale-container-images"), []string{"docker-image-cleanup", "docker-disk-full"}},
		{"reordered pg copy", find(pgBloat, "postgres-table-bloat-fix"), []string{"pg-vacuum-bloat"}},
		{"token false friend", find(falseFriends, "llm-tokenizer-debugging"), nil},
		{"memory false friend", find(falseFriends, "go-heap-memory-profiling"), nil},
		{"reworded memory copy", Skill{Name: "memory-md-tidy", Description: "Use when MEMORY.md grows long: keep the durable facts, drop notes about one session.",
			Body: "# Tidy the agent's memory\n\nMerge duplicate entries, one line per entry. Keep durable facts about the environment and the user's preferences; remove what describes a single session."}, []string{"agent-memory-curation"}},
		{"itself is not a duplicate", find(gateway, "gateway-retry-backoff"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range ix.Query(tc.query, DefaultThreshold) {
				got = append(got, m.Name)
			}
			sort.Strings(got)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Query(%s) = %v, want %v", tc.query.Name, got, want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"retries", "retry"}, {"retrying", "retry"}, {"retried", "retry"}, {"retry", "retry"},
		{"caches", "cach"}, {"caching", "cach"}, {"cached", "cach"}, {"cache", "cach"},
		{"images", "imag"}, {"image", "imag"}, {"status", "status"}, {"the", ""}, {"2024", ""},
		{"k8s", "k8s"}, {"pr", "pr"},
	}
	for _, tc := range tests {
		if got := fold([]byte(tc.in)); got != tc.want {
			t.Errorf("fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPrefixGroupsSplitBroadPrefixes(t *testing.T) {
	var skills []Skill
	for i := 0; i < 40; i++ {
		skills = append(skills, Skill{Name: "skill-" + strings.Repeat("x", i%3+1) + "-" + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	for _, g := range prefixGroups(skills) {
		if len(g) > MaxPrefixMembers {
			t.Errorf("group of %d", len(g))
		}
	}
	if got := commonPrefix([]string{"gateway-retry", "gateway-timeout"}); got != "gateway-" {
		t.Errorf("commonPrefix = %q", got)
	}
	if got := commonPrefix([]string{"gateway", "gateway-timeout"}); got != "" {
		t.Errorf("commonPrefix with a member named as the prefix = %q", got)
	}
}

func TestDeterministic(t *testing.T) {
	a := Find(testLibrary(), Options{})
	lib := testLibrary()
	slices.Reverse(lib)
	b := Find(lib, Options{})
	strip := func(cs []Cluster) [][]string {
		var out [][]string
		for _, c := range cs {
			out = append(out, append(c.Names(), c.Umbrella, c.Prefix))
		}
		return out
	}
	if !reflect.DeepEqual(strip(a), strip(b)) {
		t.Errorf("order changes the result:\n%v\n%v", strip(a), strip(b))
	}
}

func TestFromSKILLMD(t *testing.T) {
	tests := []struct{ name, in, desc, body string }{
		{"plain", "---\nname: a\ndescription: Use when X. Do Y.\n---\n# A\n", "Use when X. Do Y.", "# A\n"},
		{"quoted", "---\nname: a\ndescription: \"Use when X.\"\nmetadata:\n  k: v\n---\nbody\n", "Use when X.", "body\n"},
		{"folded", "---\nname: a\ndescription: >\n  Use when X,\n  then Y.\nlicense: MIT\n---\nbody\n", "Use when X, then Y.", "body\n"},
		{"no frontmatter", "# just text\n", "", "# just text\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := FromSKILLMD("a", "cat", []byte(tc.in))
			if s.Description != tc.desc || s.Body != tc.body || s.Name != "a" || s.Category != "cat" {
				t.Errorf("got %+v", s)
			}
		})
	}
}
