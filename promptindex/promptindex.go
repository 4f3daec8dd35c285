// Package promptindex renders the skill catalogue an agent puts in its
// system prompt, from a library (package skillrepo): an adapter above the
// domain, which reads skills and usage through the domain's verbs only.
package promptindex

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
//   - hermes: Hermes' skills section, byte for byte what Hermes 0.19.0's
//     build_skills_system_prompt renders (docs/reference-behaviour.md
//     §8.1): its instructions, then <available_skills> grouped by category
//     (a top-level skill's category is its own folder, as in every
//     release; a category's DESCRIPTION.md description after its name),
//     skills sorted by name, descriptions over 60 characters cut to the
//     first 57 plus "...", a skill without a description by name alone,
//     a skill whose platforms: excludes this system left out.
//   - json: the entries as data.
//
// A character budget keeps the most useful skills: when the rendering is
// longer, skills are dropped from the least recently used (by the usage
// sidecar; stale before active) until it fits, and the result says which.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// Index formats.
const (
	XML      = "xml"
	Markdown = "markdown"
	Hermes   = string(agent.Hermes)
	JSON     = "json"
)

// Options configures [Render].
type Options struct {
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
	// Platform is the operating system the hermes rendering is for, as
	// Go names it (runtime.GOOS when empty): a skill whose platforms:
	// field names others is left out, as Hermes leaves it out there.
	Platform string
}

// Entry is one skill of the catalogue.
type Entry struct {
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

// Skip is a skill left out of the catalogue because it cannot be
// read.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Result is the rendered catalogue.
type Result struct {
	Text    string
	Entries []Entry
	// Omitted are the skills the budget dropped, Skipped the unreadable
	// ones.
	Omitted []string
	Skipped []Skip
}

// Render renders the prompt catalogue of lib. Errors: an unknown format or
// state (wrapping skill.ErrInvalid), a budget too small for even one
// skill, and read errors.
func Render(lib *skillrepo.Library, opts Options) (*Result, error) {
	if opts.Format == "" {
		opts.Format = XML
	}
	switch opts.Format {
	case XML, Markdown, Hermes, JSON:
	default:
		return nil, fmt.Errorf("index format %q: want xml, markdown, hermes or json: %w", opts.Format, skill.ErrInvalid)
	}
	for _, s := range opts.States {
		if s != usage.StateActive && s != usage.StateStale {
			return nil, fmt.Errorf("index state %q: want active or stale (archived skills are never listed): %w", s, skill.ErrInvalid)
		}
	}
	rev := opts.Rev
	if rev == "" {
		if b, err := lib.CurrentBranch(); err == nil && b != "" {
			rev = b
		}
	}
	snap, err := lib.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	infos, err := snap.Skills()
	if err != nil {
		return nil, err
	}
	recs, _, err := lib.UsageOf(snap)
	if err != nil {
		return nil, err
	}
	root := lib.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	res := &Result{Entries: []Entry{}}
	var entries []Entry
	for _, si := range infos {
		if si.Archived {
			continue
		}
		e := Entry{Name: si.Name, Category: si.Category, Path: si.Dir, State: usage.StateActive,
			Location: filepath.Join(root, filepath.FromSlash(si.Dir), skill.FileName)}
		if r, ok := recs[si.Name]; ok {
			if r.State == usage.StateStale {
				e.State = usage.StateStale
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
		var fields map[string]any
		if doc, err := skill.Parse(data); err == nil {
			fields = doc.Fields
		} else if opts.Format == Hermes {
			// Hermes' parser falls back where ours refuses, and lists the
			// skill with what it found.
			fields = skill.HermesFields(data)
		} else {
			res.Skipped = append(res.Skipped, Skip{Path: si.Dir, Reason: err.Error()})
			continue
		}
		if n := strings.TrimSpace(scalarText(fields["name"])); n != "" {
			e.Name = n
		}
		e.Description = strings.TrimSpace(scalarText(fields["description"]))
		if opts.Format == Hermes {
			// Hermes lists a skill without a description by its name, and
			// leaves out one for another operating system.
			if !platformMatches(fields["platforms"], opts.Platform) {
				continue
			}
		} else if e.Description == "" {
			res.Skipped = append(res.Skipped, Skip{Path: si.Dir, Reason: "no description in the frontmatter"})
			continue
		}
		entries = append(entries, e)
	}
	categories := map[string]string{}
	if opts.Format == Hermes {
		categories = categoryDescriptions(snap, entries)
	}
	render := func(es []Entry) (string, error) { return renderIndex(opts.Format, es, categories) }
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

// scalarText is a frontmatter value as text ("" for none, a list or a
// mapping), as skill.Document reads name and description.
func scalarText(v any) string {
	switch x := v.(type) {
	case nil, map[string]any, []any:
		return ""
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
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
func fitBudget(entries []Entry, budget int, render func([]Entry) (string, error)) ([]Entry, []string, string, error) {
	ranked := append([]Entry(nil), entries...)
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if (a.State == usage.StateActive) != (b.State == usage.StateActive) {
			return a.State == usage.StateActive
		}
		if !a.lastActive.Equal(b.lastActive) {
			return a.lastActive.After(b.lastActive)
		}
		if a.uses != b.uses {
			return a.uses > b.uses
		}
		return a.Path < b.Path
	})
	keep := func(k int) []Entry {
		in := map[string]bool{}
		for _, e := range ranked[:k] {
			in[e.Path] = true
		}
		var out []Entry
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
func categoryDescriptions(snap *skillrepo.Snapshot, entries []Entry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		cat := hermesCategory(e)
		if _, done := out[cat]; done {
			continue
		}
		p := cat + "/DESCRIPTION.md"
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

// hermesCategory is the category Hermes files a skill under: the folders
// above it, or, for a skill at the top level, its own folder (every
// release so far does so; "general" is only for a SKILL.md at the root,
// which is no skill here).
func hermesCategory(e Entry) string {
	if e.Category == "" {
		return e.Path
	}
	return e.Category
}

// platformMatches is Hermes' skill_matches_platform_list: no platforms
// means every system; otherwise a name (macos, linux, windows, or
// Python's own platform names) must match this system.
func platformMatches(field any, goos string) bool {
	if goos == "" {
		goos = runtime.GOOS
	}
	var list []any
	switch v := field.(type) {
	case nil:
		return true
	case []any:
		list = v
	case string:
		if v == "" {
			return true
		}
		list = []any{v}
	default:
		list = []any{v}
	}
	if len(list) == 0 {
		return true
	}
	// sys.platform as Python spells this system.
	current := map[string]string{"windows": "win32"}[goos]
	if current == "" {
		current = goos
	}
	for _, p := range list {
		name := strings.ToLower(strings.TrimSpace(fmt.Sprint(p)))
		if mapped, ok := map[string]string{"macos": "darwin", "linux": "linux", "windows": "win32"}[name]; ok {
			name = mapped
		}
		if strings.HasPrefix(current, name) {
			return true
		}
	}
	return false
}

// hermesPreamble and hermesClosing are the instructions Hermes 0.19.0 puts
// around its index (agent/prompt_builder.py; MIT licence in
// testdata/hermes-LICENSE): the index is read with them in the prompt, so
// a Hermes library's index carries them too.
const (
	hermesPreamble = "## Skills (mandatory)\n" +
		"Before replying, scan the skills below. If a skill matches or is even partially relevant " +
		"to your task, you MUST load it with skill_view(name) and follow its instructions. " +
		"Err on the side of loading — it is always better to have context you don't need " +
		"than to miss critical steps, pitfalls, or established workflows. " +
		"Skills contain specialized knowledge — API endpoints, tool-specific commands, " +
		"and proven workflows that outperform general-purpose approaches. Load the skill " +
		"even if you think you could handle the task with basic tools like web_search or terminal. " +
		"Skills also encode the user's preferred approach, conventions, and quality standards " +
		"for tasks like code review, planning, and testing — load them even for tasks you " +
		"already know how to do, because the skill defines how it should be done here.\n" +
		"Whenever the user asks you to configure, set up, install, enable, disable, modify, " +
		"or troubleshoot Hermes Agent itself — its CLI, config, models, providers, tools, " +
		"skills, voice, gateway, plugins, or any feature — load the `hermes-agent` skill " +
		"first. It has the actual commands (e.g. `hermes config set …`, `hermes tools`, " +
		"`hermes setup`) so you don't have to guess or invent workarounds.\n" +
		"If a skill has issues, fix it with skill_manage(action='patch').\n" +
		"After difficult/iterative tasks, offer to save as a skill. " +
		"If a skill you loaded was missing steps, had wrong commands, or needed " +
		"pitfalls you discovered, update it before finishing.\n" +
		"\n"
	hermesClosing = "\n" +
		"Only proceed without loading a skill if genuinely none are relevant to the task."
)

func renderIndex(format string, entries []Entry, categories map[string]string) (string, error) {
	var b strings.Builder
	switch format {
	case XML:
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
	case Markdown:
		for _, e := range entries {
			fmt.Fprintf(&b, "- %s: %s (file: %s)\n", e.Name, strings.Join(strings.Fields(e.Description), " "), filepath.ToSlash(e.Location))
		}
	case Hermes:
		if len(entries) == 0 {
			return "", nil // Hermes leaves the section out
		}
		b.WriteString(hermesPreamble)
		byCat := map[string][]Entry{}
		for _, e := range entries {
			c := hermesCategory(e)
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
		b.WriteString(hermesClosing)
	case JSON:
		if entries == nil {
			entries = []Entry{}
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
