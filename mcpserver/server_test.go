package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

const freshSkill = "---\nname: fresh\ndescription: Use when testing the MCP server.\n---\n# Fresh\n\nStep one.\n"

// fixture is the example library behind a server, and a client connected
// to it in process.
type fixture struct {
	t   *testing.T
	lib *skillrepo.Library
	env map[string]string
	srv *Server
	cs  *mcp.ClientSession
}

type fixtureOpt func(*Options, *mcp.ClientOptions)

func newFixture(t *testing.T, opts ...fixtureOpt) *fixture {
	t.Helper()
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed to check what the server writes")
	}
	lib, env := testlib.ExampleLibrary(t)
	f := &fixture{t: t, lib: lib, env: env}
	f.connect(lib, opts...)
	return f
}

// connect starts a server over lib and connects a client named
// test-agent/1.2 to it.
func (f *fixture) connect(lib *skillrepo.Library, opts ...fixtureOpt) {
	t := f.t
	o := Options{Version: "test", Poll: -1}
	var co mcp.ClientOptions
	for _, fn := range opts {
		fn(&o, &co)
	}
	srv, err := New(lib, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1.2"}, &co).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); cancel(); <-served })
	f.srv, f.cs = srv, cs
}

func (f *fixture) git(args ...string) string { return testlib.Git(f.t, f.lib.Root, f.env, args...) }

// call calls a tool and returns its result text and JSON (nil when the
// text is not JSON).
func (f *fixture) call(name string, args any, meta mcp.Meta) (*mcp.CallToolResult, string, map[string]any) {
	f.t.Helper()
	res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		f.t.Fatalf("%s: protocol error %v", name, err)
	}
	if len(res.Content) != 1 {
		f.t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var m map[string]any
	if json.Unmarshal([]byte(text), &m) != nil {
		m = nil
	}
	return res, text, m
}

// ok calls a tool that must succeed.
func (f *fixture) ok(name string, args any) map[string]any {
	f.t.Helper()
	res, text, m := f.call(name, args, nil)
	if res.IsError || m["success"] != true {
		f.t.Fatalf("%s failed: %s", name, text)
	}
	return m
}

// refused calls a tool that must fail, writing nothing, with words in
// its text.
func (f *fixture) refused(name string, args any, words string) {
	f.t.Helper()
	before := f.git("rev-parse", "main")
	branches := f.git("branch", "--list")
	res, text, _ := f.call(name, args, nil)
	if !res.IsError {
		f.t.Errorf("%s succeeded, want a refusal with %q: %s", name, words, text)
	}
	if !strings.Contains(text, words) {
		f.t.Errorf("%s: %q lacks %q", name, text, words)
	}
	if got := f.git("rev-parse", "main"); got != before {
		f.t.Errorf("%s: a refused call moved main", name)
	}
	if got := f.git("branch", "--list"); got != branches {
		f.t.Errorf("%s: a refused call made a branch:\n%s", name, got)
	}
	testlib.GitClean(f.t, f.lib.Root, f.env)
}

func (f *fixture) trailer(rev, key string) string {
	return testlib.Trailer(f.t, f.lib.Root, f.env, rev, key)
}

func (f *fixture) usage(name string) *usage.Record {
	f.t.Helper()
	recs, err := f.lib.Usage().Load()
	if err != nil {
		f.t.Fatal(err)
	}
	return recs[name]
}

func ops(list ...map[string]any) map[string]any { return map[string]any{"operations": list} }

func create(name string) map[string]any {
	content := strings.ReplaceAll(freshSkill, "fresh", name)
	if name != "fresh" {
		// Skills that differ only in their name are duplicates, which a
		// create refuses; give each its own vocabulary.
		content += "\n" + distinctWords(name) + "\n"
	}
	return map[string]any{"action": "create", "name": name, "content": content}
}

// distinctWords is a line of made-up words chosen by name, so two test
// skills share little text.
func distinctWords(name string) string {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), 7))
	var words []string
	for range 40 {
		w := make([]byte, 7)
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		words = append(words, string(w))
	}
	return strings.Join(words, " ")
}

func patch(name, old, new string) map[string]any {
	return map[string]any{"action": "patch", "name": name, "old_string": old, "new_string": new}
}

func TestToolsList(t *testing.T) {
	for _, approve := range []bool{false, true} {
		f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.AllowApprove = approve })
		res, err := f.cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			schema, _ := tool.InputSchema.(map[string]any)
			if tool.Description == "" || schema["type"] != "object" {
				t.Errorf("%s: description %q, schema %v", tool.Name, tool.Description, tool.InputSchema)
			}
		}
		want := []string{"memory", "proposal_list", "proposal_show", "skill_manage", "skill_view", "skills_list"}
		if approve {
			want = []string{"memory", "proposal_approve", "proposal_list", "proposal_reject", "proposal_show", "skill_manage", "skill_view", "skills_list"}
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Errorf("allow-approve %v: tools %v, want %v", approve, names, want)
		}
	}
}

// TestCreateViewPatch: each write one commit with provenance; a view
// counts a view and a use.
func TestCreateViewPatch(t *testing.T) {
	f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.SessionID = "default-session" })
	before := f.git("rev-list", "--count", "main")
	res, text, m := f.call("skill_manage", ops(create("fresh")), mcp.Meta{"sessionId": "sess-42"})
	if res.IsError || m["success"] != true {
		t.Fatalf("create: %s", text)
	}
	if m["commit"] != f.git("rev-parse", "main") {
		t.Errorf("result commit %v is not main's tip", m["commit"])
	}
	for key, want := range map[string]string{"Skill-Origin": "foreground", "Session-Id": "sess-42", "Agent": "test-agent/1.2", "Skill-Action": "create", "Skill-Name": "fresh"} {
		if got := f.trailer("main", key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	testlib.GitClean(t, f.lib.Root, f.env)
	if f.usage("fresh") == nil {
		t.Error("no usage record for the created skill")
	}

	v := f.ok("skill_view", map[string]any{"name": "fresh"})
	if v["content"] != freshSkill {
		t.Errorf("view content %q", v["content"])
	}
	if r := f.usage("fresh"); r == nil || r.ViewCount != 1 || r.UseCount != 1 {
		t.Errorf("usage after a view: %+v", r)
	}

	f.ok("skill_manage", ops(patch("fresh", "Step one.", "Step one, then two.")))
	if r := f.usage("fresh"); r == nil || r.PatchCount != 1 || r.LastPatchedAt == nil || r.CreatedBy != nil {
		t.Errorf("usage after a foreground patch: %+v (a foreground create is not agent-made)", r)
	}
	if got := f.trailer("main", "Session-Id"); got != "default-session" {
		t.Errorf("Session-Id without _meta: %q, want the server's default", got)
	}
	if got := f.git("show", "main:fresh/SKILL.md"); !strings.Contains(got, "Step one, then two.") {
		t.Errorf("patched file: %s", got)
	}
	if got := f.git("rev-list", "--count", "main"); got != fmt.Sprint(atoi(before)+2) {
		t.Errorf("commits: %s after %s, want two more", got, before)
	}
	testlib.GitClean(t, f.lib.Root, f.env)

	// A view of a missing skill is an error and counts nothing.
	f.refused("skill_view", map[string]any{"name": "nope"}, "Skill 'nope' not found")
	if f.usage("nope") != nil {
		t.Error("a failed view was counted")
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// TestRefusals: every refusal is a tool result with isError, nothing is
// written, the text is the tools' own.
func TestRefusals(t *testing.T) {
	f := newFixture(t)
	big := make([]map[string]any, 21)
	for i := range big {
		big[i] = create(fmt.Sprintf("s%02d", i))
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Pin(context.Background(), "git-bisect-regressions", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool string
		args       any
		words      string
	}{
		{"batch over 20", "skill_manage", ops(big...), "skill_manage: operations takes at most 20 entries, not 21"},
		{"empty batch", "skill_manage", map[string]any{"operations": []any{}}, "skill_manage: operations needs at least 1 entry, not 0"},
		{"all or nothing", "skill_manage", ops(create("fresh"), patch("fresh", "no such text", "x")), "old_string not found"},
		{"duplicate create", "skill_manage", ops(create("ci-debugging")), "A skill named 'ci-debugging' already exists"},
		{"unknown skill", "skill_manage", ops(patch("nope", "a", "b")), "Skill 'nope' not found"},
		{"mixed patch", "skill_manage", ops(map[string]any{"action": "patch", "name": "ci-debugging", "content": "x", "old_string": "a", "new_string": "b"}), "EITHER content"},
		{"secret", "skill_manage", ops(patch("ci-debugging", "Pitfalls", "Pitfalls: token ghp_"+strings.Repeat("aB3", 12))), "GitHub token"},
		{"bad path", "skill_manage", ops(map[string]any{"action": "write_file", "name": "ci-debugging", "file_path": "../x.md", "file_content": "x"}), "path traversal"},
		// The secret guard reads the batch's result, not each operation:
		// two patches that assemble a key, a key as a file's name, a
		// private key block pasted in lower case.
		{"secret assembled by two patches", "skill_manage", ops(patch("ci-debugging", "Pitfalls", "Pitfalls AKIA2E0A8F3B|"), patch("ci-debugging", "|", "244C9986 is the key")), "AWS access key id"},
		{"secret as a path", "skill_manage", ops(map[string]any{"action": "write_file", "name": "ci-debugging", "file_path": "references/AKIA2E0A8F3B244C9986.md", "file_content": "x"}), "AWS access key id"},
		{"lower-case private key", "skill_manage", ops(map[string]any{"action": "write_file", "name": "ci-debugging", "file_path": "references/k.md", "file_content": "-----begin rsa private key-----\nMIIE\n"}), "private key block"},
		{"pinned delete", "skill_manage", ops(map[string]any{"action": "delete", "name": "git-bisect-regressions"}), "pinned"},
		{"wrong type", "skill_manage", map[string]any{"operations": "create everything"}, `skill_manage: operations must be an array, not the string \"create everything\"`},
		{"broken skill", "skill_manage", ops(map[string]any{"action": "create", "name": "broken", "content": "no frontmatter"}), "frontmatter"},
		{"memory unknown action", "memory", map[string]any{"action": "forget", "content": "x"}, `memory: action must be one of add, replace, remove, not the string \"forget\"`},
		{"memory bad target", "memory", map[string]any{"action": "add", "target": "diary", "content": "x"}, "diary"},
		{"memory secret", "memory", map[string]any{"action": "add", "content": "key AKIAIOSFODNN7ABCDEFG"}, "AWS access key id"},
		{"memory no match", "memory", map[string]any{"action": "remove", "old_text": "never said"}, "never said"},
		{"view traversal", "skill_view", map[string]any{"name": "../etc"}, "invalid skill name"},
		{"view without a name", "skill_view", map[string]any{}, "skill_view: name is required"},
		{"view with an empty name", "skill_view", map[string]any{"name": ""}, "skill_view: name is required"},
		{"list limit 0", "skills_list", map[string]any{"limit": 0}, "skills_list: limit must be at least 1, not 0"},
		{"list limit 501", "skills_list", map[string]any{"limit": 501}, "skills_list: limit must be at most 500, not 501"},
		{"view missing file", "skill_view", map[string]any{"name": "ci-debugging", "file_path": "references/none.md"}, "File not found"},
		{"proposal unknown", "proposal_show", map[string]any{"id": "p-none"}, "error: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.t = t
			f.refused(tt.tool, tt.args, tt.words)
		})
	}
	f.t = t
	// An unknown tool is a protocol error, and the server stays up.
	if _, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "terminal", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("unknown tool: %v", err)
	}
	f.ok("skills_list", map[string]any{})
}

// TestDirtyAndLocked: a write to a path with an uncommitted edit, and a
// write while another process holds the lock past its timeout, come back
// as readable results; the edit survives.
func TestDirtyAndLocked(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.lib.Root, "ci-debugging", "SKILL.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := string(data) + "\nmy uncommitted note\n"
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	res, text, _ := f.call("skill_manage", ops(patch("ci-debugging", "Pitfalls", "Traps")), nil)
	if !res.IsError || !strings.Contains(text, "uncommitted") {
		t.Errorf("write over an uncommitted edit: %s", text)
	}
	if got, _ := os.ReadFile(p); string(got) != edited {
		t.Errorf("the uncommitted edit was clobbered")
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}

	other, err := skillrepo.Open(f.lib.Root, skillrepo.OpenOptions{Getenv: func(k string) string { return f.env[k] }, LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	unlock, err := other.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, text, _ = f.call("skill_manage", ops(create("fresh")), nil)
	unlock()
	if !res.IsError || !strings.Contains(strings.ToLower(text), "lock") {
		t.Errorf("write while locked: %s", text)
	}
	// The lock released, the same write lands.
	f.ok("skill_manage", ops(create("fresh")))
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestMemory: add, replace, remove, each a commit with provenance; the
// limit's message lists the entries.
func TestMemory(t *testing.T) {
	f := newFixture(t)
	m := f.ok("memory", map[string]any{"action": "add", "content": "The build needs make 4."})
	if m["done"] != true || !strings.Contains(m["message"].(string), "Entry added") {
		t.Errorf("add: %v", m)
	}
	if f.trailer("main", "Agent") != "test-agent/1.2" || f.trailer("main", "Skill-Origin") != "foreground" {
		t.Errorf("memory commit trailers: %s", f.git("log", "-1", "--format=%B"))
	}
	f.ok("memory", map[string]any{"action": "replace", "old_text": "make 4", "content": "The build needs GNU make 4.4."})
	f.ok("memory", map[string]any{"action": "add", "target": "user", "content": "Prefers short answers."})
	f.ok("memory", map[string]any{"action": "remove", "target": "user", "old_text": "short answers"})
	mem := f.git("show", "main:"+memoryPath(t, f.lib, "memory"))
	if !strings.Contains(mem, "GNU make 4.4") || strings.Contains(mem, "make 4.\n") {
		t.Errorf("MEMORY.md: %q", mem)
	}
	f.refused("memory", map[string]any{"action": "add", "content": strings.Repeat("x", 5000)}, "current_entries")
	testlib.GitClean(t, f.lib.Root, f.env)
}

func memoryPath(t *testing.T, lib *skillrepo.Library, target string) string {
	t.Helper()
	for _, p := range []string{"MEMORY.md", "memories/MEMORY.md", ".memory/MEMORY.md"} {
		if _, err := testlib.GitErr(lib.Root, nil, "cat-file", "-e", "main:"+p); err == nil {
			return p
		}
	}
	out := testlib.Git(t, lib.Root, nil, "ls-tree", "-r", "--name-only", "main")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "MEMORY.md") {
			return line
		}
	}
	t.Fatalf("no MEMORY.md in main:\n%s", out)
	return ""
}

// TestPropose: writes gather on one proposal, main stays, the result
// names it; after approval the next write starts a new one.
func TestPropose(t *testing.T) {
	f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.Propose, o.AllowApprove = true, true })
	main := f.git("rev-parse", "main")
	m := f.ok("skill_manage", ops(create("fresh")))
	id, _ := m["proposal"].(string)
	if id == "" || m["proposal_branch"] != "proposals/"+id || !strings.Contains(m["message"].(string), "waits for the user's approval") {
		t.Fatalf("create on a proposal: %v", m)
	}
	if f.git("rev-parse", "main") != main {
		t.Error("a proposed write moved main")
	}
	// Reads show the proposal; the next write joins it.
	f.ok("skill_view", map[string]any{"name": "fresh"})
	m = f.ok("skill_manage", ops(patch("fresh", "Step one.", "Step one, then two.")))
	if m["proposal"] != id {
		t.Errorf("second write on proposal %v, want %s", m["proposal"], id)
	}
	if n := f.git("rev-list", "--count", "main..proposals/"+id); n != "2" {
		t.Errorf("proposal has %s commits, want 2", n)
	}
	if f.trailer("proposals/"+id, "Agent") != "test-agent/1.2" {
		t.Error("no Agent trailer on the proposal's commit")
	}
	l := f.ok("proposal_list", map[string]any{})
	if l["count"].(float64) != 1 {
		t.Errorf("proposal_list: %v", l)
	}
	s := f.ok("proposal_show", map[string]any{"id": id})
	if !strings.Contains(s["diff"].(string), "+Step one, then two.") {
		t.Errorf("proposal_show diff: %v", s["diff"])
	}
	f.ok("proposal_approve", map[string]any{"id": id})
	if !strings.Contains(f.git("show", "main:fresh/SKILL.md"), "then two") {
		t.Error("approval did not merge")
	}
	m = f.ok("skill_manage", ops(create("second")))
	if m["proposal"] == id || m["proposal"] == nil {
		t.Errorf("write after approval went to %v, want a new proposal", m["proposal"])
	}
	f.ok("proposal_reject", map[string]any{"id": m["proposal"], "reason": "not now"})
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestWriteApprovalConfig: review.write_approval makes writes proposals
// without --propose.
func TestWriteApprovalConfig(t *testing.T) {
	f := newFixture(t)
	f.lib.Config.Review.WriteApproval = true
	m := f.ok("skill_manage", ops(create("fresh")))
	if m["proposal"] == nil {
		t.Errorf("write_approval: the write was not proposed: %v", m)
	}
}

// TestAutonomousOrigin: started as the curator, the server enforces the
// autonomous guards.
func TestAutonomousOrigin(t *testing.T) {
	f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.Origin = skillrepo.OriginCurator })
	f.refused("skill_manage", ops(patch("ci-debugging", "Pitfalls", "Traps")), "Refusing background curator patch for 'ci-debugging': it is not curator-managed")
	f.ok("skill_manage", ops(create("fresh")))
	f.ok("skill_manage", ops(patch("fresh", "Step one.", "Step 1."))) // its own write counts as read
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Adopt(context.Background(), "ci-debugging", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	f.refused("skill_manage", ops(patch("ci-debugging", "Pitfalls", "Traps")), "has not been read")
	f.ok("skill_view", map[string]any{"name": "ci-debugging"})
	f.ok("skill_manage", ops(patch("ci-debugging", "Pitfalls", "Traps")))
	if got := f.trailer("main", "Skill-Origin"); got != "curator" {
		t.Errorf("origin %q", got)
	}
}

// TestSkillsListPaged pages through the library.
func TestSkillsListPaged(t *testing.T) {
	f := newFixture(t)
	m := f.ok("skills_list", map[string]any{"limit": 2})
	if len(m["skills"].([]any)) != 2 || m["next_offset"].(float64) != 2 || m["count"].(float64) != 4 {
		t.Errorf("first page: %v", m)
	}
	m = f.ok("skills_list", map[string]any{"offset": 2, "limit": 2})
	if len(m["skills"].([]any)) != 2 || m["next_offset"] != nil {
		t.Errorf("last page: %v", m)
	}
	e := m["skills"].([]any)[0].(map[string]any)
	if e["state"] != "active" || e["pinned"] != false {
		t.Errorf("entry %v", e)
	}
}

// TestResources reads the index and a skill, and hears of a commit made
// by another writer.
func TestResources(t *testing.T) {
	changed := make(chan struct{}, 16)
	f := newFixture(t, func(o *Options, co *mcp.ClientOptions) {
		o.Poll = 20 * time.Millisecond
		co.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} }
	})
	ctx := context.Background()
	for _, uri := range []string{"skillrepo://index", "skillrepo://index/hermes", "skillrepo://index/xml"} {
		res, err := f.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "ci-debugging") {
			t.Errorf("%s: %v %v", uri, err, res)
		}
	}
	res, err := f.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skillrepo://skill/devops/docker-cleanup"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "name: docker-cleanup") {
		t.Fatalf("skill by category/name: %v %v", err, res)
	}
	if _, err := f.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skillrepo://skill/nope"}); err == nil {
		t.Error("a missing skill read without error")
	}
	list, err := f.cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if !slices.Contains(uris, "skillrepo://skill/ci-debugging") || !slices.Contains(uris, "skillrepo://index") {
		t.Errorf("resources %v", uris)
	}

	// Another writer (the CLI, another server) commits: the client hears.
	other, err := skillrepo.Open(f.lib.Root, skillrepo.OpenOptions{Getenv: func(k string) string { return f.env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c := strings.ReplaceAll(freshSkill, "fresh", "outside")
	testlib.Seed(t, other, skillrepo.Op{Action: "create", Name: "outside", Content: &c})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no resources/list_changed after an outside commit")
	}
	res, err = f.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skillrepo://skill/outside"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "name: outside") {
		t.Errorf("the outside skill: %v %v", err, res)
	}
	// And the tools read the current tip.
	f.ok("skill_view", map[string]any{"name": "outside"})
}

// TestFourServers: four servers, each with its own library handle as
// four agent windows would have, write to one library at once; every
// write lands.
func TestFourServers(t *testing.T) {
	f := newFixture(t)
	const servers, writes = 4, 6
	// Each server gets a handle of its own with a lock wait long enough
	// for the other three's writes on a loaded machine (the fixture's
	// handle waits one second).
	var clients []*fixture
	for range servers {
		lib, err := skillrepo.Open(f.lib.Root, skillrepo.OpenOptions{Getenv: func(k string) string { return f.env[k] }, LockTimeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lib.Close() })
		g := &fixture{t: t, lib: lib, env: f.env}
		g.connect(lib)
		clients = append(clients, g)
	}
	var wg sync.WaitGroup
	errs := make(chan string, servers*writes)
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range writes {
				res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skill_manage", Arguments: ops(create(fmt.Sprintf("w%d-%d", i, j)))})
				if err != nil {
					errs <- err.Error()
				} else if res.IsError {
					errs <- res.Content[0].(*mcp.TextContent).Text
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a write failed: %s", e)
	}
	for i := range servers {
		for j := range writes {
			if _, err := testlib.GitErr(f.lib.Root, f.env, "cat-file", "-e", fmt.Sprintf("main:w%d-%d/SKILL.md", i, j)); err != nil {
				t.Errorf("w%d-%d is missing from main", i, j)
			}
		}
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestGateFollowsRuntime: the lint gate on an MCP write and on an MCP
// approval uses the library's runtime profile, as the CLI and the review
// do: Codex rejects a metadata.short-description over 500 characters, the
// spec profile does not check it. The approval is checked against the
// runtime in force when it merges.
func TestGateFollowsRuntime(t *testing.T) {
	f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.Propose, o.AllowApprove = true, true })
	long := strings.Repeat("x", 600)
	withShort := func(name string) map[string]any {
		c := create(name)
		c["content"] = strings.Replace(c["content"].(string), "\n---\n", "\nmetadata:\n  short-description: "+long+"\n---\n", 1)
		return c
	}
	m := f.ok("skill_manage", ops(withShort("spec-runtime")))
	id, _ := m["proposal"].(string)
	if id == "" {
		t.Fatalf("no proposal: %v", m)
	}
	f.lib.Config.Runtime = skill.Codex
	f.refused("proposal_approve", map[string]any{"id": id}, "metadata-short-description")
	f.refused("skill_manage", ops(withShort("codex-runtime")), "metadata-short-description")
}

// Claude Code sends no session in a call's _meta; it names the call
// (claudecode/toolUseId), which becomes the Tool-Use-Id trailer, and the
// server's own session (from CLAUDE_CODE_SESSION_ID) is the Session-Id.
func TestClaudeCodeToolUseID(t *testing.T) {
	f := newFixture(t, func(o *Options, _ *mcp.ClientOptions) { o.SessionID = "claude-session-1" })
	res, text, _ := f.call("skill_manage", ops(create("fresh")), mcp.Meta{"claudecode/toolUseId": "toolu_01ABC"})
	if res.IsError {
		t.Fatalf("create: %s", text)
	}
	for key, want := range map[string]string{"Session-Id": "claude-session-1", "Tool-Use-Id": "toolu_01ABC"} {
		if got := f.trailer("main", key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// Annotations say what a tool does: skill_view records a view and a use,
// so it is no read-only tool, though it destroys nothing.
func TestSkillViewIsNotReadOnly(t *testing.T) {
	f := newFixture(t)
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name != "skill_view" {
			continue
		}
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint || a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("skill_view annotations: %+v", a)
		}
		return
	}
	t.Error("no skill_view tool")
}
