package lint

import (
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// skillsRefAllowed are the only frontmatter keys skills-ref accepts.
var skillsRefAllowed = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

const skillsRefAllowedText = "['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name']"

// checkSkillsRef reproduces skills-ref's validate(skill_dir) (validator.py
// at agentskills/agentskills 69ef37e): the same checks, messages and
// order. Parse failures end the check with one finding; field checks
// accumulate. file is the skill's main file relative to the root; dirName
// is the folder name the name must match.
func (c *checker) checkSkillsRef(fl *findings, file, dirName string, data []byte) {
	if !utf8.Valid(data) {
		fl.add("utf8-invalid", file, invalidUTF8Line(data), 0, "save the file as UTF-8", "%s is not valid UTF-8 (skills-ref fails reading it)", path.Base(file))
		return
	}
	// Python's read_text() translates \r\n and \r to \n.
	content := strings.ReplaceAll(string(data), "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")

	if !strings.HasPrefix(content, "---") {
		fl.add("frontmatter-missing", file, 1, 1, "start the file with a --- line, the YAML frontmatter and a closing --- line", "SKILL.md must start with YAML frontmatter (---)")
		return
	}
	// A substring split, as in parser.py: any "---" ends the frontmatter.
	parts := strings.SplitN(content, "---", 3)
	if len(parts) < 3 {
		fl.add("frontmatter-unclosed", file, 1, 1, "add a --- line after the frontmatter", "SKILL.md frontmatter not properly closed with ---")
		return
	}
	// parts[1] starts on the first line of the file, so YAML line n is file
	// line n.
	doc, serr := strictLoad(parts[1])
	if serr != nil {
		fl.add("yaml-invalid", file, serr.line, serr.col, "skills-ref reads strict YAML: quote values with ': ', and write lists as block lists", "Invalid YAML in frontmatter: %s", serr.msg)
		return
	}
	fields, isMap := topFields(doc)
	if !isMap || doc == nil || len(doc.Content) == 0 {
		// strictyaml returns an empty document as the string "".
		fl.add("frontmatter-not-mapping", file, 2, 1, "write the frontmatter as key: value lines", "SKILL.md frontmatter must be a YAML mapping")
		return
	}
	byKey := map[string]field{}
	var extra []string
	for _, f := range fields {
		byKey[f.key] = f
		if !contains(skillsRefAllowed, f.key) {
			extra = append(extra, f.key)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		f := byKey[extra[0]]
		fl.add("field-unknown", file, f.keyN.Line, f.keyN.Column, "move extra fields under metadata:", "Unexpected fields in frontmatter: %s. Only %s are allowed.", strings.Join(extra, ", "), skillsRefAllowedText)
	}

	if f, ok := byKey["name"]; !ok {
		fl.add("name-missing", file, 0, 0, "add name: <folder name> to the frontmatter", "Missing required field in frontmatter: name")
	} else if raw, ok := strictString(f.value); !ok || pyStrip(raw) == "" {
		fl.add("name-type", file, f.keyN.Line, f.keyN.Column, "", "Field 'name' must be a non-empty string")
	} else {
		line, col := f.value.Line, f.value.Column
		name := norm.NFKC.String(pyStrip(raw))
		if n := utf8.RuneCountInString(name); n > 64 {
			fl.add("name-too-long", file, line, col, "", "Skill name '%s' exceeds 64 character limit (%d chars)", name, n)
		}
		if name != strings.ToLower(name) {
			fl.add("name-uppercase", file, line, col, "", "Skill name '%s' must be lowercase", name)
		}
		if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
			fl.add("name-hyphen-edge", file, line, col, "", "Skill name cannot start or end with a hyphen")
		}
		if strings.Contains(name, "--") {
			fl.add("name-consecutive-hyphens", file, line, col, "", "Skill name cannot contain consecutive hyphens")
		}
		for _, r := range name {
			if !(pyIsAlnum(r) || r == '-') {
				fl.add("name-invalid-chars", file, line, col, "", "Skill name '%s' contains invalid characters. Only letters, digits, and hyphens are allowed.", name)
				break
			}
		}
		if norm.NFKC.String(dirName) != name {
			fl.add("name-dir-mismatch", file, line, col, "", "Directory name '%s' must match skill name '%s'", dirName, name)
		}
	}

	if f, ok := byKey["description"]; !ok {
		fl.add("description-missing", file, 0, 0, "", "Missing required field in frontmatter: description")
	} else if raw, ok := strictString(f.value); !ok || pyStrip(raw) == "" {
		fl.add("description-type", file, f.keyN.Line, f.keyN.Column, "", "Field 'description' must be a non-empty string")
	} else if n := utf8.RuneCountInString(raw); n > 1024 {
		fl.add("description-too-long", file, f.value.Line, f.value.Column, "", "Description exceeds 1024 character limit (%d chars)", n)
	}

	if f, ok := byKey["compatibility"]; ok {
		if raw, ok := strictString(f.value); !ok {
			fl.add("compatibility-type", file, f.keyN.Line, f.keyN.Column, "", "Field 'compatibility' must be a string")
		} else if n := utf8.RuneCountInString(raw); n > 500 {
			fl.add("compatibility-length", file, f.value.Line, f.value.Column, "", "Compatibility exceeds 500 character limit (%d chars)", n)
		}
	}
}

// strictString is a value as strictyaml returns it: every scalar
// (including null and booleans) is its source string.
func strictString(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// pyStrip is Python's str.strip(): it also strips the information
// separators U+001C..U+001F, which Go's unicode.IsSpace does not.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
	})
}

// pyIsAlnum is Python's str.isalnum() for one character: a letter or any
// numeric character.
func pyIsAlnum(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// invalidUTF8Line is the 1-based line of the first invalid byte.
func invalidUTF8Line(data []byte) int {
	line := 1
	for k := 0; k < len(data); {
		r, n := utf8.DecodeRune(data[k:])
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if data[k] == '\n' {
			line++
		}
		k += n
	}
	return line
}
