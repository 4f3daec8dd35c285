package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
)

// PruneSessions keeps the folder bounded: a session file untouched for
// 30 days goes, the newest 200 stay unless that old, past them a file a
// day old goes, an unfinished save an hour old goes; a file a queued
// review names stays whatever its age, and nothing the module did not
// name (another file, a link, a folder) is touched.
func TestPruneSessions(t *testing.T) {
	home := t.TempDir()
	h := agent.Homes{Home: home, Getenv: func(string) string { return "" }}
	dir := filepath.Join(home, ".local", "share", "opencode", "skillrepo")
	if n, err := (Agent{}).PruneSessions(h, time.Now(), nil); n != 0 || err != nil {
		t.Fatalf("no folder: %d %v", n, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 8, 12, 0, 0, 0, time.UTC)
	write := func(name string, age time.Duration) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"info":{"id":"x"},"messages":[]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// 200 recent sessions (an hour apart, the oldest 200 hours old), then
	// 3 more a day or more old: past the newest 200, gone; one of them is
	// still queued for review.
	for i := range 200 {
		write(fmt.Sprintf("ses_recent%03d.json", i), time.Duration(i)*time.Minute)
	}
	write("ses_past1.json", 25*time.Hour)
	write("ses_past2.json", 26*time.Hour)
	queued := write("ses_queued.json", 27*time.Hour)
	write("ses_old.json", 31*24*time.Hour)
	queuedOld := write("ses_queuedold.json", 40*24*time.Hour)
	write("ses_tmp.json.123.tmp", 2*time.Hour)
	write("ses_fresh.json.124.tmp", time.Minute)
	write("notes.txt", 90*24*time.Hour)
	write("ses bad.json", 90*24*time.Hour)
	outside := filepath.Join(home, "outside.json")
	if err := os.WriteFile(outside, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "ses_link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "ses_dir.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, "ses_dir.json"), now.Add(-90*24*time.Hour), now.Add(-90*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	keep := func(p string) bool { return p == queued || p == queuedOld }
	n, err := (Agent{}).PruneSessions(h, now, keep)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	for _, gone := range []string{"ses_past1.json", "ses_past2.json", "ses_old.json", "ses_tmp.json.123.tmp"} {
		if slices.Contains(left, gone) {
			t.Errorf("%s was kept", gone)
		}
	}
	for _, stays := range []string{"ses_recent000.json", "ses_recent199.json", "ses_queued.json", "ses_queuedold.json",
		"ses_fresh.json.124.tmp", "notes.txt", "ses bad.json", "ses_link.json", "ses_dir.json"} {
		if !slices.Contains(left, stays) {
			t.Errorf("%s was removed", stays)
		}
	}
	if n != 4 {
		t.Errorf("removed %d, want 4", n)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the link's target: %v", err)
	}
	// Again: nothing more to do.
	if n, err := (Agent{}).PruneSessions(h, now, keep); n != 0 || err != nil {
		t.Errorf("second prune: %d %v", n, err)
	}
}
