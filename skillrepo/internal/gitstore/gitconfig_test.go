package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// readGitConfig reads what 'git config --list' lists, in its order: the
// syntax (quotes, escapes, comments, continuation lines, both subsection
// forms, a name alone) and every kind of include, with files included
// from the repository's config, from the global one and from each other.
func TestReadGitConfigMatchesGit(t *testing.T) {
	l, env := newTestRepo(t)
	home := env["HOME"]
	if home == "" {
		t.Fatal("the test environment has no HOME")
	}
	gitCmd(t, l, env, "remote", "add", "origin", "https://example.com/team/skills.git")
	files := map[string]string{
		filepath.Join(home, ".gitconfig"): "[user]\n\tname = Global Person\n[include]\n\tpath = ~/more.inc\n",
		filepath.Join(home, "more.inc"):   "[core]\n  autocrlf = input ; a comment\n",
		filepath.Join(l.Root, "..", "rel.inc"): "[Alias]\n\tst = \"status  --short\" # kept spaces\n" +
			"\tlong = one \\\n two\n\tesc = \"tab\\there\\\\back\\\"quote\"\n[section.Sub]\n\tkey = old form\n" +
			"[section \"Sub Two\"]\n\tFlag\n\tempty =\n",
		filepath.Join(l.Root, "..", "work.inc"):   "[user]\n\temail = work@example.com\n",
		filepath.Join(l.Root, "..", "branch.inc"): "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n",
		filepath.Join(l.Root, "..", "remote.inc"): "[x]\n\tfromremote = yes\n",
		filepath.Join(l.Root, "..", "never.inc"):  "[x]\n\tnever = yes\n",
		filepath.Join(l.Root, "..", "icase.inc"):  "[x]\n\ticase = yes\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(l.GitDir, "config")
	b, _ := os.ReadFile(cfg)
	b = append(b, []byte("[include]\n\tpath = ../../rel.inc\n"+
		"[includeIf \"gitdir:"+filepath.Dir(l.GitDir)+"/\"]\n\tpath = ../../work.inc\n"+
		"[includeIf \"gitdir/i:**/LIB/.GIT\"]\n\tpath = ../../icase.inc\n"+
		"[includeIf \"gitdir:**/LIB/.GIT\"]\n\tpath = ../../never.inc\n"+
		"[includeIf \"gitdir/i:**/NOPE/\"]\n\tpath = ../../never.inc\n"+
		"[includeIf \"onbranch:ma*\"]\n\tpath = ../../branch.inc\n"+
		"[includeIf \"onbranch:feature/\"]\n\tpath = ../../never.inc\n"+
		"[includeIf \"hasconfig:remote.*.url:https://example.com/team/**\"]\n\tpath = ../../remote.inc\n"+
		"[includeIf \"hasconfig:remote.*.url:https://elsewhere/**\"]\n\tpath = ../../never.inc\n"+
		"[user]\n\tname = Local Person\n")...)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	want := gitCmd(t, l, env, "config", "--list")
	entries, err := l.readGitConfig()
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, e := range entries {
		if e.noValue {
			got.WriteString(e.key + "\n") // as git lists a name alone
			continue
		}
		got.WriteString(e.key + "=" + e.value + "\n")
	}
	if got.String() != want {
		t.Errorf("readGitConfig:\n%s\ngit config --list:\n%s", got.String(), want)
	}
	if !strings.Contains(want, "x.fromremote=yes") || !strings.Contains(want, "x.icase=yes") || strings.Contains(want, "x.never") || !strings.Contains(want, "filter.lfs.clean") {
		t.Fatalf("the fixture does not exercise each include as meant:\n%s", want)
	}
	// The identity comes through the includes too.
	if name, email := l.configIdentity(); name != "Local Person" || email != "work@example.com" {
		t.Errorf("identity = %q <%q>", name, email)
	}
}

// The git environment Gemini CLI's shell gives the commands it runs (0.61,
// getSafeGitEnv: the global and system files at /dev/null, eight
// `git -c` pairs) is read as git reads it, and a write goes through; a
// FIFO named as the global file is still refused, without hanging.
func TestGeminiShellGitEnv(t *testing.T) {
	l, env := newTestRepo(t)
	env["GIT_CONFIG_GLOBAL"], env["GIT_CONFIG_SYSTEM"], env["GIT_CONFIG_NOSYSTEM"] = os.DevNull, os.DevNull, "1"
	pairs := [][2]string{{"credential.helper", ""}, {"core.fsmonitor", ""}, {"core.hooksPath", ""}, {"core.sshCommand", ""},
		{"core.pager", "cat"}, {"core.editor", ""}, {"sequence.editor", ""}, {"diff.external", ""}}
	env["GIT_CONFIG_COUNT"] = strconv.Itoa(len(pairs))
	for i, p := range pairs {
		env[fmt.Sprintf("GIT_CONFIG_KEY_%d", i)], env[fmt.Sprintf("GIT_CONFIG_VALUE_%d", i)] = p[0], p[1]
	}
	want := gitCmd(t, l, env, "config", "--list")
	entries, err := l.readGitConfig()
	if err != nil {
		t.Fatalf("readGitConfig under Gemini CLI's git environment: %v", err)
	}
	var got strings.Builder
	for _, e := range entries {
		got.WriteString(e.key + "=" + e.value + "\n")
	}
	if got.String() != want || !strings.Contains(want, "core.pager=cat") {
		t.Errorf("readGitConfig:\n%s\ngit config --list:\n%s", got.String(), want)
	}
	if _, err := writeFile(l, "main", "ci-debugging/references/x.md", "x\n"); err != nil {
		t.Fatalf("a write under Gemini CLI's git environment: %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if testenv.Mkfifo(fifo) != nil {
		return
	}
	env["GIT_CONFIG_GLOBAL"] = fifo
	var ce *ConfigError
	if _, err := l.readGitConfig(); !errors.As(err, &ce) {
		t.Errorf("a FIFO as the global config: err = %v, want a config error", err)
	}
}

// An LFS filter defined only in an included file (include.path, or an
// includeIf whose condition holds) is seen: a write of a path with
// filter=lfs is refused exactly as when the filter is in .git/config.
func TestIncludedFilterIsSeen(t *testing.T) {
	for _, include := range []string{
		"[include]\n\tpath = lfs.inc\n",
		"[includeIf \"onbranch:main\"]\n\tpath = lfs.inc\n",
		"[includeIf \"gitdir:**/lib/.git\"]\n\tpath = lfs.inc\n",
	} {
		l, env := newTestRepo(t)
		if err := os.WriteFile(filepath.Join(l.GitDir, "lfs.inc"), []byte("[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\trequired = true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		appendFile(t, filepath.Join(l.GitDir, "config"), include)
		if _, err := writeFile(l, "main", ".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n"); err != nil {
			t.Fatal(err)
		}
		before := captureState(t, l, env)
		_, err := writeFile(l, "main", "ci-debugging/assets/big.bin", "200 KB of content\n")
		if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "filter=lfs") {
			t.Errorf("%q: err = %v, want the filter refusal", include, err)
		}
		assertUnchanged(t, l, env, before)
	}
}

// What skillrepo does not read, it refuses to write under: an includeIf
// condition git does not have, includes nested deeper than git allows, a
// config file git would not parse. Nothing is written; the error says
// which file and why, and the hint says how to see what git reads.
func TestUnreadableConfigRefusesWrites(t *testing.T) {
	for name, tc := range map[string]struct {
		config, file, want string
	}{
		"unknown condition": {"[includeIf \"onremote:x\"]\n\tpath = x.inc\n", "", `includeIf "onremote:x"`},
		"include loop":      {"[include]\n\tpath = loop.inc\n", "[include]\n\tpath = loop.inc\n", "nested deeper than 10"},
		"syntax":            {"[core\n\tbad\n", "", "bad section header"},
	} {
		t.Run(name, func(t *testing.T) {
			l, env := newTestRepo(t)
			before := captureState(t, l, env)
			cfg, _ := os.ReadFile(filepath.Join(l.GitDir, "config"))
			if tc.file != "" {
				os.WriteFile(filepath.Join(l.GitDir, "loop.inc"), []byte(tc.file), 0o644)
			}
			appendFile(t, filepath.Join(l.GitDir, "config"), tc.config)
			_, err := writeFile(l, "main", "ci-debugging/references/x.md", "x\n")
			var ce *ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a config error saying %q", err, tc.want)
			}
			if !strings.Contains(ce.Hint(), "git config --list --show-origin") {
				t.Errorf("hint = %q", ce.Hint())
			}
			os.WriteFile(filepath.Join(l.GitDir, "config"), cfg, 0o644)
			assertUnchanged(t, l, env, before)
		})
	}
}

func appendFile(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
