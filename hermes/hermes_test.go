package hermes

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/hermeshome"
)

// TestReadsTheHermesHome: the fixture's config and curator state read as
// Hermes 0.19.0 reads them.
func TestReadsTheHermesHome(t *testing.T) {
	home := hermeshome.Copy(t)
	if !IsHome(home) {
		t.Fatal("the fixture is not a Hermes home")
	}
	if h, ok := HomeOf(filepath.Join(home, "skills")); !ok || h != home {
		t.Errorf("HomeOf = %s %v", h, ok)
	}
	cfg, err := ReadConfig(home)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Curator
	if !c.Enabled || c.IntervalHours != 72 || c.StaleAfterDays != 21 || c.ArchiveAfterDays != 60 || c.Consolidate || !c.Set["stale_after_days"] {
		t.Errorf("curator = %+v", c)
	}
	if cfg.Memory.MemoryCharLimit != 2200 || cfg.Memory.UserCharLimit != 1375 || cfg.HooksAutoAccept {
		t.Errorf("memory %+v, auto-accept %v", cfg.Memory, cfg.HooksAutoAccept)
	}
	if h := cfg.Hooks["pre_tool_call"]; len(h) != 1 || h[0].Command != "~/.hermes/agent-hooks/block-rm.sh" || h[0].Matcher != "terminal" || h[0].Timeout != 10 {
		t.Errorf("hooks = %+v", cfg.Hooks)
	}
	st, ok, err := ReadCuratorState(filepath.Join(home, "skills"))
	if err != nil || !ok || st.RunCount != 7 || st.Paused || !st.LastRun().Equal(time.Date(2026, 11, 28, 3, 0, 0, 215000000, time.UTC)) {
		t.Errorf("state = %+v %v %v (last run %s)", st, ok, err, st.LastRun())
	}
}

// TestDefaults: no config.yaml means Hermes 0.19.0's defaults; values of
// the wrong type fall back to them, as Hermes' getters do.
func TestDefaults(t *testing.T) {
	home := t.TempDir()
	cfg, err := ReadConfig(home)
	if err != nil || cfg.Curator.IntervalHours != 168 || cfg.Curator.StaleAfterDays != 30 || cfg.Curator.ArchiveAfterDays != 90 || !cfg.Curator.Enabled {
		t.Errorf("defaults: %+v %v", cfg.Curator, err)
	}
	os.WriteFile(filepath.Join(home, ConfigFile), []byte("curator:\n  enabled: 0\n  consolidate: \"off\"\n  stale_after_days: soon\n  archive_after_days: '45'\nhooks_auto_accept: \"yes\"\n"), 0o644)
	cfg, err = ReadConfig(home)
	// bool("off") is True in Python: Hermes consolidates with that.
	if err != nil || cfg.Curator.Enabled || !cfg.Curator.Consolidate || cfg.Curator.StaleAfterDays != 30 || cfg.Curator.ArchiveAfterDays != 45 || !cfg.HooksAutoAccept {
		t.Errorf("coerced: %+v %v %v", cfg.Curator, cfg.HooksAutoAccept, err)
	}
	if _, ok, err := ReadCuratorState(home); ok || err != nil {
		t.Errorf("no state file: %v %v", ok, err)
	}
}
