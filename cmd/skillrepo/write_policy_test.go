package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// The write policy is one (docs/architecture.md §2.1): the same write,
// from the same origin, gets the same verdict through every door that can
// carry it — the CLI (any origin, --origin), the MCP server (its
// configured origin), the background review's tools and the curator's
// tools. Each row is one write and the verdict for each origin; each door
// runs it on a library of its own, prepared the same way, and the verdict
// is read from what the door answered (in the words every door shares)
// and from git (a refused write moves nothing).

// Verdicts: the write lands, or which rule refused it.
const (
	landed     = "ok"
	lintError  = "lint"
	notManaged = "ownership"
	notAbsorb  = "absorbed_into"
	secret     = "secret"
	duplicate  = "duplicate"
	// staged: the write waits on a proposal for the person, main unchanged
	// (a review's write to the person's skill).
	staged = "staged"
	// held: a create that links files it does not bring waits, unwritten,
	// for its session's write of them (a review's pass ends first: it
	// reports the create never landed).
	held = "held"
)

// verdictOf classifies a door's answer by the words the policy's rules
// use, the same in every door.
func verdictOf(ok bool, msg string) string {
	switch {
	case strings.Contains(msg, "held, not written yet") || strings.Contains(msg, "held for the files it links and never landed"):
		return held
	case ok:
		return landed
	case strings.Contains(msg, "fails lint"):
		return lintError
	case strings.Contains(msg, "not curator-managed"):
		return notManaged
	case strings.Contains(msg, "may only archive a skill whose content it has absorbed"):
		return notAbsorb
	case strings.Contains(msg, "looks like it contains a secret"):
		return secret
	case strings.Contains(msg, "overlaps the existing skill"):
		return duplicate
	}
	return "unexpected: " + msg
}

// policyWrite is one write of the table, in the shape of a skill_manage
// operation, with the command line that makes the same write.
type policyWrite struct {
	name    string
	op      map[string]any
	cli     []string
	stdin   string
	skill   string            // the existing skill it changes ("" for a create): sessions view it first
	verdict map[string]string // origin → verdict
	// door overrides a verdict for one door and origin ("curator
	// tools/curator"), where that door's writer differs by design.
	door map[string]string
}

const (
	cleanSkill    = "---\nname: pnpm-workflows\ndescription: Use when a pnpm workspace misbehaves.\n---\n\n# pnpm workspaces\n\nRun pnpm install at the root.\n"
	secretSkill   = "---\nname: aws-login\ndescription: Use when logging in to AWS.\n---\n\n# AWS\n\nexport AWS_ACCESS_KEY_ID=AKIAIOSFODNN7ABCDEFG\n"
	copySkill     = "---\nname: docker-disk-space\ndescription: Use when Docker eats the disk. Clean images safely.\n---\n# Freeing disk on a Docker host\n\n1. Prune dangling images and stopped containers: `docker image prune -f`, `docker container prune -f`.\n2. First measure with `docker system df -v`.\n3. Never `docker volume prune` without a backup: volumes hold data.\n"
	danglingSkill = "---\nname: pnpm-workflows\ndescription: Use when a pnpm workspace misbehaves.\n---\n\n# pnpm workspaces\n\nSee [the notes](references/notes.md).\n"
	// mismatchSkill's name is not its folder's: a lint error no file
	// can fix.
	mismatchSkill = "---\nname: pnpm-flows\ndescription: Use when a pnpm workspace misbehaves.\n---\n\n# pnpm workspaces\n\nRun pnpm install at the root.\n"
	// The skill rows 'patch' and 'delete' change is curator-managed
	// (adopted); git-bisect-regressions stays the user's.
	ownSkill   = "ci-debugging"
	userSkill  = "git-bisect-regressions"
	brokenSkil = "docker-cleanup" // adopted, and already has a dangling link
)

func allOrigins(v string) map[string]string {
	return map[string]string{skillrepo.OriginUser: v, skillrepo.OriginForeground: v, skillrepo.OriginBackgroundReview: v, skillrepo.OriginCurator: v}
}

func personsAndAgents(person, autonomous string) map[string]string {
	return map[string]string{skillrepo.OriginUser: person, skillrepo.OriginForeground: person, skillrepo.OriginBackgroundReview: autonomous, skillrepo.OriginCurator: autonomous}
}

var policyWrites = []policyWrite{
	{name: "create", op: map[string]any{"action": "create", "name": "pnpm-workflows", "content": cleanSkill},
		cli: []string{"skill", "create", "pnpm-workflows", "--content-file", "-"}, stdin: cleanSkill, verdict: allOrigins(landed)},
	{name: "create with a lint error", op: map[string]any{"action": "create", "name": "pnpm-workflows", "content": mismatchSkill},
		cli: []string{"skill", "create", "pnpm-workflows", "--content-file", "-"}, stdin: mismatchSkill, verdict: allOrigins(lintError)},
	// A writer with a session holds a create whose only lint errors are
	// links to files of the skill not written yet (the CLI's session is
	// --session-id; the MCP server's its client's, else its own; a
	// review's its id). The curator's pass has no session: it writes an
	// umbrella and its files in one batch, so the gate refuses it.
	{name: "create linking a file it does not bring", op: map[string]any{"action": "create", "name": "pnpm-workflows", "content": danglingSkill},
		cli: []string{"skill", "create", "pnpm-workflows", "--content-file", "-", "--session-id", "s-policy"}, stdin: danglingSkill, verdict: allOrigins(held),
		door: map[string]string{"curator tools/" + skillrepo.OriginCurator: lintError}},
	{name: "create with a likely secret", op: map[string]any{"action": "create", "name": "aws-login", "content": secretSkill},
		cli: []string{"skill", "create", "aws-login", "--content-file", "-"}, stdin: secretSkill,
		verdict: allOrigins(secret)},
	// The curator's consolidation builds umbrellas that overlap the
	// skills they absorb: its writer allows overlap; the same origin
	// through another door does not.
	{name: "create a reworded copy", op: map[string]any{"action": "create", "name": "docker-disk-space", "content": copySkill},
		cli: []string{"skill", "create", "docker-disk-space", "--content-file", "-"}, stdin: copySkill,
		verdict: map[string]string{skillrepo.OriginUser: landed, skillrepo.OriginForeground: duplicate, skillrepo.OriginBackgroundReview: duplicate, skillrepo.OriginCurator: duplicate},
		door:    map[string]string{"curator tools/" + skillrepo.OriginCurator: landed}},
	{name: "patch", op: map[string]any{"action": "patch", "name": ownSkill, "old_string": "## Pitfalls", "new_string": "## Traps"},
		cli: []string{"skill", "patch", ownSkill, "--old", "## Pitfalls", "--new", "## Traps"}, skill: ownSkill, verdict: allOrigins(landed)},
	{name: "patch with a lint error", op: map[string]any{"action": "patch", "name": ownSkill, "old_string": "## Pitfalls", "new_string": "## Pitfalls (see [more](references/more.md))"},
		cli: []string{"skill", "patch", ownSkill, "--old", "## Pitfalls", "--new", "## Pitfalls (see [more](references/more.md))"}, skill: ownSkill, verdict: allOrigins(lintError)},
	{name: "patch a skill with an earlier lint error", op: map[string]any{"action": "patch", "name": brokenSkil, "old_string": "Volumes hold data", "new_string": "Volumes keep data"},
		cli: []string{"skill", "patch", brokenSkil, "--old", "Volumes hold data", "--new", "Volumes keep data"}, skill: brokenSkil, verdict: allOrigins(landed)},
	{name: "patch the user's skill", op: map[string]any{"action": "patch", "name": userSkill, "old_string": "when done.", "new_string": "when finished."},
		cli: []string{"skill", "patch", userSkill, "--old", "when done.", "--new", "when finished."}, skill: userSkill, verdict: personsAndAgents(landed, notManaged),
		// A review proposes it to the person instead (its writer has a
		// stage); another door's background-review origin has none.
		door: map[string]string{"review tools/" + skillrepo.OriginBackgroundReview: staged}},
	{name: "delete a clean skill into an umbrella", op: map[string]any{"action": "delete", "name": ownSkill, "absorbed_into": brokenSkil},
		cli: []string{"skill", "delete", ownSkill, "--absorbed-into", brokenSkil}, skill: ownSkill, verdict: allOrigins(landed)},
	{name: "delete into an umbrella", op: map[string]any{"action": "delete", "name": brokenSkil, "absorbed_into": ownSkill},
		cli: []string{"skill", "delete", brokenSkil, "--absorbed-into", ownSkill}, skill: brokenSkil, verdict: allOrigins(landed)},
	{name: "delete", op: map[string]any{"action": "delete", "name": brokenSkil},
		cli: []string{"skill", "delete", brokenSkil}, skill: brokenSkil, verdict: personsAndAgents(landed, notAbsorb)},
}

// policyLibrary is the example library as every door gets it: two skills
// adopted by the curator, one of them with a dangling link a person wrote
// with --force (an error it already has), the others the user's.
func policyLibrary(t *testing.T) (*skillrepo.Library, map[string]string) {
	t.Helper()
	lib, env := testlib.ExampleLibrary(t)
	ctx := context.Background()
	for _, name := range []string{ownSkill, brokenSkil} {
		if _, err := testlib.Policy(t, lib, skillrepo.Writer{}).Adopt(ctx, name, skillrepo.MetaOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := lib.Policy(skillrepo.Writer{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	old, new := "Measure first:", "See [the old notes](references/gone.md). Measure first:"
	if _, err := pol.Apply(ctx, []skillrepo.Op{{Action: skillrepo.ActionPatch, Name: brokenSkil, OldString: &old, NewString: &new}}, false); err != nil {
		t.Fatal(err)
	}
	return lib, env
}

func TestWritePolicyOneVerdictPerDoor(t *testing.T) {
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed")
	}
	doors := []struct {
		name    string
		origins []string
		run     func(t *testing.T, w policyWrite, origin string) string
	}{
		{"cli", []string{skillrepo.OriginUser, skillrepo.OriginForeground, skillrepo.OriginBackgroundReview, skillrepo.OriginCurator}, cliDoor},
		{"mcp", []string{skillrepo.OriginUser, skillrepo.OriginForeground, skillrepo.OriginBackgroundReview, skillrepo.OriginCurator}, mcpDoor},
		{"review tools", []string{skillrepo.OriginBackgroundReview}, reviewDoor},
		{"curator tools", []string{skillrepo.OriginCurator}, curatorDoor},
	}
	for _, w := range policyWrites {
		for _, d := range doors {
			for _, origin := range d.origins {
				t.Run(w.name+"/"+d.name+"/"+origin, func(t *testing.T) {
					want := w.verdict[origin]
					if v, ok := w.door[d.name+"/"+origin]; ok {
						want = v
					}
					if got := d.run(t, w, origin); got != want {
						t.Errorf("verdict %q, want %q", got, want)
					}
				})
			}
		}
	}
}

// mainMatches fails the test when git disagrees with the door's answer: a
// refused write moved main, or a write the door said it made is not on it
// (write_approval is off in the example library, so every door's write
// that lands lands on main).
//
// A write that landed carries the writer's provenance, whichever door it
// came through: every commit it brought to main (merges aside: an
// approval's or a curator run's) names the origin it was written as.
func mainMatches(t *testing.T, lib *skillrepo.Library, env map[string]string, origin string, before skillrepo.Hash, verdict string) {
	t.Helper()
	after, err := lib.MainTip()
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case verdict != landed && after != before:
		t.Errorf("a refused write (%s) moved main", verdict)
	case verdict == landed && after == before:
		t.Errorf("the door answered that the write landed, but main did not move")
	case verdict == landed:
		log := testlib.Git(t, lib.Root, env, "log", "--no-merges", "--format=%H %(trailers:key=Skill-Origin,valueonly,separator=%x2C)", before.String()+".."+after.String())
		for _, line := range strings.Split(log, "\n") {
			if h, got, _ := strings.Cut(line, " "); got != origin {
				t.Errorf("commit %.12s names origin %q, want %q", h, got, origin)
			}
		}
	}
}

func cliDoor(t *testing.T, w policyWrite, origin string) string {
	lib, env := policyLibrary(t)
	before, _ := lib.MainTip()
	var out, errOut bytes.Buffer
	args := append([]string{"-C", lib.Root}, append(append([]string{}, w.cli...), "--origin", origin)...)
	code := run(args, &cmdutil.IOStreams{In: strings.NewReader(w.stdin), Out: &out, ErrOut: &errOut}, func(k string) string { return env[k] })
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	v := verdictOf(code == 0, errOut.String())
	mainMatches(t, lib, env, origin, before, v)
	return v
}

func mcpDoor(t *testing.T, w policyWrite, origin string) string {
	lib, env := policyLibrary(t)
	before, _ := lib.MainTip()
	call := policyMCPClient(t, lib, origin)
	if w.skill != "" {
		if ok, text := call("skill_view", map[string]any{"name": w.skill}); !ok {
			t.Fatalf("view: %s", text)
		}
	}
	ok, text := call("skill_manage", map[string]any{"operations": []map[string]any{w.op}})
	v := verdictOf(ok, text)
	mainMatches(t, lib, env, origin, before, v)
	return v
}

// policyMCPClient serves lib over MCP with the origin (the approval tools
// offered) and connects a client named policy-test/1 to it; the function
// calls one tool and returns whether it succeeded and its text.
func policyMCPClient(t *testing.T, lib *skillrepo.Library, origin string) func(name string, args map[string]any) (bool, string) {
	t.Helper()
	srv, err := mcpserver.New(lib, mcpserver.Options{Origin: origin, Version: "test", Poll: -1, AllowApprove: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	t.Cleanup(func() { cancel(); <-served })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "policy-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return func(name string, args map[string]any) (bool, string) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return !res.IsError, res.Content[0].(*mcp.TextContent).Text
	}
}

// script serves a model that views the skill (when the write changes
// one), makes the write, and ends.
func script(t *testing.T, w policyWrite, final string) openai.ClientConfig {
	t.Helper()
	args := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	var calls []fakemodel.ToolCall
	if w.skill != "" {
		calls = append(calls, fakemodel.ToolCall{Name: "skill_view", Arguments: args(map[string]any{"name": w.skill})})
	}
	calls = append(calls, fakemodel.ToolCall{Name: "skill_manage", Arguments: args(map[string]any{"operations": []map[string]any{w.op}})})
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{ToolCalls: calls}, {Content: final}}}, nil)
	t.Cleanup(srv.Close)
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.BaseURL()
	return cfg
}

func reviewDoor(t *testing.T, w policyWrite, origin string) string {
	lib, env := policyLibrary(t)
	before, _ := lib.MainTip()
	tr, err := review.Read(strings.NewReader(`[{"role":"user","content":"set up pnpm"},{"role":"assistant","content":"done"}]`), "chat.json", review.FormatOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := review.Run(context.Background(), review.Open(lib), review.Options{
		Transcript: tr, Skills: true, ReviewID: "r-policy", Model: "m",
		Client: openai.NewClientWithConfig(script(t, w, "Done.")), RetryBackoff: time.Millisecond, RequestTimeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sum.Refused {
		if r.Tool == "skill_manage" {
			v := verdictOf(false, r.Reason)
			mainMatches(t, lib, env, origin, before, v)
			return v
		}
	}
	if len(sum.Staged) == 1 && len(sum.Applied) == 0 && len(sum.StagedProposals) == 1 {
		mainMatches(t, lib, env, origin, before, staged)
		return staged
	}
	if len(sum.Applied) != 1 || !sum.Merged {
		t.Fatalf("the review neither refused, staged nor landed the write: %+v", sum)
	}
	mainMatches(t, lib, env, origin, before, landed)
	return landed
}

func curatorDoor(t *testing.T, w policyWrite, origin string) string {
	lib, env := policyLibrary(t)
	before, _ := lib.MainTip()
	cfg := script(t, w, "Done.\n\n## Structured summary (required)\n\n```yaml\nconsolidations: []\nprunings: []\n```\n")
	c := &curator.Curator{Lib: lib, Now: func() time.Time { return time.Unix(testlib.Epoch, 0).Add(24 * time.Hour) }}
	out, err := c.Run(context.Background(), curator.RunOptions{Force: true, Consolidate: &curator.ConsolidateOptions{
		Model: "m", Client: openai.NewClientWithConfig(cfg), Retries: -1,
	}})
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Run.Consolidation
	if rec == nil {
		t.Fatalf("no consolidation pass: %+v", out.Run)
	}
	for _, call := range rec.ToolCalls {
		if call.Name == "skill_manage" {
			v := verdictOf(call.OK, call.Result)
			mainMatches(t, lib, env, origin, before, v)
			return v
		}
	}
	t.Fatalf("the pass made no write: %+v", rec)
	return ""
}

// Approvals are a door too: the same proposal approved through the CLI,
// the MCP server and a finished review's automatic merge gets the same
// verdict from the policy's lint gate, and the merge names who approved
// it — the person (the committer) at the CLI, the agent by the name its
// client gave over MCP, the review for its own merge.
func TestApprovalOneVerdictPerDoor(t *testing.T) {
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed")
	}
	proposals := []struct {
		name    string
		content string
		verdict string
	}{
		{"a clean proposal", cleanSkill, landed},
		{"a proposal that adds a lint error", danglingSkill, lintError},
	}
	doors := []struct {
		name string
		// by is the Approved-By the merge carries.
		by      string
		approve func(t *testing.T, lib *skillrepo.Library, env map[string]string, id string) (bool, string)
	}{
		{"cli", "Test Committer <committer@example.com>", func(t *testing.T, lib *skillrepo.Library, env map[string]string, id string) (bool, string) {
			var out, errOut bytes.Buffer
			code := run([]string{"-C", lib.Root, "proposal", "approve", id}, &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, func(k string) string { return env[k] })
			return code == 0, errOut.String()
		}},
		{"mcp", "policy-test/1 (" + skillrepo.OriginForeground + ")", func(t *testing.T, lib *skillrepo.Library, env map[string]string, id string) (bool, string) {
			return policyMCPClient(t, lib, skillrepo.OriginForeground)("proposal_approve", map[string]any{"id": id})
		}},
		{"review merge", "auto (review " + "r-approve" + ", review.write_approval: false)", func(t *testing.T, lib *skillrepo.Library, env map[string]string, id string) (bool, string) {
			_, err := review.Open(lib).Merge(context.Background(), skillrepo.ProposalBranch(id), lib.MainBranch(), review.Provenance{ReviewID: id})
			if err != nil {
				return false, err.Error()
			}
			return true, ""
		}},
	}
	for _, p := range proposals {
		for _, d := range doors {
			t.Run(p.name+"/"+d.name, func(t *testing.T) {
				lib, env := policyLibrary(t)
				id := "r-approve"
				content := p.content
				// A person writes it anyway (--force) on a proposal: the
				// approval is what is judged.
				testlib.Write(t, lib, skillrepo.Writer{Force: true, Proposal: id},
					skillrepo.Op{Action: skillrepo.ActionCreate, Name: "pnpm-workflows", Content: &content})
				before, _ := lib.MainTip()
				ok, text := d.approve(t, lib, env, id)
				if got := verdictOf(ok, text); got != p.verdict {
					t.Fatalf("verdict %q, want %q", got, p.verdict)
				}
				after, _ := lib.MainTip()
				if p.verdict != landed {
					if after != before {
						t.Error("a refused approval moved main")
					}
					return
				}
				if by := testlib.Trailer(t, lib.Root, env, "main", "Approved-By"); by != d.by {
					t.Errorf("Approved-By %q, want %q", by, d.by)
				}
			})
		}
	}
}
