package lint

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The skill-ref-archived rule: a skill's text that names a skill which
// exists only under the library's .archive/ folder (archived by a person
// or consolidated into an umbrella by the curator) sends the agent to a
// skill it cannot load. The library of a skill is the nearest folder above
// it holding .archive/; an archived name that an active skill of that
// library also uses (restored or re-created) is no finding.

// archiveFolder is where a library keeps its archived skills.
const archiveFolder = ".archive"

// archiveSuffix is the -YYYYMMDDHHMMSS (and -N) suffix an archived folder
// gets when .archive/<name> is already taken (the skillrepo engine names
// them so; lint must not import it).
var archiveSuffix = regexp.MustCompile(`-[0-9]{14}(-[0-9]+)?$`)

// archiveSet is the archived skill names of one library.
type archiveSet struct {
	dir   string          // the .archive folder, relative to the root
	names map[string]bool // archived and not active
}

// archives finds the archive of each skill's library and sets
// skills[k].archived. Names a library's active skills use are taken out:
// from the skills found when a target covered the whole library, else
// from a discovery of the library (one skill of it was linted).
func (c *checker) archives(skills []skillRef) {
	libs := map[string]*archiveSet{} // library folder → its archive, nil when none
	for k := range skills {
		for d := skills[k].dir; d != "."; {
			d = path.Dir(d)
			set, ok := libs[d]
			if !ok {
				set = c.readArchive(d)
				libs[d] = set
			}
			if set != nil {
				skills[k].archived = set
				break
			}
		}
	}
	for lib, set := range libs {
		if set == nil || len(set.names) == 0 {
			continue
		}
		active := skills
		if !c.covered(lib) {
			w := walker{c: c, fl: &findings{c: c}}
			w.discover(lib, 0, true)
			active = w.skills
		}
		for _, s := range active {
			if lib == "." || strings.HasPrefix(s.dir, lib+"/") {
				delete(set.names, path.Base(s.dir))
			}
		}
	}
}

// covered reports whether one of the paths linted is folder dir or holds
// it, so discovery found all of its skills.
func (c *checker) covered(dir string) bool {
	for _, p := range c.opts.Paths {
		if p == "." || p == dir || strings.HasPrefix(dir, p+"/") {
			return true
		}
	}
	return false
}

// readArchive returns the archive of the library at lib, or nil when lib
// has no .archive folder.
func (c *checker) readArchive(lib string) *archiveSet {
	dir := path.Join(lib, archiveFolder)
	entries, err := fs.ReadDir(c.fsys, dir)
	if err != nil {
		return nil
	}
	set := &archiveSet{dir: dir, names: map[string]bool{}}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		// An archived skill is .archive/<name>; a folder without a
		// SKILL.md is a category kept whole (.archive/devops/<name>).
		if _, err := fs.Stat(c.fsys, path.Join(dir, e.Name(), "SKILL.md")); err == nil {
			set.names[archiveSuffix.ReplaceAllString(e.Name(), "")] = true
			continue
		}
		sub, err := fs.ReadDir(c.fsys, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, s := range sub {
			if s.IsDir() {
				set.names[archiveSuffix.ReplaceAllString(s.Name(), "")] = true
			}
		}
	}
	return set
}

// checkArchivedRefs reports the archived skill names each text names,
// once per name and file, where first named. A name with a hyphen
// (gateway-retry) counts wherever it stands as a word; a one-word name
// only in backticks or followed by "skill", since it is also an ordinary
// word.
func (sc *skillCheck) checkArchivedRefs(set *archiveSet, texts []skillText) {
	if set == nil || len(set.names) == 0 {
		return
	}
	own := path.Base(sc.dir)
	for k := range texts {
		tx := &texts[k]
		seen := map[string]bool{}
		text := tx.str()
		for k := 0; k < len(text); {
			if !isNameByte(text[k]) {
				k++
				continue
			}
			j := k
			for j < len(text) && isNameByte(text[j]) {
				j++
			}
			word := text[k:j]
			start := k
			k = j
			if !set.names[word] || seen[word] || word == own || !archivedRef(text, start, j, word) {
				continue
			}
			seen[word] = true
			line := strings.Count(text[:start], "\n") + 1
			col := utf8.RuneCountInString(text[strings.LastIndexByte(text[:start], '\n')+1:start]) + 1
			sc.fl.add("skill-ref-archived", path.Join(sc.dir, tx.rel), line, col,
				"name the skill that replaced it (skillrepo skill log "+word+" says where it went), or restore it with skillrepo skill restore "+word,
				"names the skill %q, which is archived (it exists only under %s/)", word, set.dir)
		}
	}
}

// isNameByte reports the bytes of a skill name as a word: lowercase
// letters, digits and hyphens (upper case makes it another word).
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 'A' && c <= 'Z'
}

// archivedRef decides whether the word text[start:end] refers to the
// skill: not part of a path or file name (a '/' or '.' before it, an
// extension after it), and for a one-word name in backticks or followed
// by "skill".
func archivedRef(text string, start, end int, word string) bool {
	if start > 0 && (text[start-1] == '/' || text[start-1] == '.') {
		return false
	}
	if end+1 < len(text) && text[end] == '.' && isNameByte(text[end+1]) {
		return false
	}
	if strings.Contains(word, "-") {
		return true
	}
	if start > 0 && text[start-1] == '`' && end < len(text) && text[end] == '`' {
		return true
	}
	rest := strings.TrimLeft(text[end:min(end+16, len(text))], "` ")
	return strings.HasPrefix(rest, "skill")
}
