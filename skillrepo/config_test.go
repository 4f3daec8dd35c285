package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// A broken config: the library opens with a warning per problem, reads
// go on, and every write is refused before anything is written; once
// the file is fixed, writes go through.
func TestBrokenConfigReadsGoOnWritesRefuse(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	cfgPath := filepath.Join(l.Root, ".skillrepo", "config.yaml")
	good, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(good), "  write_approval: false", "  write_approval: ture", 1)
	if err := os.WriteFile(cfgPath, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(broken[:strings.Index(broken, "ture")], "\n") + 1
	var warnings []string
	opts := openOpts(env)
	opts.Warn = func(msg string) { warnings = append(warnings, msg) }
	lib, err := Open(l.Root, opts)
	if err != nil {
		t.Fatalf("open with a broken config: %v", err)
	}
	defer lib.Close()
	wantProblem := cfgPath + ":" + strconv.Itoa(line) + `: review.write_approval: want true or false, got "ture"`
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], wantProblem) || !strings.Contains(warnings[0], "writes are refused") {
		t.Errorf("warnings %q, want one: %q", warnings, wantProblem)
	}
	if lib.ConfigProblem() == nil || lib.Config.Review.WriteApproval {
		t.Errorf("problem %v, write_approval %v", lib.ConfigProblem(), lib.Config.Review.WriteApproval)
	}

	// Reads go on.
	snap, err := lib.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	if skills, err := snap.Skills(); err != nil || len(skills) == 0 {
		t.Fatalf("skills: %v %v", skills, err)
	}

	// Writes are refused, whole, and say why.
	before := gitCmd(t, l, env, "for-each-ref")
	writes := map[string]func() error{
		"apply": func() error {
			_, err := lib.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("first** error"), NewString: strp("first** failing line")}}})
			return err
		},
		"lock": func() error {
			_, err := lib.Lock(ctx)
			return err
		},
		"propose": func() error { return lib.Proposals().FromBranch("work", "p-1", ZeroHash, "test") },
		"reject": func() error {
			_, err := person(lib).RejectProposal(ctx, "p-1", RejectOptions{})
			return err
		},
	}
	for name, write := range writes {
		err := write()
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), wantProblem) || !strings.Contains(err.Error(), "nothing was written") {
			t.Errorf("%s with a broken config: %v, want the refusal naming the line", name, err)
		}
	}
	if after := gitCmd(t, l, env, "for-each-ref"); after != before {
		t.Errorf("refs moved:\n%s\nwas\n%s", after, before)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); strings.TrimSpace(st) != "M .skillrepo/config.yaml" {
		t.Errorf("git status:\n%s", st)
	}
	// A dry run is a read.
	if _, err := lib.apply(ctx, applyOptions{DryRun: true, Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("first** error"), NewString: strp("first** failing line")}}}); err != nil {
		t.Errorf("dry run with a broken config: %v", err)
	}

	// Fixed, the same write goes through.
	if err := os.WriteFile(cfgPath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	fixed, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	defer fixed.Close()
	if err := writes["apply"](); err == nil {
		t.Error("the library opened on the broken file still writes")
	}
	if _, err := fixed.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("first** error"), NewString: strp("first** failing line")}}}); err != nil {
		t.Errorf("write after the fix: %v", err)
	}
}
