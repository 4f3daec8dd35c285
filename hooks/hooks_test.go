package hooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillrepo/skillrepo/lint"
)

// testRepo is a real git repository in a temporary folder with a hermetic
// environment.
type testRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	base := t.TempDir()
	r := &testRepo{t: t, dir: filepath.Join(base, "repo"), env: []string{
		"HOME=" + base, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
	}}
	r.git("init", "-q", "-b", "main", r.dir)
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	if _, err := os.Stat(r.dir); err == nil {
		cmd.Dir = r.dir
	}
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *testRepo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func skill(name, body string) string {
	return "---\nname: " + name + "\ndescription: Use when testing hooks.\n---\n" + body
}

func TestInstallGit(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t)
	res, err := InstallGit(ctx, r.dir, InstallOptions{Env: r.env, Executable: "/opt/it's/skillrepo"})
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(r.dir, ".git", "hooks", "pre-commit")
	if res.Path != hook || res.Chained != "" || res.Unchanged {
		t.Fatalf("first install: %+v", res)
	}
	b, err := os.ReadFile(hook)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#!/bin/sh", generatedMarker, "DO NOT MODIFY", `hooks run pre-commit "$@"`, `skillrepo='/opt/it'\''s/skillrepo'`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("shim lacks %q:\n%s", want, b)
		}
	}
	if fi, _ := os.Stat(hook); fi.Mode()&0o111 == 0 {
		t.Error("shim is not executable")
	}
	if out, err := exec.Command("sh", "-n", hook).CombinedOutput(); err != nil {
		t.Errorf("shim is not valid sh: %v %s", err, out)
	}

	res, err = InstallGit(ctx, r.dir, InstallOptions{Env: r.env, Executable: "/opt/it's/skillrepo"})
	if err != nil || !res.Unchanged {
		t.Fatalf("second install: %+v, %v", res, err)
	}

	// A hook of the user's is kept, byte for byte, and chained; a dry run
	// says so and touches nothing.
	mine := "#!/bin/sh\necho mine\n"
	if err := os.WriteFile(hook, []byte(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err = InstallGit(ctx, r.dir, InstallOptions{Env: r.env, DryRun: true})
	if err != nil || res.Chained != hook+ChainedSuffix || exists(res.Chained) {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(hook); string(b) != mine {
		t.Fatal("dry run changed the hook")
	}
	res, err = InstallGit(ctx, r.dir, InstallOptions{Env: r.env})
	if err != nil {
		t.Fatal(err)
	}
	if res.Chained != hook+ChainedSuffix {
		t.Fatalf("chained = %q", res.Chained)
	}
	if b, _ := os.ReadFile(res.Chained); string(b) != mine {
		t.Errorf("chained hook content %q", b)
	}
	// Installing again neither chains the shim to itself nor loses the
	// user's hook.
	res, err = InstallGit(ctx, r.dir, InstallOptions{Env: r.env})
	if err != nil || !res.Unchanged || res.Chained == "" {
		t.Fatalf("reinstall: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(hook + ChainedSuffix); string(b) != mine {
		t.Errorf("user hook changed to %q", b)
	}

	// A second foreign hook while one is chained: refuse, write nothing.
	other := "#!/bin/sh\necho other\n"
	if err := os.WriteFile(hook, []byte(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallGit(ctx, r.dir, InstallOptions{Env: r.env}); err == nil || !strings.Contains(err.Error(), "merge them by hand") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(hook); string(b) != other {
		t.Error("refused install still wrote the hook")
	}
}

func TestInstallGitHooksPath(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "core.hooksPath", "githooks")
	res, err := InstallGit(context.Background(), r.dir, InstallOptions{Env: r.env})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.dir, "githooks", "pre-commit"); res.Path != want {
		t.Fatalf("hook at %s, want %s", res.Path, want)
	}
}

func TestIndexFS(t *testing.T) {
	r := newTestRepo(t)
	r.write("a/SKILL.md", skill("a", "body\n"))
	r.write("a/references/r.md", "r\n")
	r.write("b.txt", "b\n")
	r.git("add", "-A")
	r.write("b.txt", "changed in the work tree only\n")
	r.write("untracked.md", "u\n")
	idx, err := OpenIndex(context.Background(), r.dir, r.env)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if err := fstest.TestFS(idx, "a/SKILL.md", "a/references/r.md", "b.txt"); err != nil {
		t.Fatal(err)
	}
	if b, _ := idx.ReadFile("b.txt"); string(b) != "b\n" {
		t.Errorf("b.txt = %q, want the staged content", b)
	}
	if idx.Has("untracked.md") {
		t.Error("untracked file in the index view")
	}
}

func TestPreCommit(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t)
	run := func() *lint.Report {
		t.Helper()
		rep, err := PreCommit(ctx, r.dir, PreCommitOptions{Env: r.env})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	// Before the first commit every staged skill is checked.
	r.write("good/SKILL.md", skill("good", "See [ref](references/ref.md).\n"))
	r.write("good/references/ref.md", "ref\n")
	r.write("old/SKILL.md", skill("old", "[gone](references/gone.md)\n"))
	r.git("add", "-A")
	rep := run()
	if strings.Join(rep.Skills, ",") != "good,old" || !rep.HasErrors() {
		t.Fatalf("initial: skills %v, findings %+v", rep.Skills, rep.Findings)
	}
	r.git("commit", "-q", "--no-verify", "-m", "seed")

	// Only touched skills: old's broken link does not block a change to good.
	r.write("good/references/ref.md", "ref, edited\n")
	r.git("add", "-A")
	if rep := run(); strings.Join(rep.Skills, ",") != "good" || len(rep.Findings) != 0 {
		t.Fatalf("touched good: skills %v, findings %+v", rep.Skills, rep.Findings)
	}

	// The staged content is checked, not the work tree.
	r.write("good/SKILL.md", skill("good", "See [missing](references/missing.md).\n"))
	r.git("add", "good/SKILL.md")
	r.write("good/SKILL.md", skill("good", "fixed in the work tree, not staged\n"))
	rep = run()
	if f := rep.Findings; len(f) == 0 || f[0].Rule != "link-dangling" || f[0].Path != "good/SKILL.md" || f[0].Line != 5 {
		t.Fatalf("staged dangling link: %+v", rep.Findings)
	}

	// Deleting a referenced file is a change to the skill too.
	r.git("checkout", "--", ".")
	r.git("reset", "-q", "--hard")
	r.git("rm", "-q", "good/references/ref.md")
	rep = run()
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != "link-dangling" {
		t.Fatalf("deleted reference: %+v", rep.Findings)
	}
	r.git("reset", "-q", "--hard")

	// The staged config's lint section applies.
	r.write(".skillrepo/config.yaml", "lint:\n  rules:\n    link-dangling: warning\n")
	r.write("old/SKILL.md", skill("old", "[gone](references/gone.md) again\n"))
	r.git("add", "-A")
	rep = run()
	if rep.HasErrors() || len(rep.Findings) != 1 || rep.Findings[0].Severity != lint.Warning {
		t.Fatalf("configured severity: %+v", rep.Findings)
	}

	// Nothing staged: nothing to lint.
	r.git("commit", "-q", "--no-verify", "-m", "more")
	if rep := run(); len(rep.Skills) != 0 || len(rep.Findings) != 0 {
		t.Fatalf("nothing staged: %+v", rep)
	}
}
