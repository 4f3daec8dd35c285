package skillrepo

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// The policy routes a writer's writes: main by default, the writer's own
// branch, a proposal it asked for, and every non-user origin's writes to
// a proposal under review.write_approval (named by the review id).
func TestPolicyRoute(t *testing.T) {
	l, _ := newTestLibrary(t)
	tests := []struct {
		name     string
		approval bool
		w        Writer
		want     Route
		invalid  bool
	}{
		{name: "a person, main", w: Writer{}, want: Route{}},
		{name: "an agent, main", w: Writer{Provenance: Provenance{Origin: OriginBackgroundReview}}, want: Route{}},
		{name: "main named", w: Writer{Branch: "main"}, want: Route{}},
		{name: "a proposal asked for", w: Writer{Proposal: "p-1"}, want: Route{Branch: "proposals/p-1", From: "main", Proposal: "p-1"}},
		{name: "propose names it after the review", w: Writer{Propose: true, Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-7"}}, want: Route{Branch: "proposals/r-7", From: "main", Proposal: "r-7"}},
		{name: "a review's own proposal", w: Writer{Branch: "proposals/r-8", From: "abc"}, want: Route{Branch: "proposals/r-8", From: "abc", Proposal: "r-8"}},
		{name: "a run's own branch", w: Writer{Branch: "curator/r1", From: "main"}, want: Route{Branch: "curator/r1", From: "main"}},
		{name: "write approval holds an agent's write", approval: true, w: Writer{Provenance: Provenance{Origin: OriginForeground, ReviewID: "r-9"}}, want: Route{Branch: "proposals/r-9", From: "main", Proposal: "r-9"}},
		{name: "write approval holds an agent's write to main", approval: true, w: Writer{Branch: "main", Provenance: Provenance{Origin: OriginCurator, ReviewID: "r-10"}}, want: Route{Branch: "proposals/r-10", From: "main", Proposal: "r-10"}},
		{name: "write approval lets a person's write through", approval: true, w: Writer{}, want: Route{}},
		{name: "write approval leaves a run's branch to the run", approval: true, w: Writer{Branch: "curator/r2", Provenance: Provenance{Origin: OriginCurator}}, want: Route{Branch: "curator/r2"}},
		{name: "two proposals", w: Writer{Propose: true, Proposal: "p-2"}, invalid: true},
		{name: "a branch and a proposal", w: Writer{Branch: "curator/r3", Proposal: "p-3"}, invalid: true},
		{name: "a bad proposal id", w: Writer{Proposal: "../main"}, invalid: true},
		{name: "force from an agent", w: Writer{Force: true, Provenance: Provenance{Origin: OriginForeground}}, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l.Config.Review.WriteApproval = tt.approval
			p, err := l.Policy(tt.w)
			if tt.invalid {
				if !errors.Is(err, skill.ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Route(); got != tt.want {
				t.Errorf("route = %+v, want %+v", got, tt.want)
			}
		})
	}
	l.Config.Review.WriteApproval = false
	if p, err := l.Policy(Writer{Propose: true}); err != nil || !strings.HasPrefix(p.Route().Proposal, "p-") {
		t.Errorf("a new proposal id: %+v, %v", p, err)
	}
}

// A write is checked against where it starts: a person's write that adds
// a lint error is refused with both ways on (fix, or --force; and, for a
// dangling link, the batch), unless forced; an error the skill already
// had does not block an unrelated write.
func TestPolicyGate(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	patch := func(w Writer, old, new string) (*PolicyResult, error) {
		t.Helper()
		p, err := l.Policy(w)
		if err != nil {
			t.Fatal(err)
		}
		return p.Apply(ctx, []Op{{Action: ActionPatch, Name: "git-bisect-regressions", OldString: &old, NewString: &new}}, false)
	}
	head := gitCmd(t, l, env, "rev-parse", "main")
	_, err := patch(Writer{}, "when done.", "when done; see [notes](references/notes.md).")
	var ge *GateError
	if !errors.As(err, &ge) || !errors.Is(err, ErrRefused) || !strings.Contains(ge.Hint(), "--force") || !strings.Contains(ge.Hint(), batchHint) {
		t.Fatalf("err = %v (hint %q)", err, hintOf(err))
	}
	if gitCmd(t, l, env, "rev-parse", "main") != head {
		t.Fatal("a refused write moved main")
	}
	if _, err := patch(Writer{Force: true}, "when done.", "when done; see [notes](references/notes.md)."); err != nil {
		t.Fatalf("forced: %v", err)
	}
	// The skill now has the error; an agent's unrelated patch lands.
	if _, err := patch(Writer{Provenance: Provenance{Origin: OriginForeground}}, "Find a good commit", "Find a known-good commit"); err != nil {
		t.Fatalf("unrelated patch of a skill with an old error: %v", err)
	}
	// A second dangling link is new: refused, without the person's hint.
	_, err = patch(Writer{Provenance: Provenance{Origin: OriginForeground}}, "when done;", "when done, see [more](references/more.md);")
	if !errors.As(err, &ge) || strings.Contains(ge.Hint(), "--force") || ge.Hint() != batchHint {
		t.Fatalf("a new error: %v (hint %q)", err, hintOf(err))
	}
	assertConsistent(t, l, env)
}

func hintOf(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}

// A background review's write to a skill the person owns (user-owned, or
// pinned) is staged on its Stage proposal, made from main, never landed
// and never refused; its other writes keep its route; a protected skill
// is refused still, and a writer without a Stage (the curator) is refused
// as before.
func TestPolicyStage(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	main := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main"))
	review := Writer{Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1"}, Branch: "proposals/r-1", From: main, Stage: "proposals/r-1-user"}
	apply := func(w Writer, ops ...Op) (*PolicyResult, error) {
		t.Helper()
		p, err := l.Policy(w)
		if err != nil {
			t.Fatal(err)
		}
		return p.Apply(ctx, ops, false)
	}
	patch := func(name, old, new string) Op {
		return Op{Action: ActionPatch, Name: name, OldString: &old, NewString: &new}
	}
	if err := l.Usage().Update(func(recs map[string]*usage.Record) error {
		recs["docker-cleanup"] = &usage.Record{State: usage.StateActive, Pinned: true}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	l.Config.Protected = []string{"release-notes"}

	for _, op := range []Op{patch("git-bisect-regressions", "when done.", "when finished."), patch("docker-cleanup", "Volumes hold data", "Volumes keep data")} {
		res, err := apply(review, op)
		if err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		if !res.Staged || res.Route.Branch != "proposals/r-1-user" || res.Route.Proposal != "r-1-user" {
			t.Errorf("%s: staged %v, route %+v", op.Name, res.Staged, res.Route)
		}
	}
	if got := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main")); got != main {
		t.Error("a staged write moved main")
	}
	if got := strings.TrimSpace(gitCmd(t, l, env, "rev-list", "--count", "main..proposals/r-1-user")); got != "2" {
		t.Errorf("the stage holds %s commits, want 2", got)
	}
	if got := gitCmd(t, l, env, "show", "proposals/r-1-user:git-bisect-regressions/SKILL.md"); !strings.Contains(got, "when finished.") {
		t.Errorf("the staged patch is not on the stage:\n%s", got)
	}
	// A create, and a batch of only the review's own skills, keep the route.
	res, err := apply(review, Op{Action: ActionCreate, Name: "managed", Content: strp(managedSkill)})
	if err != nil || res.Staged || res.Route.Branch != "proposals/r-1" {
		t.Fatalf("create: %+v, %v", res, err)
	}
	// A batch with one write to the person's skill is staged whole.
	res, err = apply(review, Op{Action: ActionCreate, Name: "managed-two", Content: strp(strings.ReplaceAll(managedSkill, "name: managed", "name: managed-two"))}, patch("ci-debugging", "## Pitfalls", "## Traps"))
	if err != nil || !res.Staged {
		t.Fatalf("mixed batch: %+v, %v", res, err)
	}
	var re *RefusedError
	if _, err := apply(review, patch("release-notes", "Credit every", "Thank every")); !errors.As(err, &re) || re.Guard != GuardOwnership || !strings.Contains(re.Reason, "protected") {
		t.Errorf("a protected skill: %v", err)
	}
	curator := review
	curator.Provenance.Origin, curator.Branch = OriginCurator, "curator/run-1"
	if _, err := apply(curator, patch("git-bisect-regressions", "Find a good commit", "Find a known-good commit")); !errors.As(err, &re) || !strings.Contains(re.Reason, "not curator-managed") {
		t.Errorf("the curator: %v", err)
	}
	assertConsistent(t, l, env)
}

// The duplicate check's advice names a write the writer can make: a
// patch, a patch that waits as a proposal (a review's write to the
// person's skill), or no patch of a skill closed to it.
func TestPolicyDuplicateAdvice(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	copyOf, err := l.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	si, err := copyOf.FindSkill("docker-cleanup")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(copyOf.FS(), si.Dir+"/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	content := strings.Replace(string(data), "name: docker-cleanup", "name: docker-disk-space", 1)
	create := []Op{{Action: ActionCreate, Name: "docker-disk-space", Content: &content}}
	bg := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-2"}
	tests := []struct {
		name      string
		w         Writer
		protected bool
		want      string
	}{
		{"the working agent", Writer{Provenance: Provenance{Origin: OriginForeground}}, false, "Patch 'docker-cleanup' instead: view it, then patch it"},
		{"a review with a stage", Writer{Provenance: bg, Branch: "proposals/r-2", From: "main", Stage: "proposals/r-2-user"}, false, "your patch waits as a proposal for their approval"},
		{"a review, the skill protected", Writer{Provenance: bg, Branch: "proposals/r-2", From: "main", Stage: "proposals/r-2-user"}, true, "'docker-cleanup' may not be changed by this review (it is protected), so do not patch it"},
		{"the curator", Writer{Provenance: Provenance{Origin: OriginCurator}, Branch: "curator/r", From: "main"}, false, "may not be changed by this curator (it belongs to the user; recommend `skillrepo skill adopt docker-cleanup`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l.Config.Protected = nil
			if tt.protected {
				l.Config.Protected = []string{"docker-cleanup"}
			}
			p, err := l.Policy(tt.w)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Apply(ctx, create, true)
			var re *RefusedError
			if !errors.As(err, &re) || re.Guard != GuardDuplicate || !strings.Contains(re.Reason, tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
