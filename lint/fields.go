package lint

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Field sets per runtime.
var (
	specFields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
	// claudeCodeFields are the fields Claude Code reads (anthropics/claude-code
	// CHANGELOG.md and its skills documentation).
	claudeCodeFields = []string{
		"allowed-tools", "disallowed-tools", "disable-model-invocation", "user-invocable",
		"argument-hint", "context", "agent", "hooks", "model", "effort", "paths", "background",
		"display-name", "default-enabled", "fallback", "when_to_use", "version",
	}
	hermesPlatforms = []string{"linux", "macos", "windows"}
)

// checkFrontmatter parses the YAML and applies the field rules of the
// profile.
func (sc *skillCheck) checkFrontmatter(fm frontmatter) {
	sc.yamlLine = fm.line
	file := sc.file
	doc, yerr := parseYAML(fm.yaml)
	if yerr != nil {
		sc.fl.add("yaml-invalid", file, fm.line+yerr.line-1, 0, yamlHint(yerr.msg), "invalid YAML in frontmatter: %s", yerr.msg)
		return
	}
	fields, isMap := topFields(doc)
	if !isMap {
		l, col := sc.pos(doc.Content[0].Line, doc.Content[0].Column)
		sc.fl.add("frontmatter-not-mapping", file, l, col, "write the frontmatter as key: value lines", "the frontmatter is a YAML %s, not a mapping", kindName(doc.Content[0]))
		return
	}
	byKey := map[string]field{}
	for _, f := range fields {
		if prev, dup := byKey[f.key]; dup {
			l, col := sc.pos(f.keyN.Line, f.keyN.Column)
			pl, _ := sc.pos(prev.keyN.Line, 0)
			sc.fl.add("yaml-duplicate-key", file, l, col, "remove one of them", "key %q appears twice (first on line %d); runtimes disagree on which wins", f.key, pl)
			continue
		}
		byKey[f.key] = f
	}
	sc.checkName(byKey)
	sc.checkDescription(byKey)
	sc.checkOptionalFields(byKey)
	sc.checkUnknownFields(fields)
	sc.checkProfileFields(byKey)
}

func yamlHint(msg string) string {
	if strings.Contains(msg, "mapping values are not allowed") {
		return `quote a value that contains ": ", e.g. description: "Use when: ..."`
	}
	return ""
}

// sessionArtefactRE matches names that describe one session's task rather
// than a class of tasks: issue and PR numbers, dates, fix-/debug- prefixes.
var sessionArtefactRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|-)(?:pr|issue|issues|bug|ticket|gh|jira)-?\d+(?:-|$)|(?:^|-)\d{4}-\d{2}-\d{2}(?:-|$)|(?:^|-)(?:19|20)\d{6}(?:-|$)|^(?:fix|fixes|fixed|debug|debugging|hotfix|wip|tmp|temp|session)-`)
})

func (sc *skillCheck) checkName(byKey map[string]field) {
	file := sc.file
	f, ok := byKey["name"]
	if !ok {
		sc.fl.add("name-missing", file, sc.yamlLine, 1, "add name: "+sc.c.dirName(sc.dir), "the frontmatter has no name")
		return
	}
	l, col := sc.pos(f.value.Line, f.value.Column)
	raw, ok := scalar(f.value)
	name := strings.TrimSpace(raw)
	if !ok || name == "" {
		l, col = sc.pos(f.keyN.Line, f.keyN.Column)
		sc.fl.add("name-type", file, l, col, nameHint("write name: ", sc.c.dirName(sc.dir), "write name: a-z, 0-9 and single hyphens, the same as the folder's"), "name must be a non-empty string, not %s", describe(f.value, raw))
		return
	}
	sc.res.name, sc.res.nameLine, sc.res.nameCol = normName(name), l, col
	if n := utf8.RuneCountInString(name); n > skill.MaxNameLength {
		sc.fl.add("name-too-long", file, l, col, "shorten the name and rename the folder to match", "name is %d characters; the limit is %d", n, skill.MaxNameLength)
	}
	if name != strings.ToLower(name) {
		sc.fl.add("name-uppercase", file, l, col, nameHint("use ", name, "use lowercase letters"), "name %q must be lowercase", name)
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		sc.fl.add("name-hyphen-edge", file, l, col, nameHint("use ", name, ""), "name %q must not start or end with a hyphen", name)
	}
	if strings.Contains(name, "--") {
		sc.fl.add("name-consecutive-hyphens", file, l, col, nameHint("use ", name, ""), "name %q must not contain consecutive hyphens", name)
	}
	invalid, nonASCII := false, false
	for _, r := range name {
		switch {
		case r == '-' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z'):
		case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsNumber(r)):
			nonASCII = true
		default:
			invalid = true
		}
	}
	if invalid {
		sc.fl.add("name-invalid-chars", file, l, col, nameHint("use lowercase letters, digits and single hyphens, e.g. ", name, "use lowercase letters, digits and single hyphens"), "name %q may contain only letters, digits and hyphens", name)
	}
	if nonASCII {
		sc.fl.add("name-non-ascii", file, l, col, "the specification allows only a-z, 0-9 and -; skills-ref accepts Unicode letters, other clients do not", "name %q uses letters or digits outside a-z and 0-9", name)
	}
	if dir := sc.c.dirName(sc.dir); dir != "" && normName(dir) != normName(name) {
		sc.fl.add("name-dir-mismatch", file, l, col, mismatchHint(name, dir), "name %q does not match the folder name %q", name, dir)
	}
	lower := strings.ToLower(name)
	if strings.Contains(lower, "anthropic") || strings.Contains(lower, "claude") {
		sc.fl.add("name-reserved-word", file, l, col, "", "name %q contains a reserved word (anthropic, claude); uploads to the Claude API refuse it", name)
	}
	if strings.ContainsAny(name, skill.GeminiRenamed) {
		renamed := strings.Map(func(r rune) rune {
			if strings.ContainsRune(skill.GeminiRenamed, r) {
				return '-'
			}
			return r
		}, name)
		sc.fl.add("name-renamed", file, l, col, "use "+suggestName(name), "name %q loads in Gemini CLI as %q (it replaces : \\ / < > * ? \" | with -)", name, renamed)
	}
	if sessionArtefactRE().MatchString(lower) {
		sc.fl.add("name-session-artefact", file, l, col, "name the class of task the skill teaches (e.g. ci-flaky-tests), not the session that produced it", "name %q looks like a one-off session artefact (issue or PR number, date, fix-/debug- prefix)", name)
	}
}

// specName reports a name every name rule accepts: lowercase ASCII
// letters, digits and single inner hyphens, at most 64 characters.
func specName(s string) bool {
	if s == "" || len(s) > skill.MaxNameLength || strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// validName is s when the rules accept it, else the nearest name they do
// ("" when s has nothing to keep), so a hint never suggests a name the
// next rule rejects.
func validName(s string) string {
	if specName(s) {
		return s
	}
	return suggestName(s)
}

// suggestName turns a name into the form every name rule accepts:
// lowercase, accents dropped (é → e), any other run of characters one
// hyphen, at most 64 characters. It is "" when nothing is left.
func suggestName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(strings.ToLower(name)) {
		switch {
		case unicode.Is(unicode.Mn, r): // an accent of the letter before
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > skill.MaxNameLength {
		out = strings.TrimRight(out[:skill.MaxNameLength], "-")
	}
	return out
}

// nameHint is prefix+the valid form of s, or other when s has none.
func nameHint(prefix, s, other string) string {
	if v := validName(s); v != "" {
		return prefix + v
	}
	return other
}

// mismatchHint suggests the renames that end in a valid name: the folder
// to the name, the name to the folder, or, when neither is valid, both to
// a valid form.
func mismatchHint(name, dir string) string {
	switch {
	case specName(name) && specName(dir):
		return "rename the folder to " + name + " or the name to " + dir
	case specName(name):
		return "rename the folder to " + name
	case specName(dir):
		return "set the name to " + dir
	}
	v := validName(name)
	if v == "" {
		v = validName(dir)
	}
	if v == "" {
		return "give the folder and the name one name of lowercase a-z, 0-9 and single hyphens"
	}
	return "rename the folder and the name to " + v
}

func (sc *skillCheck) checkDescription(byKey map[string]field) {
	file := sc.file
	f, ok := byKey["description"]
	if !ok {
		sc.fl.add("description-missing", file, sc.yamlLine, 1, "add description: what the skill does and when to use it", "the frontmatter has no description")
		return
	}
	raw, ok := scalar(f.value)
	if !ok || strings.TrimSpace(raw) == "" {
		l, col := sc.pos(f.keyN.Line, f.keyN.Column)
		sc.fl.add("description-type", file, l, col, "write what the skill does and when to use it", "description must be a non-empty string, not %s", describe(f.value, raw))
		return
	}
	l, col := sc.pos(f.value.Line, f.value.Column)
	desc := strings.TrimSpace(raw)
	n := utf8.RuneCountInString(desc)
	if n > skill.MaxDescriptionLength {
		sc.fl.add("description-too-long", file, l, col, "move detail into the body", "description is %d characters; the limit is %d", n, skill.MaxDescriptionLength)
	}
	if n > skill.PromptDescriptionLimit {
		sc.fl.add("description-index-cut", file, l, col, "lead with a self-contained trigger (\"Use when ...\") in the first 57 characters", "description is %d characters; the Hermes skills index shows %d characters plus \"...\"", n, skill.PromptDescriptionLimit-3)
	}
	if strings.ContainsAny(desc, "\r\n") {
		sc.fl.add("description-multiline", file, l, col, "write the description on one line (a folded > block is one line too)", "the description spans %d lines; Gemini CLI reads a one-line description", strings.Count(desc, "\n")+1)
	}
	if strings.ContainsAny(desc, "<>") {
		sc.fl.add("description-angle-brackets", file, l, col, "write the words instead of < or >", "description contains < or >, which Anthropic's skill validator rejects")
	}
}

// checkOptionalFields applies the specification's optional field types.
func (sc *skillCheck) checkOptionalFields(byKey map[string]field) {
	file := sc.file
	if f, ok := byKey["compatibility"]; ok {
		l, col := sc.pos(f.keyN.Line, f.keyN.Column)
		if s, ok := scalar(f.value); !ok && !isNull(f.value) {
			sc.fl.add("compatibility-type", file, l, col, "write the requirements as one sentence", "compatibility must be a string, not a %s", kindName(f.value))
		} else if n := utf8.RuneCountInString(strings.TrimSpace(s)); n == 0 || n > 500 {
			sc.fl.add("compatibility-length", file, l, col, "", "compatibility must be 1-500 characters; it is %d", n)
		}
	}
	if f, ok := byKey["metadata"]; ok && !isNull(f.value) {
		l, col := sc.pos(f.keyN.Line, f.keyN.Column)
		m := deref(f.value)
		if m.Kind != yaml.MappingNode {
			sc.fl.add("metadata-type", file, l, col, "write metadata as key: value lines", "metadata must be a mapping, not a %s", kindName(m))
		} else {
			for k := 0; k+1 < len(m.Content); k += 2 {
				key, val := m.Content[k], deref(m.Content[k+1])
				if val.Kind != yaml.ScalarNode {
					kl, kc := sc.pos(key.Line, key.Column)
					sc.fl.add("metadata-value-type", file, kl, kc, "the specification maps string keys to string values; some clients reject nested metadata", "metadata.%s is a %s, not a string", key.Value, kindName(val))
				}
				if key.Value == "short-description" {
					if s, _ := scalar(val); utf8.RuneCountInString(s) > 500 {
						kl, kc := sc.pos(key.Line, key.Column)
						sc.fl.add("metadata-short-description", file, kl, kc, "", "metadata.short-description is %d characters; Codex allows 500", utf8.RuneCountInString(s))
					}
				}
			}
		}
	}
	if f, ok := byKey["allowed-tools"]; ok && !isNull(f.value) {
		l, col := sc.pos(f.keyN.Line, f.keyN.Column)
		switch deref(f.value).Kind {
		case yaml.ScalarNode:
		case yaml.SequenceNode:
			sc.fl.add("allowed-tools-list", file, l, col, "write allowed-tools: "+joinScalars(f.value), "allowed-tools is a YAML list; the specification defines a space-separated string")
		default:
			sc.fl.add("allowed-tools-type", file, l, col, "", "allowed-tools must be a string or a list, not a %s", kindName(f.value))
		}
	}
	if f, ok := byKey["license"]; ok && !isNull(f.value) {
		if _, ok := scalar(f.value); !ok {
			l, col := sc.pos(f.keyN.Line, f.keyN.Column)
			sc.fl.add("license-type", file, l, col, "", "license must be a string, not a %s", kindName(f.value))
		}
	}
}

// checkUnknownFields reports keys the profile's runtime does not read.
func (sc *skillCheck) checkUnknownFields(fields []field) {
	known := specFields
	if sc.c.opts.Profile == ProfileClaudeCode {
		known = append(append([]string(nil), specFields...), claudeCodeFields...)
	}
	for _, f := range fields {
		if contains(known, f.key) {
			continue
		}
		l, col := sc.pos(f.keyN.Line, f.keyN.Column)
		hint := "move it under metadata:"
		if sc.c.opts.Profile == ProfileClaudeCode {
			hint = "Claude Code ignores it; move it under metadata:"
		}
		sc.fl.add("field-unknown", sc.file, l, col, hint, "unknown frontmatter field %q", f.key)
	}
}

// checkProfileFields checks the types of the fields one runtime defines.
func (sc *skillCheck) checkProfileFields(byKey map[string]field) {
	switch sc.c.opts.Profile {
	case ProfileClaudeCode:
		for _, key := range []string{"disable-model-invocation", "user-invocable", "background", "default-enabled"} {
			f, ok := byKey[key]
			if !ok {
				continue
			}
			if s, ok := scalar(f.value); !ok || !isBoolWord(s) {
				l, col := sc.pos(f.value.Line, f.value.Column)
				sc.fl.add("field-type", sc.file, l, col, "write true or false", "%s must be a boolean, not %s", key, describe(f.value, s))
			}
		}
		if f, ok := byKey["paths"]; ok && deref(f.value).Kind == yaml.MappingNode {
			l, col := sc.pos(f.value.Line, f.value.Column)
			sc.fl.add("field-type", sc.file, l, col, "write a glob or a list of globs", "paths must be a glob or a list of globs, not a mapping")
		}
		if f, ok := byKey["hooks"]; ok && !isNull(f.value) && deref(f.value).Kind != yaml.MappingNode {
			l, col := sc.pos(f.value.Line, f.value.Column)
			sc.fl.add("field-type", sc.file, l, col, "", "hooks must be a mapping, not a %s", kindName(f.value))
		}
	case ProfileHermes:
		f, ok := byKey["platforms"]
		if !ok || isNull(f.value) {
			return
		}
		var items []*yaml.Node
		switch v := deref(f.value); v.Kind {
		case yaml.ScalarNode:
			items = []*yaml.Node{v}
		case yaml.SequenceNode:
			items = v.Content
		default:
			l, col := sc.pos(f.value.Line, f.value.Column)
			sc.fl.add("field-type", sc.file, l, col, "write platforms: [linux, macos, windows]", "platforms must be a list, not a %s", kindName(v))
			return
		}
		for _, it := range items {
			s, _ := scalar(it)
			if !contains(hermesPlatforms, strings.ToLower(strings.TrimSpace(s))) {
				l, col := sc.pos(it.Line, it.Column)
				sc.fl.add("field-type", sc.file, l, col, "use linux, macos or windows", "platform %q is not one Hermes knows; the skill is hidden on every platform it does not list", s)
			}
		}
	}
}

func isBoolWord(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// describe names a value for a message: its kind, or the quoted scalar.
func describe(n *yaml.Node, s string) string {
	k := kindName(n)
	if k == "string" || k == "number" || k == "boolean" {
		return fmt.Sprintf("%q", s)
	}
	if k == "null" {
		return "empty"
	}
	return "a " + k
}

// joinScalars renders a list of scalars as a space-separated string.
func joinScalars(n *yaml.Node) string {
	var parts []string
	for _, c := range deref(n).Content {
		if s, ok := scalar(c); ok {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}
