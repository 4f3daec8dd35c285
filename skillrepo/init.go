package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// gitignoreEntries are what init makes sure .gitignore holds: the usage
// sidecar with its lock, temp and corrupt files (per-clone telemetry).
var gitignoreEntries = []string{"/.usage.json", "/.usage.json.*"}

// InitOptions configures [Init].
type InitOptions struct {
	OpenOptions
	// Example writes the sample library first (into an empty or new
	// folder).
	Example bool
}

// InitResult says what Init did.
type InitResult struct {
	Root string
	// Created is true when a new git repository was made.
	Created bool
	// Already is true when the folder was a library with nothing to do.
	Already bool
	Branch  string
	Commit  plumbing.Hash
	Skills  []SkillInfo
	Files   int
	// AgentSkills are skills the usage sidecar marks as agent-created;
	// the import commit names them so they stay curator-managed.
	AgentSkills []string
}

// Init turns dir (an existing skills folder, flat or with categories, or a
// git repository) into a library in place: it keeps any git history,
// moves and rewrites none of the user's files, writes
// .skillrepo/config.yaml and the .gitignore entries, and records
// everything in one import commit. On a library it changes nothing.
func Init(ctx context.Context, dir string, opts InitOptions) (*InitResult, error) {
	opts.fill()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if opts.Example {
		if err := writeExample(abs); err != nil {
			return nil, err
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("init %s: not a folder", dir)
	}
	res := &InitResult{Root: abs}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); errors.Is(err, fs.ErrNotExist) {
		res.Created = true
		if _, err := git.PlainInitWithOptions(abs, &git.PlainInitOptions{
			InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
		}); err != nil {
			return nil, fmt.Errorf("init git repository in %s: %w", abs, err)
		}
	}
	l, err := openAt(abs, opts.OpenOptions)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	branch, err := l.HeadBranch()
	if err != nil {
		return nil, err
	}
	if branch == "" {
		return nil, fmt.Errorf("init %s: HEAD is detached; check out a branch first", abs)
	}
	res.Branch = branch
	unlock, err := l.Lock(ctx)
	if err != nil {
		return nil, err
	}
	if err := l.recoverLocked(); err != nil {
		unlock()
		return nil, err
	}
	unlock()
	if err := writeInitFiles(abs, branch); err != nil {
		return nil, err
	}
	if l.Config, err = loadConfig(abs); err != nil {
		return nil, err
	}
	l.Config.MainBranch = branch
	res.AgentSkills = agentSkillsFromUsage(l)
	if err := seedPinsFromUsage(l); err != nil {
		return nil, err
	}
	var files int
	upd, err := l.Update(ctx, UpdateOptions{Branch: branch, recordsWorktree: true}, func(tx *Tx) error {
		d, err := l.worktreeDelta(tx.store, tx.tree)
		if err != nil {
			return err
		}
		if len(d.changes) == 0 {
			return nil
		}
		files = len(d.changes)
		if err := d.stage(tx); err != nil {
			return err
		}
		skills, err := discoverSkillsTx(tx)
		if err != nil {
			return err
		}
		m := Message{Subject: fmt.Sprintf("import: %d skills into skillrepo", countActive(skills))}
		if !tx.Base().IsZero() {
			m.Subject = fmt.Sprintf("import: record the library (%d skills) for skillrepo", countActive(skills))
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
	if len(upd.Commits) == 0 {
		res.Already = true
	} else {
		res.Commit = upd.Commits[len(upd.Commits)-1]
	}
	snap, err := l.Snapshot(branch)
	if err == nil {
		res.Skills, _ = snap.Skills()
	}
	return res, nil
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

func discoverSkillsTx(tx *Tx) ([]SkillInfo, error) {
	files, err := tx.List("")
	if err != nil {
		return nil, err
	}
	var out []SkillInfo
	for _, f := range files {
		if !strings.HasSuffix(f, "/SKILL.md") {
			continue
		}
		dir := strings.TrimSuffix(f, "/SKILL.md")
		if strings.HasPrefix(dir, ".") && !strings.HasPrefix(dir, ArchiveDir+"/") {
			continue
		}
		out = append(out, SkillInfo{Name: filepath.Base(dir), Dir: dir, Archived: strings.HasPrefix(dir, ArchiveDir+"/")})
	}
	return out, nil
}

// writeInitFiles writes the config when missing and appends the missing
// .gitignore entries (never rewriting the user's lines).
func writeInitFiles(root, branch string) error {
	cfgPath := filepath.Join(root, filepath.FromSlash(ConfigPath))
	if _, err := os.Stat(cfgPath); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(cfgPath), 0o755); err != nil {
			return err
		}
		content := strings.Replace(defaultConfigYAML, "main_branch: main", "main_branch: "+branch, 1)
		if err := os.WriteFile(cfgPath, []byte(content), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", ConfigPath, err)
		}
	}
	giPath := filepath.Join(root, ".gitignore")
	existing, err := os.ReadFile(giPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	have := map[string]bool{}
	for _, line := range strings.Split(string(existing), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	var add []string
	for _, e := range gitignoreEntries {
		if !have[e] {
			add = append(add, e)
		}
	}
	if len(add) == 0 {
		return nil
	}
	var b strings.Builder
	b.Write(existing)
	if len(existing) > 0 && !strings.HasSuffix(string(existing), "\n") {
		b.WriteString("\n")
	}
	b.WriteString("# skillrepo: per-clone usage telemetry\n")
	for _, e := range add {
		b.WriteString(e + "\n")
	}
	return os.WriteFile(giPath, []byte(b.String()), 0o644)
}

// agentSkillsFromUsage lists the skills a Hermes .usage.json marks as
// created by the agent, so the import keeps them curator-managed.
func agentSkillsFromUsage(l *Library) []string {
	recs, err := l.Usage().Load()
	if err != nil {
		return nil
	}
	var out []string
	for name, r := range recs {
		if r.AgentCreated() {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// seedPinsFromUsage writes .skillrepo/pins from the records a Hermes
// .usage.json marks pinned, when the library has no pins file yet, so
// the import commit carries the pins (they are tracked from then on).
func seedPinsFromUsage(l *Library) error {
	p := filepath.Join(l.Root, filepath.FromSlash(PinsFile))
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	recs, err := l.Usage().Load()
	if err != nil {
		return nil // telemetry never blocks an import
	}
	var pinned []string
	for name, r := range recs {
		if r.Pinned {
			pinned = append(pinned, name)
		}
	}
	if len(pinned) == 0 {
		return nil
	}
	sort.Strings(pinned)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, formatPins(pinned), 0o644)
}
