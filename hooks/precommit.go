package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
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
// touch, in the repository containing dir. The returned report's paths are
// relative to the repository's top folder. The hook blocks the commit
// when the report has errors.
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
	// The staged config is parsed as the library will read it: a commit
	// of a config with a problem is refused, with the problem's line.
	var cfg lint.Config
	if b, err := idx.ReadFile(skillrepo.ConfigPath); err == nil {
		lib, err := skillrepo.ParseConfig(b, top)
		if err != nil {
			return nil, fmt.Errorf("pre-commit (the staged config): %w", err)
		}
		cfg = lib.LintSettings()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("pre-commit: %w", err)
	}
	skills := touchedSkills(idx, changed, cfg)
	lopts := lint.Options{
		Profile: opts.Profile, Paths: skills, RootName: filepath.Base(top),
		Config: cfg, Strict: opts.Strict, AllowEmpty: true,
	}
	if len(skills) == 0 {
		// Nothing to lint; Check on no paths would lint the whole tree.
		if err := lopts.Validate(); err != nil {
			return nil, err
		}
		return &lint.Report{Profile: lopts.Profile, Skills: []string{}, Findings: []lint.Finding{}}, nil
	}
	return lint.Check(idx, lopts)
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
// nearest parent folder with a staged SKILL.md (or skill.md). Folders lint's
// discovery skips (.git, .archive, node_modules, vendored trees; see
// lint.SkipFolder) and folders the lint config excludes are left out;
// hidden skill folders such as .claude/skills are linted like any other.
func touchedSkills(idx *IndexFS, changed []string, cfg lint.Config) []string {
	set := map[string]bool{}
	for _, p := range changed {
		for d := path.Dir(p); ; d = path.Dir(d) {
			if idx.Has(path.Join(d, "SKILL.md")) || idx.Has(path.Join(d, "skill.md")) {
				if !lint.SkippedPath(d) && !cfg.Excluded(d) {
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
