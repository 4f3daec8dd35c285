package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/hooks"
)

// TestHermesChecks: doctor finds skillrepo's hooks in Hermes' config.yaml,
// says when Hermes has no consent to run them, and runs each command as
// Hermes does (shlex-split, no shell), so a binary that moved is a
// problem; a Hermes home without our hooks is not an installation.
func TestHermesChecks(t *testing.T) {
	home := t.TempDir()
	hh := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(filepath.Join(hh, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := &Env{Homes: agent.Homes{Home: home}, Project: home, Getenv: func(k string) string {
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}}
	if fs := CheckHermes(context.Background(), env); len(fs) != 0 {
		t.Fatalf("no config.yaml: %d findings, want none: %+v", len(fs), fs)
	}
	if err := os.WriteFile(filepath.Join(hh, hermes.ConfigFile), []byte("hooks:\n  pre_tool_call:\n    - command: ~/block-rm.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fs := CheckHermes(context.Background(), env); len(fs) != 0 {
		t.Fatalf("only the user's own hook: %d findings, want none: %+v", len(fs), fs)
	}

	// Our hooks, installed with a skillrepo that has since gone.
	gone := filepath.Join(home, "old bin", "skillrepo")
	if _, err := hooks.InstallHermes(hooks.HermesOptions{Home: hh, Executable: gone, Library: filepath.Join(hh, "skills"), Now: time.Now}); err != nil {
		t.Fatal(err)
	}
	fs := CheckHermes(context.Background(), env)
	byCheck := map[string]Finding{}
	for _, f := range fs {
		byCheck[f.Check] = f
	}
	if f := byCheck["consent"]; f.Level != Problem || !strings.Contains(f.Message, "no consent") || !strings.Contains(f.Fix, "--accept") {
		t.Errorf("consent finding %+v, want a problem with the --accept fix", f)
	}
	if f := byCheck["run"]; f.Level != Problem || !strings.Contains(f.Message, "not found") || !strings.Contains(f.Message, "on_session_start, pre_llm_call, post_tool_call, on_session_finalize") {
		t.Errorf("run finding %+v, want every hook's command not found", f)
	}
	if f := byCheck["run"]; f.Path != filepath.Join(hh, hermes.ConfigFile) || f.Agent != "hermes" {
		t.Errorf("run finding names %s / %s", f.Path, f.Agent)
	}

	// Consent given in Hermes' allowlist: that problem goes.
	var pairs [][2]string
	st, err := hooks.HermesStatus(hh, env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range st {
		pairs = append(pairs, [2]string{h.Event, h.Command})
	}
	if err := hermes.Approve(hh, home, time.Now(), pairs); err != nil {
		t.Fatal(err)
	}
	for _, f := range CheckHermes(context.Background(), env) {
		if f.Check == "consent" && f.Level != OK {
			t.Errorf("after consent: %+v", f)
		}
	}
}
