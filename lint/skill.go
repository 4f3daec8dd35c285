package lint

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Size guidance from the specification's best practices.
const (
	maxLines      = 500
	maxBodyTokens = 5000
	// maxTextFile bounds the support files read for references; larger
	// files (data, binaries) are neither scanned nor needed to be.
	maxTextFile = 4 << 20
)

// skillResult is what checking one skill produced.
type skillResult struct {
	dir      string
	file     string // main file, relative to the root
	name     string // NFKC name, "" when missing or invalid
	nameLine int
	nameCol  int
	findings []Finding
}

// dirName is the folder name of skill folder dir, using the root's own
// name for ".".
func (c *checker) dirName(dir string) string {
	if dir == "." {
		return c.opts.RootName
	}
	return path.Base(dir)
}

// checkSkill runs every per-skill rule on one skill folder.
func (c *checker) checkSkill(s skillRef) skillResult {
	fl := &findings{c: c, skill: s.dir}
	file := path.Join(s.dir, s.file)
	res := skillResult{dir: s.dir, file: file}
	data, err := c.readRegular(file, maxTextFile)
	if err != nil {
		fl.add("read-error", file, 0, 0, "", "cannot read %s: %v", file, err)
		res.findings = fl.list
		return res
	}
	if c.skillsRef() {
		c.checkSkillsRef(fl, file, c.dirName(s.dir), data)
		res.findings = fl.list
		return res
	}
	if s.file != skill.FileName {
		fl.add("skill-md-case", file, 0, 0, "rename it to SKILL.md", "the skill file is named %s; runtimes look for SKILL.md", s.file)
	}
	if !utf8.Valid(data) {
		fl.add("utf8-invalid", file, invalidUTF8Line(data), 0, "save the file as UTF-8", "%s is not valid UTF-8", s.file)
		res.findings = fl.list
		return res
	}
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		fl.add("bom", file, 1, 1, "save the file without a byte order mark", "%s starts with a UTF-8 byte order mark, which some runtimes do not strip", s.file)
		data = data[3:]
	}
	text := string(data)
	if k := strings.Index(text, "\r\n"); k >= 0 {
		fl.add("crlf", file, strings.Count(text[:k], "\n")+1, 0, "", "%s uses CRLF line endings", s.file)
	}

	c.checkDepth(fl, s.dir, file)
	fm := splitFrontmatter(text)
	sc := &skillCheck{c: c, fl: fl, file: file, dir: s.dir, res: &res, archived: s.archived}
	switch {
	case !fm.present:
		fl.add("frontmatter-missing", file, 1, 1, "start the file with ---, name: and description: lines, and a closing ---", "%s must start with YAML frontmatter (a --- line)", s.file)
	case !fm.closed:
		fl.add("frontmatter-unclosed", file, 1, 1, "add a --- line after the frontmatter", "the frontmatter has no closing --- line")
	default:
		sc.checkFrontmatter(fm)
	}

	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") && text != "" {
		lines++
	}
	if lines > maxLines {
		fl.add("body-too-long", file, maxLines+1, 0, "move detail into references/ files and link them", "%s has %d lines; keep it under %d", s.file, lines, maxLines)
	}
	if fm.closed || !fm.present {
		body := fm.body
		if strings.TrimSpace(body) == "" && fm.closed {
			// The body may start after the last line (nothing follows the
			// closing ---): point at the last line, which exists.
			fl.add("body-empty", file, min(fm.bodyAt, max(lines, 1)), 0, "write the instructions after the frontmatter", "%s has no instructions after the frontmatter", s.file)
		}
		if n := estimateTokens(body); n > maxBodyTokens {
			fl.add("body-too-many-tokens", file, fm.bodyAt, 0, "move detail into references/ files and link them", "the body is about %d tokens; keep it under %d", n, maxBodyTokens)
		}
	}

	t := c.collect(s, fl)
	sc.checkReferences(t, text, data[len(data)-len(fm.body):], fm)
	// Within a skill, findings read top to bottom, file by file; the
	// stable sort keeps check order on one line.
	sort.SliceStable(fl.list, func(a, b int) bool {
		x, y := fl.list[a], fl.list[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	res.findings = fl.list
	return res
}

// estimateTokens approximates a tokenizer: about four characters a token
// for English prose and code.
func estimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}

// skillCheck carries one skill's state between its checks.
type skillCheck struct {
	c    *checker
	fl   *findings
	file string // the main file, relative to the root
	dir  string // the skill folder, relative to the root
	res  *skillResult
	// yamlLine is the file line of the first YAML line.
	yamlLine int
	// archived is the archive of the skill's library, or nil.
	archived *archiveSet
}

// pos converts a yaml.v3 node position to a file line and column.
func (sc *skillCheck) pos(line, col int) (int, int) {
	if line == 0 {
		return 0, 0
	}
	return sc.yamlLine + line - 1, col
}

// duplicates adds a finding to every skill whose name an earlier folder
// (in path order) already uses.
func (c *checker) duplicates(results []skillResult) {
	first := map[string]string{}
	for k := range results {
		r := &results[k]
		if r.name == "" {
			continue
		}
		prev, ok := first[r.name]
		if !ok {
			first[r.name] = r.dir
			continue
		}
		fl := &findings{c: c, skill: r.dir, list: r.findings}
		fl.add("duplicate-name", r.file, r.nameLine, r.nameCol, "rename one of them, or archive the older one", "skill name %q is also used by %s", r.name, prev)
		r.findings = fl.list
	}
}

// normName is the form names are compared in.
func normName(s string) string { return norm.NFKC.String(strings.TrimSpace(s)) }

// libraryConfig is where a skills library keeps its settings; the nearest
// folder above a skill holding it is the skill's library.
const libraryConfig = ".skillrepo/config.yaml"

// checkDepth reports a skill deeper than <library>/<name>/SKILL.md, which
// Gemini CLI's loader (SKILL.md and */SKILL.md of a skills folder) never
// reads: a category folder is invisible to it. The library is the
// nearest folder above the skill with a .skillrepo/config.yaml, else the
// root linted.
func (c *checker) checkDepth(fl *findings, dir, file string) {
	if dir == "." || c.opts.Config.severity("skill-depth", c.opts.Profile, c.opts.Strict) == Off {
		return
	}
	lib := "."
	for d := path.Dir(dir); d != "."; d = path.Dir(d) {
		if _, err := fs.Stat(c.fsys, path.Join(d, libraryConfig)); err == nil {
			lib = d
			break
		}
	}
	rel := dir
	if lib != "." {
		rel = strings.TrimPrefix(dir, lib+"/")
	}
	if depth := strings.Count(rel, "/") + 1; depth > 1 {
		fl.add("skill-depth", file, 0, 0, "move the skill to <library>/"+path.Base(dir)+" (no category folder)",
			"%s is %d folders down its library; Gemini CLI reads SKILL.md and */SKILL.md only, so it never loads this skill", file, depth)
	}
}
