// Package mcpbench measures the MCP server on the 10,000-skill library:
// a skill_manage patch round trip through the server (client, JSON-RPC
// over the SDK's in-memory transport, the tools' guards and lint, the
// commit) against the same patch through the in-process engine, and
// skills_list.
//
//	go test -run '^$' -bench . -benchtime 20x ./bench/mcp
package mcpbench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/bench/genlib"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// library is the standard 10,000-skill library of bench/genlib (100
// categories, three linked support files a skill), imported once per
// benchmark binary and packed, as a library that lived a while is; git's
// automatic gc is off so no write starts one mid-benchmark.
//
// Building it takes minutes on a busy machine: MCPBENCH_LIB=DIR keeps it
// in DIR (built there when missing) for the next run.
var library = sync.OnceValues(func() (string, error) {
	dir := os.Getenv("MCPBENCH_LIB")
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
	} else {
		root, err := makeTemp()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "lib")
	}
	if _, err := genlib.Write(dir, genlib.Defaults()); err != nil {
		return "", err
	}
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: openOpts()}); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"config", "gc.auto", "0"}, {"repack", "-adq"}, {"prune-packed"}} {
		if out, err := testlib.GitErr(dir, env, args...); err != nil {
			return "", fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir, nil
})

var env = testlib.Env("/nonexistent-home")

func openOpts() skillrepo.OpenOptions {
	return skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, LockTimeout: 30 * time.Second}
}

func open(b *testing.B) *skillrepo.Library {
	b.Helper()
	dir, err := library()
	if err != nil {
		b.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, openOpts())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { lib.Close() })
	return lib
}

// patchText is run i's patch of skill-04242: "Step 1:" becomes
// "Step 1 (run 1):", then "(run 2)", …, so every run writes new text.
func patchText(i int) (old, new string) {
	old = "Step 1:"
	if i > 0 {
		old = fmt.Sprintf("Step 1 (run %d):", i)
	}
	return old, fmt.Sprintf("Step 1 (run %d):", i+1)
}

var runRE = regexp.MustCompile(`Step 1 \(run (\d+)\):`)

// lastRun is the run number the skill's text shows now (0: unpatched),
// so benchmarks and runs over a kept library go on from there.
func lastRun(b *testing.B, lib *skillrepo.Library) int {
	b.Helper()
	snap, err := lib.Snapshot(lib.MainBranch())
	if err != nil {
		b.Fatal(err)
	}
	data, err := snap.ReadFile("cat-042/skill-04242/SKILL.md")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	if m := runRE.FindSubmatch(data); m != nil {
		n, _ = strconv.Atoi(string(m[1]))
	}
	return n
}

// BenchmarkPatchEngine is the patch through the engine in process, with
// the write policy every tool write passes (agenttools' library adapter).
func BenchmarkPatchEngine(b *testing.B) {
	lib := open(b)
	tools := agenttools.Open(lib)
	ctx := context.Background()
	for i := lastRun(b, lib); b.Loop(); i++ {
		old, new := patchText(i)
		ops := []skillrepo.Op{{Action: "patch", Name: "skill-04242", OldString: &old, NewString: &new}}
		if _, err := tools.Apply(ctx, agenttools.Target{Writer: skillrepo.Writer{Branch: lib.MainBranch(), Provenance: skillrepo.Provenance{Origin: skillrepo.OriginForeground}}}, ops); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPatchMCP is the same patch as a tools/call through the
// server: the client's request, the SDK, the toolbox's validation and
// guards, the commit, the result.
func BenchmarkPatchMCP(b *testing.B) {
	lib := open(b)
	cs := connect(b, lib)
	ctx := context.Background()
	for i := lastRun(b, lib); b.Loop(); i++ {
		old, new := patchText(i)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skill_manage", Arguments: map[string]any{
			"operations": []any{map[string]any{"action": "patch", "name": "skill-04242", "old_string": old, "new_string": new}}}})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res.Content[0].(*mcp.TextContent).Text)
		}
	}
}

// BenchmarkSkillsList is the first page (500 skills, with descriptions,
// state and pin) of skills_list on 10,000 skills.
func BenchmarkSkillsList(b *testing.B) {
	cs := connect(b, open(b))
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_list", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res.Content[0].(*mcp.TextContent).Text)
		}
	}
}

// BenchmarkSkillsListCategory is skills_list of one category (100 skills).
func BenchmarkSkillsListCategory(b *testing.B) {
	cs := connect(b, open(b))
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_list", Arguments: map[string]any{"category": "cat-042"}})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res.Content[0].(*mcp.TextContent).Text)
		}
	}
}

func connect(b *testing.B, lib *skillrepo.Library) *mcp.ClientSession {
	b.Helper()
	srv, err := mcpserver.New(lib, mcpserver.Options{Poll: -1})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); cancel(); <-served })
	return cs
}

var tempRoot string

func makeTemp() (string, error) {
	var err error
	tempRoot, err = os.MkdirTemp("", "mcpbench-")
	return tempRoot, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tempRoot != "" {
		os.RemoveAll(tempRoot)
	}
	os.Exit(code)
}
