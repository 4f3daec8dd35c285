package skillrepo

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillrepo/skillrepo/overlap"
)

// lookAlikeSet is the labelled set the duplicate check's threshold is
// tuned on (docs/reference-behaviour.md §4.5): a library of real skills
// from public collections, and creates a review might send against it —
// look-alikes (the same job as one library skill, in fresh words) and
// neighbours (another job of the same family: plausible separate skills).
type lookAlikeSet struct {
	library []overlap.Skill
	// creates: each with its label, and the library skill it targets.
	creates []labelledCreate
}

type labelledCreate struct {
	skill     overlap.Skill
	lookAlike bool
	target    string
}

func loadLookAlikeSet(t testing.TB) lookAlikeSet {
	t.Helper()
	var set lookAlikeSet
	seen := map[string]string{}
	// The linter's corpora (lint/testdata/corpora/SOURCE.md) and six more
	// skills of the same upstream (testdata/lookalike/SOURCE.md).
	for _, root := range []string{filepath.Join("..", "lint", "testdata", "corpora"), filepath.Join("testdata", "lookalike", "hermes-agent")} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "SKILL.md" {
				return err
			}
			name := filepath.Base(filepath.Dir(p))
			if prev, dup := seen[name]; dup {
				return fmt.Errorf("skill %q twice: %s and %s", name, prev, p)
			}
			seen[name] = p
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			set.library = append(set.library, overlap.FromSKILLMD(name, "", b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "lookalike", "creates.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		parts := strings.Split(f.Name, "/")
		if len(parts) != 3 || (parts[0] != "lookalike" && parts[0] != "neighbour") {
			t.Fatalf("creates.txtar: %s is not lookalike/<target>/<name>.md or neighbour/<near>/<name>.md", f.Name)
		}
		if _, ok := seen[parts[1]]; !ok {
			t.Fatalf("creates.txtar: %s names %q, which the library does not hold", f.Name, parts[1])
		}
		name := strings.TrimSuffix(parts[2], path.Ext(parts[2]))
		set.creates = append(set.creates, labelledCreate{
			skill:     overlap.FromSKILLMD(name, "", f.Data),
			lookAlike: parts[0] == "lookalike",
			target:    parts[1],
		})
	}
	return set
}

// precision is what the duplicate check would do with the labelled set at
// one threshold.
type precision struct {
	threshold float64
	// distinct is how many creates should pass (each library skill sent
	// against the others, and the neighbours); falseRefusals of them are
	// refused.
	distinct, falseRefusals int
	// lookAlikes is how many should be refused; caught of them are, and
	// named their target among the skills to patch.
	lookAlikes, caught int
	refused            []string
}

func measurePrecision(set lookAlikeSet, threshold float64) precision {
	ix := overlap.NewIndex(set.library)
	p := precision{threshold: threshold}
	for _, s := range set.library {
		p.distinct++
		if ms := ix.Query(s, threshold); len(ms) > 0 {
			p.falseRefusals++
			p.refused = append(p.refused, fmt.Sprintf("%s~%s %.2f", s.Name, ms[0].Name, ms[0].Similarity))
		}
	}
	for _, c := range set.creates {
		ms := ix.Query(c.skill, threshold)
		if !c.lookAlike {
			p.distinct++
			if len(ms) > 0 {
				p.falseRefusals++
				p.refused = append(p.refused, fmt.Sprintf("%s~%s %.2f", c.skill.Name, ms[0].Name, ms[0].Similarity))
			}
			continue
		}
		p.lookAlikes++
		for _, m := range ms {
			if m.Name == c.target {
				p.caught++
				break
			}
		}
	}
	sort.Strings(p.refused)
	return p
}

// TestDuplicateCheckPrecision holds the duplicate check's threshold to
// its measured figures: under 5% of distinct skills refused, and the
// recall it keeps on look-alikes. `bench/lookalike.sh` prints the whole
// sweep (go test -v).
func TestDuplicateCheckPrecision(t *testing.T) {
	set := loadLookAlikeSet(t)
	if len(set.library) < 80 || len(set.creates) < 30 {
		t.Fatalf("labelled set too small: %d library skills, %d creates", len(set.library), len(set.creates))
	}
	t.Logf("library %d skills; creates: %d look-alikes, %d neighbours", len(set.library), countLabel(set, true), countLabel(set, false))
	t.Logf("threshold  false refusals (of distinct)  recall (look-alikes refused naming their target)")
	for _, th := range []float64{0.25, 0.30, 0.35, 0.40, 0.45, 0.46, 0.47, 0.48, 0.49, 0.50, 0.52, 0.55, 0.60, 0.70, 0.80} {
		p := measurePrecision(set, th)
		mark := ""
		if th == DuplicateThreshold {
			mark = "  <- DuplicateThreshold"
		}
		t.Logf("%.2f       %3d/%d (%4.1f%%)              %2d/%d (%3.0f%%)%s", th, p.falseRefusals, p.distinct, 100*float64(p.falseRefusals)/float64(p.distinct), p.caught, p.lookAlikes, 100*float64(p.caught)/float64(p.lookAlikes), mark)
	}
	p := measurePrecision(set, DuplicateThreshold)
	if rate := float64(p.falseRefusals) / float64(p.distinct); rate >= 0.05 {
		t.Errorf("at %.2f the check refuses %d of %d distinct skills (%.1f%%, want < 5%%): %s", DuplicateThreshold, p.falseRefusals, p.distinct, 100*rate, strings.Join(p.refused, ", "))
	}
	if p.caught < minLookAlikesCaught {
		t.Errorf("at %.2f the check catches %d of %d look-alikes, fewer than the %d documented", DuplicateThreshold, p.caught, p.lookAlikes, minLookAlikesCaught)
	}
}

// minLookAlikesCaught is the recall documented beside DuplicateThreshold
// (docs/reference-behaviour.md §4.5), measured on the labelled set.
const minLookAlikesCaught = 8

func countLabel(set lookAlikeSet, lookAlike bool) int {
	n := 0
	for _, c := range set.creates {
		if c.lookAlike == lookAlike {
			n++
		}
	}
	return n
}
