package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Init writes the repository in-process, as 'git init' lays it out (HEAD,
// config, objects/, refs/, info/exclude), rather than running git: a child
// process outlives a killed parent, and an orphaned 'git init' writing
// into .git raced the next Init ("cannot copy hooks/*.sample: File
// exists", "could not lock config file"). With no child there is no such
// race, and the states a kill can leave are few:
//
//   - no .git, perhaps a temporary folder .git-init-* of ours: the next
//     Init removes the folder and starts again;
//   - a whole .git: the new .git is written in the temporary folder and
//     renamed into place, so it appears complete or not at all;
//   - a .git that another tool (or an older skillrepo that ran 'git
//     init') left incomplete: Init adds what it lacks and keeps what is
//     there.
//
// The hook samples git copies from its templates are not written; git
// never needs them.

// initTempPrefix names the temporary folders Init builds a .git in.
const initTempPrefix = ".git-init-"

// Init creates an empty git repository with a work tree at root, its HEAD
// on branch (unborn until the first write), as 'git init' does (the same
// config, probed on root's file system). A .git that is there already is
// completed, never rewritten: what it holds stays.
func Init(root, branch string) error {
	if err := removeInitDebris(root); err != nil {
		return fmt.Errorf("init git repository in %s: %w", root, err)
	}
	dot := filepath.Join(root, ".git")
	if fi, err := os.Lstat(dot); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("init git repository in %s: .git is a file (a linked worktree or submodule)", root)
		}
		if err := fillGitDir(dot, branch); err != nil {
			return fmt.Errorf("init git repository in %s: complete .git: %w", root, err)
		}
		return nil
	}
	tmp, err := os.MkdirTemp(root, initTempPrefix)
	if err != nil {
		return fmt.Errorf("init git repository in %s: %w", root, err)
	}
	defer os.RemoveAll(tmp) // nothing left after the rename
	if err := fillGitDir(tmp, branch); err != nil {
		return fmt.Errorf("init git repository in %s: %w", root, err)
	}
	syncDir(tmp)
	if err := os.Rename(tmp, dot); err != nil {
		return fmt.Errorf("init git repository in %s: %w", root, err)
	}
	syncDir(root)
	return nil
}

// removeInitDebris removes the temporary folders a killed Init left.
func removeInitDebris(root string) error {
	des, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, de := range des {
		if de.IsDir() && strings.HasPrefix(de.Name(), initTempPrefix) {
			if err := os.RemoveAll(filepath.Join(root, de.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillGitDir writes into dir what a git directory holds after 'git init'
// and is missing there; it never replaces a file.
func fillGitDir(dir, branch string) error {
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "info", "hooks", "branches"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	config, err := initConfig(dir)
	if err != nil {
		return err
	}
	// HEAD last: git takes a folder for a repository once HEAD is there.
	for _, f := range []struct{ name, data string }{
		{"config", config},
		{"description", "Unnamed repository; edit this file 'description' to name the repository.\n"},
		{"info/exclude", defaultExclude},
		{"HEAD", "ref: refs/heads/" + branch + "\n"},
	} {
		if err := createFile(filepath.Join(dir, filepath.FromSlash(f.name)), f.data); err != nil {
			return err
		}
	}
	return nil
}

// defaultExclude is git's template of info/exclude.
const defaultExclude = `# git ls-files --others --exclude-from=.git/info/exclude
# Lines that start with '#' are comments.
# For a project mostly in C, the following would be a good set of
# exclude patterns (uncomment them if you want to use them):
# *.[oa]
# *~
`

// initConfig is the config 'git init' writes for a repository with a work
// tree, with the file system's capabilities probed in dir as git probes
// them: whether the executable bit sticks, whether symlinks can be made,
// whether names differ by case only.
func initConfig(dir string) (string, error) {
	var b strings.Builder
	b.WriteString("[core]\n\trepositoryformatversion = 0\n")
	filemode, err := probeFilemode(dir)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\tfilemode = %t\n\tbare = false\n\tlogallrefupdates = true\n", filemode)
	if !probeSymlinks(dir) {
		b.WriteString("\tsymlinks = false\n")
	}
	if probeIgnoreCase(dir) {
		b.WriteString("\tignorecase = true\n")
	}
	return b.String(), nil
}

func probeFilemode(dir string) (bool, error) {
	if runtime.GOOS == "windows" {
		return false, nil
	}
	p := filepath.Join(dir, "config.probe")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return false, err
	}
	defer os.Remove(p)
	if err := os.Chmod(p, 0o755); err != nil {
		return false, nil
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode()&0o100 != 0, nil
}

func probeSymlinks(dir string) bool {
	p := filepath.Join(dir, "symlink.probe")
	defer os.Remove(p)
	return os.Symlink("target", p) == nil
}

func probeIgnoreCase(dir string) bool {
	p := filepath.Join(dir, "case.probe")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return false
	}
	defer os.Remove(p)
	_, err := os.Stat(filepath.Join(dir, "CASE.PROBE"))
	return err == nil
}

// createFile writes a file that is missing, or empty (a write cut short:
// no file of a git directory is empty), and leaves any other as it is.
func createFile(p, data string) error {
	if fi, err := os.Lstat(p); err == nil && fi.Size() > 0 {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return writeSynced(p, []byte(data))
}
