package archtest

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/skillrepo/skillrepo"

// engine is the git engine's package, relative to the module.
const engine = "skillrepo/internal/gitstore"

type pkg struct {
	ImportPath   string
	Dir          string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
}

func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to list packages")
	}
	cmd := exec.Command("go", "list", "-deps=false", "-json", module+"/...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func TestDependencyArrows(t *testing.T) {
	pkgs := listPackages(t)
	has := func(list []string, prefix string) bool {
		for _, d := range list {
			if d == prefix || strings.HasPrefix(d, prefix+"/") {
				return true
			}
		}
		return false
	}
	for path, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if strings.HasPrefix(rel, "bench") || rel == "tmpdeps" {
			continue // tools, not the product
		}
		if rel != engine && has(p.Imports, "github.com/go-git/go-git/v5") {
			t.Errorf("%s imports go-git: only the engine (%s) may", rel, engine)
		}
		if rel == engine {
			// The engine speaks git and knows nothing of skills: it
			// imports no package of ours but internal helpers.
			for _, d := range p.Imports {
				if strings.HasPrefix(d, module+"/") && !strings.HasPrefix(d, module+"/internal/") {
					t.Errorf("the engine %s imports the domain package %s", rel, d)
				}
			}
		}
		if rel != "cmd/skillrepo" && !strings.HasPrefix(rel, "cmd/skillrepo/internal/") && has(p.Deps, "github.com/spf13/cobra") {
			t.Errorf("%s depends on cobra: only cmd/skillrepo and its command packages may", rel)
		}
		if rel == "lint" || rel == "skillrepo/skill" || rel == "skillrepo/merge" || rel == "skillrepo/memory" || rel == "hermes" || rel == "skillrepo/secrets" || rel == "skillrepo/trailer" {
			// Lint reads any fs.FS; git code (go-git, the library, its
			// engine, os/exec) never reaches it.
			for _, banned := range []string{"github.com/go-git/go-git/v5", module + "/skillrepo", module + "/skillrepo/internal/gitstore", "net/http", "os/exec"} {
				if banned == module+"/skillrepo" {
					for _, d := range p.Deps {
						if d == banned {
							t.Errorf("%s depends on the library package %s", rel, banned)
						}
					}
					continue
				}
				if has(p.Deps, banned) {
					t.Errorf("%s depends on %s", rel, banned)
				}
			}
		}
		if rel == "skillrepo/config" {
			// The settings file's schema and parse know nothing of git:
			// the domain reads the bytes (from the work tree or a commit)
			// and hands them over. Its own imports are the leaves it
			// names types from and internal helpers.
			for _, d := range p.Deps {
				if d == module+"/skillrepo" || d == module+"/"+engine || strings.HasPrefix(d, "github.com/go-git/") || d == "os/exec" {
					t.Errorf("skillrepo/config depends on %s: it parses bytes; the domain reads them from git", d)
				}
			}
			for _, imp := range p.Imports {
				rel, ours := strings.CutPrefix(imp, module+"/")
				if ours && !strings.HasPrefix(rel, "internal/") && !slices.Contains([]string{"agent", "lint", "skillrepo/skill", "skillrepo/memory"}, rel) {
					t.Errorf("skillrepo/config imports %s: it may import only agent, lint, skillrepo/skill, skillrepo/memory and internal helpers", imp)
				}
			}
		}
		if rel == "skillrepo/locate" {
			// Where a folder sits is read from the file system alone: no
			// git, no library opened; of ours it knows only the config
			// file's path.
			for _, d := range p.Deps {
				if d == module+"/skillrepo" || d == module+"/"+engine || strings.HasPrefix(d, "github.com/go-git/") || d == "os/exec" {
					t.Errorf("skillrepo/locate depends on %s: it reads only the file system", d)
				}
			}
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module+"/") && imp != module+"/skillrepo/config" {
					t.Errorf("skillrepo/locate imports %s: it may import only skillrepo/config", imp)
				}
			}
		}
		if rel == "overlap" {
			// Pure: text in, clusters out; at most the SKILL.md model.
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module) && imp != module+"/skillrepo/skill" {
					t.Errorf("overlap imports %s: it may import only skillrepo/skill", imp)
				}
			}
			for _, banned := range []string{"github.com/go-git/go-git/v5", "net/http", "os/exec"} {
				if has(p.Deps, banned) {
					t.Errorf("overlap depends on %s", banned)
				}
			}
		}
		if rel == "overlap/indexfile" {
			// The overlap index's cache file: bytes and files, no git (the
			// domain diffs the trees and reads the skills it hands in).
			for _, imp := range p.Imports {
				if r, ours := strings.CutPrefix(imp, module+"/"); ours && r != "overlap" && !strings.HasPrefix(r, "internal/") {
					t.Errorf("overlap/indexfile imports %s: it may import only overlap and internal helpers", imp)
				}
			}
			for _, banned := range []string{"github.com/go-git/go-git/v5", module + "/skillrepo/internal/gitstore", "net/http", "os/exec"} {
				if has(p.Deps, banned) {
					t.Errorf("overlap/indexfile depends on %s", banned)
				}
			}
		}
		if rel == "goals" {
			// The goal loop is pure policy: hooks hand it a turn and
			// write its outcome; it never reaches the library or git.
			for _, banned := range []string{module + "/skillrepo", "github.com/go-git/go-git/v5", module + "/review", module + "/hooks", module + "/agentsession"} {
				if has(p.Deps, banned) {
					t.Errorf("goals depends on %s", banned)
				}
			}
		}
		if rel == "review" && has(p.Deps, module+"/curator") {
			t.Errorf("review depends on curator")
		}
		if rel == "curator" && has(p.Deps, module+"/review") {
			t.Errorf("curator depends on review")
		}
		// The agent's tools are shared by the review, the curator and the
		// MCP server, so they depend on none of them.
		if rel == "agenttools" {
			for _, banned := range []string{"review", "curator", "mcpserver", "hooks", "agentsession"} {
				if has(p.Deps, module+"/"+banned) {
					t.Errorf("agenttools depends on %s", banned)
				}
			}
		}
		if rel == "mcpserver" {
			for _, banned := range []string{"review", "curator"} {
				if has(p.Deps, module+"/"+banned) {
					t.Errorf("mcpserver depends on %s", banned)
				}
			}
		}
		if rel != "mcpserver" && !strings.HasPrefix(rel, "mcpserver/") && has(p.Imports, "github.com/modelcontextprotocol/go-sdk") {
			t.Errorf("%s imports the MCP SDK: only package mcpserver may", rel)
		}
		// Leaf helpers every package may use import nothing of ours.
		if rel == "internal/boundedread" || rel == "internal/atomicfile" || rel == "internal/modelcall" || rel == "internal/yamlconf" || rel == "internal/agentid" || rel == "internal/procgroup" {
			for _, d := range p.Imports {
				if strings.HasPrefix(d, module+"/") {
					t.Errorf("%s imports %s: it must stay a leaf", rel, d)
				}
			}
		}
		if rel == "queue" {
			// The queue is files and a lock: agent hooks (which must be fast)
			// and the worker share it without pulling in the engine.
			for _, banned := range []string{module + "/skillrepo", module + "/review", module + "/curator", module + "/worker", module + "/hooks", module + "/agentsession"} {
				if has(p.Deps, banned) {
					t.Errorf("queue depends on %s", banned)
				}
			}
		}
		if (rel == "review" || rel == "curator" || rel == "queue") && has(p.Deps, module+"/worker") {
			t.Errorf("%s depends on worker: the worker runs them, not the other way", rel)
		}
		if rel == "hooks" {
			// The installers and the pre-commit check: what runs on an
			// agent's events (and all it pulls in) is agentsession's.
			for _, banned := range []string{"curator", "review", "worker", "queue", "goals", "mcpserver", "agentsession"} {
				if has(p.Deps, module+"/"+banned) {
					t.Errorf("hooks depends on %s: the installers run no part of the loop", banned)
				}
			}
		}
		if rel == "agentcli" {
			// The agent's own program as a model backend: it runs a
			// program and reads what it did; the MCP server of the pass's
			// tools is handed in (the hooks, which reach agentcli through
			// the worker, never link a server); it knows no library, queue
			// or review.
			for _, banned := range []string{"mcpserver", "worker", "agentsession", "hooks", "curator", "review", "queue", "skillrepo"} {
				if has(p.Imports, module+"/"+banned) {
					t.Errorf("agentcli imports %s", banned)
				}
			}
		}
		if (rel == "review" || rel == "goals" || rel == "curator") && has(p.Deps, module+"/agentcli") {
			t.Errorf("%s depends on agentcli: the worker and the commands choose a backend and hand it in", rel)
		}
		if rel == "doctor" {
			// doctor runs the agents' installed commands as the agents
			// do, as processes: the loop's code never runs in-process.
			for _, banned := range []string{"agentsession", "worker", "review/", "curator", "queue", "goals"} {
				if has(p.Imports, module+"/"+strings.TrimSuffix(banned, "/")) {
					t.Errorf("doctor imports %s: it checks a set-up by running the agent's commands", banned)
				}
			}
		}
		if rel == "agentsession" && has(p.Deps, module+"/mcpserver") {
			t.Errorf("agentsession depends on mcpserver")
		}
		if rel == "webui" {
			// The web page reads through the domain's public API (and
			// the types of its rooms) and writes through its policy
			// methods; it runs no part of the loop (reviews, the worker,
			// hooks) and serves no agent.
			for _, imp := range p.Imports {
				if !strings.HasPrefix(imp, module+"/") {
					continue
				}
				switch strings.TrimPrefix(imp, module+"/") {
				case "skillrepo", "skillrepo/skill", "curator", "queue":
				default:
					if slices.Contains(rooms, strings.TrimPrefix(imp, module+"/")) {
						continue
					}
					if !strings.HasPrefix(imp, module+"/internal/") {
						t.Errorf("webui imports %s: it may import skillrepo, its rooms, skillrepo/skill, curator, queue and internal helpers", imp)
					}
				}
			}
		}
		if has(p.Imports, "github.com/chromedp/chromedp") {
			t.Errorf("%s imports chromedp: only tests drive a browser", rel)
		}
		// The CLI in rooms (docs/architecture.md §6): a command group's
		// package (cmd/skillrepo/internal/<group>cmd) imports no other
		// group, and the shared plumbing (cmdutil) none at all; what two
		// groups share moves down into cmdutil.
		if sub, ok := strings.CutPrefix(rel, "cmd/skillrepo/internal/"); ok && (strings.HasSuffix(sub, "cmd") || sub == "cmdutil") {
			for _, d := range p.Imports {
				if other, ok := strings.CutPrefix(d, module+"/cmd/skillrepo/internal/"); ok && other != sub && strings.HasSuffix(other, "cmd") {
					t.Errorf("%s imports the command group %s: groups share only cmdutil", rel, other)
				}
			}
		}
		if !strings.HasPrefix(rel, "cmd/") && has(p.Deps, module+"/cmd") {
			t.Errorf("%s imports a command", rel)
		}
	}
}
