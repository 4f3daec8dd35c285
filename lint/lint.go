package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark/parser"
)

// Options says what to lint and how.
type Options struct {
	// Profile is the runtime whose rules apply; empty means Config.Profile,
	// then [ProfileSpec].
	Profile Profile
	// Paths are the slash-separated paths inside the file system to lint: a
	// library or any folder of skills, one skill folder, or one SKILL.md.
	// Empty means ".".
	Paths []string
	// RootName is the name of the folder the file system is rooted at. The
	// name = folder rule needs it when a skill is the root itself.
	RootName string
	// Config holds the library's rule settings: the lint: section of
	// .skillrepo/config.yaml, which package skillrepo/config decodes
	// through [Config.UnmarshalYAML].
	Config Config
	// Strict turns warnings into errors.
	Strict bool
	// AllowEmpty makes a path that holds no skill at all clean instead of a
	// skill-md-missing error (a new library has no skills yet). Without
	// it, finding nothing is an error: CI that lints nothing must not pass.
	AllowEmpty bool
	// Workers bounds how many skills are checked at once; 0 means
	// GOMAXPROCS.
	Workers int
	// Progress, when set, hears each skill as it is checked.
	Progress Progress
}

// Validate fills in defaults and rejects an unknown profile or a path that
// is not a valid fs.FS path.
func (o *Options) Validate() error {
	if o.Profile == "" {
		o.Profile = o.Config.Profile
	}
	if o.Profile == "" {
		o.Profile = ProfileSpec
	}
	if !o.Profile.valid() {
		return fmt.Errorf("unknown profile %q: want one of %s", o.Profile, profileList())
	}
	paths := []string{"."}
	if len(o.Paths) > 0 {
		// A copy: cleaning must not rewrite the caller's slice.
		paths = make([]string, len(o.Paths))
		for k, p := range o.Paths {
			c := path.Clean(strings.TrimPrefix(p, "./"))
			if !fs.ValidPath(c) {
				return fmt.Errorf("path %q: not a slash-separated path inside the linted root", p)
			}
			paths[k] = c
		}
	}
	o.Paths = paths
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return nil
}

// Finding is one problem. Path is slash-separated and relative to the root
// of the linted file system; Line and Column are 1-based, 0 when the
// finding is about a whole file or folder. Column counts characters.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"`
	// Skill is the skill folder the finding belongs to ("" for findings
	// about the paths given).
	Skill string `json:"skill,omitempty"`
}

// Report is the result of a [Check], or of several joined by
// [Report.Append].
type Report struct {
	// Profile is the profile the skills were judged under; when the
	// scopes of a joined report used several, it is [ProfileMixed] and
	// Scopes say which applied where.
	Profile Profile
	// Scopes are the parts of a joined report, each linted under one
	// library's settings (nil for a single Check).
	Scopes []Scope
	// Skills are the skill folders checked, sorted.
	Skills []string
	// Findings come first for the paths given, then by skill folder and
	// within a skill in the order the checks ran (for skills-ref: the
	// reference validator's order). Never nil.
	Findings []Finding
}

// ProfileMixed is a joined report's Profile when its scopes were linted
// under different profiles.
const ProfileMixed Profile = "mixed"

// Scope is a part of a joined report linted under one set of settings:
// a library under its own, or the folders no library holds.
type Scope struct {
	// Path is the scope's folder, written as the findings' paths are.
	Path string `json:"path"`
	// Library reports whether Path is a library whose settings applied.
	Library bool    `json:"library"`
	Profile Profile `json:"profile"`
	Skills  int     `json:"skills"`
}

// Append joins part, linted as scope sc, to r: its skills and findings
// with every path rewritten by rebase (from part's root to r's), and the
// scope with part's profile and skill count.
func (r *Report) Append(part *Report, sc Scope, rebase func(string) string) {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if r.Skills == nil {
		r.Skills = []string{}
	}
	for _, s := range part.Skills {
		r.Skills = append(r.Skills, rebase(s))
	}
	for _, f := range part.Findings {
		f.Path = rebase(f.Path)
		if f.Skill != "" {
			f.Skill = rebase(f.Skill)
		}
		r.Findings = append(r.Findings, f)
	}
	sc.Profile, sc.Skills = part.Profile, len(part.Skills)
	r.Scopes = append(r.Scopes, sc)
	// The profile is the one that judged skills; a scope without any
	// (the rest of a project whose skills are all in libraries) applied
	// nothing.
	r.Profile = ""
	for _, x := range r.Scopes {
		switch {
		case x.Skills == 0:
		case r.Profile == "":
			r.Profile = x.Profile
		case x.Profile != r.Profile:
			r.Profile = ProfileMixed
		}
	}
	if r.Profile == "" {
		r.Profile = r.Scopes[0].Profile
	}
}

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// HasErrors reports whether any finding is an error.
func (r *Report) HasErrors() bool { return r.Count(Error) > 0 }

// Check lints the skills under opts.Paths in fsys. It reads only through
// fsys (the files of an os.DirFS with fewer system calls, the same files),
// so it works on a folder (os.DirFS or an os.Root's FS), a commit's tree
// or a proposal's tree. It follows a symbolic link only when fsys
// can read links (fs.ReadLinkFS) and the link, resolved through every
// component, stays inside the root. Problems with the skills are findings,
// never errors; the error is non-nil only for invalid options.
//
// Check is safe for concurrent use; fsys must be safe for concurrent reads.
func Check(fsys fs.FS, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	c := &checker{fsys: fsys, opts: opts, md: newMarkdownParser()}
	c.osDir, _ = osDirRoot(fsys)
	var top []Finding
	var skills []skillRef
	seen := map[string]bool{}
	for _, p := range opts.Paths {
		found, fnd := c.resolveTarget(p)
		top = append(top, fnd...)
		for _, s := range found {
			if !seen[s.dir] {
				seen[s.dir] = true
				skills = append(skills, s)
			}
		}
	}
	sort.Slice(skills, func(a, b int) bool { return skills[a].dir < skills[b].dir })
	if !c.skillsRef() {
		c.archives(skills)
	}

	progress := opts.Progress
	if progress == nil {
		progress = noProgress{}
	}
	progress.Start("linting skills", len(skills))
	defer progress.Done()
	results := make([]skillResult, len(skills))
	var wg sync.WaitGroup
	next := make(chan int)
	for k := 0; k < opts.Workers && k < len(skills); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				results[n] = c.checkSkill(skills[n])
			}
		}()
	}
	for n := range skills {
		next <- n
		progress.Add(1)
	}
	close(next)
	wg.Wait()

	c.duplicates(results)
	rep := &Report{Profile: opts.Profile, Skills: make([]string, 0, len(skills)), Findings: []Finding{}}
	rep.Findings = append(rep.Findings, top...)
	for k, s := range skills {
		rep.Skills = append(rep.Skills, s.dir)
		rep.Findings = append(rep.Findings, results[k].findings...)
	}
	return rep, nil
}

// checker holds one Check's inputs; its methods only read it, so workers
// share it.
type checker struct {
	fsys fs.FS
	opts Options
	md   parser.Parser // shared by the workers; see newMarkdownParser
	// osDir is the folder fsys reads when it is an os.DirFS (see
	// readFile), else "".
	osDir string
}

// skillRef is a skill folder found on disk, the name of its main file
// (SKILL.md, or skill.md when only that exists) and, when discovery read
// it, the folder's listing.
type skillRef struct {
	dir     string
	file    string
	entries []fs.DirEntry
	// archived is the archive of the skill's library, nil when it has
	// none (see archived.go).
	archived *archiveSet
}

// finding returns the finding for rule id with its effective severity, and
// false when the rule is off.
func (c *checker) finding(id, p string, line, col int, hint, format string, args ...any) (Finding, bool) {
	sev := c.opts.Config.severity(id, c.opts.Profile, c.opts.Strict)
	if sev == Off {
		return Finding{}, false
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Finding{Rule: id, Severity: sev, Path: p, Line: line, Column: col, Message: msg, Hint: hint}, true
}

// findings collects a list of findings, dropping those whose rule is off.
type findings struct {
	c     *checker
	skill string
	list  []Finding
}

func (fl *findings) add(id, p string, line, col int, hint, format string, args ...any) {
	if f, ok := fl.c.finding(id, p, line, col, hint, format, args...); ok {
		f.Skill = fl.skill
		fl.list = append(fl.list, f)
	}
}

func (c *checker) skillsRef() bool { return c.opts.Profile == ProfileSkillsRef }

// resolveTarget turns one path argument into skill folders, with findings
// for a path that does not exist or holds no skill.
func (c *checker) resolveTarget(p string) ([]skillRef, []Finding) {
	fl := &findings{c: c}
	fi, err := fs.Stat(c.fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if c.skillsRef() {
				fl.add("target-missing", p, 0, 0, "", "Path does not exist: %s", p)
			} else {
				fl.add("target-missing", p, 0, 0, "check the path", "path %s does not exist", p)
			}
		} else {
			fl.add("read-error", p, 0, 0, "", "cannot read %s: %v", p, err)
		}
		return nil, fl.list
	}
	if !fi.IsDir() {
		if strings.EqualFold(path.Base(p), "skill.md") {
			dir := path.Dir(p)
			return []skillRef{{dir: dir, file: c.skillFile(dir, path.Base(p))}}, nil
		}
		if c.skillsRef() {
			fl.add("target-not-skill", p, 0, 0, "", "Not a directory: %s", p)
		} else {
			fl.add("target-not-skill", p, 0, 0, "pass a skill folder, a folder of skills or a SKILL.md", "%s is not a skill folder or a SKILL.md", p)
		}
		return nil, fl.list
	}
	w := walker{c: c, fl: fl}
	w.discover(p, 0, true)
	if len(w.skills) == 0 && len(fl.list) == 0 && !c.opts.AllowEmpty {
		if c.skillsRef() {
			fl.add("skill-md-missing", p, 0, 0, "", "Missing required file: SKILL.md")
		} else {
			fl.add("skill-md-missing", p, 0, 0, "a skill is a folder holding a SKILL.md; hidden folders (.claude/skills, .agents/skills) were searched, .git, .archive, node_modules and vendored trees were not; to accept no skills, pass --allow-empty", "no skills found in %s: no folder below it holds a SKILL.md", p)
		}
	}
	return w.skills, fl.list
}

// skillFile picks the main file of a skill folder: SKILL.md when it
// exists (the reference prefers it), else the name given.
func (c *checker) skillFile(dir, given string) string {
	if given == "SKILL.md" {
		return given
	}
	if fi, err := fs.Stat(c.fsys, path.Join(dir, "SKILL.md")); err == nil && !fi.IsDir() {
		return "SKILL.md"
	}
	return given
}
