package lint

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/skillrepo/skillrepo/agent"
)

// Severity is how bad a finding is. The zero value is [Off].
type Severity int

// The severities, in increasing order. Off disables a rule.
const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = [...]string{Off: "off", Info: "info", Warning: "warning", Error: "error"}

func (s Severity) String() string {
	if s < Off || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads "error", "warning", "info" or "off" ("warn", "note"
// and "none" are accepted as spellings other tools use).
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info", "note", "notice":
		return Info, nil
	case "off", "none", "disable", "disabled":
		return Off, nil
	}
	return Off, fmt.Errorf("unknown severity %q: want error, warning, info or off", s)
}

// MarshalJSON writes the severity as its name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a severity name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	v, err := ParseSeverity(name)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Profile names the runtime whose rules a check applies.
type Profile string

// The profiles. Each applies the rules that runtime really enforces
// (docs/skill-format.md §2); the content rules (dangling references, orphan
// files, size) apply to all of them except [ProfileSkillsRef], which
// reproduces the reference validator and nothing else.
const (
	ProfileSpec       Profile = "spec"
	ProfileSkillsRef  Profile = "skills-ref"
	ProfileClaudeCode Profile = Profile(agent.ClaudeCode)
	ProfileCodex      Profile = Profile(agent.Codex)
	ProfileHermes     Profile = Profile(agent.Hermes)
	ProfileGemini     Profile = Profile(agent.Gemini)
)

// Profiles lists every profile, the default first.
func Profiles() []Profile {
	return []Profile{ProfileSpec, ProfileSkillsRef, ProfileClaudeCode, ProfileCodex, ProfileHermes, ProfileGemini}
}

func (p Profile) valid() bool {
	for _, q := range Profiles() {
		if p == q {
			return true
		}
	}
	return false
}

// Rule describes one check. IDs are stable: configuration, SARIF
// fingerprints and users' scripts refer to them.
type Rule struct {
	ID      string
	Summary string
	// levels holds one letter per profile, in the order of [Profiles].
	levels string
}

// Default returns the rule's severity under profile p (spec's for an
// unknown profile).
func (r Rule) Default(p Profile) Severity {
	k := 0
	for n, q := range Profiles() {
		if q == p {
			k = n
		}
	}
	if k >= len(r.levels) {
		return Off
	}
	switch r.levels[k] {
	case 'e':
		return Error
	case 'w':
		return Warning
	case 'i':
		return Info
	}
	return Off
}

// ruleTable is every rule with its severities under spec, skills-ref,
// claude-code, codex, hermes and gemini, in that order, one letter each:
// e(rror), w(arning), i(nfo) or - (off). It is never modified. Gemini
// CLI's column follows its loader (0.61): a file not starting with
// ---…--- (a byte order mark included) or without name and description
// is not loaded; YAML it cannot parse is read line by line instead; it
// renames a name's : \ / < > * ? " | to -, knows no other field and no
// limit, and reads SKILL.md and */SKILL.md of a skills folder only.
var ruleTable = []Rule{
	{"target-missing", "The path to lint does not exist", "eeeeee"},
	{"target-not-skill", "The path to lint is a file that is not a SKILL.md", "eeeeee"},
	{"read-error", "A file or folder could not be read", "eeeeee"},
	{"symlink-outside-root", "A symbolic link points outside the linted root and was not followed", "wwwwww"},
	{"skill-md-missing", "A skill folder has no SKILL.md", "eeeeee"},
	{"skill-md-case", "The skill file is named skill.md instead of SKILL.md", "w-eeee"},
	{"utf8-invalid", "A text file is not valid UTF-8", "eeeeee"},
	{"bom", "SKILL.md starts with a UTF-8 byte order mark", "w-wwwe"},
	{"crlf", "A Markdown file uses CRLF line endings", "i-iiii"},
	{"frontmatter-missing", "SKILL.md does not start with YAML frontmatter (---)", "eeweee"},
	{"frontmatter-unclosed", "The frontmatter has no closing --- line", "eeweee"},
	{"yaml-invalid", "The frontmatter is not valid YAML (for skills-ref: not strict YAML)", "eeweew"},
	{"frontmatter-not-mapping", "The frontmatter is not a YAML mapping", "eeweew"},
	{"yaml-duplicate-key", "A frontmatter key appears twice", "weweww"},
	{"name-missing", "The frontmatter has no name", "eewewe"},
	{"name-type", "The name is not a non-empty string", "eeeeee"},
	{"name-too-long", "The name is longer than 64 characters", "eeeeww"},
	{"name-uppercase", "The name is not lowercase", "eee---"},
	{"name-hyphen-edge", "The name starts or ends with a hyphen", "eee---"},
	{"name-consecutive-hyphens", "The name contains --", "eee---"},
	{"name-invalid-chars", "The name has characters other than letters, digits and hyphens", "eee---"},
	{"name-non-ascii", "The name uses letters or digits outside a-z and 0-9", "w-w---"},
	{"name-dir-mismatch", "The name differs from the skill's folder name", "eew-ww"},
	{"name-reserved-word", "The name contains a word Anthropic reserves (anthropic, claude)", "--w---"},
	{"name-session-artefact", "The name looks like a session artefact (PR or issue number, date, fix-, debug-) rather than a class of task", "w-wwww"},
	{"description-missing", "The frontmatter has no description", "eeweee"},
	{"description-type", "The description is not a non-empty string", "eeeeee"},
	{"description-too-long", "The description is longer than 1024 characters", "eeweww"},
	{"description-index-cut", "The description is longer than the 60 characters the Hermes skills index shows", "----i-"},
	{"description-angle-brackets", "The description contains < or >, which Anthropic's validator rejects", "--w--w"},
	{"compatibility-type", "compatibility is not a string", "ee----"},
	{"compatibility-length", "compatibility is empty or longer than 500 characters", "ee----"},
	{"metadata-type", "metadata is not a mapping", "e--ew-"},
	{"metadata-value-type", "A metadata value is not a string", "w-----"},
	{"metadata-short-description", "metadata.short-description is longer than 500 characters", "---e--"},
	{"allowed-tools-list", "allowed-tools is a YAML list rather than a space-separated string", "w-----"},
	{"allowed-tools-type", "allowed-tools is neither a string nor a list", "e-e---"},
	{"license-type", "license is not a string", "w-----"},
	{"field-unknown", "The frontmatter has a field the profile's runtime does not know", "wew---"},
	{"field-type", "A runtime-specific field has the wrong type or value", "--e-w-"},
	{"body-empty", "SKILL.md has no instructions after the frontmatter", "w-wwww"},
	{"body-too-long", "SKILL.md is longer than 500 lines", "w-wwww"},
	{"body-too-many-tokens", "The SKILL.md body is longer than about 5,000 tokens", "w-wwww"},
	{"link-dangling", "A relative link or image points at a file that does not exist in the skill", "e-eeee"},
	{"link-outside-skill", "A relative link leaves the skill folder", "w-wwww"},
	{"path-dangling", "A references/, templates/, scripts/ or assets/ path named in the text does not exist", "e-eeee"},
	{"file-orphan", "A support file is never referenced", "w-wwww"},
	{"duplicate-name", "Two skills in the library have the same name", "e-eeee"},
	{"skill-ref-archived", "The text names a skill that exists only under the library's .archive/", "w-wwww"},
	{"name-renamed", "The name holds a character Gemini CLI replaces with - when it loads the skill", "-----e"},
	{"description-multiline", "The description spans several lines; Gemini CLI reads a one-line description", "-----e"},
	{"skill-depth", "SKILL.md is deeper than <library>/<name>/SKILL.md, where Gemini CLI's loader stops", "-----w"},
}

// Rules returns every rule, sorted by ID.
func Rules() []Rule {
	out := append([]Rule(nil), ruleTable...)
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}

// LookupRule returns the rule with the given ID.
func LookupRule(id string) (Rule, bool) {
	for _, r := range ruleTable {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
