package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// maxDepth bounds folder recursion, so a symbolic-link loop the lexical
// checks miss still ends.
const maxDepth = 24

// walker finds skill folders below a path.
type walker struct {
	c      *checker
	fl     *findings
	skills []skillRef
}

// skippedFolders are the folders discovery never enters: version
// control, archived skills, library state, and installed or vendored
// dependency trees, whose SKILL.md files are not this repository's skills.
var skippedFolders = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".archive": true, ".skillrepo": true,
	".venv": true, "venv": true, ".tox": true, ".cache": true, ".hub": true,
	"node_modules": true, "bower_components": true, "vendor": true, "third_party": true,
	"site-packages": true, "__pycache__": true,
}

// SkipFolder reports whether discovery leaves the folder named name out
// when it searches for skills. Hidden folders are searched (.claude/skills,
// .agents/skills, .codex/skills, .github/skills are where projects keep
// skills); version control, archived skills (.archive), library state and
// dependency trees (node_modules, vendor, virtual environments) are not.
func SkipFolder(name string) bool { return skippedFolders[name] }

// SkippedPath reports whether a slash path lies in a folder [SkipFolder]
// leaves out.
func SkippedPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if skippedFolders[seg] {
			return true
		}
	}
	return false
}

// isSkillFile reports the names a skill's main file may have: SKILL.md,
// and any other casing (skill.md), which the skill-md-case rule reports.
func isSkillFile(name string) bool { return strings.EqualFold(name, "SKILL.md") }

// What discover found at a folder.
const (
	foundNothing = iota
	foundSkill   // the folder is a skill
	foundSuspect // support folders, no SKILL.md, no skill below
)

// discover records dir as a skill when it holds a SKILL.md (or skill.md),
// else searches its sub-folders ([SkipFolder] says which are left out,
// unless given explicitly). A folder with support folders but no SKILL.md
// and no skill below it, beside folders that are skills, is reported: it
// is almost always a skill whose main file was deleted or misnamed. (In a
// project's other folders, web/templates/ is no skill.)
func (w *walker) discover(dir string, depth int, explicit bool) int {
	if !explicit && w.c.opts.Config.Excluded(dir) {
		return foundNothing
	}
	entries, err := fs.ReadDir(w.c.fsys, dir)
	if err != nil {
		w.fl.add("read-error", dir, 0, 0, "", "cannot read folder %s: %v", dir, err)
		return foundNothing
	}
	file := ""
	hasSupport := false
	for _, e := range entries {
		if name := e.Name(); isSkillFile(name) && !e.IsDir() && (file == "" || name == "SKILL.md") {
			file = name
		}
		if e.IsDir() && isSupportDir(e.Name()) {
			hasSupport = true
		}
	}
	if file != "" {
		w.skills = append(w.skills, skillRef{dir: dir, file: file, entries: entries})
		return foundSkill
	}
	found := len(w.skills)
	var suspects []string
	skillsHere := false
	if depth < maxDepth {
		for _, e := range entries {
			name := e.Name()
			if SkipFolder(name) {
				continue
			}
			p := path.Join(dir, name)
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				var ok bool
				isDir, ok = w.c.followLink(p, w.fl)
				if !ok {
					continue
				}
			}
			if isDir {
				switch w.discover(p, depth+1, false) {
				case foundSkill:
					skillsHere = true
				case foundSuspect:
					suspects = append(suspects, p)
				}
			}
		}
	}
	if skillsHere && !w.c.skillsRef() {
		for _, p := range suspects {
			w.fl.add("skill-md-missing", p, 0, 0, "restore "+path.Join(p, "SKILL.md")+" or remove the folder", "%s has support folders but no SKILL.md", p)
		}
	}
	if hasSupport && len(w.skills) == found {
		return foundSuspect
	}
	return foundNothing
}

func isSupportDir(name string) bool {
	switch name {
	case "references", "templates", "scripts", "assets":
		return true
	}
	return false
}

// followLink decides whether the symbolic link at p may be followed: with
// every link on the way resolved (see [resolveLinks]), its target must stay
// inside the linted root and must not be one of p's own parent folders (a
// loop). It returns whether the target is a folder. Without fs.ReadLinkFS
// it trusts the file system, whose Stat follows links (an os.Root's FS
// refuses links that leave the root by itself).
func (c *checker) followLink(p string, fl *findings) (isDir, ok bool) {
	rl, can := c.fsys.(fs.ReadLinkFS)
	if !can {
		fi, err := fs.Stat(c.fsys, p)
		if err != nil {
			return false, false
		}
		return fi.IsDir(), true
	}
	target, inside, err := resolveLinks(rl, p)
	switch {
	case err != nil:
		if !errors.Is(err, fs.ErrNotExist) {
			fl.add("read-error", p, 0, 0, "", "cannot follow symbolic link %s: %v", p, err)
		}
		return false, false // a dangling link: nothing to lint
	case !inside:
		fl.add("symlink-outside-root", p, 0, 0, "copy the skill into the library instead of linking to it", "symbolic link %s points outside the linted folder; not followed", p)
		return false, false
	case target == "." || strings.HasPrefix(p+"/", target+"/"):
		return false, false // a link to one of its own parent folders: a loop
	}
	fi, err := rl.Lstat(target)
	if err != nil {
		return false, false
	}
	return fi.IsDir(), true
}

// resolveLinks returns slash path p with every symbolic link in it, in
// any component, replaced by its target, as the kernel would resolve it;
// inside is false when a link is absolute or climbs above the root.
// Checking only the last link would let "a -> b/c" escape through a
// parent "b -> /etc".
func resolveLinks(rl fs.ReadLinkFS, p string) (resolved string, inside bool, err error) {
	parts := strings.Split(p, "/")
	cur := "."
	for hops := 0; len(parts) > 0; {
		part := parts[0]
		parts = parts[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if cur == "." {
				return "", false, nil
			}
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, part)
		fi, err := rl.Lstat(next)
		if err != nil {
			return "", true, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", true, fmt.Errorf("too many levels of symbolic links at %s", p)
		}
		target, err := rl.ReadLink(next)
		if err != nil {
			return "", true, err
		}
		if strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || (len(target) > 1 && target[1] == ':') {
			return "", false, nil
		}
		parts = append(strings.Split(target, "/"), parts...)
	}
	return cur, true, nil
}

// tree is the content of one skill folder: every file and folder, by slash
// path relative to the skill folder.
type tree struct {
	files []string
	dirs  map[string]bool
	set   map[string]bool // files and folders
}

func (t *tree) has(p string) bool { return p == "." || t.set[p] }

// collect lists the skill folder s.dir recursively, reusing the listing
// discovery already read (one fewer ReadDir per skill counts at 10,000
// skills).
func (c *checker) collect(s skillRef, fl *findings) *tree {
	dir := s.dir
	t := &tree{dirs: map[string]bool{}, set: map[string]bool{}}
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		full := path.Join(dir, rel)
		entries := s.entries
		if rel != "." || entries == nil {
			var err error
			entries, err = fs.ReadDir(c.fsys, full)
			if err != nil {
				fl.add("read-error", full, 0, 0, "", "cannot read folder %s: %v", full, err)
				return
			}
		}
		for _, e := range entries {
			p := path.Join(rel, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				var ok bool
				isDir, ok = c.followLink(path.Join(dir, p), fl)
				if !ok {
					continue
				}
			}
			t.set[p] = true
			if isDir {
				t.dirs[p] = true
				if depth < maxDepth && e.Name() != ".git" && e.Name() != "node_modules" {
					walk(p, depth+1)
				}
				continue
			}
			t.files = append(t.files, p)
		}
	}
	walk(".", 0)
	return t
}
