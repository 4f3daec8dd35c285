package lint

import (
	"bytes"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"unicode/utf8"
)

// textExts are the support files read to see which other files they
// name: Markdown is also checked for dangling links, code and templates
// only count as references (a script that loads templates/x.j2 uses it).
var textExts = map[string]bool{
	".md": true, ".markdown": true, ".txt": true, ".py": true, ".sh": true, ".bash": true,
	".zsh": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".rb": true, ".go": true,
	".pl": true, ".ps1": true, ".bat": true, ".html": true, ".htm": true, ".j2": true,
	".jinja": true, ".tmpl": true, ".tpl": true, ".yaml": true, ".yml": true, ".json": true,
	".toml": true, ".xml": true, ".css": true,
}

func isMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

// hidden reports whether a slash path has a segment starting with '.'.
func hidden(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
			return true
		}
	}
	return false
}

// skillText is one text file of a skill, by path relative to the skill:
// its text, or the bytes it was read into until the text is asked for
// (most skills need only the bytes, for the Markdown scan).
type skillText struct {
	rel  string
	text string
	data []byte
}

// str returns the file's text, made from its bytes on first use.
func (t *skillText) str() string {
	if t.text == "" && len(t.data) > 0 {
		t.text = string(t.data)
		t.data = nil
	}
	return t.text
}

// size is the file's length in bytes.
func (t *skillText) size() int { return max(len(t.text), len(t.data)) }

// checkReferences checks the links and path mentions in SKILL.md and the
// skill's other Markdown files, then reports support files nothing
// reaches (see reach.go). Text files are indexed for names only while some
// candidate is still unreached after the links and mentions, and code and
// templates are read only then: they can only rescue an orphan, and most
// skills have none.
//
// skillMD is SKILL.md's text, body the bytes of its body (fm.body), which
// the Markdown scan reads without another copy.
func (sc *skillCheck) checkReferences(t *tree, skillMD string, body []byte, fm frontmatter) {
	mainRel := path.Base(sc.file)
	used := map[string]bool{}
	texts := []skillText{{rel: mainRel, text: skillMD}}

	sc.checkMarkdown(t, used, mainRel, body, fm.bodyAt)
	var others []string
	for _, rel := range t.files {
		if rel == mainRel || hidden(rel) || !textExts[strings.ToLower(path.Ext(rel))] {
			continue
		}
		if !isMarkdown(rel) {
			others = append(others, rel)
			continue
		}
		data, ok := sc.readText(rel)
		if !ok {
			continue
		}
		texts = append(texts, skillText{rel: rel, data: data})
		sc.checkMarkdown(t, used, rel, data, 1)
	}
	sc.checkArchivedRefs(sc.archived, texts)
	var left []string
	for _, rel := range t.files {
		if orphanCandidate(rel) && !usedOrUnder(used, rel) {
			left = append(left, rel)
		}
	}
	if len(left) == 0 {
		return
	}
	// Index the texts until every candidate is reached: code and other
	// small files first (read only now: what the links and mentions left
	// is mostly imported by code), then SKILL.md, then the Markdown from
	// the shortest; long references are rarely the only ones naming a
	// file. A check passes over the candidates left, so it waits until
	// the bytes indexed since the last one outweigh that pass (40 bytes a
	// candidate): checking after every file would be quadratic with
	// thousands of candidates and files.
	sort.SliceStable(texts[1:], func(a, b int) bool { return texts[1+a].size() < texts[1+b].size() })
	r := newReach()
	since := 0
	add := func(rel, text string) {
		r.index(rel, text)
		if since += len(text); since >= 40*len(left) {
			since = 0
			left = unreached(r, left)
		}
	}
	for _, rel := range others {
		if len(left) == 0 {
			return
		}
		if data, ok := sc.readText(rel); ok {
			add(rel, string(data))
		}
	}
	for k := range texts {
		if len(left) == 0 {
			return
		}
		add(texts[k].rel, texts[k].str())
	}
	left = unreached(r, left)
	for _, rel := range left {
		sc.fl.add("file-orphan", path.Join(sc.dir, rel), 0, 0, "link it from SKILL.md, e.g. ["+path.Base(rel)+"]("+rel+"), or delete it", "%s is never referenced by SKILL.md or the skill's other files", rel)
	}
}

// unreached keeps the files of list r does not reach.
func unreached(r *reach, list []string) []string {
	out := list[:0]
	for _, rel := range list {
		if !r.reached(rel) {
			out = append(out, rel)
		}
	}
	return out
}

// readText reads a text file of the skill (rel to the skill folder): not
// when larger than maxTextFile, and with a finding for invalid UTF-8 in
// Markdown. It returns the bytes the text was read into.
func (sc *skillCheck) readText(rel string) ([]byte, bool) {
	full := path.Join(sc.dir, rel)
	data, err := sc.c.readFile(full, maxTextFile)
	if err != nil || data == nil {
		return nil, false
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		if isMarkdown(rel) {
			sc.fl.add("utf8-invalid", full, invalidUTF8Line(data), 0, "save the file as UTF-8", "%s is not valid UTF-8; its links were not checked", rel)
		}
		return nil, false
	}
	return data, true
}

// readLimited reads a file unless it is larger than limit (then nil),
// without a separate stat: open, read, close.
func readLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from the file, so the buffer is not grown (and copied) from
	// 512 bytes up; the limit still holds if the file grows meanwhile.
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, nil
		}
		buf.Grow(int(fi.Size()) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, nil
	}
	return data, nil
}

// checkMarkdown checks one Markdown file of the skill; rel is its path in
// the skill, text starts on line first. Targets that exist are added to
// used.
func (sc *skillCheck) checkMarkdown(t *tree, used map[string]bool, rel string, text []byte, first int) {
	fileDir := path.Dir(rel)
	full := path.Join(sc.dir, rel)
	// A template's links point into what is made from it (the generated
	// wiki's diagrams/), not into the skill: they count as uses, but are
	// never reported.
	template := strings.HasPrefix(rel, "templates/") || strings.HasPrefix(rel, "assets/")
	reported := map[string]bool{}
	refs := scanMarkdownBytes(sc.c.md, text, first)
	pl := &placement{text: text, rel: rel, refs: refs}
	for _, r := range refs {
		if template {
			r.InFence = true
			if r.Kind != refMention {
				r.Target = strings.TrimPrefix(r.Target, "./")
				if target, ok := linkPath(r.Target); ok {
					for _, p := range []string{path.Join(fileDir, target), path.Clean(target)} {
						if t.has(p) && p != rel {
							used[p] = true
						}
					}
				}
				continue
			}
		}
		if r.Kind == refMention {
			sc.checkMention(t, used, reported, rel, pl, r)
			continue
		}
		target, ok := linkPath(r.Target)
		if !ok {
			continue
		}
		if strings.HasPrefix(target, "/") || strings.HasPrefix(target, "~") {
			if !reported[target] {
				reported[target] = true
				sc.fl.add("link-outside-skill", full, r.Line, r.Col, "keep what the skill needs inside its folder and link it relatively", "link %q points outside the skill folder (an absolute path)", r.Target)
			}
			continue
		}
		p := path.Join(fileDir, target)
		if p == ".." || strings.HasPrefix(p, "../") {
			if !reported[p] {
				reported[p] = true
				sc.fl.add("link-outside-skill", full, r.Line, r.Col, "a skill is installed on its own; copy what it needs into its folder", "link %q leaves the skill folder", r.Target)
			}
			continue
		}
		if t.has(p) {
			if p != rel { // a file naming itself is not reached by it
				used[p] = true
			}
			continue
		}
		if !reported[p] {
			reported[p] = true
			what := "link"
			if r.Kind == refImage {
				what = "image"
			}
			sc.fl.add("link-dangling", full, r.Line, r.Col, "create "+path.Join(sc.dir, p)+" or fix the link", "%s target %q does not exist in the skill", what, r.Target)
		}
	}
}

// checkMention resolves a support path named in the text: from the skill
// folder first (the specification's convention), then from the file's
// own folder. One that resolves to nothing is reported only when it reads
// as a path (see [pathLike]): prose such as "scripts/cron jobs" or
// "references/templates/scripts/assets" names no file.
func (sc *skillCheck) checkMention(t *tree, used, reported map[string]bool, rel string, pl *placement, r ref) {
	full, fileDir := path.Join(sc.dir, rel), path.Dir(rel)
	m := strings.TrimPrefix(r.Target, "./")
	folder := strings.HasSuffix(m, "/")
	m = strings.TrimSuffix(m, "/")
	for _, p := range []string{path.Clean(m), path.Join(fileDir, m)} {
		if t.has(p) && (!folder || t.dirs[p]) {
			if p != rel {
				used[p] = true
			}
			return
		}
	}
	if r.InFence || reported[m] || !pathLike(m, folder) {
		return
	}
	reported[m] = true
	if placeholderName(m) || pl.outside(m, r.off) {
		return // the text puts it elsewhere: not the skill's file
	}
	if folder {
		sc.fl.add("path-dangling", full, r.Line, r.Col, "create "+path.Join(sc.dir, m)+"/ or remove the mention", "folder %q is named but does not exist in the skill", m+"/")
		return
	}
	sc.fl.add("path-dangling", full, r.Line, r.Col, "write "+path.Join(sc.dir, m)+" or remove the mention", "%q is named but does not exist in the skill", m)
}

// pathLike reports whether a mention that resolves to nothing reads as a
// path rather than prose: nothing hidden, not only support-folder names (a list such as
// references/templates/scripts/assets), and either a file name with an
// extension (references/api.md) or, when written with a final slash, a
// folder below a support folder (templates/design-system/).
// "scripts/cron jobs", "scripts/URLs" and "templates/packages" are words.
func pathLike(m string, folder bool) bool {
	segs := strings.Split(m, "/")
	allSupport := true
	for _, seg := range segs {
		if strings.HasPrefix(seg, ".") {
			return false // made at run time: scripts/.cache/, scripts/.env
		}
		if !isSupportDir(seg) {
			allSupport = false
		}
	}
	if allSupport || len(segs) < 2 {
		return false
	}
	if folder {
		return true
	}
	last := segs[len(segs)-1]
	dot := strings.LastIndexByte(last, '.')
	if dot <= 0 || dot == len(last)-1 || len(last)-dot > 11 {
		return false
	}
	for _, c := range last[dot+1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// linkPath turns a link destination into a relative file path: false for
// URLs, same-file anchors and template placeholders; the query and
// fragment are dropped and %-escapes decoded.
func linkPath(dest string) (string, bool) {
	s := strings.TrimSpace(dest)
	if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "//") || hasScheme(s) {
		return "", false
	}
	if k := strings.IndexAny(s, "#?"); k >= 0 {
		s = s[:k]
	}
	if s == "" || strings.ContainsAny(s, "{}<>$*|") || strings.Contains(s, "...") || strings.Contains(s, "…") {
		return "", false
	}
	if d, err := url.PathUnescape(s); err == nil {
		s = d
	}
	return s, true
}

// hasScheme reports whether s starts with a URL scheme ("https:",
// "mailto:", ...). A single letter before ':' is a Windows drive, not a
// scheme, but such a path is not a relative link either.
func hasScheme(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case c == ':':
			return k > 0
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case k > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// usedOrUnder reports whether rel or one of its parent folders was linked
// or mentioned.
func usedOrUnder(used map[string]bool, rel string) bool {
	for p := rel; p != "." && p != ""; p = path.Dir(p) {
		if used[p] {
			return true
		}
	}
	return false
}
