// Package atomicfile replaces files whole: the data goes to a temporary
// file beside the target, which is renamed over it, so a reader, or the
// file system after a crash, sees the old content or the new, never a
// prefix. It imports nothing of ours, so every package can use it.
package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
)

// Write replaces path with data. A new file gets perm; an existing one
// keeps its permissions. With sync the data is fsynced before the rename
// (a report or state someone relies on); without, it may be lost in a
// power cut but is never cut short (caches). The temporary file is
// removed on failure.
func Write(path string, data []byte, perm os.FileMode, sync bool) (err error) {
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TempPattern is the [os.CreateTemp] pattern of path's temporary files:
// hidden, named after the file, in its folder. A name hidden already is
// not given a second dot, so that an ignore rule for the file's own
// variants covers a temporary file a kill left behind: the library's
// .gitignore has /.usage.json.* for the usage sidecar, and
// "..usage.json.tmp-1" showed in git status after a killed write.
func TempPattern(path string) string {
	base := filepath.Base(path)
	if !strings.HasPrefix(base, ".") {
		base = "." + base
	}
	return base + ".tmp-*"
}
