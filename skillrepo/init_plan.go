package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// planInit is Init with DryRun: the same decisions (the repository to
// create or keep, the branch, the files init writes, what the import
// commit records, the skills) computed without writing anything.
func planInit(abs string, opts InitOptions) (*InitResult, error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, WithHint(fmt.Errorf("init %s: the folder does not exist", abs), "init without --dry-run creates it (empty) and makes it a library")
	}
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", abs, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("init %s: not a folder", abs)
	}
	home, skillsDir, isHermes := hermesLayout(abs, opts.OwnRepo)
	if isHermes {
		abs = skillsDir
		if opts.Runtime == "" {
			opts.Runtime = skill.Hermes
		}
	}
	repoRoot, prefix, err := initTarget(abs, opts.OwnRepo)
	if err != nil {
		return nil, err
	}
	res := &InitResult{Root: abs, RepoRoot: repoRoot, Prefix: prefix, Branch: "main", DryRun: true}
	if isHermes {
		res.HermesHome = home
		if _, err := os.Stat(filepath.Join(home, ".git")); errors.Is(err, fs.ErrNotExist) {
			if loc, err := locate.Find(filepath.Dir(home)); err == nil && loc.Top == "" {
				res.HermesHomeCreated, res.RepoRoot, res.Prefix = true, home, "skills"
			}
		}
	}
	gitDir := filepath.Join(repoRoot, ".git")
	var l *Library
	if _, err := os.Lstat(gitDir); errors.Is(err, fs.ErrNotExist) {
		res.Created = true
	} else {
		o := opts.OpenOptions
		o.ReadOnly, o.SkipRecovery = true, true
		if l, err = openAt(repoRoot, prefix, o); err != nil {
			return nil, err
		}
		defer l.repo.Close()
		if res.Branch, err = l.repo.HeadBranch(); err != nil {
			return nil, err
		}
		if res.Branch == "" {
			return nil, fmt.Errorf("init %s: HEAD is detached; check out a branch first", abs)
		}
		gitDir = l.repo.GitDir
	}
	sidecar := usage.NewSidecar(filepath.Join(abs, usage.File), opts.Now)
	plan, err := initFiles(abs, res.Branch, opts.runtime(abs), sidecar, res.HermesHome)
	if err != nil {
		return nil, err
	}
	res.Writes = sortedKeys(plan)
	res.AgentSkills = agentSkillsFromUsage(sidecar, abs)

	res.Ignored = hermes.HousekeepingPresent(abs)
	ignored := append(append([]string{}, gitignoreEntries...), housekeepingEntries(abs, opts.runtime(abs))...)
	files, err := gitstore.ScanFolder(abs, gitDir, ignored)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", abs, err)
	}
	paths := map[string]bool{}
	for _, f := range files {
		paths[f.Path] = true
	}
	for p := range plan {
		paths[p] = true
	}
	res.Files = len(paths)
	if l != nil {
		store := l.repo.NewStore(true)
		var tree Hash
		switch head, err := l.repo.ReadRef(branchRef(res.Branch)); {
		case err == nil:
			if tree, _, err = store.CommitInfo(head); err != nil {
				return nil, err
			}
		case !errors.Is(err, ErrNotFound):
			return nil, err
		}
		if !tree.IsZero() {
			if res.Untracked, err = trackedHousekeeping(store, tree, housekeepingEntries(abs, opts.runtime(abs))); err != nil {
				return nil, err
			}
		}
		d, err := l.deltaOf(context.Background(), store, tree, files, plan, false)
		if err != nil {
			return nil, err
		}
		res.Files = len(d.changes)
		res.Already = len(d.changes) == 0 && len(res.Untracked) == 0
	}
	res.Skills = skillsFromPaths(sortedKeys(paths))
	res.Unreadable = unreadableSkills(res.Skills, func(p string) ([]byte, error) {
		return boundedread.ReadFile(filepath.Join(abs, filepath.FromSlash(p)), skill.MaxFileBytes)
	})
	return res, nil
}
