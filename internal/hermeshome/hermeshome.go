// Package hermeshome is a test fixture: a Hermes Agent home folder
// (~/.hermes) as Hermes 0.19.0 leaves it after some weeks of use, for the
// tests of everything skillrepo does on a Hermes user's folders.
//
// The home was written by Hermes' own functions (skill_manage, skill_view,
// the curator, the memory store, the shell-hook consent), then its
// timestamps were pinned to a timeline ending at [Now]; Hermes is
// MIT-licensed (testdata/hermes-LICENSE). What it holds:
//
//   - skills/ in categories (devops, python, writing, research,
//     productivity) and at the top level, with references/ and scripts/;
//     a category DESCRIPTION.md; a macOS-only skill (platforms: [macos]).
//   - skills/.usage.json: agent-created records (ci-debugging,
//     docker-cleanup, pytest-fixtures), a pinned one (docker-cleanup), a
//     stale one the last curator run marked (pytest-fixtures, idle since
//     2026-10-20), an archived one (old-flaky-notes), a foreground-created
//     one (release-notes, created_by null), and one skill split under two
//     keys: git-bisect/SKILL.md names itself git-bisect-regressions, so
//     skill_view counted it under that name and skill_manage patched it
//     under the folder name.
//   - skills/.archive/old-flaky-notes/, skills/.curator_state (run 7,
//     2026-11-28), skills/.curator_backups/<id>/{skills.tar.gz,
//     manifest.json}, skills/.hub/lock.json (arxiv-search),
//     skills/.bundled_manifest (plan).
//   - memories/MEMORY.md (3 entries) and USER.md (2), "§"-separated, no
//     trailing newline.
//   - config.yaml with curator settings (72 h interval, stale after 21
//     days, archive after 60) and a user's own pre_tool_call shell hook,
//     consented to in shell-hooks-allowlist.json.
//   - logs/curator/20261128-030000/ (the run's report), SOUL.md, and
//     session-exports/20261130_101502_a1b2c3.trace.jsonl (a session as
//     `hermes sessions export --format trace` writes it: Claude Code JSONL).
//
// Beside the home, [Payload] gives the standard input Hermes' shell-hook
// bridge writes for an event (its own _serialize_payload's output), for
// that session: on_session_start, pre_llm_call.user (a person's turn),
// pre_llm_call.review (the background review's turn, its harness
// prompt), post_tool_call.skill_manage.create (flaky-quarantine, in
// devops), post_tool_call.skill_manage.patch (ci-debugging),
// post_tool_call.memory (an add), post_tool_call.terminal, on_session_end
// and on_session_finalize.
package hermeshome

import (
	"embed"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

//go:embed all:testdata/home
var home embed.FS

//go:embed testdata/payloads
var payloads embed.FS

// Payload is a hook event's standard input as Hermes writes it (name as
// listed in the package doc).
func Payload(name string) ([]byte, error) {
	return payloads.ReadFile("testdata/payloads/" + name + ".json")
}

// Now is the fixture's present: the last activity it records is two days
// before, the last curator run (7th) at 2026-11-28T03:00Z.
var Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// SessionID is the session whose transcript is in session-exports/.
const SessionID = "20261130_101502_a1b2c3"

// Copy writes the Hermes home into a new temporary folder and returns its
// path (the folder a user knows as ~/.hermes). Scripts are executable, as
// Hermes left them.
func Copy(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), ".hermes")
	if err := CopyTo(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// CopyTo writes the Hermes home into dst, which must not exist.
func CopyTo(dst string) error {
	sub, err := fs.Sub(home, "testdata/home")
	if err != nil {
		return err
	}
	return fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if path.Ext(p) == ".sh" || strings.Contains(p, "/scripts/") {
			mode = 0o755
		}
		return os.WriteFile(target, data, mode)
	})
}

// ReadFile reads a file of the pristine fixture (a path like
// "skills/.usage.json").
func ReadFile(name string) ([]byte, error) {
	return fs.ReadFile(home, "testdata/home/"+name)
}
