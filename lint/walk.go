package lint

import (
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

// discover records dir as a skill when it holds a SKILL.md (or skill.md),
// else descends into its sub-folders. Hidden folders (.git, .archive, ...)
// and node_modules are skipped unless given explicitly.
func (w *walker) discover(dir string, depth int, explicit bool) {
	if !explicit && w.c.opts.Config.Excluded(dir) {
		return
	}
	entries, err := fs.ReadDir(w.c.fsys, dir)
	if err != nil {
		w.fl.add("read-error", dir, 0, 0, "", "cannot read folder %s: %v", dir, err)
		return
	}
	file := ""
	hasSupport := false
	for _, e := range entries {
		switch e.Name() {
		case "SKILL.md":
			if !e.IsDir() {
				file = "SKILL.md"
			}
		case "skill.md":
			if !e.IsDir() && file == "" {
				file = "skill.md"
			}
		}
		if e.IsDir() && isSupportDir(e.Name()) {
			hasSupport = true
		}
	}
	if file != "" {
		w.skills = append(w.skills, skillRef{dir: dir, file: file})
		return
	}
	if hasSupport && !explicit && !w.c.skillsRef() {
		// A folder with references/ or scripts/ but no SKILL.md is almost
		// always a skill whose main file was deleted or misnamed.
		w.fl.add("skill-md-missing", dir, 0, 0, "restore "+path.Join(dir, "SKILL.md")+" or remove the folder", "%s has support folders but no SKILL.md", dir)
		return
	}
	if depth >= maxDepth {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
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
			w.discover(p, depth+1, false)
		}
	}
}

func isSupportDir(name string) bool {
	switch name {
	case "references", "templates", "scripts", "assets":
		return true
	}
	return false
}

// followLink decides whether the symbolic link at p may be followed: its
// target must stay inside the linted root and must not be one of p's own
// parent folders (a loop). It returns whether the target is a folder.
// Without fs.ReadLinkFS it trusts the file system, whose Stat follows
// links (an os.Root's FS itself refuses links that leave the root).
func (c *checker) followLink(p string, fl *findings) (isDir, ok bool) {
	if rl, can := c.fsys.(fs.ReadLinkFS); can {
		cur := p
		for hop := 0; ; hop++ {
			if hop > 40 {
				fl.add("read-error", p, 0, 0, "", "too many levels of symbolic links at %s", p)
				return false, false
			}
			target, err := rl.ReadLink(cur)
			if err != nil {
				fl.add("read-error", p, 0, 0, "", "cannot read symbolic link %s: %v", p, err)
				return false, false
			}
			if strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || (len(target) > 1 && target[1] == ':') {
				fl.add("symlink-outside-root", p, 0, 0, "copy the skill into the library instead of linking to it", "symbolic link %s points outside the linted folder (%s); not followed", p, target)
				return false, false
			}
			next := path.Join(path.Dir(cur), target)
			if next == ".." || strings.HasPrefix(next, "../") {
				fl.add("symlink-outside-root", p, 0, 0, "copy the skill into the library instead of linking to it", "symbolic link %s points outside the linted folder (%s); not followed", p, target)
				return false, false
			}
			if next == "." || strings.HasPrefix(p+"/", next+"/") {
				return false, false // a link to a parent folder: a loop
			}
			fi, err := rl.Lstat(next)
			if err != nil {
				return false, false // dangling link: nothing to lint
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				return fi.IsDir(), true
			}
			cur = next
		}
	}
	fi, err := fs.Stat(c.fsys, p)
	if err != nil {
		return false, false
	}
	return fi.IsDir(), true
}

// tree is the content of one skill folder: every file and folder, by slash
// path relative to the skill folder.
type tree struct {
	files []string
	dirs  map[string]bool
	set   map[string]bool // files and folders
}

func (t *tree) has(p string) bool { return p == "." || t.set[p] }

// collect lists the skill folder dir recursively.
func (c *checker) collect(dir string, fl *findings) *tree {
	t := &tree{dirs: map[string]bool{}, set: map[string]bool{}}
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		full := path.Join(dir, rel)
		entries, err := fs.ReadDir(c.fsys, full)
		if err != nil {
			fl.add("read-error", full, 0, 0, "", "cannot read folder %s: %v", full, err)
			return
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
