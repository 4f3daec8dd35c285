package curator

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// The consolidation fixture, at testNow; every skill is curator-managed
// and used yesterday unless said otherwise:
//
//	gateway-retry/     references/retry.md        ┐ three siblings, one
//	gateway-timeouts/  references/timeouts.md     │ class: an umbrella
//	gateway-auth/      references/auth.md, extra.md┘ "gateway" is built
//	gateway-pinned/    pinned                     — untouchable
//	pr-workflow/       an existing umbrella
//	pr-rebase/         references/rebase.md       — merged into pr-workflow
//	old-hack/          obsolete                   — pruned
//	legacy-x/          folded into a scratch umbrella the model prunes
//	notes/             user-owned, names `gateway-retry` — a follow-up
//	stale-one/         used 40 days ago           — phase 1 archives it
type consFixture struct {
	*fixture
	files map[string]string
}

func newConsFixture(t *testing.T) *consFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	env := testlib.Env(t.TempDir())
	dir := filepath.Join(t.TempDir(), "lib")
	md := func(name, desc, body string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body + "\n"
	}
	files := map[string]string{
		".skillrepo/config.yaml":                  "version: 1\nmain_branch: main\n",
		"gateway-retry/SKILL.md":                  md("gateway-retry", "Use when gateway calls fail. Retry them.", "Retry with backoff; see [retry notes](references/retry.md)."),
		"gateway-retry/references/retry.md":       "# Retry\n\nBack off 1 s, 2 s, 4 s.\n",
		"gateway-timeouts/SKILL.md":               md("gateway-timeouts", "Use when gateway calls hang. Set timeouts.", "Set timeouts; see [timeouts](references/timeouts.md)."),
		"gateway-timeouts/references/timeouts.md": "# Timeouts\n\nConnect 2 s, read 30 s.\n",
		"gateway-auth/SKILL.md":                   md("gateway-auth", "Use when the gateway says 401. Refresh.", "Refresh the token; see [auth](references/auth.md) and [extra](references/extra.md)."),
		"gateway-auth/references/auth.md":         "# Auth\n\nRefresh before expiry.\n",
		"gateway-auth/references/extra.md":        "# Extra\n\nRotate keys monthly.\n",
		"gateway-pinned/SKILL.md":                 md("gateway-pinned", "Use when the gateway is pinned. Keep.", "Pinned text."),
		"pr-workflow/SKILL.md":                    md("pr-workflow", "Use when working on pull requests.", "# Pull requests\n\n## Review\n\nRead the diff first."),
		"pr-rebase/SKILL.md":                      md("pr-rebase", "Use when a PR needs a rebase.", "Rebase onto main; see [rebase](references/rebase.md)."),
		"pr-rebase/references/rebase.md":          "# Rebase\n\ngit rebase -i main\n",
		"old-hack/SKILL.md":                       md("old-hack", "Use when the 2019 hack is needed.", "Obsolete workaround."),
		"legacy-x/SKILL.md":                       md("legacy-x", "Use when legacy x breaks.", "Legacy x steps."),
		"notes/SKILL.md":                          md("notes", "Use when taking notes.", "For gateway errors see the `gateway-retry` skill."),
		"stale-one/SKILL.md":                      md("stale-one", "Use when stale.", "Stale steps."),
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	usage := map[string]any{}
	for _, n := range []string{"gateway-retry", "gateway-timeouts", "gateway-auth", "pr-workflow", "pr-rebase", "old-hack", "legacy-x"} {
		usage[n] = map[string]any{"created_by": "agent", "use_count": 2, "last_used_at": iso(ago(days(1))), "created_at": iso(ago(days(100))), "state": "active"}
	}
	usage["gateway-pinned"] = map[string]any{"created_by": "agent", "pinned": true, "use_count": 2, "last_used_at": iso(ago(days(1)))}
	usage["stale-one"] = map[string]any{"created_by": "agent", "use_count": 2, "last_used_at": iso(ago(days(40))), "state": "active"}
	usage["notes"] = map[string]any{"created_by": nil, "use_count": 2, "last_used_at": iso(ago(days(1)))}
	b, _ := json.MarshalIndent(usage, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, ".usage.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return testNow }, LockTimeout: 200 * time.Millisecond}
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return &consFixture{fixture: &fixture{t: t, lib: lib, env: env, now: testNow}, files: files}
}

func (f *consFixture) curator() *Curator {
	return &Curator{Lib: f.lib, Now: func() time.Time { return f.now }, Owners: UsageOwnership{}}
}

// call is one scripted tool call.
func call(name string, args map[string]any) fakemodel.ToolCall {
	b, _ := json.Marshal(args)
	return fakemodel.ToolCall{Name: name, Arguments: b}
}

func view(name string, file ...string) fakemodel.ToolCall {
	a := map[string]any{"name": name}
	if len(file) > 0 {
		a["file_path"] = file[0]
	}
	return call("skill_view", a)
}

func manage(ops ...map[string]any) fakemodel.ToolCall {
	return call("skill_manage", map[string]any{"operations": ops})
}

func move(name, file, to, toFile string) fakemodel.ToolCall {
	return call("skill_move_file", map[string]any{"name": name, "file_path": file, "to_skill": to, "to_file_path": toFile})
}

func del(name, into string) fakemodel.ToolCall {
	return manage(map[string]any{"action": "delete", "name": name, "absorbed_into": into})
}

func patch(name, old, new string) fakemodel.ToolCall {
	return manage(map[string]any{"action": "patch", "name": name, "old_string": old, "new_string": new})
}

// startModel serves replies and returns options that use it.
func startModel(t *testing.T, replies ...fakemodel.Reply) (*ConsolidateOptions, *fakemodel.Server) {
	t.Helper()
	srv := fakemodel.Start(&fakemodel.Script{Replies: replies}, nil)
	t.Cleanup(srv.Close)
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.BaseURL()
	return &ConsolidateOptions{Model: "fake-curator", Client: openai.NewClientWithConfig(cfg), Retries: -1}, srv
}

const umbrellaMD = "---\nname: gateway\ndescription: Use when gateway calls fail, hang or are refused.\n---\n\n# Gateway failures\n\n## Retry\n\nRetry with backoff.\n\n## Timeouts\n\nSet timeouts.\n\n## Auth\n\nRefresh the token.\n"

const finalAnswer = "Folded the gateway siblings into a new umbrella, merged pr-rebase into pr-workflow, pruned old-hack.\n\n## Structured summary (required)\n\n```yaml\n" +
	"consolidations:\n" +
	"  - {from: gateway-retry, into: gateway, reason: one class}\n" +
	"  - {from: gateway-timeouts, into: gateway, reason: one class}\n" +
	"  - {from: gateway-auth, into: pr-workflow, reason: wrong on purpose}\n" +
	"  - {from: pr-rebase, into: pr-workflow, reason: a PR step}\n" +
	"  - {from: legacy-x, into: ghost-umbrella, reason: hallucinated}\n" +
	"prunings:\n" +
	"  - {name: old-hack, reason: obsolete}\n" +
	"  - {name: scratch, reason: empty}\n```\n"

// consolidationScript is a whole pass: an umbrella from three siblings
// with their references re-homed and links rewritten, a merge into an
// existing umbrella, writes the guards refuse (a dangling link, an
// archive that would leave a pointer behind, the pinned sibling), a true
// prune, a scratch umbrella pruned after absorbing a skill (so the YAML's
// umbrella is a hallucination), and a summary that contradicts git.
func consolidationScript() []fakemodel.Reply {
	tc := func(calls ...fakemodel.ToolCall) fakemodel.Reply { return fakemodel.Reply{ToolCalls: calls} }
	return []fakemodel.Reply{
		tc(call("skills_list", map[string]any{})),
		tc(view("gateway-retry"), view("gateway-timeouts"), view("gateway-auth"), view("gateway-pinned"),
			view("pr-workflow"), view("pr-rebase"), view("old-hack"), view("legacy-x")),
		tc(manage(map[string]any{"action": "create", "name": "gateway", "content": umbrellaMD, "force_new": true, "reason": "umbrella for gateway-retry, gateway-timeouts, gateway-auth"})),
		// 3: a link to a file not moved yet: refused (dangling).
		tc(patch("gateway", "Retry with backoff.", "Retry with backoff; see [retry](references/retry.md) and [auth](references/auth.md).")),
		tc(move("gateway-retry", "references/retry.md", "gateway", "references/retry.md"),
			move("gateway-timeouts", "references/timeouts.md", "gateway", "references/timeouts.md"),
			move("gateway-auth", "references/auth.md", "gateway", "references/auth.md"),
			move("pr-rebase", "references/rebase.md", "pr-workflow", "references/rebase.md")),
		tc(patch("gateway", "Retry with backoff.", "Retry with backoff; see [retry](references/retry.md)."),
			patch("gateway", "Set timeouts.", "Set timeouts; see [timeouts](references/timeouts.md)."),
			patch("gateway", "Refresh the token.", "Refresh the token; see [auth](references/auth.md) and the old [extra notes](../gateway-auth/references/extra.md)."),
			patch("pr-workflow", "Read the diff first.", "Read the diff first.\n\n## Rebase\n\nSee [rebase](references/rebase.md).")),
		// 6: the pinned sibling is untouchable.
		tc(patch("gateway-pinned", "Pinned text.", "Changed."), del("gateway-pinned", "gateway")),
		tc(del("gateway-retry", "gateway"), del("gateway-timeouts", "gateway"),
			// refused: gateway still points into gateway-auth's folder
			del("gateway-auth", "gateway")),
		tc(patch("gateway", " and the old [extra notes](../gateway-auth/references/extra.md)", ""),
			del("gateway-auth", "gateway"), del("pr-rebase", "pr-workflow"), del("old-hack", "")),
		tc(manage(map[string]any{"action": "create", "name": "scratch", "content": "---\nname: scratch\ndescription: Use when scratching.\n---\n\nScratch.\n"}),
			del("legacy-x", "scratch"), del("scratch", "")),
		{Content: finalAnswer},
	}
}

func TestConsolidationRun(t *testing.T) {
	f := newConsFixture(t)
	c := f.curator()
	o, srv := startModel(t, consolidationScript()...)
	pre := strings.TrimSpace(f.git("rev-parse", "main"))
	out, err := c.Run(context.Background(), RunOptions{Consolidate: o})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Remaining() != 0 {
		t.Errorf("%d scripted replies left", srv.Remaining())
	}
	run := out.Run
	rec := run.Consolidation
	if rec == nil || rec.Status != PassCompleted {
		t.Fatalf("consolidation = %+v", rec)
	}
	f.assertClean()
	if run.MergeCommit == "" || rec.Proposal != "" {
		t.Fatalf("the run did not merge: merge %q proposal %q (lint %v)", run.MergeCommit, rec.Proposal, rec.LintErrors)
	}
	if got := f.git("rev-parse", "main^1"); strings.TrimSpace(got) != pre {
		t.Errorf("the merge's first parent is %s, want the pre-run tip %s", got, pre)
	}

	t.Run("umbrella from three siblings, references re-homed as renames", func(t *testing.T) {
		for _, p := range []string{"retry", "timeouts", "auth"} {
			sib := "gateway-" + p
			before := f.git("rev-parse", pre+":"+sib+"/references/"+p+".md")
			after := f.git("rev-parse", "main:gateway/references/"+p+".md")
			if before != after {
				t.Errorf("%s: the moved file's blob changed", p)
			}
			// git's --follow loses a rename behind a merge; the run's
			// branch (the merge's second parent) shows it.
			follow := f.git("log", "--follow", "--format=%s", "main^2", "--", "gateway/references/"+p+".md")
			if !strings.Contains(follow, "skill: move "+sib+"/references/"+p+".md to gateway/references/"+p+".md\n") || strings.Count(follow, "\n") != 2 {
				t.Errorf("git log --follow does not reach the file's old home:\n%s", follow)
			}
			// skill blame follows the file back into its sibling.
			bl, err := f.lib.History().Blame("gateway", "references/"+p+".md", history.BlameOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bl.Lines {
				if line.Commit.String() != pre || line.Path != sib+"/references/"+p+".md" {
					t.Errorf("%s line %d blamed on %.12s at %s", p, line.Line, line.Commit, line.Path)
				}
			}
			if _, err := os.Stat(filepath.Join(f.lib.Root, ".archive", sib, "SKILL.md")); err != nil {
				t.Errorf("%s not archived: %v", sib, err)
			}
		}
		umb := f.git("show", "main:gateway/SKILL.md")
		for _, l := range []string{"[retry](references/retry.md)", "[timeouts](references/timeouts.md)", "[auth](references/auth.md)"} {
			if !strings.Contains(umb, l) {
				t.Errorf("umbrella lacks link %s:\n%s", l, umb)
			}
		}
		if strings.Contains(umb, "gateway-auth/") {
			t.Errorf("umbrella still points into an archived skill:\n%s", umb)
		}
		// The extra file nobody moved stays with its archived skill.
		if _, err := os.Stat(filepath.Join(f.lib.Root, ".archive", "gateway-auth", "references", "extra.md")); err != nil {
			t.Error(err)
		}
	})

	t.Run("merge into an existing umbrella", func(t *testing.T) {
		pw := f.git("show", "main:pr-workflow/SKILL.md")
		if !strings.Contains(pw, "## Rebase") || !strings.Contains(pw, "[rebase](references/rebase.md)") {
			t.Errorf("pr-workflow:\n%s", pw)
		}
		if f.git("rev-parse", pre+":pr-rebase/references/rebase.md") != f.git("rev-parse", "main:pr-workflow/references/rebase.md") {
			t.Error("rebase.md changed on the way")
		}
	})

	t.Run("refusals: dangling link, pointer left behind, pinned", func(t *testing.T) {
		var dangling, behind, pinned int
		for _, tc := range rec.ToolCalls {
			switch {
			case tc.OK:
			case strings.Contains(tc.Result, "references/auth.md") && strings.Contains(tc.Result, "link-dangling"):
				dangling++
			case strings.Contains(tc.Result, "gateway-auth/references/extra.md") && strings.Contains(tc.Result, "stay behind"):
				behind++
			case strings.Contains(tc.Result, "pinned"):
				pinned++
			}
		}
		if dangling != 1 || behind != 1 || pinned != 2 {
			t.Errorf("refusals: dangling %d, left behind %d, pinned %d; calls:\n%s", dangling, behind, pinned, dumpCalls(rec.ToolCalls))
		}
		if f.git("rev-parse", pre+":gateway-pinned") != f.git("rev-parse", "main:gateway-pinned") {
			t.Error("the pinned sibling changed")
		}
	})

	t.Run("classification from git", func(t *testing.T) {
		want := map[string]string{"gateway-auth": "gateway", "gateway-retry": "gateway", "gateway-timeouts": "gateway", "pr-rebase": "pr-workflow"}
		if len(rec.Consolidated) != len(want) {
			t.Errorf("consolidated = %+v", rec.Consolidated)
		}
		for _, cl := range rec.Consolidated {
			if want[cl.Name] != cl.Into || !strings.HasPrefix(cl.Evidence, "Absorbed-Into: ") {
				t.Errorf("%s → %s (%s)", cl.Name, cl.Into, cl.Evidence)
			}
		}
		pruned := map[string]string{}
		for _, p := range rec.Pruned {
			pruned[p.Name] = p.Evidence
		}
		for name, ev := range map[string]string{
			"stale-one": "phase 1:", "old-hack": "absorbed_into \"\" declared", "scratch": "absorbed_into \"\" declared",
			"legacy-x": "hallucinated umbrella: the YAML summary names \"ghost-umbrella\"",
		} {
			if !strings.HasPrefix(pruned[name], ev) {
				t.Errorf("pruned %s: evidence %q, want %q…", name, pruned[name], ev)
			}
		}
		if len(pruned) != 4 {
			t.Errorf("pruned = %v", pruned)
		}
		if len(rec.Added) != 1 || rec.Added[0] != "gateway" {
			t.Errorf("added = %v", rec.Added)
		}
		if rec.RenameMap["gateway-retry"] != "gateway" || rec.RenameMap["pr-rebase"] != "pr-workflow" || len(rec.RenameMap) != 4 {
			t.Errorf("rename map = %v", rec.RenameMap)
		}
		dis := strings.Join(rec.Disagreements, "\n")
		if !strings.Contains(dis, "gateway-auth: the YAML summary says consolidated into pr-workflow; git says consolidated into gateway") ||
			!strings.Contains(dis, "legacy-x: the YAML summary says consolidated into ghost-umbrella; git says pruned") {
			t.Errorf("disagreements:\n%s", dis)
		}
		if len(rec.FollowUps) != 1 || rec.FollowUps[0].Skill != "notes" || rec.FollowUps[0].Into != "gateway" {
			t.Errorf("follow-ups = %+v", rec.FollowUps)
		}
	})

	t.Run("commits and trailers", func(t *testing.T) {
		if len(rec.Commits) == 0 {
			t.Fatal("no phase 2 commits")
		}
		for _, h := range rec.Commits {
			tr := f.git("show", "-s", "--format=%(trailers:key=Skill-Origin,valueonly)%(trailers:key=Curator-Run,valueonly)%(trailers:key=Model,valueonly)", h)
			if tr != "curator\n"+run.ID+"\nfake-curator\n\n" {
				t.Errorf("%s trailers %q", h, tr)
			}
		}
		abs := f.git("log", "--format=%(trailers:key=Absorbed-Into,valueonly,separator=%x2C)", run.MergeCommit+"^2")
		for _, u := range []string{"gateway", "pr-workflow", "scratch"} {
			if !strings.Contains(abs, u) {
				t.Errorf("no Absorbed-Into: %s on the branch:\n%s", u, abs)
			}
		}
		if strings.Count(f.git("rev-list", "--merges", pre+"..main"), "\n") != 1 {
			t.Error("the run did not land as exactly one merge")
		}
	})

	t.Run("report", func(t *testing.T) {
		md, err := os.ReadFile(out.ReportPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"## Consolidation (phase 2)", "- `gateway-retry` → `gateway` — Absorbed-Into: gateway", "### Rename map",
			"- `legacy-x` — hallucinated umbrella", "### Follow-ups", "`notes/SKILL.md:6` names `gateway-retry` (now in `gateway`)", "git wins"} {
			if !strings.Contains(string(md), want) {
				t.Errorf("REPORT.md lacks %q:\n%s", want, md)
			}
		}
		back, err := ReadRun(filepath.Dir(out.ReportPath))
		if err != nil {
			t.Fatal(err)
		}
		if back.Consolidation == nil || back.Consolidation.RenameMap["gateway-timeouts"] != "gateway" {
			t.Errorf("run.json lost the consolidation: %+v", back.Consolidation)
		}
	})

	t.Run("sidecar", func(t *testing.T) {
		recs, err := f.lib.Usage().Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"gateway-retry", "old-hack", "stale-one"} {
			if recs[n].State != usage.StateArchived {
				t.Errorf("%s state %q", n, recs[n].State)
			}
		}
		if r := recs["gateway"]; r == nil || r.State != usage.StateActive || !r.AgentCreated() {
			t.Errorf("umbrella record = %+v", r)
		}
	})
}

func dumpCalls(cs []ToolCall) string {
	var b strings.Builder
	for _, c := range cs {
		ok := "ok "
		if !c.OK {
			ok = "ERR"
		}
		b.WriteString(ok + " " + c.Name + " " + c.Arguments + "\n    " + c.Result + "\n")
	}
	return b.String()
}

// A dry run gets the same prompt and tools; every write answers "dry run:
// not written", is recorded, and nothing in the library changes — not a
// ref, an object, a file, the sidecar or the curator's state.
func TestConsolidationDryRunWritesNothing(t *testing.T) {
	f := newConsFixture(t)
	c := f.curator()
	tc := func(calls ...fakemodel.ToolCall) fakemodel.Reply { return fakemodel.Reply{ToolCalls: calls} }
	o, srv := startModel(t,
		tc(view("gateway-retry"), view("gateway-auth"), view("pr-workflow"), view("old-hack"), view("gateway-auth", "references/extra.md")),
		tc(manage(map[string]any{"action": "create", "name": "gateway", "content": umbrellaMD, "force_new": true, "reason": "umbrella for the gateway skills"}),
			patch("pr-workflow", "Read the diff first.", "Read it."),
			manage(map[string]any{"action": "edit", "name": "pr-workflow", "content": "---\nname: pr-workflow\ndescription: Use when PRs.\n---\n\nNew.\n"}),
			manage(map[string]any{"action": "write_file", "name": "gateway-retry", "file_path": "references/more.md", "file_content": "more\n"}),
			manage(map[string]any{"action": "remove_file", "name": "gateway-auth", "file_path": "references/extra.md"}),
			move("gateway-retry", "references/retry.md", "gateway", "references/retry.md"),
			del("gateway-retry", "gateway"),
			del("old-hack", ""),
			patch("gateway-pinned", "Pinned text.", "x")),
		fakemodel.Reply{Content: "Would fold the gateway skills.\n\n## Structured summary (required)\n\n```yaml\nconsolidations:\n  - {from: gateway-retry, into: gateway, reason: r}\nprunings:\n  - {name: old-hack, reason: r}\n```\n"},
	)
	before := fingerprint(t, f.lib.Root)
	out, err := c.Run(context.Background(), RunOptions{DryRun: true, Consolidate: o})
	if err != nil {
		t.Fatal(err)
	}
	if after := fingerprint(t, f.lib.Root); after != before {
		t.Fatalf("dry run changed the library:\nbefore\n%s\nafter\n%s", before, after)
	}
	if srv.Remaining() != 0 {
		t.Errorf("%d replies left", srv.Remaining())
	}
	rec := out.Run.Consolidation
	var would []string
	for _, w := range rec.WouldWrite {
		would = append(would, w.Would)
	}
	want := []string{
		"create gateway", "patch pr-workflow", "edit pr-workflow", "write_file gateway-retry references/more.md",
		"move gateway-retry/references/retry.md → gateway/references/retry.md",
		"delete gateway-retry (absorbed into gateway)", "delete old-hack (prune)",
	}
	if strings.Join(would, "\n") != strings.Join(want, "\n") {
		t.Errorf("would write:\n%s\nwant:\n%s\ncalls:\n%s", strings.Join(would, "\n"), strings.Join(want, "\n"), dumpCalls(rec.ToolCalls))
	}
	for _, w := range rec.WouldWrite {
		if !strings.HasPrefix(w.Result, "dry run: not written") {
			t.Errorf("%s answered %q", w.Would, w.Result)
		}
	}
	if len(rec.Commits) != 0 || out.Run.MergeCommit != "" {
		t.Errorf("a dry run recorded commits: %v %q", rec.Commits, out.Run.MergeCommit)
	}
	// It classifies what it would have done.
	if len(rec.Consolidated) != 1 || rec.Consolidated[0].Into != "gateway" || rec.Consolidated[0].Evidence != "absorbed_into: gateway (the dry run's delete)" {
		t.Errorf("would consolidate %+v", rec.Consolidated)
	}
	// A dry run validates like a real write: removing a linked file is
	// refused, and so is any change to the pinned sibling.
	var refusedRemove bool
	for _, c := range rec.ToolCalls {
		if !c.OK && strings.Contains(c.Arguments, "remove_file") && strings.Contains(c.Result, "link-dangling") {
			refusedRemove = true
		}
	}
	if !refusedRemove {
		t.Errorf("the dry run let a dangling link through:\n%s", dumpCalls(rec.ToolCalls))
	}
	if last := rec.ToolCalls[len(rec.ToolCalls)-1]; last.OK || !strings.Contains(last.Result, "pinned") {
		t.Errorf("pinned patch in a dry run: %+v", last)
	}
	md := out.Run.Markdown()
	for _, w := range []string{"dry run: nothing was changed", "### Would write (dry run: not written)", "- skill_move_file move gateway-retry/references/retry.md → gateway/references/retry.md"} {
		if !strings.Contains(md, w) {
			t.Errorf("report lacks %q:\n%s", w, md)
		}
	}
	// The prompt carried the dry-run banner and the starting map: the
	// gateway-* prefix cluster lists every unpinned curator-managed
	// member, gateway-auth included, whatever its similarity.
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[0].Body), "DRY RUN") || !strings.Contains(string(reqs[0].Body), "1. gateway-auth, gateway-retry, gateway-timeouts  (suggested umbrella: gateway)  — shared name prefix gateway-") {
		t.Errorf("first request lacks the banner or the clusters:\n%.2000s", reqs[0].Body)
	}
}

// Rolling back a consolidating run undoes phase 1 and phase 2 in one
// commit: every sibling is back, byte for byte, with its history; the
// new umbrella is gone; a later commit elsewhere stays.
func TestConsolidationRollback(t *testing.T) {
	f := newConsFixture(t)
	c := f.curator()
	o, _ := startModel(t, consolidationScript()...)
	pre := strings.TrimSpace(f.git("rev-parse", "main"))
	out, err := c.Run(context.Background(), RunOptions{Consolidate: o})
	if err != nil {
		t.Fatal(err)
	}
	// Later work on a skill the run did not touch.
	later := "Later edit."
	testlib.Seed(t, f.lib, skillrepo.Op{Action: "patch", Name: "notes", OldString: strp("For gateway"), NewString: &later})
	res, err := c.Rollback(context.Background(), out.Run.ID, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	for _, d := range []string{"gateway-retry", "gateway-timeouts", "gateway-auth", "pr-rebase", "pr-workflow", "old-hack", "legacy-x", "stale-one", "gateway-pinned"} {
		if a, b := f.git("rev-parse", pre+":"+d), f.git("rev-parse", "main:"+d); a != b {
			t.Errorf("%s not restored byte for byte", d)
		}
	}
	for _, gone := range []string{"gateway", "scratch", ".archive"} {
		if _, err := os.Stat(filepath.Join(f.lib.Root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there after the rollback", gone)
		}
	}
	if !strings.Contains(f.git("show", "main:notes/SKILL.md"), "Later edit.") {
		t.Error("the later commit was undone")
	}
	if len(res.Restored) != 8 {
		t.Errorf("restored = %+v", res.Restored)
	}
	// History follows each sibling back through the archive and the run.
	log, err := f.lib.History().Log("gateway-retry", history.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range log {
		kinds = append(kinds, e.Change)
	}
	if got := strings.Join(kinds, " "); !strings.HasPrefix(got, "restored archived modified") || !strings.HasSuffix(got, "created") {
		t.Errorf("skill log gateway-retry: %s", got)
	}
	recs, _ := f.lib.Usage().Load()
	if recs["gateway-retry"].State != usage.StateActive || recs["stale-one"].State != usage.StateActive {
		t.Errorf("sidecar states not put back: %q %q", recs["gateway-retry"].State, recs["stale-one"].State)
	}
	if _, err := c.Rollback(context.Background(), out.Run.ID, RollbackOptions{}); err == nil {
		t.Error("a second rollback was accepted")
	}
}

func strp(s string) *string { return &s }

// With write approval the run waits as proposal curator-<run-id>: main
// does not move; approving it lands the run, and rollback finds it there.
func TestConsolidationWaitsForApproval(t *testing.T) {
	f := newConsFixture(t)
	c := f.curator()
	o, _ := startModel(t, consolidationScript()...)
	o.WriteApproval = true
	pre := strings.TrimSpace(f.git("rev-parse", "main"))
	out, err := c.Run(context.Background(), RunOptions{Consolidate: o})
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Run.Consolidation
	id := ProposalPrefix + out.Run.ID
	if rec.Proposal != id || out.Run.MergeCommit != "" {
		t.Fatalf("proposal %q merge %q", rec.Proposal, out.Run.MergeCommit)
	}
	if got := strings.TrimSpace(f.git("rev-parse", "main")); got != pre {
		t.Error("main moved although the run waits for approval")
	}
	if f.git("branch", "--list", "curator/*") != "" {
		t.Error("the run branch is still there")
	}
	f.assertClean()
	if !strings.Contains(out.Run.Summary, "waits as proposal "+id) || !strings.Contains(strings.Join(out.Run.Recovery, "\n"), "skillrepo proposal approve "+id) {
		t.Errorf("summary %q, recovery %v", out.Run.Summary, out.Run.Recovery)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).ApproveProposal(context.Background(), id, skillrepo.ApproveOptions{By: "tester"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, "gateway", "references", "retry.md")); err != nil {
		t.Fatalf("approval did not land the run: %v", err)
	}
	if _, err := c.Rollback(context.Background(), out.Run.ID, RollbackOptions{}); err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	if a, b := f.git("rev-parse", pre+":gateway-retry"), f.git("rev-parse", "main:gateway-retry"); a != b {
		t.Error("gateway-retry not restored")
	}
}

// hookClient runs hook before its nth call: a person writing to the
// library while the model works.
type hookClient struct {
	ChatClient
	n, calls int
	hook     func()
}

func (h *hookClient) CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	h.calls++
	if h.calls == h.n {
		h.hook()
	}
	return h.ChatClient.CreateChatCompletion(ctx, req)
}

// A main branch that changed a folder the run changed does not lose the
// model's work: the run waits as a proposal naming the conflict, and
// main keeps the person's edit.
func TestConsolidationConflictWaits(t *testing.T) {
	f := newConsFixture(t)
	c := f.curator()
	o, _ := startModel(t, consolidationScript()...)
	edit := "Read the diff first, twice."
	o.Client = &hookClient{ChatClient: o.Client, n: 8, hook: func() {
		if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{Force: true}).Apply(context.Background(), []skillrepo.Op{{Action: "patch", Name: "pr-workflow", OldString: strp("Read the diff first."), NewString: &edit}}, false); err != nil {
			t.Error(err)
		}
	}}
	out, err := c.Run(context.Background(), RunOptions{Consolidate: o})
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Run.Consolidation
	if rec.Proposal == "" || out.Run.MergeCommit != "" || !strings.Contains(rec.Reason, "pr-workflow") {
		t.Fatalf("proposal %q merge %q reason %q", rec.Proposal, out.Run.MergeCommit, rec.Reason)
	}
	if !strings.Contains(f.git("show", "main:pr-workflow/SKILL.md"), edit) {
		t.Error("the person's edit is gone")
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, "gateway")); !os.IsNotExist(err) {
		t.Error("the run landed despite the conflict")
	}
	if !strings.Contains(f.git("show", "proposals/"+rec.Proposal+":gateway/SKILL.md"), "[retry](references/retry.md)") {
		t.Error("the model's work is not on the proposal")
	}
	f.assertClean()
}
