package lint

import (
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxFrontmatter bounds the YAML handed to the parser. Real frontmatter is
// a few hundred bytes; this keeps hostile input (YAML bombs) cheap while
// far above anything a runtime loads.
const maxFrontmatter = 256 << 10

// frontmatter is SKILL.md split the way the runtimes do it: line based, an
// opening "---" line and the next line that is "---" (trailing blanks
// allowed).
type frontmatter struct {
	present bool   // the file starts with a "---" line
	closed  bool   // a closing "---" line was found
	yaml    string // the text between the delimiter lines
	line    int    // file line of the first YAML line
	body    string // the text after the closing line (or the whole file)
	bodyAt  int    // file line the body starts on
}

// splitFrontmatter splits text, which has no BOM and may use CRLF.
func splitFrontmatter(text string) frontmatter {
	first, _, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return frontmatter{body: text, bodyAt: 1}
	}
	fm := frontmatter{present: true, line: 2}
	off := len(first) + 1
	if off > len(text) {
		off = len(text)
	}
	lineNo := 2
	for k := off; k <= len(text); {
		end := strings.IndexByte(text[k:], '\n')
		lineEnd := len(text)
		next := len(text) + 1
		if end >= 0 {
			lineEnd = k + end
			next = lineEnd + 1
		}
		if strings.TrimRight(text[k:lineEnd], " \t\r") == "---" {
			fm.closed = true
			fm.yaml = text[off:k]
			if next <= len(text) {
				fm.body = text[next:]
			}
			fm.bodyAt = lineNo + 1
			return fm
		}
		if end < 0 {
			break
		}
		k = next
		lineNo++
	}
	fm.body = text
	fm.bodyAt = 1
	return fm
}

// yamlError is a YAML parse failure with the 1-based line (relative to the
// YAML text) the parser blamed.
type yamlError struct {
	line int
	msg  string
}

var yamlLineRE = regexp.MustCompile(`^line (\d+): `)

// parserErrors are the yaml.v3 messages that come from its parser rather
// than its scanner. yaml.v3 prints a parser error's 0-based context line
// but a scanner error's 1-based line; knowing which is which gives the
// right line for both.
var parserErrors = []string{
	"did not find expected key",
	"did not find expected node content",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
	"found duplicate %TAG directive",
	"unknown anchor",
}

// parseYAML parses YAML text into a node tree without decoding it, so
// aliases are never expanded and every key keeps its position.
func parseYAML(text string) (*yaml.Node, *yamlError) {
	if len(text) > maxFrontmatter {
		return nil, &yamlError{line: 1, msg: "frontmatter is " + strconv.Itoa(len(text)) + " bytes; refusing to parse more than " + strconv.Itoa(maxFrontmatter)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, newYAMLError(err)
	}
	return &doc, nil
}

func newYAMLError(err error) *yamlError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		line = n
		for _, p := range parserErrors {
			if strings.HasPrefix(msg, p) {
				line = n + 1
				break
			}
		}
	}
	if line < 1 {
		line = 1
	}
	return &yamlError{line: line, msg: msg}
}

// field is one top-level frontmatter key with its value node.
type field struct {
	key   string
	keyN  *yaml.Node
	value *yaml.Node
}

// topFields lists the keys of the document's top mapping in order, and
// whether the document is a mapping at all (an empty document is an
// empty mapping).
func topFields(doc *yaml.Node) ([]field, bool) {
	if doc == nil || len(doc.Content) == 0 {
		return nil, true
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, false
	}
	out := make([]field, 0, len(m.Content)/2)
	for k := 0; k+1 < len(m.Content); k += 2 {
		out = append(out, field{key: m.Content[k].Value, keyN: m.Content[k], value: m.Content[k+1]})
	}
	return out, true
}

// deref follows one alias, never more, so alias chains cannot make the
// linter expand a bomb.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// scalar returns a scalar node's text; ok is false for mappings, sequences
// and null.
func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// kindName names a node's kind for messages.
func kindName(n *yaml.Node) string {
	n = deref(n)
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "mapping"
	case n.Kind == yaml.SequenceNode:
		return "list"
	case n.Tag == "!!null":
		return "null"
	case n.Tag == "!!bool":
		return "boolean"
	case n.Tag == "!!int" || n.Tag == "!!float":
		return "number"
	}
	return "string"
}
