package lint

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSARIFRegions checks the SARIF structurally: GitHub code scanning
// drops a result without region.startLine, so every result has one, and
// it is a line the file has.
func TestSARIFRegions(t *testing.T) {
	files := map[string]string{
		"demo/SKILL.md":          skillMD(okFront, ""), // body-empty after the last line
		"demo/references/old.md": "o\n",                // file-orphan: a whole file
		"low/skill.md":           skillMD("name: low\ndescription: d\n", "x\n"),
		"broken/references/a.md": "a\n", // skill-md-missing: a folder
	}
	rep := check(t, files, Options{Paths: []string{".", "nope"}})
	for _, rule := range []string{"body-empty", "file-orphan", "skill-md-case", "skill-md-missing", "target-missing"} {
		if len(hits(rep, rule)) == 0 {
			t.Fatalf("no %s finding to check; findings: %+v", rule, rep.Findings)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep, FormatSARIF, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != len(rep.Findings) {
		t.Fatalf("want one run with %d results: %s", len(rep.Findings), buf.String())
	}
	for _, r := range log.Runs[0].Results {
		for _, l := range r.Locations {
			reg := l.PhysicalLocation.Region
			if reg == nil || reg.StartLine < 1 {
				t.Errorf("%s at %s: no region.startLine", r.RuleID, l.PhysicalLocation.ArtifactLocation.URI)
				continue
			}
			if text, ok := files[l.PhysicalLocation.ArtifactLocation.URI]; ok {
				if n := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1; reg.StartLine > n {
					t.Errorf("%s at %s:%d: the file has %d lines", r.RuleID, l.PhysicalLocation.ArtifactLocation.URI, reg.StartLine, n)
				}
			}
		}
	}
}
