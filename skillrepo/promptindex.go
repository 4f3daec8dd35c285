package skillrepo

// The prompt index: the skill catalogue an agent puts in its system
// prompt, read from the checked-out branch (what agents see), archived
// skills excluded. Four renderings:
//
//   - xml: byte for byte what the reference validator's `skills-ref
//     to-prompt` prints (docs/skill-format.md §3): <available_skills> with
//     multi-line <skill><name><description><location> elements, no
//     indentation, name and description escaped as Python's html.escape
//     does, location the absolute path of SKILL.md (symlinks resolved)
//     and not escaped.
//   - markdown: Codex's list, "- name: description (file: path)".
//   - hermes: Hermes' index, grouped by category ("general" for the flat
//     layout; a category's DESCRIPTION.md description after its name),
//     skills sorted by name, descriptions over 60 characters cut to the
//     first 57 plus "...".
//   - json: the entries as data.
//
// A character budget keeps the most useful skills: when the rendering is
// longer, skills are dropped from the least recently used (by the usage
// sidecar; stale before active) until it fits, and the result says which.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Index formats.
const (
	IndexXML      = "xml"
	IndexMarkdown = "markdown"
	IndexHermes   = "hermes"
	IndexJSON     = "json"
)

// IndexOptions configures [Library.PromptIndex].
type IndexOptions struct {
	// Rev is the branch or commit ("" = the checked-out branch, else the
	// main branch).
	Rev string
	// Format is xml (default), markdown, hermes or json.
	Format string
	// States keeps only skills whose usage state (active, stale) is
	// listed; none = every state. A skill without a record is active.
	States []string
	// Budget is the most characters the rendering may have (0 = no
	// limit).
	Budget int
}

// IndexEntry is one skill of the catalogue.
type IndexEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Category    string `json:"category"`
	// Path is the skill folder relative to the library root; Location
	// the absolute path of its SKILL.md.
	Path     string `json:"path"`
	Location string `json:"location"`
	State    string `json:"state"`

	lastActive time.Time
	uses       int
}

// IndexSkip is a skill left out of the catalogue because it cannot be
// read.
type IndexSkip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// IndexResult is the rendered catalogue.
type IndexResult struct {
	Text    string
	Entries []IndexEntry
	// Omitted are the skills the budget dropped, Skipped the unreadable
	// ones.
	Omitted []string
	Skipped []IndexSkip
}

// PromptIndex renders the prompt catalogue. Errors: an unknown format or
// state (wrapping skill.ErrInvalid), a budget too small for even one
// skill, and read errors.
func (l *Library) PromptIndex(opts IndexOptions) (*IndexResult, error) {
	if opts.Format == "" {
		opts.Format = IndexXML
	}
	switch opts.Format {
	case IndexXML, IndexMarkdown, IndexHermes, IndexJSON:
	default:
		return nil, fmt.Errorf("index format %q: want xml, markdown, hermes or json: %w", opts.Format, skill.ErrInvalid)
	}
	for _, s := range opts.States {
		if s != StateActive && s != StateStale {
			return nil, fmt.Errorf("index state %q: want active or stale (archived skills are never listed): %w", s, skill.ErrInvalid)
		}
	}
	rev := opts.Rev
	if rev == "" {
		if b, err := l.repo.HeadBranch(); err == nil && b != "" {
			rev = b
		}
	}
	snap, err := l.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	infos, err := snap.Skills()
	if err != nil {
		return nil, err
	}
	recs, _, err := l.UsageOf(snap)
	if err != nil {
		return nil, err
	}
	root := l.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	res := &IndexResult{Entries: []IndexEntry{}}
	var entries []IndexEntry
	for _, si := range infos {
		if si.Archived {
			continue
		}
		e := IndexEntry{Name: si.Name, Category: si.Category, Path: si.Dir, State: StateActive,
			Location: filepath.Join(root, filepath.FromSlash(si.Dir), skill.FileName)}
		if r, ok := recs[si.Name]; ok {
			if r.State == StateStale {
				e.State = StateStale
			}
			e.lastActive, e.uses = r.LastActivity(), r.UseCount
		}
		if len(opts.States) > 0 && !contains(opts.States, e.State) {
			continue
		}
		data, err := snap.ReadFile(si.Dir + "/" + skill.FileName)
		if err != nil {
			return nil, err
		}
		doc, err := skill.Parse(data)
		if err != nil {
			res.Skipped = append(res.Skipped, IndexSkip{Path: si.Dir, Reason: err.Error()})
			continue
		}
		if n := strings.TrimSpace(doc.Name); n != "" {
			e.Name = n
		}
		e.Description = strings.TrimSpace(doc.Description)
		if e.Description == "" {
			res.Skipped = append(res.Skipped, IndexSkip{Path: si.Dir, Reason: "no description in the frontmatter"})
			continue
		}
		entries = append(entries, e)
	}
	categories := map[string]string{}
	if opts.Format == IndexHermes {
		categories = categoryDescriptions(snap, entries)
	}
	render := func(es []IndexEntry) (string, error) { return renderIndex(opts.Format, es, categories) }
	text, err := render(entries)
	if err != nil {
		return nil, err
	}
	if opts.Budget > 0 && utf8.RuneCountInString(text) > opts.Budget {
		entries, res.Omitted, text, err = fitBudget(entries, opts.Budget, render)
		if err != nil {
			return nil, err
		}
	}
	res.Text = text
	if entries != nil {
		res.Entries = entries
	}
	return res, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fitBudget keeps the largest prefix of the skills ordered by usefulness
// whose rendering fits the budget (a binary search: the rendering only
// grows with more skills), in the catalogue's own order.
func fitBudget(entries []IndexEntry, budget int, render func([]IndexEntry) (string, error)) ([]IndexEntry, []string, string, error) {
	ranked := append([]IndexEntry(nil), entries...)
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if (a.State == StateActive) != (b.State == StateActive) {
			return a.State == StateActive
		}
		if !a.lastActive.Equal(b.lastActive) {
			return a.lastActive.After(b.lastActive)
		}
		if a.uses != b.uses {
			return a.uses > b.uses
		}
		return a.Path < b.Path
	})
	keep := func(k int) []IndexEntry {
		in := map[string]bool{}
		for _, e := range ranked[:k] {
			in[e.Path] = true
		}
		var out []IndexEntry
		for _, e := range entries {
			if in[e.Path] {
				out = append(out, e)
			}
		}
		return out
	}
	lo, hi := 0, len(ranked) // lo fits (0 skills always "fits": checked below)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		text, err := render(keep(mid))
		if err != nil {
			return nil, nil, "", err
		}
		if utf8.RuneCountInString(text) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	kept := keep(lo)
	text, err := render(kept)
	if err != nil {
		return nil, nil, "", err
	}
	if lo == 0 || utf8.RuneCountInString(text) > budget {
		return nil, nil, "", fmt.Errorf("a budget of %d characters is too small for even one skill", budget)
	}
	var omitted []string
	for _, e := range ranked[lo:] {
		omitted = append(omitted, e.Name)
	}
	sort.Strings(omitted)
	return kept, omitted, text, nil
}

// categoryDescriptions reads <category>/DESCRIPTION.md (and a root one
// for "general") for the categories in use.
func categoryDescriptions(snap *Snapshot, entries []IndexEntry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		cat := hermesCategory(e.Category)
		if _, done := out[cat]; done {
			continue
		}
		p := "DESCRIPTION.md"
		if e.Category != "" {
			p = e.Category + "/DESCRIPTION.md"
		}
		out[cat] = ""
		data, err := snap.ReadFile(p)
		if err != nil {
			continue
		}
		if doc, err := skill.Parse(data); err == nil {
			out[cat] = strings.Trim(strings.TrimSpace(doc.Description), `'"`)
		}
	}
	return out
}

func hermesCategory(c string) string {
	if c == "" {
		return "general"
	}
	return c
}

func renderIndex(format string, entries []IndexEntry, categories map[string]string) (string, error) {
	var b strings.Builder
	switch format {
	case IndexXML:
		b.WriteString("<available_skills>\n")
		for _, e := range entries {
			b.WriteString("<skill>\n<name>\n")
			b.WriteString(pyHTMLEscape(e.Name))
			b.WriteString("\n</name>\n<description>\n")
			b.WriteString(pyHTMLEscape(e.Description))
			b.WriteString("\n</description>\n<location>\n")
			b.WriteString(e.Location)
			b.WriteString("\n</location>\n</skill>\n")
		}
		b.WriteString("</available_skills>\n")
	case IndexMarkdown:
		for _, e := range entries {
			fmt.Fprintf(&b, "- %s: %s (file: %s)\n", e.Name, oneLine(e.Description), filepath.ToSlash(e.Location))
		}
	case IndexHermes:
		byCat := map[string][]IndexEntry{}
		for _, e := range entries {
			c := hermesCategory(e.Category)
			byCat[c] = append(byCat[c], e)
		}
		cats := make([]string, 0, len(byCat))
		for c := range byCat {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		b.WriteString("<available_skills>\n")
		for _, c := range cats {
			if d := categories[c]; d != "" {
				fmt.Fprintf(&b, "  %s: %s\n", c, d)
			} else {
				fmt.Fprintf(&b, "  %s:\n", c)
			}
			es := byCat[c]
			sort.SliceStable(es, func(i, j int) bool { return es[i].Name < es[j].Name })
			seen := map[string]bool{}
			for _, e := range es {
				if seen[e.Name] {
					continue
				}
				seen[e.Name] = true
				if d := hermesDescription(e.Description); d != "" {
					fmt.Fprintf(&b, "    - %s: %s\n", e.Name, d)
				} else {
					fmt.Fprintf(&b, "    - %s\n", e.Name)
				}
			}
		}
		b.WriteString("</available_skills>\n")
	case IndexJSON:
		if entries == nil {
			entries = []IndexEntry{}
		}
		data, err := json.MarshalIndent(entries, "", "  ")
		if err != nil {
			return "", err
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String(), nil
}

// hermesDescription is Hermes' extract_skill_description: quotes
// stripped, more than 60 characters cut to 57 plus "...".
func hermesDescription(d string) string {
	d = strings.Trim(strings.TrimSpace(d), `'"`)
	if r := []rune(d); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return d
}

// pyHTMLEscape is Python's html.escape(s, quote=True); Go's
// html.EscapeString writes different entities for quotes.
func pyHTMLEscape(s string) string { return pyHTMLEscaper.Replace(s) }

// pyHTMLEscaper is built once (on first use): building a Replacer per
// call cost more than the rest of rendering a 10,000-skill index.
var pyHTMLEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")
