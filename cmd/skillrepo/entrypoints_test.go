package main

// The CI entry points a team wires up outside this binary — the GitHub
// Action's composite steps (action.yml) and the pre-commit framework's
// hook (.pre-commit-hooks.yaml) — run here from the files a user pins, as
// their runners run them, so a testscript can hold their verdict against
// `skillrepo lint`'s and the git hook's.

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"
)

// sourceRoot is the repository's top folder (tests run in the package's).
func sourceRoot() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name       string            `yaml:"name"`
	ID         string            `yaml:"id"`
	If         string            `yaml:"if"`
	Uses       string            `yaml:"uses"`
	Run        string            `yaml:"run"`
	Shell      string            `yaml:"shell"`
	WorkingDir string            `yaml:"working-directory"`
	Env        map[string]string `yaml:"env"`
	With       map[string]string `yaml:"with"`
}

// ghAction runs action.yml's steps in the current folder as GitHub's
// runner runs a composite action whose build is cached: `run` steps with
// bash -eo pipefail, the runner's files ($GITHUB_OUTPUT, the step
// summary, $RUNNER_TEMP), each step's `if`, inputs from `name=value`
// arguments over the defaults. The cache step is a hit holding the
// skillrepo on PATH (the build step is then skipped); any other action it
// would use is a failure of the harness, so a change to action.yml cannot
// slip past it. Stdout and stderr are the steps'; the exit status is the
// job's (the first failing step's).
//
//	ghaction [input=value...]
func ghAction(ts *testscript.TestScript, neg bool, args []string) {
	src := sourceRoot()
	var action actionFile
	b, err := os.ReadFile(filepath.Join(src, "action.yml"))
	ts.Check(err)
	ts.Check(yaml.Unmarshal(b, &action))
	if action.Runs.Using != "composite" {
		ts.Fatalf("action.yml runs %q, the harness knows composite", action.Runs.Using)
	}
	inputs := map[string]string{}
	for k, v := range action.Inputs {
		inputs[k] = v.Default
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if _, known := action.Inputs[k]; !ok || !known {
			ts.Fatalf("ghaction: %q is not an input of action.yml", a)
		}
		inputs[k] = v
	}
	work := ts.MkAbs(".")
	temp := ts.MkAbs(filepath.Join(ts.Getenv("WORK"), "runner-temp"))
	ts.Check(os.MkdirAll(temp, 0o755))
	summary := filepath.Join(temp, "step-summary.md")
	bin, err := exec.LookPath("skillrepo")
	ts.Check(err)
	outputs := map[string]map[string]string{}
	ctx := func(expr string) string {
		expr = strings.TrimSpace(expr)
		switch {
		case strings.HasPrefix(expr, "inputs."):
			return inputs[strings.TrimPrefix(expr, "inputs.")]
		case strings.HasPrefix(expr, "steps."):
			id, key, _ := strings.Cut(strings.TrimPrefix(expr, "steps."), ".outputs.")
			return outputs[id][key]
		}
		v, ok := map[string]string{
			"github.workspace": work, "github.action_path": src, "runner.temp": temp,
			"runner.os": "Linux", "runner.arch": "X64",
		}[expr]
		if !ok {
			ts.Fatalf("ghaction: action.yml uses ${{ %s }}, unknown to the harness", expr)
		}
		return v
	}
	subst := func(s string) string {
		return regexp.MustCompile(`\$\{\{(.*?)\}\}`).ReplaceAllStringFunc(s, func(m string) string {
			return ctx(m[3 : len(m)-2])
		})
	}
	var stdout, stderr strings.Builder
	code := 0
	for _, st := range action.Runs.Steps {
		if code != 0 || (st.If != "" && !evalActionIf(ts, st.If, ctx)) {
			continue
		}
		switch {
		case strings.HasPrefix(st.Uses, "actions/cache@"):
			// A hit: the cached folder holds the binary.
			dir := subst(st.With["path"])
			ts.Check(os.MkdirAll(dir, 0o755))
			ts.Check(linkFile(bin, filepath.Join(dir, "skillrepo")))
			outputs[st.ID] = map[string]string{"cache-hit": "true"}
			continue
		case st.Uses != "":
			ts.Fatalf("ghaction: step %q uses %s, which the harness does not run", st.Name, st.Uses)
		case st.Shell != "bash":
			ts.Fatalf("ghaction: step %q has shell %q, want bash", st.Name, st.Shell)
		}
		script := filepath.Join(temp, "step.sh")
		ts.Check(os.WriteFile(script, []byte(st.Run), 0o644))
		out := filepath.Join(temp, "output")
		ts.Check(os.WriteFile(out, nil, 0o644))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = work
		if st.WorkingDir != "" {
			cmd.Dir = subst(st.WorkingDir)
		}
		cmd.Env = append(gitEnv(ts), "GITHUB_ACTIONS=true",
			"GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary, "RUNNER_TEMP="+temp,
			"GITHUB_WORKSPACE="+work, "GITHUB_ACTION_PATH="+src, "NO_COLOR=1")
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+subst(v))
		}
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			code = 1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				ts.Fatalf("ghaction: step %q: %v", st.Name, err)
			}
		}
		outputs[st.ID] = readStepOutputs(ts, out)
	}
	// Hand the job's output and status to the script like exec does.
	res := filepath.Join(temp, "job")
	ts.Check(os.WriteFile(res+".out", []byte(stdout.String()), 0o644))
	ts.Check(os.WriteFile(res+".err", []byte(stderr.String()), 0o644))
	err = ts.Exec("sh", "-c", fmt.Sprintf(`cat "$1.out"; cat "$1.err" >&2; exit %d`, code), "sh", res)
	if (err != nil) != neg {
		ts.Fatalf("ghaction: job exit status %d (neg %v)\n%s%s", code, neg, stdout.String(), stderr.String())
	}
}

// readStepOutputs parses a $GITHUB_OUTPUT file of name=value lines.
func readStepOutputs(ts *testscript.TestScript, file string) map[string]string {
	b, err := os.ReadFile(file)
	ts.Check(err)
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.Contains(k, "<<") {
			ts.Fatalf("ghaction: output line %q: the harness reads name=value only", line)
		}
		m[k] = v
	}
	return m
}

// evalActionIf evaluates the `if:` expressions action.yml uses: clauses
// `context == 'literal'` or `!=`, joined by &&. Anything else fails the
// harness rather than guessing.
func evalActionIf(ts *testscript.TestScript, cond string, ctx func(string) string) bool {
	cond = strings.TrimSpace(cond)
	if strings.HasPrefix(cond, "${{") {
		cond = strings.TrimSuffix(strings.TrimPrefix(cond, "${{"), "}}")
	}
	clause := regexp.MustCompile(`^\s*([a-z][a-z0-9_.-]*)\s*(==|!=)\s*'([^']*)'\s*$`)
	for _, c := range strings.Split(cond, "&&") {
		m := clause.FindStringSubmatch(c)
		if m == nil {
			ts.Fatalf("ghaction: if: %q: the harness evaluates only a == 'b' and a != 'b' joined by &&", cond)
		}
		if (ctx(m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// preCommitFramework runs .pre-commit-hooks.yaml's skillrepo-lint hook in
// the current folder (the repository's top) as the pre-commit framework
// runs it: the entry from the hook's checkout (language: script), its
// args, no file names (pass_filenames: false). The checkout is this
// source tree's hook files copied aside, with the binary the hook script
// would build already in place. Stdout, stderr and status are the hook's.
//
//	precommitfw [arg...]
func preCommitFramework(ts *testscript.TestScript, neg bool, args []string) {
	src := sourceRoot()
	var hooks []struct {
		ID            string   `yaml:"id"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		Args          []string `yaml:"args"`
		PassFilenames *bool    `yaml:"pass_filenames"`
	}
	b, err := os.ReadFile(filepath.Join(src, ".pre-commit-hooks.yaml"))
	ts.Check(err)
	ts.Check(yaml.Unmarshal(b, &hooks))
	if len(hooks) != 1 || hooks[0].ID != "skillrepo-lint" {
		ts.Fatalf("precommitfw: want one hook, skillrepo-lint: %+v", hooks)
	}
	h := hooks[0]
	if h.Language != "script" || h.PassFilenames == nil || *h.PassFilenames {
		ts.Fatalf("precommitfw: the harness runs language: script with pass_filenames: false, not %+v", h)
	}
	checkout := ts.MkAbs(filepath.Join(ts.Getenv("WORK"), "pre-commit-checkout"))
	entry := filepath.Join(checkout, filepath.FromSlash(h.Entry))
	if _, err := os.Stat(entry); err != nil {
		script, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(h.Entry)))
		ts.Check(err)
		ts.Check(os.MkdirAll(filepath.Dir(entry), 0o755))
		ts.Check(os.WriteFile(entry, script, 0o755))
		bin, err := exec.LookPath("skillrepo")
		ts.Check(err)
		ts.Check(os.MkdirAll(filepath.Join(checkout, ".pre-commit-build"), 0o755))
		ts.Check(linkFile(bin, filepath.Join(checkout, ".pre-commit-build", "skillrepo")))
	}
	err = ts.Exec(entry, append(h.Args, args...)...)
	if (err != nil) != neg {
		ts.Fatalf("precommitfw: %v (neg %v)", err, neg)
	}
}

// lintFindings writes the findings of a lint report — text (lint's and the
// git hook's), or JSON — one per line as "path:line:col severity rule",
// sorted, so reports of different entry points compare with cmp.
//
// With -errors it keeps the errors only, as "path:line rule", and also
// reads the forms the write doors give them in: the lint gate's refusal
// ("the result fails lint with N error(s): path:line: rule message; …",
// as the CLI, the review and MCP's tool result say it, JSON-quoted at any
// depth) and sync's Lint-Error trailers and warning lines. With -in DIR a
// path under DIR is made relative to it (a library's paths, as the write
// doors name them).
//
//	findings [-errors] [-in DIR] IN OUT
func lintFindings(ts *testscript.TestScript, neg bool, args []string) {
	errorsOnly, in := false, ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch {
		case args[0] == "-errors":
			errorsOnly = true
			args = args[1:]
		case args[0] == "-in" && len(args) > 1:
			in = strings.TrimSuffix(args[1], "/") + "/"
			args = args[2:]
		default:
			ts.Fatalf("findings: unknown flag %s", args[0])
		}
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: findings [-errors] [-in DIR] IN OUT")
	}
	data := ts.ReadFile(args[0])
	var fs []finding
	if strings.HasPrefix(strings.TrimSpace(data), "{") && !strings.Contains(data, `"jsonrpc"`) {
		var rep struct {
			Findings []struct {
				Rule, Severity, Path string
				Line, Column         int
			}
		}
		ts.Check(json.Unmarshal([]byte(data), &rep))
		for _, f := range rep.Findings {
			fs = append(fs, finding{f.Path, strconv.Itoa(f.Line), strconv.Itoa(f.Column), f.Severity, f.Rule})
		}
	} else {
		text := regexp.MustCompile(`^(\S+?)(?::(\d+))?(?::(\d+))?: (error|warning|info) ([a-z0-9-]+): `)
		sc := bufio.NewScanner(strings.NewReader(data))
		sc.Buffer(make([]byte, 1<<16), 1<<22)
		for sc.Scan() {
			if m := text.FindStringSubmatch(sc.Text()); m != nil {
				fs = append(fs, finding{m[1], cmp.Or(m[2], "0"), cmp.Or(m[3], "0"), m[4], m[5]})
			}
		}
		if errorsOnly {
			fs = append(fs, gateFindings(data)...)
		}
	}
	var lines []string
	for _, f := range fs {
		if in != "" {
			f.path = strings.TrimPrefix(f.path, in)
		}
		switch {
		case !errorsOnly:
			lines = append(lines, fmt.Sprintf("%s:%s:%s %s %s", f.path, f.line, f.col, f.severity, f.rule))
		case f.severity == "error":
			lines = append(lines, fmt.Sprintf("%s:%s %s", f.path, f.line, f.rule))
		}
	}
	sort.Strings(lines)
	out := strings.Join(lines, "\n")
	if out != "" {
		out += "\n"
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644))
}

// A finding as an entry point reports it (line and column "0" when it
// names none).
type finding struct{ path, line, col, severity, rule string }

// gateFindings reads the lint errors a write door reports: each lint
// gate refusal in data (unquoted first when MCP's tool result carries it
// as JSON inside JSON), and each "path:line: rule message" line of a
// sync (its Lint-Error trailers and its warning's list).
func gateFindings(data string) []finding {
	for strings.Contains(data, `\"`) {
		data = strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(data)
	}
	item := `(\S+?)(?::(\d+))?: ([a-z][a-z0-9-]+) `
	var fs []finding
	refusal := regexp.MustCompile(`fails lint with \d+ error\(s\):((?:[^\n])*)`)
	each := regexp.MustCompile(`(?:^ |; )` + item)
	for _, m := range refusal.FindAllStringSubmatch(data, -1) {
		for _, f := range each.FindAllStringSubmatch(m[1], -1) {
			fs = append(fs, finding{f[1], cmp.Or(f[2], "0"), "0", "error", f[3]})
		}
	}
	line := regexp.MustCompile(`(?m)^(?:Lint-Error: |  )` + item)
	for _, f := range line.FindAllStringSubmatch(data, -1) {
		fs = append(fs, finding{f[1], cmp.Or(f[2], "0"), "0", "error", f[3]})
	}
	return fs
}

// linkFile puts the executable file at dst as a hard link (a regular
// file, as a build would leave; testscript runs it by its base name),
// else as a copy.
func linkFile(src, dst string) error {
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}
