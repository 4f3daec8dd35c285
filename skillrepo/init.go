package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// gitignoreEntries are what init makes sure .gitignore holds: the usage
// sidecar with its lock, temp and corrupt files (per-clone telemetry).
var gitignoreEntries = []string{"/.usage.json", "/.usage.json.*"}

const usageIgnoreComment = "# skillrepo: per-clone usage telemetry"

// InitOptions configures [Init].
type InitOptions struct {
	OpenOptions
	// Example writes the sample library first (into an empty or new
	// folder).
	Example bool
	// DryRun reports what Init would do and changes nothing: no
	// repository, no file, no commit.
	DryRun bool
	// Runtime is written into a new config; empty: detected from the
	// folder's path (skill.DetectRuntime).
	Runtime skill.Runtime
	// OwnRepo makes the folder its own git repository even inside a
	// project's work tree (today's behaviour before prefix libraries);
	// by default a folder of an existing work tree becomes a library at
	// that prefix of the project's repository.
	OwnRepo bool
}

// InitResult says what Init did.
type InitResult struct {
	Root string
	// RepoRoot and Prefix: the library is the folder Prefix of the
	// repository whose work tree is RepoRoot (Prefix "" = the whole
	// repository).
	RepoRoot, Prefix string
	// Created is true when a new git repository was made.
	Created bool
	// FolderCreated is true when the folder did not exist and init made
	// it (with a dry run: would make it), as for an agent that has no
	// skills yet.
	FolderCreated bool
	// Already is true when the folder was a library with nothing to do.
	Already bool
	Branch  string
	Commit  Hash
	Skills  []SkillInfo
	Files   int
	// AgentSkills are skills the usage sidecar marks as agent-created;
	// the import commit names them so they stay curator-managed.
	AgentSkills []string
	// Writes are the files init creates or extends: the config, the
	// .gitignore entries, pins carried over from a Hermes .usage.json.
	Writes []string
	// Ignored are Hermes' housekeeping files and folders found in the
	// folder, which the library ignores (.gitignore entries): per-clone
	// state, not skills.
	Ignored []string
	// Untracked are housekeeping files an earlier import committed, which
	// this run stopped tracking in one commit (UntrackCommit); they stay
	// on disk.
	Untracked     []string
	UntrackCommit Hash
	// HermesHome is the Hermes home (~/.hermes) whose repository versions
	// the library (its skills/) and its memory (memories/; MemoryCommit
	// recorded it); HermesHomeCreated says init made that repository.
	HermesHome        string
	HermesHomeCreated bool
	MemoryCommit      Hash
	// Unreadable are imported skills whose SKILL.md does not parse
	// (broken frontmatter): agents skip them, so init names them.
	Unreadable []UnreadableSkill
	// DryRun: nothing was changed; the result says what would be.
	DryRun bool
}

// Init turns dir (an existing skills folder, flat or with categories, or a
// git repository) into a library in place: it keeps any git history,
// moves and rewrites none of the user's files, writes
// .skillrepo/config.yaml and the .gitignore entries, and records
// everything in one import commit. On a library it changes nothing.
func Init(ctx context.Context, dir string, opts InitOptions) (*InitResult, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if opts.Example && opts.DryRun {
		return nil, fmt.Errorf("init --example --dry-run: --example only writes a new sample library; there is nothing of yours to preview")
	}
	if opts.Example {
		if err := writeExample(abs); err != nil {
			return nil, err
		}
	}
	if opts.DryRun {
		return planInit(abs, opts)
	}
	fi, err := os.Stat(abs)
	folderCreated := false
	if errors.Is(err, fs.ErrNotExist) {
		// An agent with no skills yet has no skills folder: make it.
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("init %s: creating the folder: %w", dir, err)
		}
		folderCreated = true
		fi, err = os.Stat(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("init %s: not a folder", dir)
	}
	// A Hermes home (or its skills folder): one repository at the home,
	// the library its skills/ (init_hermes.go).
	home, skillsDir, isHermes := hermesLayout(abs, opts.OwnRepo)
	homeCreated := false
	if isHermes {
		abs = skillsDir
		if opts.Runtime == "" {
			opts.Runtime = skill.Hermes // wherever the home is
		}
		if homeCreated, err = initHermesHome(home); err != nil {
			return nil, err
		}
	}
	repoRoot, prefix, err := initTarget(abs, opts.OwnRepo)
	if err != nil {
		return nil, err
	}
	res := &InitResult{Root: abs, RepoRoot: repoRoot, Prefix: prefix, FolderCreated: folderCreated}
	if isHermes {
		res.HermesHome, res.HermesHomeCreated = home, homeCreated
	}
	// A missing .git is created; one an init killed early left without
	// HEAD is completed (init is restartable from any state it leaves).
	if fi, err := os.Lstat(filepath.Join(abs, ".git")); prefix == "" && (errors.Is(err, fs.ErrNotExist) || (err == nil && fi.IsDir() && !gitstore.IsRepository(abs))) {
		res.Created = true
		if err := gitstore.Init(abs, "main"); err != nil {
			return nil, err
		}
	}
	l, err := openAt(repoRoot, prefix, opts.OpenOptions)
	if err != nil {
		return nil, err
	}
	defer l.repo.Close()
	branch, err := l.repo.HeadBranch()
	if err != nil {
		return nil, err
	}
	if branch == "" {
		return nil, fmt.Errorf("init %s: HEAD is detached; check out a branch first", abs)
	}
	res.Branch = branch
	unlock, err := l.repo.Lock(ctx)
	if err != nil {
		return nil, err
	}
	if err := l.repo.RecoverLocked(); err != nil {
		unlock()
		return nil, err
	}
	unlock()
	removeInitDebris(abs)
	sidecar := l.Usage()
	plan, err := initFiles(abs, branch, opts.runtime(abs), sidecar, res.HermesHome)
	if err != nil {
		return nil, err
	}
	for _, p := range sortedKeys(plan) {
		full := filepath.Join(abs, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}

		// The user's .gitignore is rewritten with lines appended: a crash
		// must not leave it cut short.
		if err := atomicfile.Write(full, plan[p], 0o644, false); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
		res.Writes = append(res.Writes, p)
	}
	if l.Config, err = config.Read(abs); err != nil {
		return nil, err
	}
	l.Config.MainBranch = branch
	l.repo.DefaultBranch = branch
	res.AgentSkills = agentSkillsFromUsage(sidecar, abs)
	res.Ignored = hermes.HousekeepingPresent(abs)
	// A library imported before housekeeping was ignored stops tracking it
	// first, in a commit of its own.
	if un, err := l.untrackHousekeeping(ctx, false); err != nil {
		return nil, err
	} else if !un.Commit.IsZero() {
		res.Untracked, res.UntrackCommit = un.Paths, un.Commit
	}
	var files int
	upd, err := l.update(ctx, updateOptions{Branch: branch, RecordsWorktree: true}, func(tx *writeTx) error {
		d, err := l.worktreeDelta(ctx, tx.gtx.Store(), tx.gtx.Tree(), false)
		if err != nil {
			return err
		}
		if len(d.changes) == 0 {
			return nil
		}
		files = len(d.changes)
		if err := d.stage(ctx, tx); err != nil {
			return err
		}
		skills, err := discoverSkillsTx(tx)
		if err != nil {
			return err
		}
		n := fmt.Sprintf("%d skills", countActive(skills))
		if countActive(skills) == 1 {
			n = "1 skill"
		}
		m := Message{Subject: fmt.Sprintf("import: %s into skillrepo", n)}
		if !tx.gtx.Base().IsZero() {
			m.Subject = fmt.Sprintf("import: record the library (%s) for skillrepo", n)
		}
		m.Add(TrailerAction, ActionImport)
		m.Add(TrailerOrigin, OriginImport)
		for _, n := range res.AgentSkills {
			m.Add(TrailerImported, n)
		}
		_, err = tx.Commit(m)
		if errors.Is(err, ErrNoChanges) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	res.Files = files
	if res.HermesHome != "" {
		if res.MemoryCommit, err = l.recordHermesHome(ctx, res.HermesHome); err != nil {
			return nil, err
		}
	}
	// Hermes' curator state as of the import: its later runs are recorded
	// from here (hermes_curator.go).
	if _, err := l.recordHermesCuratorRun(ctx, false); err != nil {
		return nil, err
	}
	// The pins file and the sidecar agree now (init wrote one from the
	// other, or both were there); Hermes' later pins are read against
	// this (pinsync.go).
	if _, ok := l.readPinsAgreed(); !ok {
		if pins, err := l.Owners().Pins(branch); err == nil {
			l.mirrorPins(pins)
		}
	}
	if len(upd.Commits) == 0 {
		res.Already = res.UntrackCommit.IsZero() && res.MemoryCommit.IsZero()
	} else {
		res.Commit = upd.Commits[len(upd.Commits)-1]
	}
	snap, err := l.Snapshot(branch)
	if err == nil {
		res.Skills, _ = snap.Skills()
		res.Unreadable = unreadableSkills(res.Skills, snap.ReadFile)
	}
	// A folder of a large project: every write rewrites the project's
	// whole index unless git's split index is on (docs/project-libraries.md).
	if prefix != "" && opts.Warn != nil {
		if advice := l.repo.SplitIndexAdvice(); advice != "" {
			opts.Warn(advice)
		}
	}
	return res, nil
}

// initTarget decides where init records the library at abs: its own
// repository (repoRoot = abs, prefix "": a folder with its own .git, one
// outside any work tree, or ownRepo), or the folder prefix of the work
// tree that contains it. A folder inside another library is refused: one
// library's files would be the other's.
func initTarget(abs string, ownRepo bool) (repoRoot, prefix string, err error) {
	if exists(filepath.Join(abs, ".git")) || ownRepo {
		return abs, "", nil
	}
	loc, err := locate.Find(filepath.Dir(abs))
	if err != nil {
		return "", "", err
	}
	root, libRoot := loc.Top, loc.Library
	if root == "" {
		return abs, "", nil // no work tree above: a repository of its own
	}
	if libRoot != "" {
		return "", "", WithHint(fmt.Errorf("init %s: it is inside the library at %s: %w", abs, libRoot, ErrRefused),
			"a library cannot hold another one; pick a folder outside it")
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && !fi.IsDir() {
		return "", "", WithHint(fmt.Errorf("init %s: the repository at %s is a linked worktree or submodule (.git is a file); a library in a folder of it is not supported yet: %w", abs, root, ErrRefused),
			"run init in the repository's main work tree, or use --own-repo to make the folder a repository of its own")
	}
	if prefix, err = libraryPrefix(root, abs); err != nil {
		return "", "", err
	}
	return root, prefix, nil
}

func countActive(skills []SkillInfo) int {
	n := 0
	for _, s := range skills {
		if !s.Archived {
			n++
		}
	}
	return n
}

func discoverSkillsTx(tx *writeTx) ([]SkillInfo, error) {
	files, err := tx.gtx.List("")
	if err != nil {
		return nil, err
	}
	return skillsFromPaths(files), nil
}

// skillsFromPaths finds the skills among a tree's file paths: every
// <dir>/SKILL.md outside dot-folders other than the archive.
func skillsFromPaths(paths []string) []SkillInfo {
	var out []SkillInfo
	for _, f := range paths {
		if !strings.HasSuffix(f, "/SKILL.md") {
			continue
		}
		dir := strings.TrimSuffix(f, "/SKILL.md")
		if strings.HasPrefix(dir, ".") && !strings.HasPrefix(dir, ArchiveDir+"/") {
			continue
		}
		out = append(out, SkillInfo{Name: filepath.Base(dir), Dir: dir, Archived: strings.HasPrefix(dir, ArchiveDir+"/")})
	}
	return out
}

// runtime is the runtime a new config names: the one asked for, else the
// one the path suggests.
func (o InitOptions) runtime(abs string) skill.Runtime {
	if o.Runtime != "" {
		return o.Runtime
	}
	return skill.DetectRuntime(abs)
}

// initFiles returns the files init writes (slash path -> content): the
// config when missing, .gitignore with the missing entries appended
// (never rewriting the user's lines), and .skillrepo/pins from the
// records a Hermes .usage.json marks pinned when there is no pins file
// yet (so the import commit carries the pins).
func initFiles(root, branch string, runtime skill.Runtime, sidecar *usage.Sidecar, hermesHome string) (map[string][]byte, error) {
	plan := map[string][]byte{}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(config.Path))); errors.Is(err, fs.ErrNotExist) {
		cfg := strings.Replace(config.DefaultYAML, "main_branch: main", "main_branch: "+branch, 1)
		cfg = strings.Replace(cfg, "runtime: generic", "runtime: "+string(runtime), 1)
		if hermesHome != "" {
			def := config.Default().Memory
			cfg = hermes.LibraryConfig(cfg, hermesHome, def.MemoryCharLimit, def.UserCharLimit)
		}
		plan[config.Path] = []byte(cfg)
	}
	existing, err := boundedread.ReadFile(filepath.Join(root, ".gitignore"), maxGitignore)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	ignore, changed := ignoreLines(existing, usageIgnoreComment, gitignoreEntries)
	ignore, changed2 := ignoreLines(ignore, housekeepingComment, housekeepingEntries(root, runtime))
	if changed || changed2 {
		plan[".gitignore"] = ignore
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(PinsFile))); errors.Is(err, fs.ErrNotExist) {
		if recs, err := sidecar.Load(); err == nil { // telemetry never blocks an import
			folder := folderOfUsageKey(root)
			var pinned []string
			for name, r := range recs {
				if r.Pinned && !slices.Contains(pinned, folder(name)) {
					pinned = append(pinned, folder(name))
				}
			}
			if len(pinned) > 0 {
				sort.Strings(pinned)
				plan[PinsFile] = formatPins(pinned)
			}
		}
	}
	return plan, nil
}

// folderOfUsageKey maps a usage key of the skills folder at root (a
// frontmatter name, which Hermes keys by, or a folder name) to the skill's
// folder name, reading the SKILL.md files on disk: the import names
// skills by folder.
func folderOfUsageKey(root string) func(key string) string {
	byName := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != skill.FileName {
			return nil
		}
		dir := filepath.Base(filepath.Dir(p))
		if data, err := boundedread.ReadFile(p, maxStateFile); err == nil { // a FIFO or /dev/zero is refused
			if n := usage.FrontmatterName(data); n != "" && n != dir {
				if _, taken := byName[n]; !taken {
					byName[n] = dir
				}
			}
		}
		byName[dir] = dir // a folder name is never someone else's alias
		return nil
	})
	return func(key string) string {
		if f, ok := byName[key]; ok {
			return f
		}
		return key
	}
}

// agentSkillsFromUsage lists the skills a Hermes .usage.json marks as
// created by the agent, so the import keeps them curator-managed.
func agentSkillsFromUsage(sidecar *usage.Sidecar, root string) []string {
	recs, err := sidecar.Load()
	if err != nil {
		return nil
	}
	folder := folderOfUsageKey(root)
	var out []string
	for name, r := range recs {
		if r.AgentCreated() && !slices.Contains(out, folder(name)) {
			out = append(out, folder(name))
		}
	}
	sort.Strings(out)
	return out
}

// removeInitDebris removes the temp files a killed init may have left
// beside the files it writes (atomicfile.TempPattern's, and the
// ".<name>.tmp-*" of earlier versions): ours, never content to commit.
func removeInitDebris(root string) {
	for _, p := range []string{config.Path, ".gitignore", PinsFile} {
		full := filepath.Join(root, filepath.FromSlash(p))
		for _, pattern := range []string{atomicfile.TempPattern(full), "." + filepath.Base(full) + ".tmp-*"} {
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(full), pattern))
			for _, f := range left {
				os.Remove(f)
			}
		}
	}
}

// UnreadableSkill is a skill whose SKILL.md does not parse, and why.
type UnreadableSkill struct {
	Dir   string `json:"path"`
	Error string `json:"error"`
}

// unreadableSkills lists the active skills whose SKILL.md read does not
// parse (read takes a slash path in the library).
func unreadableSkills(skills []SkillInfo, read func(string) ([]byte, error)) []UnreadableSkill {
	var out []UnreadableSkill
	for _, si := range skills {
		if si.Archived {
			continue
		}
		b, err := read(si.Dir + "/" + skill.FileName)
		if err == nil {
			_, err = skill.Parse(b)
		}
		if err != nil {
			out = append(out, UnreadableSkill{Dir: si.Dir, Error: err.Error()})
		}
	}
	return out
}
