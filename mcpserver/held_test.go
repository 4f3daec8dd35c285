package mcpserver

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// The reference's hint teaches a create, then a write_file for each file
// the new SKILL.md links, one call each. The write policy holds such a
// create (nothing written) and lands it with the call that brings the
// last file, in one commit: the two-call flow works over MCP and main
// never fails lint (docs/architecture.md §2.1). Each step of each flow is
// one call as a client sends it; after each, main lints clean and git
// fsck --strict passes.
func TestCreateThenWriteFile(t *testing.T) {
	linked := func(links ...string) string {
		var b strings.Builder
		b.WriteString("---\nname: linked\ndescription: Use when the steps need a reference.\n---\n# Linked\n\n")
		for _, l := range links {
			b.WriteString("See [" + l + "](" + l + ").\n")
		}
		return b.String() + "\n" + distinctWords("linked") + "\n"
	}
	file := func(p string) map[string]any {
		return map[string]any{"action": "write_file", "name": "linked", "file_path": p, "file_content": "# " + p + "\n\n1. Do it.\n"}
	}
	type step struct {
		args map[string]any
		want string // held, landed, or the words of a refusal
	}
	cases := []struct {
		name  string
		steps []step
		// commits: how many commits main gains in all; files: what the
		// skill holds on main at the end.
		commits string
		files   []string
	}{
		{"the file comes in the next call", []step{
			{map[string]any{"action": "create", "name": "linked", "content": linked("references/steps.md")}, "held"},
			{file("references/steps.md"), "landed"},
		}, "1", []string{"linked/SKILL.md", "linked/references/steps.md"}},
		{"two files, one call each", []step{
			{map[string]any{"action": "create", "name": "linked", "content": linked("references/a.md", "templates/b.md")}, "held"},
			{file("references/a.md"), "held"},
			{file("templates/b.md"), "landed"},
		}, "1", []string{"linked/SKILL.md", "linked/references/a.md", "linked/templates/b.md"}},
		{"the create starts over", []step{
			{map[string]any{"action": "create", "name": "linked", "content": linked("references/old.md")}, "held"},
			{map[string]any{"action": "create", "name": "linked", "content": linked("references/new.md")}, "held"},
			{file("references/new.md"), "landed"},
		}, "1", []string{"linked/SKILL.md", "linked/references/new.md"}},
		// Another lint error is no wait for a file: refused at once,
		// nothing held, so the file alone finds no skill.
		{"a create with another lint error", []step{
			{map[string]any{"action": "create", "name": "linked", "content": strings.Replace(linked("references/steps.md"), "name: linked", "name: linked-other", 1)}, "fails lint"},
			{file("references/steps.md"), "not found"},
		}, "0", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			before := f.git("rev-parse", "main")
			for i, s := range c.steps {
				res, text, m := f.call("skill_manage", s.args, nil)
				switch s.want {
				case "held":
					if res.IsError || m["held"] != true || !strings.Contains(text, "write_file") {
						t.Fatalf("step %d: want held: %s", i, text)
					}
				case "landed":
					if res.IsError || m["held"] == true || m["commit"] == nil {
						t.Fatalf("step %d: want landed: %s", i, text)
					}
				default:
					if !res.IsError || !strings.Contains(text, s.want) {
						t.Fatalf("step %d: want a refusal with %q: %s", i, s.want, text)
					}
				}
				if s.want != "landed" && f.git("rev-parse", "main") != before {
					t.Fatalf("step %d (%s) moved main", i, s.want)
				}
				mainLintsClean(t, f.lib)
				testlib.GitClean(t, f.lib.Root, f.env)
			}
			if n := f.git("rev-list", "--count", before+"..main"); n != c.commits {
				t.Errorf("main gained %s commits, want %s", n, c.commits)
			}
			got := strings.Fields(f.git("ls-tree", "-r", "--name-only", "main", "--", "linked"))
			if strings.Join(got, " ") != strings.Join(c.files, " ") {
				t.Errorf("main holds %v, want %v", got, c.files)
			}
			if len(c.files) > 0 {
				f.ok("skill_view", map[string]any{"name": "linked"})
			}
			if entries, _ := os.ReadDir(f.lib.State().Held()); len(entries) > 1 { // the lock file may stay
				t.Errorf("held creates left behind: %v", entries)
			}
		})
	}
}

// A held create whose files never come is reported — in the server's log
// when its client goes (the session's end), or, for a session that ended
// without saying so, when it is older than skillrepo.HeldTTL and the next
// server starts — and nothing of it lands.
func TestHeldCreateNeverCompleted(t *testing.T) {
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed")
	}
	content := "---\nname: waits\ndescription: Use when a reference never arrives.\n---\n# Waits\n\nSee [notes](references/notes.md).\n\n" + distinctWords("waits") + "\n"
	for _, c := range []struct {
		name string
		// crash: the first server never ends its session (killed); a
		// second one starts a day later.
		crash bool
	}{{"the session ends", false}, {"the session is killed and the create expires", true}} {
		t.Run(c.name, func(t *testing.T) {
			lib, env := testlib.ExampleLibrary(t)
			before := testlib.Git(t, lib.Root, env, "rev-parse", "main")
			var log bytes.Buffer
			serve := func(lib *skillrepo.Library, calls func(cs *mcp.ClientSession)) {
				srv, err := New(lib, Options{Version: "test", Poll: -1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				st, ct := mcp.NewInMemoryTransports()
				done := make(chan error, 1)
				go func() { done <- srv.Run(ctx, st) }()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
				if err != nil {
					t.Fatal(err)
				}
				calls(cs)
				cs.Close()
				if err := <-done; err != nil && ctx.Err() == nil {
					t.Fatal(err)
				}
			}
			create := func(cs *mcp.ClientSession) {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skill_manage", Arguments: map[string]any{"action": "create", "name": "waits", "content": content}})
				if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"held":true`) {
					t.Fatalf("create: %v %+v", err, res)
				}
			}
			if !c.crash {
				serve(lib, create)
			} else {
				// A session killed before its end: what it held is in
				// its file, and the next server, a day later, reports it.
				pol, err := lib.Policy(skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginForeground}, Session: "killed"})
				if err != nil {
					t.Fatal(err)
				}
				res, err := pol.Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionCreate, Name: "waits", Content: &content}}, false)
				if err != nil || res.Held == nil {
					t.Fatalf("create: %v %+v", err, res)
				}
				later, err := skillrepo.Open(lib.Root, skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] },
					Now: func() time.Time { return time.Unix(testlib.Epoch, 0).Add(skillrepo.HeldTTL + time.Hour) }})
				if err != nil {
					t.Fatal(err)
				}
				defer later.Close()
				serve(later, func(*mcp.ClientSession) {})
			}
			if !strings.Contains(log.String(), "never landed") || !strings.Contains(log.String(), "skill=waits") || !strings.Contains(log.String(), "references/notes.md") {
				t.Errorf("the log does not report the held create:\n%s", log.String())
			}
			if got := testlib.Git(t, lib.Root, env, "rev-parse", "main"); got != before {
				t.Error("a create that never completed moved main")
			}
			if entries, _ := os.ReadDir(lib.State().Held()); len(entries) > 1 {
				t.Errorf("held creates left behind: %v", entries)
			}
			testlib.GitClean(t, lib.Root, env)
		})
	}
}

// mainLintsClean fails the test when a skill on main has a lint error
// under the library's profile.
func mainLintsClean(t *testing.T, lib *skillrepo.Library) {
	t.Helper()
	snap, err := lib.Snapshot(lib.MainBranch())
	if err != nil {
		t.Fatal(err)
	}
	skills, err := snap.Skills()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, s := range skills {
		if !s.Archived {
			dirs = append(dirs, s.Dir)
		}
	}
	if err := lib.LintGate(snap.FS(), "", dirs); err != nil {
		t.Errorf("main fails lint: %v", err)
	}
}
