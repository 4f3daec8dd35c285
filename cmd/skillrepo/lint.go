package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type lintOptions struct {
	f          *factory
	Paths      []string
	Profile    string
	Format     string
	Strict     bool
	ListRules  bool
	AllowEmpty bool
	// Outputs are extra reports of the same run, "format=file" each, so
	// CI lints once and writes SARIF, JSON and text side by side.
	Outputs []string
}

func newLintCmd(f *factory) *cobra.Command {
	opts := &lintOptions{f: f}
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
specification, default), skills-ref (reproduces the reference validator
exactly), claude-code, codex and hermes. The lint: section of
.skillrepo/config.yaml can set the profile, turn rules off (disable: [id]) or
change their severity (rules: {id: warning}); --strict makes warnings errors.

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
			if opts.ListRules {
				return listRules(f)
			}
			if f.JSON {
				if cmd.Flags().Changed("format") && opts.Format != "json" {
					return usageErrorf("--json and --format %s disagree", opts.Format)
				}
				opts.Format = "json"
			}
			return runLint(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "runtime rules: spec, skills-ref, claude-code, codex or hermes (default from config, else spec)")
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

func listRules(f *factory) error {
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
		return printJSON(f.IO.Out, out)
	}
	w := newTable(f.IO.Out)
	cols := []string{"RULE"}
	for _, p := range lint.Profiles() {
		cols = append(cols, strings.ToUpper(string(p)))
	}
	w.header(f.IO, append(cols, "SUMMARY")...)
	for _, r := range rules {
		fmt.Fprint(w, r.ID)
		for _, p := range lint.Profiles() {
			fmt.Fprintf(w, "\t%s", r.Default(p))
		}
		fmt.Fprintf(w, "\t%s\n", r.Summary)
	}
	return w.Flush()
}

// lintRun is one Check: a root folder, the paths in it, and the prefix
// that makes its finding paths relative to the base folder.
type lintRun struct {
	root     string
	rootName string
	paths    []string
	prefix   string
	// cfg is a nested library's own lint settings (nil: the base's);
	// excluded are folders other runs lint.
	cfg      *lint.Config
	excluded []string
}

func runLint(opts *lintOptions) error {
	f := opts.f
	format, err := lint.ParseFormat(opts.Format)
	if err != nil {
		return usageErrorf("--format: %v", err)
	}
	outputs, err := parseLintOutputs(opts.Outputs)
	if err != nil {
		return err
	}
	profile := lint.Profile(opts.Profile)
	if profile != "" && !validProfile(profile) {
		return usageErrorf("--profile: unknown profile %q: want spec, skills-ref, claude-code, codex or hermes", opts.Profile)
	}
	dir, err := filepath.Abs(f.Dir)
	if err != nil {
		return err
	}
	base := libraryRoot(dir)
	if base == "" {
		base = repositoryTop(dir)
	}
	if base == "" {
		base = dir
	}
	cfg, err := readLintConfig(base)
	if err != nil {
		return err
	}

	runs, err := planLint(base, dir, opts.Paths)
	if err != nil {
		return err
	}
	allowEmpty := opts.AllowEmpty
	if len(opts.Paths) == 0 && libraryRoot(dir) == "" {
		// A project holding libraries (.claude/skills with its own
		// .skillrepo/config.yaml): each is linted with its own settings,
		// the rest of the repository with the top's.
		libs, err := nestedLintRuns(base)
		if err != nil {
			return err
		}
		for _, l := range libs {
			runs[0].excluded = append(runs[0].excluded, l.prefix)
		}
		runs = append(runs, libs...)
		allowEmpty = allowEmpty || len(libs) > 0 // judged over all runs below
	}
	// Parsing Markdown makes short-lived garbage at a few times the rate
	// it reads; collecting at 4x the live heap rather than 2x cuts lint's
	// CPU by a quarter on real-shaped skills for about 25 MiB more peak
	// memory (bench/README.md). The live heap stays bounded either way.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	total := &lint.Report{Findings: []lint.Finding{}, Skills: []string{}}
	var progress lint.Progress
	if opts.Format == "text" {
		progress = f.lintProgress() // machine formats get no progress
	}
	for _, r := range runs {
		rcfg := cfg
		if r.cfg != nil {
			rcfg = *r.cfg
		}
		rcfg.Exclude = append(append([]string(nil), rcfg.Exclude...), r.excluded...)
		rep, err := checkFolder(r, lint.Options{
			Profile: profile, Paths: r.paths, RootName: r.rootName, Config: rcfg,
			Strict: opts.Strict, AllowEmpty: allowEmpty, Progress: progress,
		})
		if err != nil {
			return err
		}
		if total.Profile == "" {
			total.Profile = rep.Profile // the base's; nested libraries may differ
		}
		for _, s := range rep.Skills {
			total.Skills = append(total.Skills, joinPrefix(r.prefix, s))
		}
		for _, fd := range rep.Findings {
			fd.Path = joinPrefix(r.prefix, fd.Path)
			if fd.Skill != "" {
				fd.Skill = joinPrefix(r.prefix, fd.Skill)
			}
			total.Findings = append(total.Findings, fd)
		}
	}
	if len(total.Skills) == 0 && !opts.AllowEmpty && allowEmpty {
		total.Findings = append(total.Findings, lint.Finding{
			Rule: "skill-md-missing", Severity: lint.Error, Path: ".",
			Message: "no skills found in .: no folder below it holds a SKILL.md",
			Hint:    "a skill is a folder holding a SKILL.md; to accept no skills, pass --allow-empty",
		})
	}
	wopts := lint.WriteOptions{ToolVersion: toolVersion()}
	for _, o := range outputs {
		if err := writeLintFile(o.file, total, o.format, wopts); err != nil {
			return err
		}
	}
	if err := lint.Write(f.IO.Out, total, format, wopts); err != nil {
		return err
	}
	if total.HasErrors() {
		return &silentError{code: exitFailure}
	}
	return nil
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
			return nil, usageErrorf("--output %q: want format=file, e.g. sarif=lint.sarif", spec)
		}
		format, err := lint.ParseFormat(name)
		if err != nil {
			return nil, usageErrorf("--output: %v", err)
		}
		out = append(out, lintOutput{format: format, file: file})
	}
	return out, nil
}

// writeLintFile writes one report to file through a temporary file in the
// same folder, so a reader never sees half a report.
func writeLintFile(file string, rep *lint.Report, format lint.Format, opts lint.WriteOptions) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-*")
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

func validProfile(p lint.Profile) bool {
	for _, q := range lint.Profiles() {
		if p == q {
			return true
		}
	}
	return false
}

// checkFolder lints inside r.root. lint follows a symbolic link only
// after resolving every link on its way and finding it inside the root;
// os.DirFS rather than an os.Root's FS because the latter re-walks every
// path component on each open, which costs 1.8x at 10,000 skills.
func checkFolder(r lintRun, opts lint.Options) (*lint.Report, error) {
	rep, err := lint.Check(os.DirFS(r.root), opts)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return rep, nil
}

// planLint groups the path arguments (relative to dir) by the folder they
// are checked in: paths inside base share one run; a path outside base is
// its own run rooted at the path itself (or its folder, for a file), its
// findings prefixed with the path as given. A path that does not exist is
// checked from its nearest existing folder, so it becomes a target-missing
// finding in the format asked for rather than a plain-text error. No
// argument means all of base.
func planLint(base, dir string, args []string) ([]lintRun, error) {
	if len(args) == 0 {
		return []lintRun{{root: base, rootName: filepath.Base(base), paths: []string{"."}}}, nil
	}
	inside := lintRun{root: base, rootName: filepath.Base(base)}
	var runs []lintRun
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, a)
		}
		abs = filepath.Clean(abs)
		if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			inside.paths = append(inside.paths, filepath.ToSlash(rel))
			continue
		}
		fi, err := os.Stat(abs)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		given := filepath.ToSlash(filepath.Clean(a))
		switch {
		case err != nil:
			// Root the run at the nearest folder that exists.
			root, target := abs, "."
			for {
				root, target = filepath.Dir(root), path.Join(filepath.Base(root), target)
				if fi, err := os.Stat(root); err == nil && fi.IsDir() || root == filepath.Dir(root) {
					break
				}
			}
			target = path.Clean(target)
			prefix := strings.TrimSuffix(strings.TrimSuffix(given, target), "/")
			runs = append(runs, lintRun{root: root, rootName: filepath.Base(root), paths: []string{target}, prefix: prefix})
		case fi.IsDir():
			runs = append(runs, lintRun{root: abs, rootName: filepath.Base(abs), paths: []string{"."}, prefix: given})
		default:
			runs = append(runs, lintRun{root: filepath.Dir(abs), rootName: filepath.Base(filepath.Dir(abs)), paths: []string{filepath.Base(abs)}, prefix: path.Dir(given)})
		}
	}
	if len(inside.paths) > 0 {
		runs = append([]lintRun{inside}, runs...)
	}
	return runs, nil
}

func joinPrefix(prefix, p string) string {
	if prefix == "" || prefix == "." {
		return p
	}
	return path.Join(prefix, p)
}

// libraryRoot is the nearest folder at or above dir holding a library's
// config, or "" outside a library. Lint only reads, so it does not open
// the library (which may recover an interrupted write).
func libraryRoot(dir string) string {
	for d := dir; ; {
		if fi, err := os.Stat(filepath.Join(d, filepath.FromSlash(skillrepo.ConfigPath))); err == nil && !fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// nestedLintRuns finds the libraries below base (folders holding a
// .skillrepo/config.yaml, in the folders lint's discovery searches) and
// returns a run for each, with its own lint settings.
func nestedLintRuns(base string) ([]lintRun, error) {
	var runs []lintRun
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // unreadable folders are lint's to report
		}
		if p != base && lint.SkipFolder(d.Name()) {
			return filepath.SkipDir
		}
		if p == base {
			return nil
		}
		if _, err := os.Stat(filepath.Join(p, filepath.FromSlash(skillrepo.ConfigPath))); err != nil {
			return nil
		}
		cfg, err := readLintConfig(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		runs = append(runs, lintRun{root: p, rootName: d.Name(), paths: []string{"."}, prefix: filepath.ToSlash(rel), cfg: &cfg})
		return filepath.SkipDir // a library inside a library is the outer one's
	})
	return runs, err
}

// repositoryTop is the nearest folder at or above dir holding a .git (a
// folder, or a file in a linked worktree), or "" outside a repository.
func repositoryTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// readLintConfig is the lint settings of the library at base (its lint:
// section, the profile of its runtime when the section names none), or
// the zero Config for a folder without a config. A config with any
// problem is an error: lint is the check that must not pass it.
func readLintConfig(base string) (lint.Config, error) {
	if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(skillrepo.ConfigPath))); errors.Is(err, fs.ErrNotExist) {
		return lint.Config{}, nil
	}
	cfg, err := skillrepo.ReadConfig(base)
	if err != nil {
		return lint.Config{}, err
	}
	return cfg.LintSettings(), nil
}

// toolVersion is the module version the binary was built from.
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
