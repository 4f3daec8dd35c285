// Package lintcmd is `skillrepo lint`: an options struct, NewCmdLint that
// only parses flags and arguments into it (handed a runF, a test checks
// the parse without a file read) and lintRun (docs/architecture.md §6).
package lintcmd

import (
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// Options is what `lint` was asked.
type Options struct {
	Factory    *cmdutil.Factory
	Paths      []string
	Profile    string
	Format     string
	Strict     bool
	ListRules  bool
	AllowEmpty bool
	// Outputs are extra reports of the same run, "format=file" each, so
	// CI lints once and writes SARIF, JSON and text side by side.
	Outputs []string
	// format and outputs are Format and Outputs parsed, when the flags
	// are.
	format  lint.Format
	outputs []lintOutput
}

// NewCmdLint is `lint`; runF, when not nil, runs instead of lintRun.
func NewCmdLint(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "lint [<path>...] [--profile <profile>] [--format {text|json|github|sarif}] [--output <format>=<file>]... [--strict] [--allow-empty]",
		Short: "Check SKILL.md packages against a runtime's rules",
		Long: `Check skills: frontmatter, name and description rules, field types, dangling
links and support-path mentions, support files nothing references, size,
names that look like one session's artefacts, encodings and duplicate names.

A path is a repository, a library or any folder of skills, one skill folder or
one SKILL.md. The default is the library around the current folder, else the
git repository's top folder, else the current folder. Every folder holding a
SKILL.md is a skill, hidden ones included (.claude/skills, .agents/skills,
.codex/skills, .github/skills); .git, .archive, node_modules and vendored
trees are skipped. Finding no skill at all is an error (--allow-empty accepts
it). Paths in the output are relative to that default folder.

Profiles apply the rules a runtime really enforces: spec (the Agent Skills
specification), skills-ref (reproduces the reference validator exactly),
claude-code, codex and hermes. Every skill is linted under the settings of the
library holding it: its runtime's profile (spec outside any library), and the
lint: section of its .skillrepo/config.yaml, which can set the profile, turn
rules off (disable: [id]) or change their severity (rules: {id: warning}). A
project's libraries are each linted under their own; the git hook, the
pre-commit hook and the GitHub Action give the same verdict. --profile
overrides every library's profile; --strict makes warnings errors.

--output FORMAT=FILE writes another report of the same run to FILE (repeatable),
e.g. --format github --output sarif=lint.sarif --output json=lint.json.

Exit status: 0 no errors, 1 errors found (a path that does not exist is one),
2 usage error.`,
		Example: `  skillrepo lint
  skillrepo lint ~/.hermes/skills --profile hermes
  skillrepo lint skills/ --format github
  skillrepo lint --format sarif > lint.sarif
  skillrepo lint --format github --output sarif=lint.sarif --output json=lint.json
  skillrepo lint my-skill/SKILL.md --profile skills-ref
  skillrepo lint --list-rules`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if f.JSON && !opts.ListRules {
				if cmd.Flags().Changed("format") && opts.Format != "json" {
					return cmdutil.UsageErrorf("--json and --format %s disagree", opts.Format)
				}
				opts.Format = "json"
			}
			if !opts.ListRules {
				var err error
				if opts.format, err = lint.ParseFormat(opts.Format); err != nil {
					return cmdutil.UsageErrorf("--format: %v", err)
				}
				if opts.outputs, err = parseLintOutputs(opts.Outputs); err != nil {
					return err
				}
				if opts.Profile != "" && !slices.Contains(lint.Profiles(), lint.Profile(opts.Profile)) {
					return cmdutil.UsageErrorf("--profile: unknown profile %q: want one of %s", opts.Profile, profileNames())
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return lintRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "runtime rules for every library: "+profileNames()+" (default: each library's)")
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output: text, json, github or sarif")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	cmd.Flags().BoolVar(&opts.ListRules, "list-rules", false, "list the rule IDs and their severity under each profile")
	cmd.Flags().BoolVar(&opts.AllowEmpty, "allow-empty", false, "accept finding no skills (a new library)")
	cmd.Flags().StringArrayVar(&opts.Outputs, "output", nil, "also write the report as `format=file` (repeatable)")
	return cmd
}

// lintRuleJSON is one rule in `lint --list-rules --json`.
type lintRuleJSON struct {
	ID       string            `json:"id"`
	Summary  string            `json:"summary"`
	Severity map[string]string `json:"severity"`
}

func listRules(f *cmdutil.Factory) error {
	rules := lint.Rules()
	if f.JSON {
		out := make([]lintRuleJSON, 0, len(rules))
		for _, r := range rules {
			sev := map[string]string{}
			for _, p := range lint.Profiles() {
				sev[string(p)] = r.Default(p).String()
			}
			out = append(out, lintRuleJSON{ID: r.ID, Summary: r.Summary, Severity: sev})
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	w := cmdutil.NewTable(f.IO.Out)
	cols := []string{"RULE"}
	for _, p := range lint.Profiles() {
		cols = append(cols, strings.ToUpper(string(p)))
	}
	w.Header(f.IO, append(cols, "SUMMARY")...)
	for _, r := range rules {
		fmt.Fprint(w, r.ID)
		for _, p := range lint.Profiles() {
			fmt.Fprintf(w, "\t%s", r.Default(p))
		}
		fmt.Fprintf(w, "\t%s\n", r.Summary)
	}
	return w.Flush()
}

func lintRun(opts *Options) error {
	f := opts.Factory
	if opts.ListRules {
		return listRules(f)
	}
	format, outputs, profile := opts.format, opts.outputs, lint.Profile(opts.Profile)
	loc, err := locate.Find(f.Dir)
	if err != nil {
		return err
	}
	// Paths are shown relative to base, the folder lint checks by default.
	base := cmp.Or(loc.Library, loc.Top, loc.Dir)
	groups, err := groupLintTargets(loc, base, opts.Paths)
	if err != nil {
		return err
	}
	show := lintDisplay{base: base, dir: loc.Dir, args: groups.args}

	// Parsing Markdown makes short-lived garbage at a few times the rate
	// it reads; collecting at 4x the live heap rather than 2x cuts lint's
	// CPU by a quarter on real-shaped skills for about 25 MiB more peak
	// memory (bench/README.md). The live heap stays bounded either way.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	total := &lint.Report{Findings: []lint.Finding{}, Skills: []string{}}
	var progress lint.Progress
	if opts.Format == "text" {
		progress = f.LintProgress() // machine formats get no progress
	}
	judgedTogether := false
	for _, g := range groups.list {
		scopes, err := config.PlanLint(os.DirFS(g.root), g.root, g.targets)
		if err != nil {
			return err
		}
		// Libraries found inside a target, and the rest of that target,
		// are judged together: no skill in one of them is no error, no
		// skill in any is (below).
		together := false
		for _, sc := range scopes {
			together = together || sc.Found
		}
		judgedTogether = judgedTogether || together
		for _, sc := range scopes {
			root := filepath.Join(g.root, filepath.FromSlash(sc.Dir))
			rep, err := checkFolder(root, lint.Options{
				Profile: profile, Paths: sc.Paths, RootName: filepath.Base(root), Config: sc.Settings,
				Strict: opts.Strict, AllowEmpty: opts.AllowEmpty || together, Progress: progress,
			})
			if err != nil {
				return err
			}
			total.Append(rep, lint.Scope{Path: show.path(root), Library: sc.Library}, func(p string) string {
				return show.path(filepath.Join(root, filepath.FromSlash(p)))
			})
		}
	}
	if len(total.Skills) == 0 && !opts.AllowEmpty && judgedTogether {
		total.Findings = append(total.Findings, lint.Finding{
			Rule: "skill-md-missing", Severity: lint.Error, Path: ".",
			Message: "no skills found in .: no folder below it holds a SKILL.md",
			Hint:    "a skill is a folder holding a SKILL.md; to accept no skills, pass --allow-empty",
		})
	}
	wopts := lint.WriteOptions{ToolVersion: f.ToolVersion}
	for _, o := range outputs {
		if err := writeLintFile(o.file, total, o.format, wopts); err != nil {
			return err
		}
	}
	if err := lint.Write(f.IO.Out, total, format, wopts); err != nil {
		return err
	}
	if total.HasErrors() {
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}

// lintGroup is the targets linted through one file system: the work tree
// (else the library, else the folder) holding them, with the targets
// relative to it.
type lintGroup struct {
	root    string
	targets []string
}

// lintGroups are the groups, and the path arguments as given by their
// absolute path (to show what lies outside base).
type lintGroups struct {
	list []*lintGroup
	args map[string]string
}

// groupLintTargets groups the path arguments (relative to loc.Dir) by the
// root they are linted from: the work tree around them, else their
// library, else the folder itself. A path that does not exist is placed
// by its nearest existing folder, so it becomes a target-missing finding
// in the format asked for rather than a plain-text error. No argument
// means base.
func groupLintTargets(loc locate.Location, base string, args []string) (lintGroups, error) {
	gs := lintGroups{args: map[string]string{}}
	byRoot := map[string]*lintGroup{}
	add := func(root, abs string) {
		g, ok := byRoot[root]
		if !ok {
			g = &lintGroup{root: root}
			byRoot[root] = g
			gs.list = append(gs.list, g)
		}
		rel, _ := filepath.Rel(root, abs)
		g.targets = append(g.targets, filepath.ToSlash(rel))
	}
	home := cmp.Or(loc.Top, loc.Library, loc.Dir)
	if len(args) == 0 {
		add(home, base)
		return gs, nil
	}
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(loc.Dir, a)
		}
		abs = filepath.Clean(abs)
		gs.args[abs] = filepath.ToSlash(filepath.Clean(a))
		if within(home, abs) {
			add(home, abs)
			continue
		}
		near := abs // the nearest folder that exists, at or above the path
		for {
			if fi, err := os.Stat(near); err == nil && fi.IsDir() || near == filepath.Dir(near) {
				break
			}
			near = filepath.Dir(near)
		}
		l, err := locate.Find(near)
		if err != nil {
			return gs, err
		}
		add(cmp.Or(l.Top, l.Library, near), abs)
	}
	return gs, nil
}

// lintDisplay writes a path of the report: relative to base when inside
// it, else as the argument holding it was given, else relative to the
// current folder.
type lintDisplay struct {
	base, dir string
	args      map[string]string
}

func (d lintDisplay) path(abs string) string {
	if within(d.base, abs) {
		rel, _ := filepath.Rel(d.base, abs)
		return filepath.ToSlash(rel)
	}
	best := ""
	for a := range d.args {
		if within(a, abs) && len(a) > len(best) {
			best = a
		}
	}
	if best != "" {
		rel, _ := filepath.Rel(best, abs)
		return path.Join(d.args[best], filepath.ToSlash(rel))
	}
	if rel, err := filepath.Rel(d.dir, abs); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// lintOutput is one --output: a format and the file it goes to.
type lintOutput struct {
	format lint.Format
	file   string
}

func parseLintOutputs(specs []string) ([]lintOutput, error) {
	var out []lintOutput
	for _, spec := range specs {
		name, file, ok := strings.Cut(spec, "=")
		if !ok || file == "" {
			return nil, cmdutil.UsageErrorf("--output %q: want format=file, e.g. sarif=lint.sarif", spec)
		}
		format, err := lint.ParseFormat(name)
		if err != nil {
			return nil, cmdutil.UsageErrorf("--output: %v", err)
		}
		out = append(out, lintOutput{format: format, file: file})
	}
	return out, nil
}

// writeLintFile writes one report to file through a temporary file in the
// same folder, so a reader never sees half a report.
func writeLintFile(file string, rep *lint.Report, format lint.Format, opts lint.WriteOptions) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), atomicfile.TempPattern(file))
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	defer os.Remove(tmp.Name())
	if err := lint.Write(tmp, rep, format, opts); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// profileNames lists lint's profiles for help and errors, so a profile
// added to lint appears in both without an edit here.
func profileNames() string {
	names := make([]string, 0, len(lint.Profiles()))
	for _, p := range lint.Profiles() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// checkFolder lints inside root. lint follows a symbolic link only after
// resolving every link on its way and finding it inside the root;
// os.DirFS rather than an os.Root's FS because the latter re-walks every
// path component on each open, which costs 1.8x at 10,000 skills.
func checkFolder(root string, opts lint.Options) (*lint.Report, error) {
	rep, err := lint.Check(os.DirFS(root), opts)
	if err != nil {
		return nil, cmdutil.UsageErrorf("%v", err)
	}
	return rep, nil
}
