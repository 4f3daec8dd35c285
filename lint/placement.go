package lint

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"
)

// A support path named in the text but missing from the skill is often
// not the skill's file at all: the text places it elsewhere — the root of
// the repository the skill is about ("run scripts/run_tests.sh from the
// repo root"), the user's project, another skill ("see lora-recipes'
// references/mapping.md"), a shell that changed folder first ("cd app &&
// scripts/build.sh"), the upstream a port came from, or an example of what
// a skill could hold. Such a mention is no dangling reference of the
// skill (docs/skill-format.md §2). The cues below are read only for a
// mention about to be reported, so they cost nothing on a clean skill.

// placement answers, for one Markdown file of a skill, whether the text
// places a mention outside the skill. It is made per file and fills
// itself only when a mention is about to be reported.
type placement struct {
	text []byte
	rel  string // the file, in the skill
	refs []ref  // every reference the scan found in text
	// at holds the offsets of the mentions of each path (made on first
	// use); blocks the fenced code blocks.
	at     map[string][]int
	blocks []block
	parsed bool
}

// outside reports whether the text places the support path m, mentioned
// at byte off, outside the skill. Where a path is (another tree, another
// skill, upstream) holds for the whole file, so any mention of m saying
// so counts: the file speaks of one scripts/run_tests.sh throughout. What
// a mention is (an example, a file to make, one that may be missing) is
// read at the mention itself.
func (pl *placement) outside(m string, off int) bool {
	if provenanceFile(pl.rel) || mentionAside(pl.text, off, len(m)) {
		return true
	}
	if !pl.parsed {
		pl.parsed = true
		pl.blocks = codeBlocks(pl.text)
		pl.at = map[string][]int{}
		for _, r := range pl.refs {
			if r.Kind == refMention {
				t := strings.TrimSuffix(strings.TrimPrefix(r.Target, "./"), "/")
				start := r.off
				if strings.HasPrefix(r.Target, "./") {
					start += 2
				}
				pl.at[t] = append(pl.at[t], start)
			}
		}
	}
	for _, at := range pl.at[m] {
		if at < 0 || at+len(m) > len(pl.text) {
			continue
		}
		if b, ok := blockAt(pl.blocks, at); ok {
			if blockOutside(pl.text, b, at) {
				return true
			}
			continue
		}
		if spanOutside(pl.text, at) || sentenceOutside(pl.text, at, len(m)) {
			return true
		}
	}
	return false
}

// provenanceFile reports files that record where a skill's files came
// from (ATTRIBUTION.md, PORT_NOTES.md, CHANGELOG.md, NOTICE.md,
// HISTORY.md): the paths they name are upstream's, or gone.
func provenanceFile(rel string) bool {
	base := strings.ToUpper(path.Base(rel))
	for _, p := range []string{"ATTRIBUTION", "PORT_NOTES", "PORT-NOTES", "CHANGELOG", "NOTICE", "HISTORY"} {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	return false
}

// block is a fenced code block: the byte range of its lines between the
// fences, and where its opening fence line starts.
type block struct{ fence, start, stop int }

// codeBlocks finds the fenced code blocks of text by their fence lines
// (``` or ~~~, up to three spaces in); an unclosed one runs to the end.
func codeBlocks(text []byte) []block {
	var out []block
	open := -1
	var marker []byte
	for off := 0; off < len(text); {
		end := bytes.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := bytes.TrimLeft(text[off:end], " ")
		isFence := len(text[off:end])-len(line) <= 3 && (bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~")))
		switch {
		case isFence && open < 0:
			open, marker = off, line[:3]
			out = append(out, block{fence: off, start: min(end+1, len(text))})
		case isFence && bytes.HasPrefix(line, marker) && len(bytes.TrimSpace(bytes.TrimLeft(line, string(marker[:1])))) == 0:
			out[len(out)-1].stop = off
			open = -1
		}
		off = end + 1
	}
	if open >= 0 {
		out[len(out)-1].stop = len(text)
	}
	return out
}

func blockAt(blocks []block, off int) (block, bool) {
	for _, b := range blocks {
		if off >= b.start && off < b.stop {
			return b, true
		}
	}
	return block{}, false
}

// cdRE finds a shell's change of folder and its target.
var cdRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(])(?:cd|pushd)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)`)
})

// cdsOutside reports whether code changes folder, somewhere the text does
// not say is the skill's (a target naming a skill, or a variable holding
// the skill's folder, stays inside).
func cdsOutside(code []byte) bool {
	for _, m := range cdRE().FindAllSubmatch(code, -1) {
		target := strings.ToLower(strings.Trim(string(m[1]), `"'`))
		if strings.Contains(target, "skill") || strings.Contains(target, "basedir") || strings.Contains(target, "plugin_root") {
			continue
		}
		return true
	}
	return false
}

// blockOutside: the code block changes folder before the mention, draws
// the tree of another folder, or is introduced by a sentence that places
// it ("From the repository root:").
func blockOutside(text []byte, b block, off int) bool {
	if cdsOutside(text[b.start:off]) {
		return true
	}
	if treeOfOther(text[b.start:b.stop]) {
		return true
	}
	// The sentence before the fence, in the lines just above it.
	from := max(b.fence-400, 0)
	intro := text[from:b.fence]
	if k := bytes.LastIndex(intro, []byte("\n\n")); k >= 0 && k < len(intro)-2 {
		intro = intro[k+2:]
	}
	return placementPhrase(intro)
}

// treeOfOther reports a directory tree drawing (├── lines) of a folder
// other than the skill: one that lists no SKILL.md and is not rooted at a
// support folder.
func treeOfOther(code []byte) bool {
	if !bytes.Contains(code, []byte("├── ")) && !bytes.Contains(code, []byte("└── ")) {
		return false
	}
	if bytes.Contains(code, []byte("SKILL.md")) {
		return false
	}
	for _, line := range bytes.Split(code, []byte("\n")) {
		l := strings.TrimSpace(string(line))
		if l == "" {
			continue
		}
		if i := strings.Index(l, " "); i > 0 {
			l = l[:i]
		}
		root := strings.TrimSuffix(l, "/")
		return strings.HasSuffix(l, "/") && !isSupportDir(root) && root != "."
	}
	return false
}

// spanOutside: the inline code span holding the mention changes folder
// before it (`cd app && scripts/build.sh`).
func spanOutside(text []byte, off int) bool {
	ls := bytes.LastIndexByte(text[:off], '\n') + 1
	before := text[ls:off]
	if bytes.Count(before, []byte("`"))%2 == 0 {
		return false // not inside a span
	}
	open := bytes.LastIndexByte(before, '`')
	return cdsOutside(before[open+1:])
}

// sentenceOutside reads the sentence around the mention at off (length
// n): a phrase placing it (at the repository's root, in the user's
// project, upstream), or another skill owning it (`other-skill`'s
// references/x.md, "references/x.md in the other skill").
func sentenceOutside(text []byte, off, n int) bool {
	start, stop := sentenceBounds(text, off, off+n)
	if placementPhrase(text[start:stop]) {
		return true
	}
	before := stripMarkup(text[start:off])
	after := stripMarkup(text[off+n : stop])
	if m := otherSkillsRE().FindSubmatch(before); m != nil && !ownSkill(append(m[1], m[2]...)) {
		return true
	}
	if projectAfterRE().Match(after) {
		return true
	}
	m := otherSkillAfterRE().FindSubmatch(after)
	return m != nil && !ownSkill(m[1])
}

// mentionAside reads the mention at off (length n) itself: an example of
// what a skill could hold ("e.g. references/finance.md"), a file the text
// has the agent make ("write references/style.md"), or one it expects may
// be missing ("if ./templates/firm.pptx exists").
func mentionAside(text []byte, off, n int) bool {
	at := off // where the mention starts, "./" included
	if off+2 <= len(text) && string(text[off:off+2]) == "./" {
		off += 2
	}
	if off+n > len(text) {
		return false
	}
	start, stop := sentenceBounds(text, at, off+n)
	before := stripMarkup(text[start:at])
	after := stripMarkup(text[off+n : stop])
	return madeRE().Match(before) || exampleRE().Match(before) ||
		conditionalBeforeRE().Match(before) && conditionalAfterRE().Match(after) || presentAfterRE().Match(after)
}

// ownSkill reports a possessor that is the skill itself ("this skill's
// scripts/x.py").
func ownSkill(name []byte) bool {
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(string(name))), " ")
	switch first {
	case "this", "the", "our", "same", "each", "a", "your", "current", "its":
		return true
	}
	return false
}

// sentenceBounds widens [off, end) to the sentence: back to the previous
// ". ", "! ", "? ", ":\n", a blank line, a list item or a table cell, and
// forward to the next; a sentence runs over line breaks.
func sentenceBounds(text []byte, off, end int) (int, int) {
	start := off
	for start > 0 && off-start < 600 {
		c := text[start-1]
		if c == '|' || c == '\n' && (start >= 2 && text[start-2] == '\n' || listItemAt(text[start:])) {
			break
		}
		if (c == ' ' && start >= 2 && bytes.IndexByte([]byte(".!?"), text[start-2]) >= 0 || c == '\n' && start >= 2 && bytes.IndexByte([]byte(".!?:"), text[start-2]) >= 0) && !abbrevBefore(text[:start-1]) {
			break
		}
		start--
	}
	stop := end
	for stop < len(text) && stop-end < 600 {
		c := text[stop]
		if c == '|' || c == '\n' && (stop+1 < len(text) && text[stop+1] == '\n' || listItemAt(text[stop+1:])) {
			break
		}
		if bytes.IndexByte([]byte(".!?"), c) >= 0 && (stop+1 == len(text) || text[stop+1] == ' ' || text[stop+1] == '\n') && !abbrevBefore(text[:stop+1]) {
			stop++
			break
		}
		stop++
	}
	return start, stop
}

// abbrevBefore reports text ending in "e.g." or "i.e." (no sentence end).
func abbrevBefore(text []byte) bool {
	l := bytes.ToLower(text[max(len(text)-4, 0):])
	return bytes.HasSuffix(l, []byte("e.g.")) || bytes.HasSuffix(l, []byte("i.e.")) || bytes.HasSuffix(l, []byte("e.g")) || bytes.HasSuffix(l, []byte("i.e"))
}

func listItemAt(line []byte) bool {
	l := bytes.TrimLeft(line, " \t")
	if len(l) >= 2 && bytes.IndexByte([]byte("-*+"), l[0]) >= 0 && l[1] == ' ' {
		return true
	}
	k := 0
	for k < len(l) && l[k] >= '0' && l[k] <= '9' {
		k++
	}
	return k > 0 && k+1 < len(l) && (l[k] == '.' || l[k] == ')') && l[k+1] == ' '
}

// placementRE finds the phrases that put a path in another tree: at the
// root of a repository or project (where the text runs it from, or where
// it lies), upstream.
var placementRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(?:from|at|in|under|inside|within|relative to)\s+(?:the\s+|your\s+|this\s+|their\s+|a\s+)?(?:(?:repo|repository|project|workspace|monorepo|git)(?:'s)?\s+root|root\s+of\s+(?:the|this|your|a)\s+(?:repo|repository|project|workspace|checkout|clone))|upstream\b|ported\s+from\b)`)
})

// projectAfterRE matches, right after a mention, words placing it in the
// user's project ("templates/base.html in your project").
var projectAfterRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\S*\s+(?:[\w-]+\s+){0,3}(?:in|of|from|inside|under)\s+(?:your|the user's|their)\s+(?:own\s+)?(?:project|repo|repository|codebase|app|application)\b`)
})

func placementPhrase(b []byte) bool { return placementRE().Match(b) }

// conditionalBeforeRE and conditionalAfterRE match a mention the text
// expects may be missing: "if ./templates/firm.pptx exists", "when
// references/local.md is present".
var conditionalBeforeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:if|when|whether|unless)\s+(?:the\s+(?:file\s+)?)?$`)
})

var conditionalAfterRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\S*\s+(?:(?:file|folder|directory)\s+)?(?:exists?|is present|is there|is mounted|is available|is found)\b`)
})

// presentAfterRE matches "(if present)" or "if it exists" right after a
// mention.
var presentAfterRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\S*\s*\(?\s*(?:if (?:present|it exists|one exists|available|any)|when present)\b`)
})

// madeRE matches, just before a mention, a verb that makes the file:
// the text tells the agent to write it, so it need not exist yet.
var madeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:write|writes|writing|save|saves|saving|create|creates|creating|generate|generates|generating|produce|produces|export|exports|output|outputs)\b(?:\s+(?:it|them|this|that|the|a|an|new|out|file|files|results?|output|report))*\s*(?:to|into|as|at|in)?\s*$`)
})

// exampleRE matches, shortly before a mention, a cue that it is an
// illustration of what a skill could hold, not a file of this one.
var exampleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:\be\.g\.|\bfor (?:example|instance)\b|\bexamples?\s*:|\bsuch as\b|✓|\bgood\s*:)(?:[^.!?]|[.!?][^\s]){0,200}$`)
})

// otherSkillsRE matches, at the end of the text before a mention, another
// skill owning it: a skill's name (backquoted, or hyphenated) or "the X
// skill", possessive, a few words at most before the path
// ("lora-recipes' references/x.md", "the seo-audit skill's
// references/y.md", "dataset-curation's recipe (references/z.md)"), or
// "skill-name — its references/x.md".
var otherSkillsRE = sync.OnceValue(func() *regexp.Regexp {
	name := `([a-z0-9]+(?:[-_][a-z0-9]+)+|[a-z0-9][a-z0-9_-]*\s+skill)`
	return regexp.MustCompile(`(?i)(?:^|[\s(])(?:` + name + `(?:'s|’s|'|’)(?:\s+[\w-]+){0,4}\s*\(?|` + name + `\s*(?:—|–|-|:|,)\s*its)\s*$`)
})

// otherSkillAfterRE matches, right after a mention, "in the X skill",
// "from the X skill", "of the X skill".
var otherSkillAfterRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\S*\s+(?:in|from|of)\s+(?:the\s+)?([a-z0-9][\w-]*)\s+skill\b`)
})

// stripMarkup drops emphasis and code markers, so cues read as prose.
func stripMarkup(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != '`' && c != '*' && c != '_' {
			out = append(out, c)
		}
	}
	return out
}

// placeholderName reports a path whose file name stands for any file
// (references/filename.md, scripts/script_name.py, assets/your-logo.png):
// an illustration, not a file of the skill.
func placeholderName(m string) bool {
	base := strings.ToLower(path.Base(m))
	if k := strings.IndexByte(base, '.'); k > 0 {
		base = base[:k]
	}
	switch base {
	case "filename", "file", "file_name", "file-name", "script", "script_name", "script-name", "scriptname",
		"name", "example", "foo", "bar", "baz", "xxx", "placeholder", "something":
		return true
	}
	for _, p := range []string{"your_", "your-"} {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	return false
}
