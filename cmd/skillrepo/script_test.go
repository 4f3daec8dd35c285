package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/hermeshome"
	"github.com/skillrepo/skillrepo/skillrepo"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testscript files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillrepo":  main,
		"fakeclaude": fakeClaudeMain,
		// crontab -l prints $CRONTAB_FILE, so no script reads the
		// machine's own crontab (the curator reads it for skills a
		// scheduled job uses); without one, what crontab says of none.
		"crontab": fakeCrontabMain,
	})
}

func TestScript(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git binary is needed to check what skillrepo writes")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup:               scriptSetup,
		Cmds:                scriptCmds(),
	})
}

// scriptSetup makes git and skillrepo hermetic: a private HOME, no system
// config, fixed identities and dates (so hashes are stable), no colour.
func scriptSetup(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME":                   home,
		"XDG_CONFIG_HOME":        filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM":    "1",
		"GIT_AUTHOR_NAME":        "Ada Author",
		"GIT_AUTHOR_EMAIL":       "ada@example.com",
		"GIT_COMMITTER_NAME":     "Ada Author",
		"GIT_COMMITTER_EMAIL":    "ada@example.com",
		"GIT_AUTHOR_DATE":        "2026-11-30T12:00:00Z",
		"GIT_COMMITTER_DATE":     "2026-11-30T12:00:00Z",
		"NO_COLOR":               "1",
		"SKILLREPO_LOCK_TIMEOUT": "300ms",
		"SKILLREPO_LIBRARY":      "",
		// SRC is this source tree, for scripts that check its files.
		"SRC": sourceRoot(),
	} {
		env.Setenv(k, v)
	}
	return nil
}

func scriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		// fakemodel [-log FILE] SCRIPT: a scripted chat-completions server
		// for the rest of the script (sets OPENAI_BASE_URL).
		"fakemodel": fakemodel.Cmd,
		// jsondoc [-lines] FILE: FILE (stdout, stderr or a path) is exactly
		// one JSON document; with -lines, JSON Lines whose every line is an
		// object with a message_type (docs/json.md).
		"jsondoc": jsonDoc,
		// ghaction [input=value...]: action.yml's steps as the runner runs
		// them (entrypoints_test.go).
		"ghaction": ghAction,
		// precommitfw [arg...]: .pre-commit-hooks.yaml's hook as the
		// pre-commit framework runs it.
		"precommitfw": preCommitFramework,
		// findings IN OUT: a lint report's findings, one per line, sorted.
		"findings": lintFindings,
		// mcpclient FILE [mcp args...]: JSON-RPC lines to `skillrepo mcp`,
		// each request's response on stdout (mcpclient_test.go).
		"mcpclient": mcpClient,
		// mcpannotations FILE TOOL {destructive|readonly}
		"mcpannotations": mcpAnnotations,
		// holdlock DIR: take the library lock until the script ends, as
		// another skillrepo process would.
		"holdlock": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: holdlock DIR")
			}
			lib, err := skillrepo.Open(ts.MkAbs(args[0]), skillrepo.OpenOptions{Getenv: ts.Getenv})
			ts.Check(err)
			unlock, err := lib.Lock(context.Background())
			ts.Check(err)
			ts.Defer(func() { unlock(); lib.Close() })
		},
		// gitclean DIR: git status is clean and git fsck --strict passes.
		"gitclean": func(ts *testscript.TestScript, neg bool, args []string) {
			if len(args) != 1 {
				ts.Fatalf("usage: gitclean DIR")
			}
			dir := ts.MkAbs(args[0])
			st := gitOutput(ts, dir, "status", "--porcelain")
			fsckErr := gitRun(ts, dir, "fsck", "--strict", "--no-progress")
			clean := st == "" && fsckErr == nil
			if clean == neg {
				ts.Fatalf("gitclean %s: status %q, fsck: %v", args[0], st, fsckErr)
			}
		},
		// gitserver [-auth USER:PASSWORD] [-git] NAME: a real git server
		// for the rest of the script (remote_script_test.go).
		"gitserver": gitServerCmd,
		// bigfile PATH SIZE: a file of SIZE bytes of "x" (for input limits).
		"bigfile": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: bigfile PATH SIZE")
			}
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.Repeat([]byte("x"), n), 0o644))
		},
		// manyskills DIR N [SUFFIX]: N skills dir/s00000… each with a
		// SKILL.md (SUFFIX appended to every body, to edit them all).
		"manyskills": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) < 2 || len(args) > 3 {
				ts.Fatalf("usage: manyskills DIR N [SUFFIX]")
			}
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			suffix := ""
			if len(args) == 3 {
				suffix = args[2]
			}
			for k := 0; k < n; k++ {
				name := fmt.Sprintf("s%05d", k)
				dir := ts.MkAbs(filepath.Join(args[0], name))
				ts.Check(os.MkdirAll(dir, 0o755))
				body := fmt.Sprintf("---\nname: %s\ndescription: Use when testing skill %d.\n---\nBody %d.%s\n", name, k, k, suffix)
				ts.Check(os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644))
			}
		},
		// mkfifo PATH: a named pipe nobody writes to.
		"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: mkfifo PATH")
			}
			ts.Check(mkfifo(ts.MkAbs(args[0])))
		},
		// cmpnoeol FILE WANT: FILE holds WANT without WANT's final
		// newline (a memory file, as Hermes writes it; a txtar file always
		// ends in one).
		"cmpnoeol": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: cmpnoeol FILE WANT")
			}
			got, want := ts.ReadFile(args[0]), strings.TrimSuffix(ts.ReadFile(args[1]), "\n")
			if got != want {
				ts.Fatalf("%s = %q\nwant %q (%s without its last newline)", args[0], got, want, args[1])
			}
		},
		// hermeshook HOME EVENT PAYLOAD: fire a Hermes hook event as
		// Hermes does (hermes_script_test.go).
		"hermeshook": hermesHookCmd,
		// hermespin SKILLS NAME true|false: pin or unpin as Hermes'
		// `hermes curator pin` does (hermes_script_test.go).
		"hermespin": hermesPinCmd,
		// hermeshome DIR: a Hermes home as Hermes 0.19.0 leaves it
		// (internal/hermeshome) written into DIR.
		"hermeshome": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: hermeshome DIR")
			}
			ts.Check(hermeshome.CopyTo(ts.MkAbs(args[0])))
		},
		// sleep DURATION
		"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
			d, err := time.ParseDuration(args[0])
			ts.Check(err)
			time.Sleep(d)
		},
	}
}

func jsonDoc(ts *testscript.TestScript, neg bool, args []string) {
	lines := len(args) == 2 && args[0] == "-lines"
	if lines {
		args = args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: jsondoc [-lines] FILE")
	}
	data := ts.ReadFile(args[0])
	var err error
	if lines {
		n := 0
		for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			var m map[string]any
			if err = json.Unmarshal([]byte(line), &m); err != nil {
				break
			}
			if _, ok := m["message_type"].(string); !ok {
				err = fmt.Errorf("line %d has no message_type: %s", n+1, line)
				break
			}
			n++
		}
		if err == nil && n == 0 {
			err = errors.New("no JSON lines")
		}
	} else {
		dec := json.NewDecoder(strings.NewReader(data))
		var v any
		if err = dec.Decode(&v); err == nil {
			if _, extra := dec.Token(); extra != io.EOF {
				err = errors.New("more than one JSON document")
			}
		}
	}
	if (err == nil) == neg {
		ts.Fatalf("jsondoc %s: %v\n%s", strings.Join(args, " "), err, data)
	}
}

func gitEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "PATH"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}

func gitOutput(ts *testscript.TestScript, dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(ts)
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func gitRun(ts *testscript.TestScript, dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(ts)
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.Logf("git %s: %s", strings.Join(args, " "), out)
	}
	return err
}

// fakeCrontabMain is `crontab -l` over $CRONTAB_FILE.
func fakeCrontabMain() {
	data, err := os.ReadFile(os.Getenv("CRONTAB_FILE"))
	if len(os.Args) != 2 || os.Args[1] != "-l" || err != nil {
		fmt.Fprintln(os.Stderr, "no crontab for tester")
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
