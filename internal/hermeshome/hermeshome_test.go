package hermeshome

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCopy: the copy holds the reference's housekeeping and state files,
// executable scripts, and the records the tests rely on.
func TestCopy(t *testing.T) {
	dir := Copy(t)
	for _, p := range []string{
		"config.yaml", "shell-hooks-allowlist.json", "memories/MEMORY.md", "memories/USER.md",
		"skills/.usage.json", "skills/.curator_state", "skills/.hub/lock.json", "skills/.bundled_manifest",
		"skills/.archive/old-flaky-notes/SKILL.md", "skills/.curator_backups/2026-11-28T03-00-00Z/skills.tar.gz",
		"skills/devops/ci-debugging/references/flaky-tests.md", "session-exports/" + SessionID + ".trace.jsonl",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "skills/devops/ci-debugging/scripts/rerun.sh")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("rerun.sh: %v %v", fi, err)
	}
	var usage map[string]map[string]any
	b, _ := ReadFile("skills/.usage.json")
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	if usage["docker-cleanup"]["pinned"] != true || usage["pytest-fixtures"]["state"] != "stale" ||
		usage["git-bisect"] == nil || usage["git-bisect-regressions"] == nil || usage["old-flaky-notes"]["state"] != "archived" {
		t.Errorf("usage records are not the fixture's: %v", usage)
	}
}
