package skillrepo

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

const managedSkill = "---\nname: managed\ndescription: Use when testing ownership.\n---\n# Managed\n\nbody\n"

func TestOwnerForReview(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	bg := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1"}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "managed", Content: strp(managedSkill)}}, Provenance: bg}); err != nil {
		t.Fatal(err)
	}
	// A person patches it later: still managed (the creation decides).
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "managed", OldString: strp("body"), NewString: strp("new body")}}}); err != nil {
		t.Fatal(err)
	}
	// trailerCommit writes a marker file with the given trailers, the way
	// adopt and disown commits name a skill.
	trailerCommit := func(action, name string) {
		t.Helper()
		_, err := l.update(ctx, updateOptions{}, func(tx *writeTx) error {
			if err := tx.gtx.WriteFile(".skillrepo/marker-"+action, []byte(action), false); err != nil {
				return err
			}
			m := Message{Subject: "skill: " + action + " " + name}
			m.Add(TrailerAction, action)
			m.Add(TrailerName, name)
			m.Add(TrailerOrigin, OriginUser)
			_, err := tx.Commit(m)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string, managed, pinned bool) {
		t.Helper()
		o, err := l.Owners().ForReview("", name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.Managed != managed || o.Pinned != pinned {
			t.Errorf("%s: managed %v pinned %v, want %v %v", name, o.Managed, o.Pinned, managed, pinned)
		}
		if managed && len(o.Evidence) != 40 {
			t.Errorf("%s: evidence %q", name, o.Evidence)
		}
	}
	check("managed", true, false)
	check("ci-debugging", false, false) // imported by a person: user-owned
	trailerCommit("adopt", "ci-debugging")
	check("ci-debugging", true, false)
	trailerCommit("disown", "managed")
	check("managed", false, false)

	l.Config.Protected = []string{"ci-debugging"}
	check("ci-debugging", true, true)
	if err := l.Usage().Update(func(recs map[string]*usage.Record) error {
		recs["release-notes"] = &usage.Record{State: usage.StateActive, Pinned: true}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check("release-notes", false, true)

	if _, err := l.Owners().ForReview("", "no-such-skill"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing skill: %v", err)
	}
	assertConsistent(t, l, env)
}

func TestChangeMemory(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	res, err := person(l).ChangeMemory(ctx, MemoryOptions{Target: memory.User, Action: "add", Content: "Likes tables"})
	if err != nil || res.Commit.IsZero() || res.Path != ".memory/USER.md" {
		t.Fatalf("add: %+v %v", res, err)
	}
	// Byte for byte what Hermes writes: no trailing newline.
	if got := gitCmd(t, l, env, "show", "main:.memory/USER.md"); got != "Likes tables" {
		t.Errorf("USER.md = %q", got)
	}
	// A duplicate changes nothing and commits nothing.
	res, err = person(l).ChangeMemory(ctx, MemoryOptions{Target: memory.User, Action: "add", Content: "Likes tables"})
	if err != nil || !res.Commit.IsZero() || res.Changed {
		t.Fatalf("duplicate: %+v %v", res, err)
	}
	// A refused change is a *memory.Error and writes nothing.
	before, _ := l.repo.ResolveBranch("main")
	_, err = person(l).ChangeMemory(ctx, MemoryOptions{Target: memory.User, Action: "remove", OldText: "absent"})
	var merr *memory.Error
	if !errors.As(err, &merr) || !errors.Is(err, memory.ErrNoMatch) {
		t.Fatalf("remove absent: %v", err)
	}
	if after, _ := l.repo.ResolveBranch("main"); after != before {
		t.Error("a refused change moved main")
	}
	// A branch from main, as a staged review change uses.
	review := writer(t, l, Writer{Branch: "proposals/x-memory", From: before.String(), Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "x"}})
	res, err = review.ChangeMemory(ctx, MemoryOptions{Target: memory.User, Action: "replace", OldText: "tables", Content: "Likes lists"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.Commit.IsZero() {
		t.Errorf("replace on a branch: %+v", res)
	}
	if got := gitCmd(t, l, env, "log", "-1", "--format=%s|%(trailers:key=Skill-Action,valueonly,separator=%x2C)|%(trailers:key=Review-Id,valueonly,separator=%x2C)", "proposals/x-memory"); strings.TrimSpace(got) != "memory: replace in user profile|memory-replace|x" {
		t.Errorf("commit = %q", got)
	}
	if after, _ := l.repo.ResolveBranch("main"); after != before {
		t.Error("a write to a branch moved main")
	}
	assertConsistent(t, l, env)
}

func TestMemoryPath(t *testing.T) {
	l, _ := newTestLibrary(t)
	for dir, want := range map[string]string{
		"":                      ".memory/MEMORY.md",
		"notes/mem":             "notes/mem/MEMORY.md",
		l.Root + "/inside":      "inside/MEMORY.md",
		"/somewhere/else":       "",
		"~/.hermes/memories":    "",
		"../outside":            "",
		".git/skillrepo/memory": "",
	} {
		l.Config.Memory.Dir = dir
		got, err := l.Memory().Path(memory.Memory)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("memory.dir %q: %q, %v; want %q", dir, got, err, want)
		}
	}
}
