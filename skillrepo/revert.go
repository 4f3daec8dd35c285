package skillrepo

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sort"
	"strings"
)

// revertDirs stages the undo, in the folders dirs, of the change from
// before to after, keeping later work: a file still as after left it goes
// back to how before had it (removed when before had none); a file already
// as before stays. Any other file changed since after: revertDirs returns
// those paths, sorted, and then stages nothing, so the caller refuses the
// whole revert (a curator rollback names them with the commits that
// changed them).
func (tx *writeTx) revertDirs(before, after *Snapshot, dirs []string) (changed []string, err error) {
	type write struct {
		p      string
		data   []byte
		exec   bool
		remove bool
	}
	var writes []write
	paths := map[string]bool{}
	for _, d := range dirs {
		maps.Copy(paths, snapshotFiles(before, d))
		maps.Copy(paths, snapshotFiles(after, d))
		now, err := tx.gtx.List(d)
		if err != nil {
			return nil, err
		}
		for _, p := range now {
			paths[p] = true
		}
	}
	for p := range paths {
		want, wantExec, wantOK := readSnapshotFile(before, p)
		left, _, leftOK := readSnapshotFile(after, p)
		cur, curErr := tx.gtx.ReadFile(p)
		curOK := curErr == nil
		switch {
		case curOK == wantOK && string(cur) == string(want):
			// already as before
		case curOK == leftOK && string(cur) == string(left):
			writes = append(writes, write{p: p, data: want, exec: wantExec, remove: !wantOK})
		default:
			changed = append(changed, p)
		}
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		return changed, nil
	}
	sort.Slice(writes, func(i, j int) bool { return writes[i].p < writes[j].p })
	for _, w := range writes {
		var err error
		if w.remove {
			err = tx.gtx.Remove(w.p)
		} else {
			err = tx.gtx.WriteFile(w.p, w.data, w.exec)
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// snapshotFiles is the set of files under dir in s.
func snapshotFiles(s *Snapshot, dir string) map[string]bool {
	set := map[string]bool{}
	fs.WalkDir(s.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			set[p] = true
		}
		return nil
	})
	return set
}

// readSnapshotFile is p's content in s, whether it is executable, and
// whether it exists.
func readSnapshotFile(s *Snapshot, p string) (data []byte, exec, ok bool) {
	data, err := s.ReadFile(p)
	if err != nil {
		return nil, false, false
	}
	if fi, err := fs.Stat(s.FS(), p); err == nil {
		exec = fi.Mode()&0o111 != 0
	}
	return data, exec, true
}

// PurgeArchived stages the removal of the archived skill folder dir
// (.archive/<name>/) with all its files. Only an archived folder can be
// purged: history keeps it, and `skill restore` brings it back.
func (tx *writeTx) PurgeArchived(dir string) error {
	if !strings.HasPrefix(dir, ArchiveDir+"/") || path.Clean(dir) != dir {
		return fmt.Errorf("purge %s: only a folder of %s/ can be purged: %w", dir, ArchiveDir, ErrRefused)
	}
	return tx.gtx.RemoveAll(dir)
}
