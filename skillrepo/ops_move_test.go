package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// move_file re-homes a support file into another skill as one rename:
// same blob, new path, both skills named in the trailers, and git itself
// sees the rename.
func TestApplyMoveFile(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	before := gitCmd(t, l, env, "rev-parse", "HEAD:devops/docker-cleanup/templates/prune-policy.yaml")
	res, err := l.apply(ctx, applyOptions{
		Ops:        []Op{{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "templates/prune-policy.yaml", ToSkill: "ci-debugging", ToPath: "references/docker-prune-policy.yaml"}},
		Provenance: Provenance{Origin: OriginCurator, CuratorRun: "r1", Model: "m"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Results[0]; r.MovedTo != "ci-debugging/references/docker-prune-policy.yaml" || r.Path != "ci-debugging" {
		t.Errorf("result = %+v", r)
	}
	if after := gitCmd(t, l, env, "rev-parse", "HEAD:ci-debugging/references/docker-prune-policy.yaml"); after != before {
		t.Errorf("blob changed: %s -> %s", before, after)
	}
	if _, err := os.Stat(filepath.Join(l.Root, "devops", "docker-cleanup", "templates", "prune-policy.yaml")); !os.IsNotExist(err) {
		t.Error("the old file is still in the work tree")
	}
	assertConsistent(t, l, env)
	st := gitCmd(t, l, env, "show", "-M", "--name-status", "--format=%s%n%(trailers:key=Skill-Action,valueonly)%(trailers:key=Skill-Name,valueonly)", "HEAD")
	for _, want := range []string{
		"skill: move docker-cleanup/templates/prune-policy.yaml to ci-debugging/references/docker-prune-policy.yaml",
		"move_file\n", "ci-debugging\ndocker-cleanup\n",
		"R100\tdevops/docker-cleanup/templates/prune-policy.yaml\tci-debugging/references/docker-prune-policy.yaml",
	} {
		if !strings.Contains(st, want) {
			t.Errorf("git show lacks %q:\n%s", want, st)
		}
	}
	// skill blame follows the file into its old skill: every line was
	// written by the import, at the old path.
	bl, err := l.History().Blame("ci-debugging", "references/docker-prune-policy.yaml", history.BlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	importCommit := gitCmd(t, l, env, "rev-list", "--max-parents=0", "HEAD")
	for _, line := range bl.Lines {
		if line.Commit.String()+"\n" != importCommit || line.Path != "devops/docker-cleanup/templates/prune-policy.yaml" {
			t.Errorf("line %d blamed on %s at %s, want the import at the old path", line.Line, line.Commit, line.Path)
		}
	}
	if len(bl.Lines) == 0 {
		t.Error("nothing blamed")
	}
	// git blame follows the file to its old home.
	if bl := gitCmd(t, l, env, "blame", "--porcelain", "ci-debugging/references/docker-prune-policy.yaml"); !strings.Contains(bl, "filename devops/docker-cleanup/templates/prune-policy.yaml") {
		t.Errorf("git blame does not follow the move:\n%s", bl)
	}
}

func TestApplyMoveFileRefusals(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	prov := Provenance{Origin: OriginCurator}
	for _, tt := range []struct {
		name string
		op   Op
		want error
	}{
		{"missing file", Op{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "references/none.md", ToSkill: "ci-debugging"}, ErrNotFound},
		{"destination taken", Op{Action: ActionMoveFile, Name: "release-notes", FilePath: "references/style.md", ToSkill: "ci-debugging", ToPath: "references/common-failures.md"}, ErrExists},
		{"no destination skill", Op{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "templates/prune-policy.yaml"}, skill.ErrInvalid},
		{"unknown destination", Op{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "templates/prune-policy.yaml", ToSkill: "nope"}, ErrNotFound},
		{"SKILL.md", Op{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "SKILL.md", ToSkill: "ci-debugging"}, skill.ErrInvalid},
		{"escape", Op{Action: ActionMoveFile, Name: "docker-cleanup", FilePath: "templates/prune-policy.yaml", ToSkill: "ci-debugging", ToPath: "../x.md"}, skill.ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.apply(ctx, applyOptions{Ops: []Op{tt.op}, Provenance: prov})
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// The curator may prune (absorbed_into ""), a review may not, and an
// undeclared delete from either is refused.
func TestApplyCuratorPrune(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	empty := ""
	del := []Op{{Action: ActionDelete, Name: "git-bisect-regressions", AbsorbedInto: &empty}}
	if _, err := l.apply(ctx, applyOptions{Ops: del, Provenance: Provenance{Origin: OriginBackgroundReview}}); !errors.Is(err, ErrRefused) {
		t.Fatalf("review prune: err = %v", err)
	}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionDelete, Name: "git-bisect-regressions"}}, Provenance: Provenance{Origin: OriginCurator}}); !errors.Is(err, ErrRefused) {
		t.Fatalf("undeclared curator delete: err = %v", err)
	}
	res, err := l.apply(ctx, applyOptions{Ops: del, Provenance: Provenance{Origin: OriginCurator, CuratorRun: "r1"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Results[0]; !r.Archived || !r.Pruned || r.ArchivedTo != ".archive/git-bisect-regressions" {
		t.Errorf("result = %+v", r)
	}
	assertConsistent(t, l, env)
	tr := gitCmd(t, l, env, "log", "-1", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Reason,valueonly)%(trailers:key=Absorbed-Into)")
	if tr != "archive\npruned: absorbed into no other skill\n\n" {
		t.Errorf("trailers %q", tr)
	}
}
