package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

const demoSkill = `---
name: demo
description: Use when demonstrating skill history.
---
# Demo

1. First step.
2. Second step.
3. Third step.
`

// buildHistory makes, on the example library, a history that log,
// blame and ownership must follow through every kind of change:
//
//	import (4 example skills)
//	  -> create demo (user)
//	  -> patch demo step 2 (background-review, review r-1, model m-1)
//	  -> patch demo step 3 (user)
//	  -> rename demo into tools/ as demo-tool (move)
//	  -> archive demo-tool
//	  -> restore demo-tool to tools/demo-tool
func buildHistory(t *testing.T, l *Library) map[string]Hash {
	t.Helper()
	ctx := context.Background()
	c := map[string]Hash{}
	apply := func(key string, op Op, prov Provenance) {
		t.Helper()
		res, err := l.apply(ctx, applyOptions{Ops: []Op{op}, Provenance: prov})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		c[key] = res.Commit
	}
	apply("create", Op{Action: ActionCreate, Name: "demo", Content: strp(demoSkill)}, Provenance{Origin: OriginUser})
	apply("review", Op{Action: ActionPatch, Name: "demo", OldString: strp("2. Second step."), NewString: strp("2. Second step, checked.")},
		Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1", Model: "m-1"})
	apply("user", Op{Action: ActionPatch, Name: "demo", OldString: strp("3. Third step."), NewString: strp("3. Third step, by hand.")}, Provenance{Origin: OriginUser})
	mv, err := person(l).MoveSkill(ctx, "demo", MoveOptions{Category: "tools", NewName: "demo-tool"})
	if err != nil {
		t.Fatalf("move: %v", err)
	}
	c["move"] = mv.Commit
	res, err := l.update(ctx, updateOptions{}, func(tx *writeTx) error {
		si, err := tx.FindSkill("demo-tool")
		if err != nil {
			return err
		}
		if _, err := archiveSkill(tx, si); err != nil {
			return err
		}
		m := Message{Subject: "skill: archive demo-tool"}
		m.Add(TrailerAction, ActionArchive)
		m.Add(TrailerName, "demo-tool")
		Provenance{Origin: OriginCurator}.addTrailers(&m)
		_, err = tx.Commit(m)
		return err
	})
	if err != nil {
		t.Fatalf("archive: %v", err)
	}
	c["archive"] = res.New
	res, err = l.update(ctx, updateOptions{}, func(tx *writeTx) error {
		if err := tx.gtx.Move(ArchiveDir+"/demo-tool", "tools/demo-tool"); err != nil {
			return err
		}
		m := Message{Subject: "skill: restore demo-tool"}
		m.Add(TrailerAction, "restore")
		m.Add(TrailerName, "demo-tool")
		Provenance{Origin: OriginUser}.addTrailers(&m)
		_, err := tx.Commit(m)
		return err
	})
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	c["restore"] = res.New
	return c
}

func TestSkillLogFollowsRenamesAndArchive(t *testing.T) {
	l, env := newTestLibrary(t)
	c := buildHistory(t, l)
	assertConsistent(t, l, env)

	log, err := l.History().Log("demo-tool", history.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ commit, change, origin, path, from, review, model string }
	var got []row
	for _, e := range log {
		got = append(got, row{e.Commit.String(), e.Change, e.Origin, e.Path, e.From, e.ReviewID, e.Model})
	}
	want := []row{
		{c["restore"].String(), history.ChangeRestored, "user", "tools/demo-tool", ".archive/demo-tool", "", ""},
		{c["archive"].String(), history.ChangeArchived, "curator", ".archive/demo-tool", "tools/demo-tool", "", ""},
		{c["move"].String(), history.ChangeRenamed, "user", "tools/demo-tool", "demo", "", ""},
		{c["user"].String(), history.ChangeModified, "user", "demo", "", "", ""},
		{c["review"].String(), history.ChangeModified, "background-review", "demo", "", "r-1", "m-1"},
		{c["create"].String(), history.ChangeCreated, "user", "demo", "", "", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("log:\n got %v\nwant %v", got, want)
	}

	// The same history read back from the cache gives the same answer.
	if _, err := os.Stat(l.State().cache("history.bin")); err != nil {
		t.Fatalf("no history cache: %v", err)
	}
	again, err := l.History().Log("demo-tool", history.LogOptions{})
	if err != nil || len(again) != len(log) {
		t.Fatalf("cached log: %d entries, %v", len(again), err)
	}

	// Patches show the edit and the rename.
	withPatch, err := l.History().Log("demo-tool", history.LogOptions{Patch: true, MaxCount: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(withPatch) != 4 {
		t.Fatalf("MaxCount: %d entries", len(withPatch))
	}
	if p := withPatch[3].Patch; !strings.Contains(p, "-3. Third step.\n+3. Third step, by hand.\n") {
		t.Errorf("user patch:\n%s", p)
	}
	if p := withPatch[2].Patch; !strings.Contains(p, "rename from demo/SKILL.md\nrename to tools/demo-tool/SKILL.md") || !strings.Contains(p, "-name: demo\n+name: demo-tool\n") {
		t.Errorf("rename patch:\n%s", p)
	}
	if p := withPatch[0].Patch; !strings.Contains(p, "similarity index 100%") {
		t.Errorf("restore patch:\n%s", p)
	}
	// The hunks are git's, byte for byte.
	hunks := func(p string) string { return p[strings.Index(p, "+++ "):] }
	gitShow := gitCmd(t, l, env, "show", "--format=", c["user"].String(), "--", "demo/SKILL.md")
	if ours, theirs := hunks(withPatch[3].Patch), hunks(gitShow); ours != theirs {
		t.Errorf("patch hunks:\n%s\ngit show:\n%s", ours, theirs)
	}

	// Every entry of git log --follow on SKILL.md is in skill log, and
	// the other way round.
	gitLog := strings.Fields(gitCmd(t, l, env, "log", "--follow", "--format=%H", "--", "tools/demo-tool/SKILL.md"))
	var ours []string
	for _, e := range log {
		ours = append(ours, e.Commit.String())
	}
	if !reflect.DeepEqual(gitLog, ours) {
		t.Errorf("git log --follow = %v\nskill log      = %v", gitLog, ours)
	}
}

func TestSkillBlameAttributesLines(t *testing.T) {
	l, env := newTestLibrary(t)
	c := buildHistory(t, l)
	b, err := l.History().Blame("demo-tool", "", history.BlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Hash{
		"name: demo-tool":          c["move"],
		"2. Second step, checked.": c["review"],
		"3. Third step, by hand.":  c["user"],
		"1. First step.":           c["create"],
		"# Demo":                   c["create"],
		"description: Use when demonstrating skill history.": c["create"],
	}
	seen := 0
	for _, ln := range b.Lines {
		if w, ok := want[ln.Text]; ok {
			seen++
			if ln.Commit != w {
				t.Errorf("line %d %q: blamed on %s, want %s", ln.Line, ln.Text, ln.Commit, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d lines: %+v", seen, len(want), b.Lines)
	}
	for _, ln := range b.Lines {
		if ln.Text == "2. Second step, checked." && (ln.Origin != OriginBackgroundReview || ln.ReviewID != "r-1" || ln.Model != "m-1" || ln.Path != "demo/SKILL.md") {
			t.Errorf("review line provenance: %+v", ln)
		}
	}
	// git blame -M -C agrees line by line (porcelain: hash per line).
	out := gitCmd(t, l, env, "blame", "--line-porcelain", "tools/demo-tool/SKILL.md")
	var gitHashes []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && len(f[0]) == 40 && IsHash(f[0]) {
			gitHashes = append(gitHashes, f[0])
		}
	}
	var ours []string
	for _, ln := range b.Lines {
		ours = append(ours, ln.Commit.String())
	}
	if !reflect.DeepEqual(gitHashes, ours) {
		t.Errorf("git blame = %v\nours      = %v", gitHashes, ours)
	}

	if _, err := l.History().Blame("demo-tool", "references/none.md", history.BlameOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: %v", err)
	}
}

func TestOwnershipFollowsRenameAndAdoption(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	// A skill created by a background review is curator-managed, and
	// stays so through a rename into a category.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "learned", Content: strp(strings.ReplaceAll(demoSkill, "name: demo", "name: learned"))}},
		Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-9"}}); err != nil {
		t.Fatal(err)
	}
	check := func(name, want string) {
		t.Helper()
		o, err := l.Owners().Of(name)
		if err != nil {
			t.Fatalf("owner %s: %v", name, err)
		}
		if o.Owner != want {
			t.Errorf("owner of %s = %s (%s), want %s", name, o.Owner, o.Reason, want)
		}
	}
	check("learned", OwnerCurator)
	check("ci-debugging", OwnerUser) // imported, not agent-created
	if _, err := person(l).MoveSkill(ctx, "learned", MoveOptions{Category: "ops", NewName: "learned-ops"}); err != nil {
		t.Fatal(err)
	}
	check("learned-ops", OwnerCurator)

	// Adopt and disown flip a user-owned skill.
	res, err := person(l).Adopt(ctx, "ci-debugging", MetaOptions{})
	if err != nil || !res.Changed {
		t.Fatalf("adopt: %+v %v", res, err)
	}
	check("ci-debugging", OwnerCurator)
	if res, err := person(l).Adopt(ctx, "ci-debugging", MetaOptions{}); err != nil || res.Changed {
		t.Errorf("second adopt: %+v %v", res, err)
	}
	if _, err := person(l).MoveSkill(ctx, "ci-debugging", MoveOptions{Category: "ci"}); err != nil {
		t.Fatal(err)
	}
	check("ci-debugging", OwnerCurator) // adoption survives the move
	if _, err := person(l).Disown(ctx, "ci-debugging", MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	check("ci-debugging", OwnerUser)
	if _, err := person(l).Disown(ctx, "learned-ops", MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	check("learned-ops", OwnerUser)
	assertConsistent(t, l, env)
	trailers := gitCmd(t, l, env, "log", "-3", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Skill-Name,valueonly)")
	if !strings.Contains(trailers, "disown\nlearned-ops") || !strings.Contains(trailers, "disown\nci-debugging") {
		t.Errorf("trailers:\n%s", trailers)
	}

	// The adopt commit is in the skill's log.
	log, err := l.History().Log("ci-debugging", history.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range log {
		actions = append(actions, e.Change+":"+e.Action)
	}
	if got := strings.Join(actions, " "); got != "meta:disown moved:move meta:adopt created:import" {
		t.Errorf("log actions = %s", got)
	}

	// Owners covers every skill.
	all, err := l.Owners().At("")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 || all["ops/learned-ops"].Owner != OwnerUser || all["devops/docker-cleanup"].Owner != OwnerUser {
		t.Errorf("owners = %+v", all)
	}
}

func TestOwnershipFromImportTrailerAndProposalMerge(t *testing.T) {
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(filepath.Join(dir, "agent-made"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "hand-made"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"agent-made", "hand-made"} {
		content := strings.ReplaceAll(demoSkill, "name: demo", "name: "+n)
		if err := os.WriteFile(filepath.Join(dir, n, "SKILL.md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sidecar := `{"agent-made": {"created_by": "agent", "state": "active"}, "hand-made": {"state": "active"}}`
	if err := os.WriteFile(filepath.Join(dir, usage.File), []byte(sidecar), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Init(ctx, dir, InitOptions{OpenOptions: openOpts(env)}); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	defer l.repo.Close()
	for name, want := range map[string]string{"agent-made": OwnerCurator, "hand-made": OwnerUser} {
		if o, err := l.Owners().Of(name); err != nil || o.Owner != want {
			t.Errorf("%s: %+v %v, want %s", name, o, err, want)
		}
	}

	// A background review creates a skill on a proposal branch; main
	// moves on; the proposal is merged with a merge commit.
	if _, err := l.apply(ctx, applyOptions{Branch: "proposals/r-2", From: "main",
		Ops:        []Op{{Action: ActionCreate, Name: "proposed", Content: strp(strings.ReplaceAll(demoSkill, "name: demo", "name: proposed"))}},
		Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-2", Model: "m-2"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "hand-made", OldString: strp("1. First step."), NewString: strp("1. First step!")}}}); err != nil {
		t.Fatal(err)
	}
	tipProposal, err := l.repo.ResolveBranch("proposals/r-2")
	if err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "merge", "--no-ff", "-m", "Merge proposal r-2", "proposals/r-2")
	o, err := l.Owners().Of("proposed")
	if err != nil || o.Owner != OwnerCurator {
		t.Errorf("merged proposal's skill: %+v %v", o, err)
	}
	log, err := l.History().Log("proposed", history.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].Commit != tipProposal || log[0].Origin != OriginBackgroundReview || log[0].ReviewID != "r-2" {
		t.Errorf("log of merged skill = %+v", log)
	}
}

// TestColdAndWarmWalksAgree runs log and blame with no cache (path-lookup
// walk), then after Owners indexed all history (cached records): the
// answers must be the same.
func TestColdAndWarmWalksAgree(t *testing.T) {
	l, _ := newTestLibrary(t)
	buildHistory(t, l)
	os.RemoveAll(filepath.Join(l.repo.StateDir(), "cache"))
	coldLog, err := l.History().Log("demo-tool", history.LogOptions{Patch: true})
	if err != nil {
		t.Fatal(err)
	}
	coldBlame, err := l.History().Blame("demo-tool", "", history.BlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Owners().At(""); err != nil {
		t.Fatal(err)
	}
	// Warm, the walks compute no record: each commit's is read from the
	// cache (the import and six writes), so no progress is reported.
	counted := &countingProgress{}
	l.reporter = counted
	defer func() { l.reporter = nil }()
	warmLog, err := l.History().Log("demo-tool", history.LogOptions{Patch: true})
	if err != nil {
		t.Fatal(err)
	}
	warmBlame, err := l.History().Blame("demo-tool", "", history.BlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if counted.added != 0 {
		t.Errorf("the warm walks computed %d history records", counted.added)
	}
	if !reflect.DeepEqual(coldLog, warmLog) {
		t.Errorf("cold log %+v\nwarm log %+v", coldLog, warmLog)
	}
	if !reflect.DeepEqual(coldBlame, warmBlame) {
		t.Errorf("cold blame %+v\nwarm blame %+v", coldBlame, warmBlame)
	}
}

// TestMergeWithChangesOnBothSides: a proposal and main both patch the
// skill, git merges them; log lists both sides and the merge, as git log
// does, and blame gives each line to its side, as git blame does.
func TestMergeWithChangesOnBothSides(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "demo", Content: strp(demoSkill)}}}); err != nil {
		t.Fatal(err)
	}
	patch := func(branch, from, old, new string, prov Provenance) {
		t.Helper()
		if _, err := l.apply(ctx, applyOptions{Branch: branch, From: from, Ops: []Op{{Action: ActionPatch, Name: "demo", OldString: strp(old), NewString: strp(new)}}, Provenance: prov}); err != nil {
			t.Fatal(err)
		}
	}
	patch("proposals/r-5", "main", "1. First step.", "1. First step, reviewed.", Provenance{Origin: OriginBackgroundReview, ReviewID: "r-5"})
	patch("", "", "3. Third step.", "3. Third step, by hand.", Provenance{Origin: OriginUser})
	gitCmd(t, l, env, "merge", "--no-ff", "-m", "Merge proposal r-5", "proposals/r-5")

	for _, cold := range []bool{true, false} {
		if cold {
			os.RemoveAll(filepath.Join(l.repo.StateDir(), "cache"))
		} else if _, err := l.Owners().At(""); err != nil {
			t.Fatal(err)
		}
		log, err := l.History().Log("demo", history.LogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ours []string
		for _, e := range log {
			ours = append(ours, e.Commit.String())
		}
		want := strings.Fields(gitCmd(t, l, env, "log", "--format=%H", "--", "demo/SKILL.md"))
		if !reflect.DeepEqual(ours, want) {
			t.Errorf("cold=%v: skill log %v\ngit log %v", cold, ours, want)
		}
		if len(log) != 4 || log[0].Change != history.ChangeMerged {
			t.Errorf("cold=%v: log = %+v", cold, log)
		}
		b, err := l.History().Blame("demo", "", history.BlameOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var gitHashes, blamed []string
		for _, line := range strings.Split(gitCmd(t, l, env, "blame", "--line-porcelain", "demo/SKILL.md"), "\n") {
			if f := strings.Fields(line); len(f) >= 3 && IsHash(f[0]) {
				gitHashes = append(gitHashes, f[0])
			}
		}
		for _, ln := range b.Lines {
			blamed = append(blamed, ln.Commit.String())
			if strings.HasPrefix(ln.Text, "1. ") && ln.ReviewID != "r-5" {
				t.Errorf("cold=%v: line 1 blamed on %+v", cold, ln)
			}
		}
		if !reflect.DeepEqual(blamed, gitHashes) {
			t.Errorf("cold=%v: blame %v\ngit   %v", cold, blamed, gitHashes)
		}
	}
}

// A history read through the packs gives the same log: git packs (and
// deltifies) the whole history, and the log is read through the engine's
// pack reader (the objects themselves are checked in gitstore).
func TestSkillLogAfterRepack(t *testing.T) {
	for _, args := range [][]string{
		{"repack", "-adfq", "--depth=50", "--window=50"},
		{"-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50", "--window=50"},
	} {
		l, env := newTestLibrary(t)
		buildHistory(t, l)
		gitCmd(t, l, env, args...)
		l.repo.Close()
		l, err := Open(l.Root, openOpts(env))
		if err != nil {
			t.Fatal(err)
		}
		log, err := l.History().Log("demo-tool", history.LogOptions{})
		if err != nil || len(log) != 6 {
			t.Errorf("log after %v: %d entries, %v", args, len(log), err)
		}
		l.repo.Close()
	}
}

// countingProgress counts the records a history walk computes.
type countingProgress struct{ added int }

func (c *countingProgress) Start(string, int) {}
func (c *countingProgress) Add(n int)         { c.added += n }
func (c *countingProgress) Done()             {}
