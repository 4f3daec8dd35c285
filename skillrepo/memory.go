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

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/skillrepo/secrets"
)

// Memory stores (MEMORY.md, USER.md) are files of the library like skills,
// so every change is a commit and a background review's replace or remove
// can wait on a proposal branch. The rules of the files themselves live in
// package memory; this file reads and commits them.

// Limits are the stores' character limits: memory.memory_char_limit
// and memory.user_char_limit in the config, or the reference's defaults.
func (room Memory) Limits() map[memory.Target]int {
	l := room.l
	return map[memory.Target]int{memory.Memory: l.Config.Memory.MemoryCharLimit, memory.User: l.Config.Memory.UserCharLimit}
}

// memoryStore is where a store's file lives: in the library, or in a
// folder of the library's repository beside it — Hermes keeps its memory
// in ~/.hermes/memories, beside ~/.hermes/skills, and a library at
// ~/.hermes/skills of a repository at ~/.hermes versions it there
// (docs/hermes.md §4). lib reads and writes the file at path; rel is the
// file relative to the library root, for people.
type memoryStore struct {
	lib  *Library
	path string
	rel  string
	// sibling: lib is a view of the repository at the memory folder,
	// which the caller closes.
	sibling bool
}

func (s memoryStore) close() {
	if s.sibling {
		s.lib.Close()
	}
}

// memoryDir is memory.dir as an absolute folder.
func (l *Library) memoryDir() string {
	dir := cmp.Or(l.Config.Memory.Dir, config.Default().Memory.Dir)
	switch {
	case strings.HasPrefix(dir, "~"):
		return filepath.Join(l.repo.Getenv("HOME"), strings.TrimPrefix(dir, "~"))
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	}
	return filepath.Join(l.Root, filepath.FromSlash(dir))
}

// memoryStore locates target's file. A memory folder outside the
// repository cannot be versioned: the error says how to get one that can.
func (l *Library) memoryStore(target memory.Target) (memoryStore, error) {
	abs := l.memoryDir()
	dir := cmp.Or(l.Config.Memory.Dir, config.Default().Memory.Dir)
	if rel, err := filepath.Rel(l.Root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		p, err := gitstore.CleanPath(path.Join(filepath.ToSlash(rel), target.FileName()))
		if err != nil {
			return memoryStore{}, fmt.Errorf("memory.dir %s: %w", dir, err)
		}
		return memoryStore{lib: l, path: p, rel: p}, nil
	}
	relRepo, err := filepath.Rel(l.repo.Root, abs)
	if err != nil || relRepo == "." || relRepo == ".." || strings.HasPrefix(relRepo, ".."+string(filepath.Separator)) {
		return memoryStore{}, WithHint(fmt.Errorf("memory.dir %s is outside the library's repository (%s), where commits cannot version it", dir, l.repo.Root),
			"for Hermes, run 'skillrepo init ~/.hermes': one repository then versions skills/ and memories/ where Hermes keeps them (docs/hermes.md §4); else use a folder inside the library (the default is .memory)")
	}
	prefix, err := gitstore.CleanPrefix(filepath.ToSlash(relRepo))
	if err != nil {
		return memoryStore{}, fmt.Errorf("memory.dir %s: %w", dir, err)
	}
	sib, err := openAt(l.repo.Root, prefix, l.opts)
	if err != nil {
		return memoryStore{}, fmt.Errorf("memory.dir %s: %w", dir, err)
	}
	// The folder has no config of its own: it is the library's memory,
	// on the library's branch.
	sib.Config = l.Config
	sib.configErr = l.configErr
	sib.repo.DefaultBranch = l.MainBranch()
	rel, _ := filepath.Rel(l.Root, filepath.Join(abs, target.FileName()))
	return memoryStore{lib: sib, path: target.FileName(), rel: filepath.ToSlash(rel), sibling: true}, nil
}

// Path is the store file of target, as a slash path from the library
// root: inside it (the default .memory), or beside it in the library's
// repository ("../memories/MEMORY.md" for Hermes' memory folder). A
// memory folder outside the repository is an error whose hint says how to
// version it.
func (room Memory) Path(target memory.Target) (string, error) {
	l := room.l
	st, err := l.memoryStore(target)
	if err != nil {
		return "", err
	}
	st.close()
	return st.rel, nil
}

// Read returns a store as it is on rev ("" = the main branch).
func (room Memory) Read(rev string, target memory.Target) (memory.File, error) {
	l := room.l
	st, err := l.memoryStore(target)
	if err != nil {
		return memory.File{}, err
	}
	defer st.close()
	snap, err := st.lib.Snapshot(rev)
	if err != nil {
		return memory.File{}, err
	}
	f := memory.File{Target: target, Limit: l.Memory().Limits()[target]}
	data, err := snap.ReadFile(st.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return memory.File{}, err
	}
	f.Content = string(data)
	return f, nil
}

// EditedOnDisk reports whether the store's file in the work tree
// differs from what the main branch holds (an agent or a person wrote it
// directly, and no sync recorded it yet). Only meaningful, and only true,
// when main is checked out.
func (room Memory) EditedOnDisk(target memory.Target) (bool, error) {
	l := room.l
	head, err := l.repo.HeadBranch()
	if err != nil || head != l.MainBranch() {
		return false, err
	}
	committed, err := l.Memory().Read("", target)
	if err != nil {
		return false, err
	}
	st, err := l.memoryStore(target)
	if err != nil {
		return false, err
	}
	file := filepath.Join(st.lib.Root, filepath.FromSlash(st.path))
	st.close()
	data, err := boundedread.ReadFile(file, memoryFileLimit)
	var large *boundedread.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return committed.Content != "", nil
	case errors.As(err, &large):
		return true, nil // far past any store's limit: not what main holds
	case err != nil:
		return false, err
	}
	// git's checkout may have written CRLF (core.autocrlf); git add
	// records LF, and so does every write of ours.
	return strings.ReplaceAll(string(data), "\r\n", "\n") != committed.Content, nil
}

// memoryFileLimit bounds reading a store from the work tree: the stores
// hold a few thousand characters; a file far past that is edited anyway.
const memoryFileLimit = 4 << 20

// MemoryOptions is one change of a memory store ([Policy.ChangeMemory]).
type MemoryOptions struct {
	Target memory.Target
	// Action is add, replace, remove or batch.
	Action           string
	Content, OldText string
	Ops              []memory.Op // for batch
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

// changeMemory applies one memory operation under the library lock
// (reading the store as t's branch has it) and commits the new file.
// Errors: *memory.Error for a refused operation (nothing written), and
// those of the write.
func (l *Library) changeMemory(ctx context.Context, t target, opts MemoryOptions) (*MemoryResult, error) {
	st, err := l.memoryStore(opts.Target)
	if err != nil {
		return nil, err
	}
	defer st.close()
	p := st.path
	out := &MemoryResult{Path: st.rel}
	res, err := st.lib.update(ctx, updateOptions{Branch: t.branch, From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		data, err := tx.gtx.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		f := memory.File{Target: opts.Target, Limit: l.Memory().Limits()[opts.Target], Content: string(data)}
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
		// A likely secret is refused whoever writes, a person unless
		// forced (issue 40 item 10: memory add of a token landed without
		// a word; the agents' memory tool refused it).
		if found := secrets.Added(string(data), r.Content); len(found) > 0 {
			msg := secrets.Refusal("the memory content", found)
			if !t.force {
				if t.prov.Origin == OriginUser {
					msg += " If it is not a secret, write it anyway with --force."
				}
				return &RefusedError{Reason: msg, Guard: GuardSecret}
			}
		}
		// Exactly the reference's bytes: entries joined by the
		// delimiter, no trailing newline, so Hermes reads back what it
		// would have written.
		if err := tx.gtx.WriteFile(p, []byte(r.Content), false); err != nil {
			return err
		}
		_, err = tx.Commit(memoryMessage(opts, t.prov, r))
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
func memoryMessage(opts MemoryOptions, prov Provenance, r memory.Result) Message {
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
	entries := fmt.Sprintf("%d entries", r.Entries)
	if r.Entries == 1 {
		entries = "1 entry"
	}
	m.Body = fmt.Sprintf("%s %s (%s).", r.Message, r.Usage(), entries)
	m.Add(TrailerAction, "memory-"+opts.Action)
	prov.addTrailers(&m)
	return m
}
