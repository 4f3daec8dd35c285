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
	"gopkg.in/yaml.v3"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

type lintOptions struct {
	f         *factory
	Paths     []string
	Profile   string
	Format    string
	Strict    bool
	ListRules bool
}

func newLintCmd(f *factory) *cobra.Command {
	opts := &lintOptions{f: f}
	cmd := &cobra.Command{
		Use:   "lint [<path>...] [--profile <profile>] [--format {text|json|github|sarif}] [--strict]",
		Short: "Check SKILL.md packages against a runtime's rules",
		Long: `Check skills: frontmatter, name and description rules, field types, dangling
links and support-path mentions, support files nothing references, size,
names that look like one session's artefacts, encodings and duplicate names.

A path is a library or any folder of skills, one skill folder or one SKILL.md;
the default is the library (or the current folder). Paths in the output are
relative to the library root (the current folder outside a library).

Profiles apply the rules a runtime really enforces: spec (the Agent Skills
specification, default), skills-ref (reproduces the reference validator
exactly), claude-code, codex and hermes. The lint: section of
.skillrepo/config.yaml can set the profile, turn rules off (disable: [id]) or
change their severity (rules: {id: warning}); --strict makes warnings errors.

Exit status: 0 no errors, 1 errors found, 2 usage error.`,
		Example: `  skillrepo lint
  skillrepo lint ~/.hermes/skills --profile hermes
  skillrepo lint skills/ --format github
  skillrepo lint --format sarif > lint.sarif
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
	fmt.Fprint(w, "RULE")
	for _, p := range lint.Profiles() {
		fmt.Fprintf(w, "\t%s", strings.ToUpper(string(p)))
	}
	fmt.Fprintln(w, "\tSUMMARY")
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
}

func runLint(opts *lintOptions) error {
	f := opts.f
	format, err := lint.ParseFormat(opts.Format)
	if err != nil {
		return usageErrorf("--format: %v", err)
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
	total := &lint.Report{Findings: []lint.Finding{}, Skills: []string{}}
	for _, r := range runs {
		rep, err := checkFolder(r, lint.Options{
			Profile: profile, Paths: r.paths, RootName: r.rootName, Config: cfg,
			Strict: opts.Strict, AllowEmpty: len(opts.Paths) == 0,
		})
		if err != nil {
			return err
		}
		total.Profile = rep.Profile
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
	if err := lint.Write(f.IO.Out, total, format, lint.WriteOptions{ToolVersion: toolVersion()}); err != nil {
		return err
	}
	if total.HasErrors() {
		return &silentError{code: exitFailure}
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
// findings prefixed with the path as given.
func planLint(base, dir string, args []string) ([]lintRun, error) {
	if len(args) == 0 {
		rel, err := filepath.Rel(base, dir)
		if err != nil {
			return nil, err
		}
		return []lintRun{{root: base, rootName: filepath.Base(base), paths: []string{filepath.ToSlash(rel)}}}, nil
	}
	inside := lintRun{root: base, rootName: filepath.Base(base)}
	var runs []lintRun
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, a)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, usageErrorf("path %s does not exist", a)
			}
			return nil, err
		}
		if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			inside.paths = append(inside.paths, filepath.ToSlash(rel))
			continue
		}
		root, target := abs, "."
		if !fi.IsDir() {
			root, target = filepath.Dir(abs), filepath.Base(abs)
		}
		prefix := filepath.ToSlash(filepath.Clean(a))
		if !fi.IsDir() {
			prefix = filepath.ToSlash(filepath.Dir(filepath.Clean(a)))
		}
		runs = append(runs, lintRun{root: root, rootName: filepath.Base(root), paths: []string{target}, prefix: prefix})
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

// readLintConfig parses the lint: section of base's config, if any.
func readLintConfig(base string) (lint.Config, error) {
	p := filepath.Join(base, filepath.FromSlash(skillrepo.ConfigPath))
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return lint.Config{}, nil
	}
	if err != nil {
		return lint.Config{}, err
	}
	cfg, err := lint.ParseConfig(b)
	if err != nil {
		return lint.Config{}, fmt.Errorf("%s: %w", p, err)
	}
	if cfg.Profile == "" {
		cfg.Profile = runtimeProfile(base, b)
	}
	return cfg, nil
}

// runtimeProfile is the lint profile a library's runtime implies when
// its config names none: the rules of the agent that reads it.
func runtimeProfile(base string, config []byte) lint.Profile {
	var c struct {
		Runtime string `yaml:"runtime"`
	}
	_ = yaml.Unmarshal(config, &c) // a broken file was already reported by lint.ParseConfig
	rt, err := skill.ParseRuntime(c.Runtime)
	if c.Runtime == "" || err != nil {
		rt = skill.DetectRuntime(base)
	}
	return lint.ProfileFor(rt)
}

// toolVersion is the module version the binary was built from.
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
