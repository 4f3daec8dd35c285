package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/lint"
)

// TestCIFiles checks the CI files a user copies: the example
// workflow lints real skills, and the Action runs lint once, leaves the
// caller's Go alone and reads its counts from the JSON report.
func TestCIFiles(t *testing.T) {
	root := filepath.Join("..", "..")
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, filepath.Join(root, ".github", "workflows", "lint-skills-example.yml"), &wf)
	linted := 0
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			if st.Uses != "./" {
				continue
			}
			linted++
			p := st.With["path"]
			rep, err := lint.Check(os.DirFS(root), lint.Options{Paths: strings.Fields(p), Profile: lint.Profile(st.With["profile"])})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Skills) < 4 || rep.HasErrors() {
				t.Errorf("example workflow lints %q: %d skills, findings %+v; want the example library, clean", p, len(rep.Skills), rep.Findings)
			}
		}
	}
	if linted != 1 {
		t.Fatalf("example workflow uses the action %d times, want 1", linted)
	}

	var action struct {
		Runs struct {
			Steps []struct {
				ID   string            `yaml:"id"`
				If   string            `yaml:"if"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	readYAML(t, filepath.Join(root, "action.yml"), &action)
	runs := 0
	cached := false
	for _, st := range action.Runs.Steps {
		runs += len(regexp.MustCompile(`"\$BIN" lint `).FindAllString(st.Run, -1))
		if strings.HasPrefix(st.Uses, "actions/setup-go") && !strings.Contains(st.If, "have-go != 'true'") {
			t.Errorf("setup-go runs unconditionally (if: %q): it would replace the caller's Go", st.If)
		}
		if strings.HasPrefix(st.Uses, "actions/cache") && strings.Contains(st.With["path"], "steps.prep.outputs.dir") {
			cached = true
		}
		if st.ID == "lint" {
			if !strings.Contains(st.Run, "jq -r '.errors'") || strings.Contains(st.Run, "sed -n") {
				t.Errorf("the lint step must read its counts from the JSON report with a JSON parser")
			}
		}
	}
	if runs != 1 {
		t.Errorf("the action runs lint %d times, want once", runs)
	}
	if !cached {
		t.Errorf("the action does not cache its build under the workspace")
	}
}

func readYAML(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
