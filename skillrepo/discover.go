package skillrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// Location is where a folder sits: the git work tree and the library
// holding it. Every command finds its library through [findLibrary] (or,
// to read without a library, [Locate]), so they agree on which library a
// folder belongs to.
type Location struct {
	// Dir is the folder asked about, absolute and clean.
	Dir string
	// Top is the work tree holding Dir: the nearest folder at or above
	// it with a .git (a folder, or a file in a linked worktree or
	// submodule); "" outside any repository.
	Top string
	// Library is the library's root: the nearest folder at or above Dir
	// holding a .skillrepo/config.yaml, never above Top; "" when there is
	// none. [findLibrary] may fill it with the project's only library.
	Library string
	// Inferred is set by [findLibrary] when Library does not hold Dir: it
	// is the only library of Dir's project, which the command uses (as
	// git finds its repository from a sub-folder).
	Inferred bool
}

// Locate finds the work tree and the library holding dir; outside any
// repository the library is the nearest folder with a config. It reads
// only the folders on the way up.
func Locate(dir string) (Location, error) {
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

// KnownLibraryFolders are the folders where projects keep their agents'
// skills; a command run elsewhere in the project uses the one that is a
// library, or names them when several are.
var KnownLibraryFolders = []string{".claude/skills", ".agents/skills", ".codex/skills", ".gemini/skills", ".github/skills", "skills"}

// projectLibraries lists the known folders of the work tree top that are
// libraries (slash paths relative to top).
func projectLibraries(top string) []string {
	var out []string
	for _, f := range KnownLibraryFolders {
		if IsLibrary(filepath.Join(top, filepath.FromSlash(f))) {
			out = append(out, f)
		}
	}
	return out
}

// findLibrary is the library a command run in dir works on: the one
// holding dir, else, in a project whose known skills folders hold
// exactly one library, that one (Inferred). Errors match ErrNotLibrary
// and carry a hint: outside any repository; a project with several
// libraries (named); a project with none (naming a skills folder that
// holds skills but is not a library yet, when there is one).
func findLibrary(dir string) (Location, error) {
	loc, err := Locate(dir)
	if err != nil {
		return loc, err
	}
	if loc.Top == "" {
		return loc, WithHint(fmt.Errorf("%s: %w (no git repository here or above)", loc.Dir, ErrNotLibrary), "run 'skillrepo init' in the skills folder")
	}
	if loc.Library != "" {
		return loc, nil
	}
	switch inHead, sparse := configMissing(loc.Top, OpenOptions{Getenv: os.Getenv, Now: time.Now}); {
	case inHead && sparse:
		return loc, WithHint(fmt.Errorf("%s: %s is outside the sparse checkout", loc.Top, config.Path),
			"add it with 'git sparse-checkout add .skillrepo' (a cone keeps only the top folder's files and the folders you list)")
	case inHead:
		return loc, WithHint(fmt.Errorf("%s: %s was deleted from the work tree (the checked-out commit has it)", loc.Top, config.Path),
			"restore it with 'git checkout HEAD -- "+config.Path+"'")
	}
	found := projectLibraries(loc.Top)
	switch {
	case len(found) == 1:
		loc.Library, loc.Inferred = filepath.Join(loc.Top, filepath.FromSlash(found[0])), true
		return loc, nil
	case len(found) > 1:
		return loc, WithHint(fmt.Errorf("%s: %w (no %s here or above; this repository has libraries in %s)", loc.Dir, ErrNotLibrary, config.Path, strings.Join(found, ", ")),
			"run the command inside the library's folder, or pass -C "+relTo(loc.Dir, filepath.Join(loc.Top, filepath.FromSlash(found[0]))))
	}
	if folder := skillsFolder(loc.Top); folder != "" {
		target := relTo(loc.Dir, filepath.Join(loc.Top, filepath.FromSlash(folder)))
		return loc, WithHint(fmt.Errorf("%s: %w (no %s; %s holds skills but is not a library yet)", loc.Dir, ErrNotLibrary, config.Path, folder),
			"run 'skillrepo init "+target+"' to turn it into a library")
	}
	return loc, WithHint(fmt.Errorf("%s: %w (no %s)", loc.Top, ErrNotLibrary, config.Path), "run 'skillrepo init "+dir+"' to turn this folder into a library")
}

// ResolveLibraryPath is the folder a library path names when given in dir:
// an absolute path as it is; a relative one from dir, else, when that is
// no library, from the top of dir's work tree. A project's committed agent
// configuration names its library relative to the project (the agent may
// start the server from any of its folders).
func ResolveLibraryPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	here := filepath.Join(dir, p)
	if IsLibrary(here) {
		return here
	}
	if loc, err := Locate(dir); err == nil && loc.Top != "" {
		if top := filepath.Join(loc.Top, p); IsLibrary(top) {
			return top
		}
	}
	return here
}

// skillsFolder is the first known skills folder of the work tree top
// that holds at least one skill but no library, or "".
func skillsFolder(top string) string {
	for _, f := range KnownLibraryFolders {
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

// relTo is target as a path to type in dir: relative when it is short
// and does not climb far, else absolute.
func relTo(dir, target string) string {
	rel, err := filepath.Rel(dir, target)
	if err != nil || strings.Count(rel, "..") > 2 {
		return target
	}
	return rel
}

// libraryPrefix is libRoot relative to the work tree root, slash-separated
// ("" when they are the same folder).
func libraryPrefix(root, libRoot string) (string, error) {
	rel, err := filepath.Rel(root, libRoot)
	if err != nil {
		return "", err
	}
	return gitstore.CleanPrefix(filepath.ToSlash(rel))
}
