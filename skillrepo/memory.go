package skillrepo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// Memory stores (MEMORY.md, USER.md) are files of the library like skills,
// so every change is a commit and a background review's replace or remove
// can wait on a proposal branch. The rules of the files themselves live in
// package memory; this file reads and commits them.

// MemoryLimits are the stores' character limits: memory.memory_char_limit
// and memory.user_char_limit in the config, or the reference's defaults.
func (l *Library) MemoryLimits() map[memory.Target]int {
	return map[memory.Target]int{memory.Memory: l.Config.Memory.MemoryCharLimit, memory.User: l.Config.Memory.UserCharLimit}
}

// MemoryPath is the store file of target, as a slash path from the library
// root. The memory directory must lie inside the library, where commits
// can version it; an agent that expects its memory elsewhere (Hermes reads
// ~/.hermes/memories) can be pointed here with a symlink.
func (l *Library) MemoryPath(target memory.Target) (string, error) {
	dir := cmp.Or(l.Config.Memory.Dir, DefaultConfig().Memory.Dir)
	if strings.HasPrefix(dir, "~") || filepath.IsAbs(dir) {
		abs := dir
		if strings.HasPrefix(dir, "~") {
			abs = filepath.Join(l.repo.Getenv("HOME"), strings.TrimPrefix(dir, "~"))
		}
		rel, err := filepath.Rel(l.Root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("memory.dir %s is outside the library, where commits cannot version it: use a folder inside the library (the default is .memory) and symlink the agent's memory folder to it", dir)
		}
		dir = filepath.ToSlash(rel)
	}
	p, err := gitstore.CleanPath(path.Join(filepath.ToSlash(dir), target.FileName()))
	if err != nil {
		return "", fmt.Errorf("memory.dir %s: %w", dir, err)
	}
	return p, nil
}

// ReadMemory returns a store as it is on rev ("" = the main branch).
func (l *Library) ReadMemory(rev string, target memory.Target) (memory.File, error) {
	p, err := l.MemoryPath(target)
	if err != nil {
		return memory.File{}, err
	}
	snap, err := l.Snapshot(rev)
	if err != nil {
		return memory.File{}, err
	}
	f := memory.File{Target: target, Limit: l.MemoryLimits()[target]}
	data, err := snap.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return memory.File{}, err
	}
	f.Content = string(data)
	return f, nil
}

// MemoryOptions is one change of a memory store.
type MemoryOptions struct {
	// Branch to write ("" = main); From creates it when missing.
	Branch, From string
	Target       memory.Target
	// Action is add, replace, remove or batch.
	Action           string
	Content, OldText string
	Ops              []memory.Op // for batch
	Provenance       Provenance
	DryRun           bool
}

// MemoryResult is a memory change and its commit (zero when the change
// was a no-op, such as adding an entry that exists).
type MemoryResult struct {
	memory.Result
	Path   string
	Commit Hash
	Update *UpdateResult
}

// errMemoryUnchanged aborts an Update whose memory operation changed
// nothing: no commit is the right outcome, not an error.
var errMemoryUnchanged = errors.New("memory unchanged")

// ChangeMemory applies one memory operation under the library lock
// (reading the store as the branch has it) and commits the new file.
// Errors: *memory.Error for a refused operation (nothing written), and
// those of [Library.Update].
func (l *Library) ChangeMemory(ctx context.Context, opts MemoryOptions) (*MemoryResult, error) {
	p, err := l.MemoryPath(opts.Target)
	if err != nil {
		return nil, err
	}
	if opts.Provenance.Origin == "" {
		opts.Provenance.Origin = OriginUser
	}
	if !ValidOrigin(opts.Provenance.Origin) {
		return nil, fmt.Errorf("unknown origin %q", opts.Provenance.Origin)
	}
	out := &MemoryResult{Path: p}
	res, err := l.Update(ctx, UpdateOptions{Branch: opts.Branch, From: opts.From, DryRun: opts.DryRun}, func(tx *Tx) error {
		data, err := tx.gtx.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		f := memory.File{Target: opts.Target, Limit: l.MemoryLimits()[opts.Target], Content: string(data)}
		var r memory.Result
		switch opts.Action {
		case "add":
			r, err = f.Add(opts.Content)
		case "replace":
			r, err = f.Replace(opts.OldText, opts.Content)
		case "remove":
			r, err = f.Remove(opts.OldText)
		case "batch":
			r, err = f.Batch(opts.Ops)
		default:
			return fmt.Errorf("unknown memory action %q: use add, replace, remove or batch", opts.Action)
		}
		if err != nil {
			return err
		}
		out.Result = r
		if !r.Changed {
			return errMemoryUnchanged
		}
		content := r.Content
		if content != "" {
			content += "\n" // git prefers it; parsing trims it
		}
		if err := tx.gtx.WriteFile(p, []byte(content), false); err != nil {
			return err
		}
		_, err = tx.Commit(memoryMessage(opts, r))
		return err
	})
	if errors.Is(err, errMemoryUnchanged) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.Update = res
	if len(res.Commits) > 0 {
		out.Commit = res.Commits[len(res.Commits)-1]
	}
	return out, nil
}

// memoryMessage is "memory: add to user profile" and so on, with the
// provenance trailers and Skill-Action memory-<action>.
func memoryMessage(opts MemoryOptions, r memory.Result) Message {
	label := opts.Target.Label()
	var m Message
	switch opts.Action {
	case "add":
		m.Subject = "memory: add to " + label
	case "replace":
		m.Subject = "memory: replace in " + label
	case "remove":
		m.Subject = "memory: remove from " + label
	default:
		m.Subject = fmt.Sprintf("memory: apply %d operations to %s", len(opts.Ops), label)
	}
	m.Body = fmt.Sprintf("%s %s (%d entries).", r.Message, r.Usage(), r.Entries)
	m.Add(TrailerAction, "memory-"+opts.Action)
	opts.Provenance.addTrailers(&m)
	return m
}
