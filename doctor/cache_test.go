package doctor

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// countingAgent is a Checker and hooks.Target whose check reads its
// settings file and counts its runs.
type countingAgent struct {
	settings string
	runs     *int
	// during runs inside each check (a file changing while checks run).
	during func()
}

func (a countingAgent) Name() agent.Name          { return "counting" }
func (a countingAgent) Handlers() []hooks.Handler { return nil }
func (a countingAgent) SettingsPath(agent.Scope, agent.Homes, string) (string, error) {
	return a.settings, nil
}
func (a countingAgent) DefaultLibrary(agent.Scope, agent.Homes, string) string { return "" }
func (a countingAgent) Format() hooks.Format                                   { return hooks.Format{} }

func (a countingAgent) Check(_ context.Context, env *Env) []Finding {
	*a.runs++
	if a.during != nil {
		a.during()
	}
	b, _ := os.ReadFile(a.settings)
	return []Finding{{Agent: "counting", Check: "settings", Level: OK, Message: string(b), Path: filepath.Join(env.Project, "named.json")}}
}

// TestCachedRerunsWhenItsInputsChange: status's cached set-up checks are
// answered from the cache while nothing they read changed, and run again
// after each kind of change — the settings file (rewritten or created),
// the trust record, a file a finding names, the environment, the age, a
// corrupt cache file — and when a file changed while they ran.
func TestCachedRerunsWhenItsInputsChange(t *testing.T) {
	write := func(t *testing.T, p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, env *Env, cache string, clock *time.Time)
		rerun  bool
	}{
		{"nothing", func(*testing.T, *Env, string, *time.Time) {}, false},
		{"settings rewritten", func(t *testing.T, env *Env, _ string, _ *time.Time) {
			write(t, env.Checkers[0].(countingAgent).settings, `{"hooks": {"x": 1}}`)
		}, true},
		{"settings touched", func(t *testing.T, env *Env, _ string, _ *time.Time) {
			p := env.Checkers[0].(countingAgent).settings
			if err := os.Chtimes(p, time.Time{}, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"trust recorded", func(t *testing.T, env *Env, _ string, _ *time.Time) {
			write(t, hooks.TrustFile(env.Homes), `{"version": 1, "files": {}}`)
		}, true},
		{"named file created", func(t *testing.T, env *Env, _ string, _ *time.Time) {
			write(t, filepath.Join(env.Project, "named.json"), "{}")
		}, true},
		{"environment", func(t *testing.T, _ *Env, _ string, _ *time.Time) {
			t.Setenv("SKILLREPO_CACHE_TEST", "1")
		}, true},
		{"younger than the TTL", func(_ *testing.T, _ *Env, _ string, clock *time.Time) {
			*clock = clock.Add(CacheTTL - time.Second)
		}, false},
		{"older than the TTL", func(_ *testing.T, _ *Env, _ string, clock *time.Time) {
			*clock = clock.Add(CacheTTL)
		}, true},
		{"corrupt cache", func(t *testing.T, _ *Env, cache string, _ *time.Time) {
			write(t, cache, `{"version": 1, "key": `)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(home, "project")
			settings := filepath.Join(home, ".agent", "settings.json")
			write(t, settings, `{"hooks": {}}`)
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			runs := 0
			clock := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
			env := &Env{Homes: agent.Homes{Home: home}, Project: project, Getenv: func(string) string { return "" },
				Now: func() time.Time { return clock }, Checkers: []Checker{countingAgent{settings: settings, runs: &runs}}}
			cache := filepath.Join(t.TempDir(), "setup-checks.json")
			first := Cached(context.Background(), env, cache)
			again := Cached(context.Background(), env, cache)
			if runs != 1 || again.Findings[0].Message != first.Findings[0].Message {
				t.Fatalf("unchanged: %d runs, findings %v then %v", runs, first.Findings, again.Findings)
			}
			tt.change(t, env, cache, &clock)
			rep := Cached(context.Background(), env, cache)
			if got := runs == 2; got != tt.rerun {
				t.Fatalf("after the change: %d runs, want a rerun %v", runs, tt.rerun)
			}
			if b, _ := os.ReadFile(env.Checkers[0].(countingAgent).settings); rep.Findings[0].Message != string(b) {
				t.Errorf("findings say %q, the file holds %q", rep.Findings[0].Message, b)
			}
			if Cached(context.Background(), env, cache); runs != 1+btoi(tt.rerun) {
				t.Errorf("the result of the rerun was not kept: %d runs", runs)
			}
		})
	}
	t.Run("changed while running", func(t *testing.T) {
		home := t.TempDir()
		settings := filepath.Join(home, "settings.json")
		write(t, settings, "a")
		runs := 0
		n := 0
		a := countingAgent{settings: settings, runs: &runs, during: func() {
			n++
			write(t, settings, string(make([]byte, n+1)))
		}}
		env := &Env{Homes: agent.Homes{Home: home}, Project: home, Getenv: func(string) string { return "" }, Checkers: []Checker{a}}
		cache := filepath.Join(t.TempDir(), "cache.json")
		Cached(context.Background(), env, cache)
		if _, err := os.Stat(cache); err == nil {
			t.Error("findings of a run whose inputs changed under it were kept")
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
