package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCorporaGolden lints the real skill collections in testdata/corpora
// under every profile and compares the counts per rule with
// testdata/corpora.golden, so any change in behaviour shows up in review.
func TestCorporaGolden(t *testing.T) {
	root := testdataDir(t, "corpora")
	var b strings.Builder
	b.WriteString("# Findings of skillrepo lint on testdata/corpora (subsets of hermes-agent and anthropics-skills), per profile.\n")
	b.WriteString("# A change here is a change in lint's behaviour: review it, then refresh with\n")
	b.WriteString("#   go test ./lint -run TestCorporaGolden -update\n")
	for _, p := range Profiles() {
		rep, err := Check(os.DirFS(root), Options{Profile: p, RootName: "corpora"})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\n[%s]\nskills %d\nerror %d\nwarning %d\ninfo %d\n", p, len(rep.Skills), rep.Count(Error), rep.Count(Warning), rep.Count(Info))
		counts := map[string]int{}
		for _, f := range rep.Findings {
			counts[f.Rule+" "+f.Severity.String()]++
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "rule %s %d\n", k, counts[k])
		}
	}
	golden := filepath.Join("testdata", "corpora.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("counts changed; review and run with -update\n%s", lineDiff(string(want), got))
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
