package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// TestSkillManageMatchesReference runs the table of
// testdata/hermes-0.19.0-skill-manage.json (MIT, testdata/hermes-LICENSE):
// 174 skill_manage calls, each alone on a fresh Hermes skills folder and
// sent as a client sends it, through this server over MCP, whose expected outcome — accepted
// or refused, and the bytes of every file it added, changed or removed —
// is what the reference's own skill_manage did with the same call on the
// same folder. Where skillrepo deliberately does otherwise (a later
// release's rule, or a reference bug it does not reproduce) the table
// says what skillrepo does and why (docs/reference-behaviour.md §4.10),
// and that is checked instead.
func TestSkillManageMatchesReference(t *testing.T) {
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed")
	}
	data, err := os.ReadFile("testdata/hermes-0.19.0-skill-manage.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reference string            `json:"reference"`
		Base      map[string]string `json:"base"`
		Cases     []struct {
			ID        string         `json:"id"`
			Args      map[string]any `json:"args"`
			Reference outcome        `json:"reference"`
			Skillrepo *outcome       `json:"skillrepo"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.Reference, "hermes-agent 0.19.0") || len(doc.Cases) < 170 {
		t.Fatalf("table names %q with %d cases", doc.Reference, len(doc.Cases))
	}
	// One library, imported once; each case runs on a copy of it.
	env := testlib.Env(t.TempDir())
	src := filepath.Join(t.TempDir(), ".hermes", "skills")
	for p, c := range doc.Base {
		full := filepath.Join(src, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }}
	if _, err := skillrepo.Init(context.Background(), src, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	differs := 0
	for _, c := range doc.Cases {
		if c.Skillrepo != nil {
			differs++
		}
	}
	if differs > 13 {
		t.Errorf("%d deliberate differences from the reference; the table lists why for each, and they should only shrink", differs)
	}
	// agree counts the calls whose outcome over MCP is the reference's
	// own (accepted or refused, and every byte changed), reported once
	// every case has run.
	var mu sync.Mutex
	agree := 0
	t.Run("cases", func(t *testing.T) {
		for i, c := range doc.Cases {
			runReferenceCase(t, i, c.ID, c.Args, c.Reference, c.Skillrepo, src, opts, doc.Base, func() {
				mu.Lock()
				agree++
				mu.Unlock()
			})
		}
	})
	t.Logf("over MCP, %d of %d skill_manage calls agree with %s (accept or refuse, and every byte written); %d differ deliberately (docs/reference-behaviour.md §4.10)", agree, len(doc.Cases), doc.Reference, differs)
	if !t.Failed() && agree != len(doc.Cases)-differs {
		t.Errorf("%d calls agree with the reference, want %d (every case but the %d the table explains)", agree, len(doc.Cases)-differs, differs)
	}
}

// runReferenceCase runs case i of the table as a parallel subtest: a
// fresh copy of src, one call through a new server over MCP, checked
// against want (skillrepo's outcome where the table gives one, else the
// reference's); agreed is called when the outcome is the reference's own.
func runReferenceCase(t *testing.T, i int, id string, args map[string]any, ref outcome, own *outcome, src string, opts skillrepo.OpenOptions, base map[string]string, agreed func()) {
	want := ref
	if own != nil {
		want = *own
	}
	t.Run(id, func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), ".hermes", "skills")
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		lib, err := skillrepo.Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer lib.Close()
		text, ok := callOnce(t, lib, expandArgs(args))
		var res map[string]any
		json.Unmarshal([]byte(text), &res)
		if ok != want.OK {
			t.Fatalf("case %d: ok = %v, want %v (%s)\n%s", i, ok, want.OK, want.Why, text)
		}
		got := changedFiles(t, dir, base)
		if !sameChanges(got, want.Changed) {
			t.Errorf("case %d: files changed %v\nwant %v (%s)", i, keysOf(got), rawKeys(want.Changed), want.Why)
		}
		if want.Message != "" && res["message"] != strings.TrimSuffix(want.Message, ".")+"." {
			t.Errorf("case %d: message %q, want %q", i, res["message"], want.Message)
		}
		if ok == ref.OK && sameChanges(got, ref.Changed) {
			agreed()
		}
	})
}

// outcome is one call's outcome in the table: accepted or refused, the
// files it changed (content, or null when removed), and why skillrepo
// differs where it does.
type outcome struct {
	OK      bool                       `json:"ok"`
	Changed map[string]json.RawMessage `json:"changed"`
	Message string                     `json:"message"`
	Why     string                     `json:"why"`
}

// callOnce sends one skill_manage call to a new server over lib, as the
// working agent's MCP client would, and returns the result's text and
// whether it succeeded.
func callOnce(t *testing.T, lib *skillrepo.Library, args map[string]any) (string, bool) {
	t.Helper()
	srv, err := New(lib, Options{Version: "test", Poll: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	defer func() { cancel(); <-served }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hermes-differential", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skill_manage", Arguments: args})
	if err != nil {
		t.Fatalf("protocol error: %v", err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var m map[string]any
	json.Unmarshal([]byte(text), &m)
	return text, !res.IsError && m["success"] == true
}

// expandArgs rebuilds the long strings the table stores as a prefix and
// a repeated last character.
func expandArgs(a map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		if m, ok := v.(map[string]any); ok && m["repeat"] != nil {
			prefix, rep, n := m["prefix"].(string), m["repeat"].(string), int(m["chars"].(float64))
			out[k] = prefix + strings.Repeat(rep, n-len([]rune(prefix)))
			continue
		}
		out[k] = v
	}
	return out
}

// changedFiles lists the skill files (dot folders at the top left out)
// that differ from base: content, or nil when removed.
func changedFiles(t *testing.T, dir string, base map[string]string) map[string]*string {
	t.Helper()
	out := map[string]*string{}
	seen := map[string]bool{}
	fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && strings.HasPrefix(p, ".") {
			return fs.SkipDir
		}
		if d.IsDir() || strings.HasPrefix(p, ".") {
			return nil
		}
		seen[p] = true
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if old, had := base[p]; !had || old != s {
			out[p] = &s
		}
		return nil
	})
	for p := range base {
		if !seen[p] {
			out[p] = nil
		}
	}
	return out
}

func sameChanges(got map[string]*string, want map[string]json.RawMessage) bool {
	if len(got) != len(want) {
		return false
	}
	for p, raw := range want {
		g, ok := got[p]
		if !ok {
			return false
		}
		var s *string
		var long struct {
			SHA256 string `json:"sha256"`
			Chars  int    `json:"chars"`
		}
		switch {
		case string(raw) == "null":
			if g != nil {
				return false
			}
		case json.Unmarshal(raw, &s) == nil && s != nil:
			if g == nil || *g != *s {
				return false
			}
		case json.Unmarshal(raw, &long) == nil && long.SHA256 != "":
			if g == nil {
				return false
			}
			sum := sha256.Sum256([]byte(*g))
			if hex.EncodeToString(sum[:]) != long.SHA256 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func keysOf(m map[string]*string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func rawKeys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
