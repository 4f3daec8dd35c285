package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// The first session start after init records an edit made outside
// skillrepo: the detached sync's lock folder is made on the way, and
// what the sync reports lands in the hooks log as stamped lines of the
// session start, never as bare text.
func TestFirstSessionStartRecordsOutsideEdits(t *testing.T) {
	s := newAgentSim(t)
	s.run("init", "--example", s.library)
	// No claude program and no endpoint: the hooks are written, reviews
	// have no model, so the install exits 5 (internal/cmdutil/exitcode.go).
	out := s.runExit(cmdutil.ExitNotRunning, "hooks", "install", "--claude-code")
	if !strings.Contains(out, "hint: set review.model and review.base_url") {
		t.Errorf("the install's hint does not say how reviews get a model:\n%s", out)
	}
	s.loadCommands()
	dir := filepath.Join(s.library, "outside-edit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: outside-edit\ndescription: Use when checking that outside edits are recorded.\n---\n# Outside edit\n\nWritten by hand.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	before := strings.TrimSpace(s.git("rev-list", "--count", "main"))
	s.hook("SessionStart", map[string]any{"source": "startup", "cwd": s.project})
	for deadline := time.Now().Add(30 * time.Second); ; {
		if strings.TrimSpace(s.git("rev-list", "--count", "main")) != before {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.library, ".git", "skillrepo", "logs", "hooks.log"))
			t.Fatalf("the first session start did not record the outside edit; hooks.log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := s.git("log", "-1", "--format=%s", "--name-only", "main"); !strings.Contains(got, "outside-edit/SKILL.md") {
		t.Errorf("the recorded commit: %s", got)
	}
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(string(log), "sync: ✓ recorded"); {
		if time.Now().After(deadline) {
			t.Fatalf("hooks.log never says the sync recorded the edit:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
		log, _ = os.ReadFile(filepath.Join(s.library, ".git", "skillrepo", "logs", "hooks.log"))
	}
	stamped := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ claude-code SessionStart `)
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if !stamped.MatchString(l) {
			t.Errorf("hooks.log line without a stamp and the event: %q", l)
		}
	}
}
