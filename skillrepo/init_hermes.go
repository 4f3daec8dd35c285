package skillrepo

// A Hermes home (~/.hermes) gets one repository at the home that versions
// skills/ and memories/ where Hermes keeps them, and nothing else of the
// home (sessions, logs, keys): the library is the prefix skills/, and
// its memory folder is ../memories (docs/hermes.md §4). So Hermes reads
// and writes its files where it always did, and every change is a
// commit.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// hermesLayout says whether abs (a Hermes home, or its skills folder) is
// a Hermes home init should make one repository of (hermes.LibraryAt):
// the home and the skills folder. A library asked for in a repository of
// its own keeps its layout.
func hermesLayout(abs string, ownRepo bool) (home, skills string, ok bool) {
	if ownRepo {
		return "", "", false
	}
	return hermes.LibraryAt(abs)
}

// initHermesHome makes the repository at home (when there is none) with
// the .gitignore that keeps it to skills/ and memories/. created says
// whether it made the repository.
func initHermesHome(home string) (created bool, err error) {
	if fi, err := os.Lstat(filepath.Join(home, ".git")); err == nil && fi.IsDir() && gitstore.IsRepository(home) {
		return false, nil // the user's own repository of the home: kept
	}
	if loc, err := locate.Find(filepath.Dir(home)); err == nil && loc.Top != "" {
		return false, nil // inside another work tree: a prefix library of it
	}
	gi := filepath.Join(home, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(gi, []byte(hermes.HomeIgnore), 0o644, false); err != nil {
			return false, fmt.Errorf("write %s: %w", gi, err)
		}
	}
	if err := gitstore.Init(home, "main"); err != nil {
		return false, err
	}
	return true, nil
}

// recordHermesHome records what init made at the Hermes home besides the
// library — the home's .gitignore — and the memory stores of the
// library's memory folder beside it, in one import commit.
func (l *Library) recordHermesHome(ctx context.Context, home string) (Hash, error) {
	st, err := l.memoryStore("memory")
	if err != nil {
		return ZeroHash, nil // memory kept elsewhere: nothing beside the library to record
	}
	st.close()
	relHome, err := filepath.Rel(l.repo.Root, home)
	if err != nil || relHome != "." {
		return ZeroHash, nil // the home is a folder of a larger repository: its own files are not ours
	}
	root, err := openAt(l.repo.Root, "", l.opts)
	if err != nil {
		return ZeroHash, err
	}
	defer root.Close()
	root.repo.DefaultBranch = l.MainBranch()
	memDir, _ := filepath.Rel(l.repo.Root, l.memoryDir())
	memDir = filepath.ToSlash(memDir)
	want := map[string]bool{".gitignore": true, memDir + "/MEMORY.md": true, memDir + "/USER.md": true}
	var commit Hash
	_, err = root.update(ctx, updateOptions{Branch: l.MainBranch(), RecordsWorktree: true}, func(tx *writeTx) error {
		d, err := root.worktreeDelta(ctx, tx.gtx.Store(), tx.gtx.Tree(), false)
		if err != nil {
			return err
		}
		var keep []FileChange
		for _, c := range d.changes {
			if want[c.Path] {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return nil
		}
		d.changes = keep
		if err := d.stage(ctx, tx); err != nil {
			return err
		}
		msg := Message{Subject: "import: Hermes' memory where Hermes keeps it", Body: fmt.Sprintf("%s/MEMORY.md and USER.md byte for byte, and the home's .gitignore: this repository versions %s/ and %s/ only.", memDir, filepath.Base(l.Root), memDir)}
		msg.Add(TrailerAction, ActionImport)
		msg.Add(TrailerOrigin, OriginImport)
		commit, err = tx.Commit(msg)
		if errors.Is(err, ErrNoChanges) {
			return nil
		}
		return err
	})
	return commit, err
}

// syncMemory records the memory stores of a memory folder beside the
// library (Hermes' memories/) as Hermes left them, in one commit of the
// given origin; a memory folder inside the library is recorded by the
// library's own sync. Nothing changed: a zero Hash.
func (l *Library) syncMemory(ctx context.Context, opts SyncOptions) (Hash, []string, error) {
	st, err := l.memoryStore("memory")
	if err != nil || !st.sibling {
		return ZeroHash, nil, nil
	}
	defer st.close()
	m := st.lib
	var commit Hash
	var files []string
	_, err = m.update(ctx, updateOptions{Branch: l.MainBranch(), DryRun: opts.DryRun, RecordsWorktree: true}, func(tx *writeTx) error {
		d, err := m.worktreeDelta(ctx, tx.gtx.Store(), tx.gtx.Tree(), opts.LeaveStaged)
		if err != nil {
			return err
		}
		var keep []FileChange
		for _, c := range d.changes {
			if c.Path == "MEMORY.md" || c.Path == "USER.md" {
				keep = append(keep, c)
				files = append(files, c.Path)
			}
		}
		if len(keep) == 0 {
			return nil
		}
		d.changes = keep
		if err := d.stage(ctx, tx); err != nil {
			return err
		}
		msg := Message{Subject: "memory: record edits of " + strings.Join(files, ", ")}
		msg.Add(TrailerAction, ActionSync)
		Provenance{Origin: cmp.Or(opts.Origin, OriginUser), SessionID: opts.SessionID}.addTrailers(&msg)
		commit, err = tx.Commit(msg)
		if errors.Is(err, ErrNoChanges) {
			files = nil
			return nil
		}
		return err
	})
	return commit, files, err
}
