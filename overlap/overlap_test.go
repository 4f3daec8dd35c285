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
		{family: namesOf(dockerCleanup), umbrella: "docker-image", bySimilar: true},
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
				if (p.Similarity < DefaultThreshold && p.Prefix != tc.prefix) || len(p.Shared) == 0 {
					t.Errorf("weak evidence %+v", p)
				}
			}
		})
	}
	for _, ff := range falseFriends {
		if c := of[ff.name]; c != nil {
			t.Errorf("false friend %s merged into %v", ff.name, c.Names())
		}
	}
	// The filler shares a Zipf vocabulary but no purpose.
	for _, c := range clusters {
		for _, n := range c.Names() {
			if !slices.Contains(planted4(), n) {
				t.Errorf("unplanted cluster %v (%+v)", c.Names(), c.Pairs)
				break
			}
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
