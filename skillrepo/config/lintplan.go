package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/lint"
)

// LintScope is a part of a tree linted under one set of settings: a
// library under its own, or the paths no library holds under the
// defaults.
type LintScope struct {
	// Dir is the slash path, in the file system planned, of the folder
	// the scope is rooted at: a library's root, or "." for the paths no
	// library holds.
	Dir string
	// Library reports whether Dir is a library (its settings apply).
	Library bool
	// Settings are the library's lint settings ([Config.LintSettings]),
	// the zero Config outside a library, with the libraries nested in
	// the scope's paths excluded: each is a scope of its own.
	Settings lint.Config
	// Paths are the targets, relative to Dir.
	Paths []string
	// Found: the scope is a library found inside a target rather than
	// named by one (its findings and the target's are one verdict).
	Found bool
}

// PlanLint decides under which settings each target is linted, so that
// every entry point (the command, the git hook through git's index, CI)
// gives one verdict. targets are slash paths in fsys ("." is its root;
// a target may not exist). Each is linted under the library holding it:
// the nearest folder at or above it holding a .skillrepo/config.yaml
// (within fsys, which is rooted at the work tree's top or at a folder
// outside any library). A target no library holds lints every library
// below it under that library's own settings (libraries inside a
// library are the outer one's). root is where fsys is on disk (or where
// git's index would put it), for runtimes detected from a library's
// path. Scopes come in the order of their first target. Errors: a config
// that cannot be read or parsed, naming it.
func PlanLint(fsys fs.FS, root string, targets []string) ([]LintScope, error) {
	var scopes []*LintScope
	byDir := map[string]*LintScope{}
	scope := func(dir string, library bool) (*LintScope, error) {
		if s, ok := byDir[dir]; ok {
			return s, nil
		}
		s := &LintScope{Dir: dir, Library: library}
		if library {
			cfg, err := readConfigFS(fsys, root, dir)
			if err != nil {
				return nil, err
			}
			s.Settings = cfg.LintSettings()
		}
		byDir[dir] = s
		scopes = append(scopes, s)
		return s, nil
	}
	for _, t := range targets {
		t = path.Clean(t)
		owner, ok := owningLibrary(fsys, t)
		if ok {
			s, err := scope(owner, true)
			if err != nil {
				return nil, err
			}
			s.Paths = append(s.Paths, relSlash(owner, t))
			continue
		}
		outer, err := scope(".", false)
		if err != nil {
			return nil, err
		}
		outer.Paths = append(outer.Paths, t)
		for _, lib := range librariesBelow(fsys, t) {
			s, err := scope(lib, true)
			if err != nil {
				return nil, err
			}
			if len(s.Paths) == 0 {
				s.Paths, s.Found = append(s.Paths, "."), true
			}
			outer.Settings.Exclude = append(outer.Settings.Exclude, escapeMatch(lib))
		}
	}
	out := make([]LintScope, 0, len(scopes))
	for _, s := range scopes {
		if len(s.Paths) > 0 {
			out = append(out, *s)
		}
	}
	return out, nil
}

// owningLibrary is the nearest folder at or above the slash path p of
// fsys that is a library.
func owningLibrary(fsys fs.FS, p string) (string, bool) {
	for d := p; ; d = path.Dir(d) {
		if isLibraryFS(fsys, d) {
			return d, true
		}
		if d == "." || d == "/" {
			return "", false
		}
	}
}

// librariesBelow lists the libraries under the folder dir of fsys, in the
// folders lint's discovery searches, sorted. A skill folder or a library
// is not searched further.
func librariesBelow(fsys fs.FS, dir string) []string {
	var libs []string
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // unreadable folders are lint's to report
		}
		if p != dir && lint.SkipFolder(d.Name()) {
			return fs.SkipDir
		}
		if p != dir && isLibraryFS(fsys, p) {
			libs = append(libs, p)
			return fs.SkipDir
		}
		if isSkillFolder(fsys, p) {
			return fs.SkipDir
		}
		return nil
	})
	sort.Strings(libs)
	return libs
}

func isSkillFolder(fsys fs.FS, dir string) bool {
	for _, name := range []string{"SKILL.md", "skill.md"} {
		if fi, err := fs.Stat(fsys, joinSlash(dir, name)); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// readConfigFS parses the config of the library at the slash path dir of
// fsys (fsys's root is the folder root on disk).
func readConfigFS(fsys fs.FS, root, dir string) (Config, error) {
	name := joinSlash(dir, Path)
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > Limit {
		return Config{}, fmt.Errorf("%s: not a regular file of at most %d bytes", name, Limit)
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	cfg, err := Parse(b, filepath.Join(root, filepath.FromSlash(dir)))
	var problems *Error
	if errors.As(err, &problems) {
		problems.File = name // each problem names the file by its path in the tree
		return Config{}, err
	}
	if err != nil && dir != "." {
		return Config{}, fmt.Errorf("library %s: %w", dir, err)
	}
	return cfg, err
}

// relSlash is the slash path p relative to its parent folder dir.
func relSlash(dir, p string) string {
	if dir == "." {
		return p
	}
	if p == dir {
		return "."
	}
	return strings.TrimPrefix(p, dir+"/")
}

// escapeMatch quotes the pattern characters of a literal path, so an
// exclude pattern matches exactly that folder.
func escapeMatch(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isLibraryFS reports whether dir of fsys holds a library's config file.
func isLibraryFS(fsys fs.FS, dir string) bool {
	fi, err := fs.Stat(fsys, joinSlash(dir, Path))
	return err == nil && fi.Mode().IsRegular()
}

func joinSlash(dir, p string) string {
	if dir == "." || dir == "" {
		return p
	}
	return dir + "/" + p
}
