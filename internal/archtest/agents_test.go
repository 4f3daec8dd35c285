package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agents"
)

// agentNameExceptions are the literals outside the agents' folders that
// spell an agent's name for another meaning: a program's file name, a
// wire protocol, a word of a file format. The list only shrinks (an entry
// that no longer matches fails the test); each per-agent one moves into
// its agent's folder with the code around it.
var agentNameExceptions = []struct{ file, value, why string }{
	{"internal/fakemodel/fakemodel.go", "gemini", "the name of Google's Generative Language protocol the fake server speaks"},
	{"agentcli/program.go", "claude", "Claude Code's program file"},
	{"agentcli/program.go", "codex", "Codex's program file"},
	{"agentcli/program.go", "gemini", "Gemini CLI's program file"},
	{"agentsession/hermes.go", "hermes", "Hermes Agent's program file"},
	{"doctor/hermes.go", "hermes", "Hermes Agent's program file"},
	{"lint/fields.go", "claude", "a word Claude Code reserves in skill names"},
	{"review/transcript_gemini.go", "gemini", "the model's message type in Gemini CLI's session file"},
}

// hit is a literal found: where, and its value.
type hit struct{ pos, value string }

// agentNameLiterals returns, per file (relative to root, slash-separated),
// the string literals of the module's non-test Go files whose value is
// exactly one of names; testdata and hidden folders are skipped.
func agentNameLiterals(t *testing.T, root string, names map[string]bool) map[string][]hit {
	t.Helper()
	found := map[string][]hit{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && names[strings.ToLower(v)] {
				found[rel] = append(found[rel], hit{pos: fset.Position(lit.Pos()).String(), value: v})
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestAgentNamesLiveInTheirFolders holds issue 34's "one home per agent"
// (docs/architecture.md §1): a Go string literal whose value is exactly an
// agent's name or one of its aliases in the registry ("claude-code",
// "claude", "codex", "gemini", "gemini-cli", "hermes", …, in any case)
// appears, outside tests, only in the leaf package agent (where the names
// are declared), the registry agents and the agents' folders agents/<x>.
// Everything else names an agent through package agent, so adding one
// edits no other package.
func TestAgentNamesLiveInTheirFolders(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range agents.All() {
		names[string(e.Name())] = true
		for _, a := range e.Aliases() {
			names[strings.ToLower(a)] = true
		}
	}
	if len(names) < 4 {
		t.Fatalf("the registry lists %d names", len(names))
	}
	found := agentNameLiterals(t, root, names)
	used := make([]bool, len(agentNameExceptions))
	var bad []string
	for file, hits := range found {
		dir := filepath.ToSlash(filepath.Dir(file))
		if dir == "agent" || dir == "agents" || strings.HasPrefix(dir, "agents/") {
			continue
		}
	next:
		for _, h := range hits {
			for i, x := range agentNameExceptions {
				if x.file == file && strings.EqualFold(x.value, h.value) {
					used[i] = true
					continue next
				}
			}
			bad = append(bad, h.pos+": "+strconv.Quote(h.value))
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: an agent's name outside agent, agents and agents/<name>: name it through package agent", b)
	}
	for i, x := range agentNameExceptions {
		if !used[i] {
			t.Errorf("%s no longer spells %q (%s): remove it from agentNameExceptions", x.file, x.value, x.why)
		}
	}
}

// TestAgentRegistryArrows keeps the agents' packages in their places
// (docs/architecture.md §1): the leaf agent imports nothing of ours, so
// every package may name an agent; only the commands dispatch through the
// registry agents (a package below them that imported it would reach
// every agent's code); an agent's folder imports neither the registry nor
// another agent's folder, nor agentsession (whose tests use the folders).
func TestAgentRegistryArrows(t *testing.T) {
	pkgs := listPackages(t)
	if _, ok := pkgs[module+"/agent"]; !ok {
		t.Fatal("no package agent")
	}
	if _, ok := pkgs[module+"/agents"]; !ok {
		t.Fatal("no package agents")
	}
	for path, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == "agent" {
			for _, d := range p.Imports {
				if strings.HasPrefix(d, module+"/") || strings.Contains(d, ".") {
					t.Errorf("agent imports %s: it must stay a leaf of the standard library", d)
				}
			}
		}
		if rel == "agentsession" && slices.Contains(p.Imports, module+"/hooks") {
			t.Errorf("agentsession imports hooks: the hook runner names agents and events through package agent, not the installers")
		}
		for _, d := range p.Imports {
			if d == module+"/agents" && rel != "cmd/skillrepo" && !strings.HasPrefix(rel, "cmd/skillrepo/internal/") {
				t.Errorf("%s imports the registry agents: only the CLI (cmd/skillrepo and its packages) dispatches through it", rel)
			}
			if strings.HasPrefix(rel, "agents/") && d == module+"/agentsession" {
				t.Errorf("%s imports agentsession: its interface speaks the leaf's types, so agentsession's tests can run the real folders", rel)
			}
			if folder, ok := strings.CutPrefix(rel, "agents/"); ok {
				if other, ok := strings.CutPrefix(d, module+"/agents/"); ok && other != folder && !strings.HasPrefix(other, folder+"/") {
					t.Errorf("%s imports another agent's folder %s", rel, d)
				}
			}
		}
	}
}
