// Package locate finds where a folder sits: the git work tree holding
// it and the skills library (the folder with a .skillrepo/config.yaml)
// it belongs to. It reads only the file system, never git, so the
// domain, the CLI, the doctor and the agents' hooks agree on which
// library a folder belongs to without opening one; the domain's
// findLibrary adds the inference and the hints (skillrepo/discover.go).
package locate

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Location is where a folder sits: the git work tree and the library
// holding it.
type Location struct {
	// Dir is the folder asked about, absolute and clean.
	Dir string
	// Top is the work tree holding Dir: the nearest folder at or above
	// it with a .git (a folder, or a file in a linked worktree or
	// submodule); "" outside any repository.
	Top string
	// Library is the library's root: the nearest folder at or above Dir
	// holding a .skillrepo/config.yaml, never above Top; "" when there is
	// none. The domain's findLibrary may fill it with the project's only
	// library.
	Library string
	// Inferred is set by the domain's findLibrary when Library does not
	// hold Dir: it is the only library of Dir's project, which the
	// command uses (as git finds its repository from a sub-folder).
	Inferred bool
}

// Find finds the work tree and the library holding dir; outside any
// repository the library is the nearest folder with a config. It reads
// only the folders on the way up.
func Find(dir string) (Location, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Location{}, err
	}
	loc := Location{Dir: abs}
	for d := abs; ; {
		if loc.Library == "" && IsLibrary(d) {
			loc.Library = d
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			loc.Top = d
			return loc, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return loc, nil
		}
		d = parent
	}
}

// IsLibrary reports whether dir holds a library's config file.
func IsLibrary(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(config.Path)))
	return err == nil && fi.Mode().IsRegular()
}

// KnownFolders are the folders where projects keep their agents'
// skills; a command run elsewhere in the project uses the one that is a
// library, or names them when several are.
var KnownFolders = []string{".claude/skills", ".agents/skills", ".codex/skills", ".gemini/skills", ".github/skills", "skills"}

// ProjectLibraries lists the known folders of the work tree top that are
// libraries (slash paths relative to top).
func ProjectLibraries(top string) []string {
	var out []string
	for _, f := range KnownFolders {
		if IsLibrary(filepath.Join(top, filepath.FromSlash(f))) {
			out = append(out, f)
		}
	}
	return out
}

// ResolvePath is the folder a library path names when given in dir: an
// absolute path as it is; a relative one from dir, else, when that is no
// library, from the top of dir's work tree. A project's committed agent
// configuration names its library relative to the project (the agent may
// start the server from any of its folders).
func ResolvePath(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	here := filepath.Join(dir, p)
	if IsLibrary(here) {
		return here
	}
	if loc, err := Find(dir); err == nil && loc.Top != "" {
		if top := filepath.Join(loc.Top, p); IsLibrary(top) {
			return top
		}
	}
	return here
}

// SkillsFolder is the first known skills folder of the work tree top
// that holds at least one skill but no library, or "".
func SkillsFolder(top string) string {
	for _, f := range KnownFolders {
		dir := filepath.Join(top, filepath.FromSlash(f))
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "SKILL.md")); err == nil {
				return f
			}
		}
	}
	return ""
}

// Rel is target as a path to type in dir: relative when it is short and
// does not climb far, else absolute.
func Rel(dir, target string) string {
	rel, err := filepath.Rel(dir, target)
	if err != nil || strings.Count(rel, "..") > 2 {
		return target
	}
	return rel
}
