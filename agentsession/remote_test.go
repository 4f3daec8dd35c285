package agentsession

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// SessionStart starts the remote sync through its starter — the agent
// never waits for the network — only when the remote: section is on, and
// says so when no background process may run.
func TestSessionStartStartsRemoteSync(t *testing.T) {
	f := newHookFixture(t)
	start := func(starter bool) (int, *Report) {
		t.Helper()
		calls := 0
		opts := Options{Agent: sessionAgent(agent.ClaudeCode), Event: "SessionStart", Library: f.lib.Root,
			In: bytes.NewReader(mustJSON(map[string]any{"session_id": "s", "source": "startup"})), Out: &bytes.Buffer{},
			Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return f.now },
			StartSync: func(*skillrepo.Library) error { return nil }}
		if starter {
			opts.StartRemote = func(lib *skillrepo.Library) error { calls++; return nil }
		}
		rep, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return calls, rep
	}
	if n, _ := start(true); n != 0 {
		t.Errorf("started %d remote syncs with the remote: section off", n)
	}
	p := filepath.Join(f.lib.Root, filepath.FromSlash(config.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "\nremote:\n  main: both\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, rep := start(true); n != 1 || !strings.Contains(strings.Join(rep.Notes, "\n"), "started the remote sync") {
		t.Errorf("with remote.main: both: %d starts, notes %q", n, rep.Notes)
	}
	if _, rep := start(false); !strings.Contains(strings.Join(rep.Notes, "\n"), "remote sync skipped (no background processes)") {
		t.Errorf("without a starter: notes %q", rep.Notes)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
