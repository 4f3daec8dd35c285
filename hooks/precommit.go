package hooks

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// PreCommitOptions tune [PreCommit].
type PreCommitOptions struct {
	// Profile overrides the configured profile.
	Profile lint.Profile
	// Strict turns warnings into errors.
	Strict bool
	// Env is the environment git runs with; nil means the process's.
	Env []string
}

// PreCommit lints the staged version of every skill the staged changes
// touch, in the repository containing dir, each under the settings and
// runtime of the library holding it as staged (see
// [config.PlanLint]): the verdict `skillrepo lint` gives on the same
// files. The returned report's paths are relative to the repository's
// top folder. The hook blocks the commit when the report has errors.
func PreCommit(ctx context.Context, dir string, opts PreCommitOptions) (*lint.Report, error) {
	g := git{dir: dir, env: opts.Env}
	top, err := g.line(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("pre-commit: %w", err)
	}
	g.dir = top
	idx, err := OpenIndex(ctx, top, opts.Env)
	if err != nil {
		return nil, fmt.Errorf("pre-commit: %w", err)
	}
	defer idx.Close()

	changed, err := stagedPaths(ctx, g, idx)
	if err != nil {
		return nil, fmt.Errorf("pre-commit: %w", err)
	}
	scopes, err := config.PlanLint(idx, top, touchedSkills(idx, changed))
	if err != nil {
		return nil, fmt.Errorf("pre-commit (staged): %w", err)
	}
	total := &lint.Report{Profile: opts.Profile, Skills: []string{}, Findings: []lint.Finding{}}
	if total.Profile == "" {
		total.Profile = lint.ProfileSpec
	}
	for _, sc := range scopes {
		var paths []string
		for _, p := range sc.Paths {
			if !sc.Settings.Excluded(p) {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			continue // Check on no paths would lint the whole scope
		}
		fsys, err := fs.Sub(idx, sc.Dir)
		if err != nil {
			return nil, err
		}
		rootName := path.Base(sc.Dir)
		if sc.Dir == "." {
			rootName = filepath.Base(top)
		}
		rep, err := lint.Check(fsys, lint.Options{
			Profile: opts.Profile, Paths: paths, RootName: rootName,
			Config: sc.Settings, Strict: opts.Strict, AllowEmpty: true,
		})
		if err != nil {
			return nil, err
		}
		total.Append(rep, lint.Scope{Path: sc.Dir, Library: sc.Library}, func(p string) string {
			return path.Join(sc.Dir, p)
		})
	}
	if len(total.Scopes) == 0 {
		// Nothing to lint: still refuse a bad --profile.
		o := lint.Options{Profile: opts.Profile}
		if err := o.Validate(); err != nil {
			return nil, err
		}
	}
	return total, nil
}

// stagedPaths lists the paths the commit changes (added, modified or
// deleted), comparing the index with HEAD; before the first commit every
// staged file is new.
func stagedPaths(ctx context.Context, g git, idx *IndexFS) ([]string, error) {
	if _, err := g.output(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		return idx.Files(), nil
	}
	out, err := g.output(ctx, "diff", "--cached", "--name-only", "--no-renames", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths, nil
}

// touchedSkills maps changed paths to the skill folders holding them: the
// nearest parent folder with a staged SKILL.md (or skill.md); a staged
// library config maps to its whole library. Folders lint's
// discovery skips (.git, .archive, node_modules, vendored trees; see
// lint.SkipFolder) are left out (and, later, those a library's lint
// settings exclude); hidden skill folders such as .claude/skills are
// linted like any other.
func touchedSkills(idx *IndexFS, changed []string) []string {
	set := map[string]bool{}
	for _, p := range changed {
		if lib, ok := strings.CutSuffix(p, config.Path); ok && (lib == "" || strings.HasSuffix(lib, "/")) && idx.Has(p) {
			// A library's settings changed: its every skill is judged
			// anew.
			if lib = strings.TrimSuffix(lib, "/"); lib == "" {
				lib = "."
			}
			if !lint.SkippedPath(lib) {
				set[lib] = true
			}
			continue
		}
		for d := path.Dir(p); ; d = path.Dir(d) {
			if idx.Has(path.Join(d, "SKILL.md")) || idx.Has(path.Join(d, "skill.md")) {
				if !lint.SkippedPath(d) {
					set[d] = true
				}
				break
			}
			if d == "." {
				break
			}
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
