package opencode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/testenv"
)

// SessionFile finds the plugin's copy of a session by id, and nothing for
// an id that is a path, a link or a FIFO; LatestSession is the newest
// session of the folder, read from the file's head.
func TestSessionFiles(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	h := agent.Homes{Home: home, Getenv: func(k string) string {
		if k == "XDG_DATA_HOME" {
			return data
		}
		return ""
	}}
	dir := filepath.Join(data, "opencode", "skillrepo")
	if got := (Agent{}).TranscriptRoots(h); len(got) != 1 || got[0] != dir {
		t.Fatalf("roots %v", got)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ses_a.json", `{"info":{"id":"ses_a","directory":"/proj/a"},"messages":[]}`)
	write("ses_b.json", `{"info":{"id":"ses_b","directory":"/proj/b"},"messages":[]}`)
	if err := os.WriteFile(filepath.Join(home, "secret.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "secret.json"), filepath.Join(dir, "ses_link.json")); err != nil {
		t.Fatal(err)
	}
	// A FIFO where the systems have them (the test vets on every release
	// target: internal/testenv).
	_ = testenv.Mkfifo(filepath.Join(dir, "ses_fifo.json"))
	for _, tc := range []struct{ id, want string }{
		{"ses_a", filepath.Join(dir, "ses_a.json")},
		{"ses_missing", ""},
		{"../secret", ""},
		{"../../data/opencode/skillrepo/ses_a", ""},
		{"ses_a.json/..", ""},
		{"*", ""},
		{"", ""},
		{"ses_link", ""},
		{"ses_fifo", ""},
	} {
		if got := (Agent{}).SessionFile(h, tc.id); got != tc.want {
			t.Errorf("SessionFile(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	if id, p := (Agent{}).LatestSession(h, "/proj/b/"); id != "ses_b" || p != filepath.Join(dir, "ses_b.json") {
		t.Errorf("LatestSession(/proj/b) = %q %q", id, p)
	}
	if id, p := (Agent{}).LatestSession(h, "/proj/c"); id != "" || p != "" {
		t.Errorf("LatestSession(/proj/c) = %q %q", id, p)
	}
}
