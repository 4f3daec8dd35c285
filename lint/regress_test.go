package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// precisionRules are the rules that must stay precise on real
// collections (a finding on what real skills write is a false alarm):
// every finding of theirs on testdata/corpora is pinned, not only their
// count.
var precisionRules = map[string]bool{
	"link-dangling": true, "link-outside-skill": true, "path-dangling": true,
	"file-orphan": true, "skill-ref-archived": true, "skill-md-missing": true,
}

// TestRegressionCorpus lints testdata/regress/lib (one small skill per
// precision case) and the real skills of testdata/corpora, and compares
// every finding of the first and every precision-rule finding of the
// second with testdata/regress/expected.txt, so precision is a test: a
// new false positive or a lost true one changes the file.
func TestRegressionCorpus(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Findings of skillrepo lint (profile spec) on testdata/regress/lib, all of them,\n")
	b.WriteString("# and on testdata/corpora, for the precision rules. Each line was reviewed;\n")
	b.WriteString("# refresh with: go test ./lint -run TestRegressionCorpus -update\n")
	for _, tc := range []struct {
		root string
		keep func(Finding) bool
	}{
		{filepath.Join("testdata", "regress", "lib"), func(Finding) bool { return true }},
		{testdataDir(t, "corpora"), func(f Finding) bool { return precisionRules[f.Rule] }},
	} {
		rep, err := Check(os.DirFS(tc.root), Options{RootName: filepath.Base(tc.root)})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\n[%s] %d skills\n", filepath.ToSlash(tc.root), len(rep.Skills))
		for _, f := range rep.Findings {
			if tc.keep(f) {
				fmt.Fprintf(&b, "%s %s %s: %s\n", f.location(), f.Severity, f.Rule, f.Message)
			}
		}
	}
	golden := filepath.Join("testdata", "regress", "expected.txt")
	if *update {
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
		t.Errorf("findings changed; review and run with -update\n%s", lineDiff(string(want), got))
	}
}
