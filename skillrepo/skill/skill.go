package skill

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits and names shared by every writer and checker of skills.
const (
	// FileName is the name of a skill's main file.
	FileName = "SKILL.md"
	// ArchiveDir is the library's folder of archived skills: tracked,
	// not discovered as active.
	ArchiveDir = ".archive"
	// MaxNameLength is the longest skill or category name.
	MaxNameLength = 64
	// MaxDescriptionLength is the longest frontmatter description.
	MaxDescriptionLength = 1024
	// PromptDescriptionLimit is the longest description a create accepts:
	// the Hermes index cuts longer ones to 57 characters plus "...".
	PromptDescriptionLimit = 60
	// MaxContentChars caps SKILL.md and support-file text, in characters.
	MaxContentChars = 100_000
	// MaxFileBytes caps a support file, in bytes.
	MaxFileBytes = 1 << 20
)

// SupportDirs are the folders a skill's support files may live under.
var SupportDirs = []string{"assets", "references", "scripts", "templates"}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// ErrInvalid is wrapped by every validation error of this package.
var ErrInvalid = errors.New("invalid skill")

// ValidationError is a rule violation with a message the reference system
// would show (and, for a model, a message it can act on).
type ValidationError struct {
	Field string // "name", "category", "content", "file_path", ...
	Msg   string
}

func (e *ValidationError) Error() string { return e.Msg }

// Unwrap lets callers test errors.Is(err, ErrInvalid).
func (e *ValidationError) Unwrap() error { return ErrInvalid }

func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ValidateName checks a skill name: at most 64 characters of
// [a-z0-9._-], starting with a letter or digit.
func ValidateName(name string) error {
	return validateSegment("name", "skill name", name)
}

// ValidateCategory checks a category folder name: empty (no category) or a
// single folder name following the skill-name rules.
func ValidateCategory(category string) error {
	if category == "" {
		return nil
	}
	if strings.ContainsAny(category, `/\`) {
		return invalid("category", "invalid category %q: must be a single folder name, not a path", category)
	}
	return validateSegment("category", "category", category)
}

func validateSegment(field, what, s string) error {
	switch {
	case s == "":
		return invalid(field, "%s is required", what)
	case len(s) > MaxNameLength:
		return invalid(field, "%s %q is %d characters long; the limit is %d", what, s, len(s), MaxNameLength)
	case !nameRE.MatchString(s):
		return invalid(field, "invalid %s %q: use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit", what, s)
	}
	return nil
}

// ValidateSupportPath checks a path relative to the skill folder for a
// write_file or remove_file: no "..", not absolute, SKILL.md itself or a
// file at least one level below an allowed support folder. It returns the
// cleaned slash path.
func ValidateSupportPath(p string) (string, error) {
	return validateSupportPath(p, SupportDirs)
}

// cleanRelPath checks and cleans a path relative to a skill folder: not
// empty, no NUL, no traversal, not absolute, nothing under .git.
func cleanRelPath(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", invalid("file_path", "file path is required")
	}
	if strings.ContainsRune(p, '\x00') {
		return "", invalid("file_path", "file path %q contains a NUL byte", p)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", invalid("file_path", "path traversal ('..') is not allowed: %q", p)
		}
	}
	if strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':') {
		return "", invalid("file_path", "absolute paths are not allowed: %q", p)
	}
	clean := path.Clean(p)
	if clean == "." {
		return "", invalid("file_path", "provide a file path, not the skill folder itself: %q", p)
	}
	for _, seg := range strings.Split(clean, "/") {
		if seg == ".git" {
			return "", invalid("file_path", "%q: .git is never writable", p)
		}
	}
	return clean, nil
}

func validateSupportPath(p string, dirs []string) (string, error) {
	// The reference takes a backslash as part of a name, so
	// "references\x.md" is no file under references/: refused as it is.
	if strings.Contains(p, `\`) {
		return "", invalid("file_path", "file must be under one of: %s; got %q (use '/' between folders)", strings.Join(dirs, ", "), p)
	}
	clean, err := cleanRelPath(p)
	if err != nil || clean == FileName {
		return clean, err
	}
	parts := strings.Split(clean, "/")
	if !slices.Contains(dirs, parts[0]) {
		return "", invalid("file_path", "file must be under one of: %s; got %q", strings.Join(dirs, ", "), p)
	}
	if len(parts) < 2 {
		return "", invalid("file_path", "provide a file path, not just a directory: %q (e.g. %s/example.md)", p, parts[0])
	}
	return clean, nil
}

// ValidateFileContent checks support-file content against the size caps.
func ValidateFileContent(content []byte) error {
	if len(content) > MaxFileBytes {
		return invalid("file_content", "file is %d bytes; the limit is %d (1 MiB)", len(content), MaxFileBytes)
	}
	if utf8.Valid(content) {
		if n := utf8.RuneCount(content); n > MaxContentChars {
			return invalid("file_content", "file is %d characters; the limit is %d", n, MaxContentChars)
		}
	}
	return nil
}

// Document is a parsed SKILL.md.
type Document struct {
	// Fields is the frontmatter decoded as a YAML mapping.
	Fields map[string]any
	// Name and Description are the frontmatter values as strings (empty
	// when missing or not scalars).
	Name, Description string
	// Frontmatter is the raw YAML text between the delimiters.
	Frontmatter string
	// Body is the Markdown after the closing delimiter.
	Body string
	// BodyLine is the 1-based line number the body starts on.
	BodyLine int
}

// ParseError is a SKILL.md that cannot be parsed; Line is 1-based, 0 when
// unknown.
type ParseError struct {
	Path string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap lets callers test errors.Is(err, ErrInvalid).
func (e *ParseError) Unwrap() error { return ErrInvalid }

var bom = []byte("\ufeff")

// Split separates frontmatter from body with the reference system's rules:
// a leading BOM is tolerated, the content must start with "---", and the
// frontmatter ends at the first line that is "---" (trailing blanks
// allowed) after it. fmLine is the line the YAML starts on (2), bodyLine
// the line the body starts on.
func Split(content []byte) (frontmatter, body string, bodyLine int, err error) {
	content = bytes.TrimPrefix(content, bom)
	s := string(content)
	if !strings.HasPrefix(s, "---") {
		return "", "", 0, &ParseError{Line: 1, Msg: "SKILL.md must start with YAML frontmatter (---)"}
	}
	// The closing delimiter: "\n---" followed by optional blanks and a
	// newline, searched from position 3 as the reference's regex is.
	i := 3
	for {
		j := strings.Index(s[i:], "\n---")
		if j < 0 {
			return "", "", 0, &ParseError{Line: 1, Msg: "SKILL.md frontmatter is not closed (no closing --- line)"}
		}
		start := i + j + 1 // at the "---"
		k := start + 3
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
			k++
		}
		if k < len(s) && s[k] == '\n' {
			frontmatter = s[3 : start-1]
			frontmatter = strings.TrimPrefix(strings.TrimPrefix(frontmatter, "\r"), "\n")
			body = s[k+1:]
			bodyLine = strings.Count(s[:k+1], "\n") + 1
			return frontmatter, body, bodyLine, nil
		}
		i = start + 3
	}
}

// Parse splits and decodes a SKILL.md. It returns a *ParseError when the
// frontmatter is missing, unclosed or not a YAML mapping; it does not
// require name or description (see [Validate] for the write rules).
func Parse(content []byte) (*Document, error) {
	fm, body, bodyLine, err := Split(content)
	if err != nil {
		return nil, err
	}
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(fm), &node); err != nil {
		return nil, &ParseError{Line: yamlErrorLine(err) + 1, Msg: "invalid YAML in frontmatter: " + yamlErrorMsg(err)}
	}
	fields := map[string]any{}
	if len(node.Content) > 0 {
		if node.Content[0].Kind != yaml.MappingNode {
			return nil, &ParseError{Line: 2, Msg: "frontmatter must be a YAML mapping (key: value lines)"}
		}
		if err := node.Content[0].Decode(&fields); err != nil {
			// A key written twice keeps its last value, as every runtime's
			// YAML loader does (PyYAML for Hermes, js-yaml for the others);
			// lint's yaml-duplicate-key rule reports it where a profile
			// asks for strict YAML.
			if !lastKeyWins(node.Content[0]) || node.Content[0].Decode(&fields) != nil {
				return nil, &ParseError{Line: 2, Msg: "invalid YAML in frontmatter: " + yamlErrorMsg(err)}
			}
		}
	}
	doc := &Document{Fields: fields, Frontmatter: fm, Body: body, BodyLine: bodyLine}
	doc.Name = scalarString(fields["name"])
	doc.Description = scalarString(fields["description"])
	return doc, nil
}

// HermesFields is the frontmatter as Hermes' own parser reads a SKILL.md
// that [Parse] refuses: a YAML error falls back to one "key: value" per
// line holding a colon (split at the first, both sides trimmed, nothing
// unquoted), so `description: Use when: deploying` still gives a
// description; no frontmatter, an unclosed one, or YAML that is not a
// mapping gives no fields. Hermes lists such skills (by their folder name
// when no name is found), so its index does too (docs/reference-behaviour.md §8.1).
func HermesFields(content []byte) map[string]any {
	if doc, err := Parse(content); err == nil {
		return doc.Fields
	}
	fm, _, _, err := Split(content)
	if err != nil {
		return map[string]any{}
	}
	var node yaml.Node
	if yaml.Unmarshal([]byte(fm), &node) == nil {
		return map[string]any{} // parsed, but not into a mapping
	}
	fields := map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(fm), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields[strings.TrimSpace(key)] = strings.TrimSpace(value)
	}
	return fields
}

// lastKeyWins drops, in every mapping of the tree under n, each earlier
// pair whose key comes again later, and tells whether it dropped any.
func lastKeyWins(n *yaml.Node) bool {
	dropped := false
	if n.Kind == yaml.MappingNode {
		last := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode {
				last[k.Value] = i
			}
		}
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && last[k.Value] != i {
				continue
			}
			kept = append(kept, n.Content[i], n.Content[i+1])
		}
		dropped = len(kept) < len(n.Content)
		n.Content = kept
	}
	for _, c := range n.Content {
		if lastKeyWins(c) {
			dropped = true
		}
	}
	return dropped
}

func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case map[string]any, []any:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// yamlErrorLine extracts the 1-based line from a yaml.v3 error, relative to
// the YAML text; 1 when the error names none.
func yamlErrorLine(err error) int {
	m := yamlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 1
	}
	n := 0
	fmt.Sscanf(m[1], "%d", &n)
	if n < 1 {
		return 1
	}
	return n
}

// emptyDescription tells whether before is a SKILL.md whose frontmatter
// has a description key with nothing in it.
func emptyDescription(before []byte) bool {
	if before == nil {
		return false
	}
	doc, err := Parse(before)
	if err != nil {
		return false
	}
	_, has := doc.Fields["description"]
	return has && strings.TrimSpace(doc.Description) == ""
}

func yamlErrorMsg(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// ValidateOptions chooses which of the write rules apply.
type ValidateOptions struct {
	// NewSkill applies the create-only rule: the description must fit
	// DescriptionLimit (0: the Hermes index's 60 characters).
	NewSkill bool
	// DescriptionLimit is the create-only description cap (see
	// [Rules.ValidateOptions]).
	DescriptionLimit int
	// NameRenamed and OneLineDescription are the runtime's rules on the
	// frontmatter (see [Rules]); Runtime names it in messages.
	NameRenamed        string
	OneLineDescription bool
	Runtime            Runtime
	// Before is the SKILL.md the write replaces (nil for a new skill). A
	// problem it already had does not block the write (docs/architecture.md
	// §2.1): a skill whose description is empty — Hermes creates such
	// skills — can still be patched or rewritten with it empty.
	Before []byte
}

// Validate checks SKILL.md content the way skill_manage does before any
// write: not blank, within the character cap, frontmatter present, closed
// and a mapping with name and description, description within limits, and a
// non-blank body. The returned error wraps [ErrInvalid].
func Validate(content []byte, opts ValidateOptions) (*Document, error) {
	if len(bytes.TrimSpace(bytes.TrimPrefix(content, bom))) == 0 {
		return nil, invalid("content", "SKILL.md content is empty")
	}
	if !utf8.Valid(content) {
		return nil, invalid("content", "SKILL.md is not valid UTF-8")
	}
	if n := utf8.RuneCount(content); n > MaxContentChars {
		return nil, invalid("content", "SKILL.md is %d characters; the limit is %d (move detail into references/)", n, MaxContentChars)
	}
	doc, err := Parse(content)
	if err != nil {
		return nil, err
	}
	if _, ok := doc.Fields["name"]; !ok {
		return nil, invalid("content", "frontmatter must include 'name'")
	}
	if _, ok := doc.Fields["description"]; !ok {
		return nil, invalid("content", "frontmatter must include 'description'")
	}
	desc := strings.TrimSpace(doc.Description)
	if desc == "" && !emptyDescription(opts.Before) {
		return nil, invalid("content", "frontmatter 'description' must be a non-empty string")
	}
	if n := utf8.RuneCountInString(desc); n > MaxDescriptionLength {
		return nil, invalid("content", "description is %d characters; the limit is %d", n, MaxDescriptionLength)
	}
	if opts.OneLineDescription && strings.ContainsAny(desc, "\r\n") {
		return nil, invalid("content", "the description spans several lines; %s reads a one-line description: write it on one line", opts.Runtime)
	}
	if name, ok := doc.Fields["name"].(string); ok && opts.NameRenamed != "" && strings.ContainsAny(name, opts.NameRenamed) {
		return nil, invalid("content", "name %q holds characters %s replaces with '-' (%s): it would load under another name", name, opts.Runtime, opts.NameRenamed)
	}
	if opts.NewSkill {
		limit := opts.DescriptionLimit
		if limit <= 0 {
			limit = PromptDescriptionLimit
		}
		d := strings.Trim(desc, `"'`)
		if n := utf8.RuneCountInString(d); n > limit {
			return nil, invalid("content", "description is %d characters; a new skill's description must be at most %d because the Hermes skills index cuts it to %d characters plus \"...\": lead with a self-contained trigger (\"Use when ...\")", n, limit, limit-3)
		}
	}
	if strings.TrimSpace(doc.Body) == "" {
		return nil, invalid("content", "SKILL.md must have instructions after the frontmatter")
	}
	return doc, nil
}
