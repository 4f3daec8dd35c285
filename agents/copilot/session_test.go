package copilot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
)

// SessionFile finds a session's events.jsonl by id, and nothing for an
// id that is a path or a link; LatestSession is the newest session of
// the folder, read from its session.start line.
func TestSessionFiles(t *testing.T) {
	home := t.TempDir()
	h := agent.Homes{Home: home, Getenv: func(string) string { return "" }}
	state := filepath.Join(home, ".copilot", "session-state")
	write := func(id, cwd string) string {
		t.Helper()
		dir := filepath.Join(state, id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "events.jsonl")
		line := `{"type":"session.start","data":{"sessionId":"` + id + `","producer":"copilot-agent","context":{"cwd":"` + cwd + `"}}}` + "\n"
		if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("6f21bb2b-5754-40f9-805b-38b478ca25c2", "/proj/a")
	b := write("aa32a630-47d9-472f-9aa6-ad705bb40c01", "/proj/b")
	if err := os.MkdirAll(filepath.Join(state, "linked"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, filepath.Join(state, "linked", "events.jsonl")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, want string }{
		{"6f21bb2b-5754-40f9-805b-38b478ca25c2", a},
		{"missing", ""},
		{"../session-state/6f21bb2b-5754-40f9-805b-38b478ca25c2", ""},
		{"a..b", ""},
		{"linked", ""},
		{"", ""},
	} {
		if got := (Agent{}).SessionFile(h, tc.id); got != tc.want {
			t.Errorf("SessionFile(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	if id, p := (Agent{}).LatestSession(h, "/proj/b/"); id != "aa32a630-47d9-472f-9aa6-ad705bb40c01" || p != b {
		t.Errorf("LatestSession(/proj/b) = %q %q", id, p)
	}
	if id, p := (Agent{}).LatestSession(h, "/proj/c"); id != "" || p != "" {
		t.Errorf("LatestSession(/proj/c) = %q %q", id, p)
	}
}
