package lint

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file emulates the YAML loading of skills-ref: strictyaml (on
// ruamel.yaml) without a schema. strictyaml refuses flow collections,
// anchors and tags when it scans them, refuses duplicate keys and nested
// mappings of inconsistent indentation when it constructs the document,
// and returns every scalar as a string. Its error text is ruamel's
// MarkedYAMLError: context, context mark, problem, problem mark, each mark
// printed as `  in "<unicode string>", line L, column C:` plus a snippet of
// the line and a caret. We parse with yaml.v3 (whose scalar values are the
// same strings) and rebuild those messages from node positions.

// strictLabel is the name strictyaml gives a string it loads.
const strictLabel = "<unicode string>"

// Problem texts of strictyaml's disallowed-token errors.
const (
	flowProblem   = "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)"
	anchorProblem = "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)"
	tagProblem    = "Found disallowed tag tokens (do not specify types in markup)"
	indentProblem = "Found mapping with indentation inconsistent with previous mapping"
)

// yamlText is YAML source indexed by character, as ruamel's reader sees
// it.
type yamlText struct {
	buf        []rune
	lineStarts []int // character offset of each line's start
}

func newYAMLText(s string) *yamlText {
	t := &yamlText{buf: []rune(s), lineStarts: []int{0}}
	for k, r := range t.buf {
		if r == '\n' {
			t.lineStarts = append(t.lineStarts, k+1)
		}
	}
	return t
}

// mark is a ruamel position: 0-based line and column, and the character
// offset into the buffer.
type mark struct{ line, col, pointer int }

// at returns the mark of 1-based line and column (yaml.v3 positions).
func (t *yamlText) at(line, col int) mark {
	l, c := line-1, col-1
	if l < 0 {
		l = 0
	}
	if l >= len(t.lineStarts) {
		l = len(t.lineStarts) - 1
	}
	if c < 0 {
		c = 0
	}
	p := t.lineStarts[l] + c
	if p > len(t.buf) {
		p = len(t.buf)
	}
	return mark{line: l, col: p - t.lineStarts[l], pointer: p}
}

// shift returns the mark n characters further on the same line.
func (m mark) shift(n int) mark {
	return mark{line: m.line, col: m.col + n, pointer: m.pointer + n}
}

// snippet reproduces ruamel's Mark.get_snippet (indent 4, max length 75)
// and its caret line with the 1-based line number.
func (t *yamlText) snippet(m mark) string {
	const indent, maxLength = 4, 75
	isBreak := func(r rune) bool {
		return r == 0 || r == '\r' || r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029'
	}
	head, tail := "", ""
	start := m.pointer
	for start > 0 && !isBreak(t.buf[start-1]) {
		start--
		if float64(m.pointer-start) > maxLength/2.0-1 {
			head = " ... "
			start += 5
			break
		}
	}
	end := m.pointer
	for end < len(t.buf) && !isBreak(t.buf[end]) {
		end++
		if float64(end-m.pointer) > maxLength/2.0-1 {
			tail = " ... "
			end -= 5
			break
		}
	}
	if start > end {
		start = end
	}
	pad := indent + m.pointer - start + len(head)
	if pad < 0 {
		pad = 0
	}
	return strings.Repeat(" ", indent) + head + string(t.buf[start:end]) + tail + "\n" +
		strings.Repeat(" ", pad) + fmt.Sprintf("^ (line: %d)", m.line+1)
}

func (t *yamlText) markString(m mark) string {
	return fmt.Sprintf("  in \"%s\", line %d, column %d:\n%s", strictLabel, m.line+1, m.col+1, t.snippet(m))
}

// markedError formats like ruamel's MarkedYAMLError.__str__: the context
// mark is left out when it equals the problem mark.
func (t *yamlText) markedError(context string, cm *mark, problem string, pm *mark) string {
	var lines []string
	if context != "" {
		lines = append(lines, context)
	}
	if cm != nil && (problem == "" || pm == nil || *cm != *pm) {
		lines = append(lines, t.markString(*cm))
	}
	if problem != "" {
		lines = append(lines, problem)
	}
	if pm != nil {
		lines = append(lines, t.markString(*pm))
	}
	return strings.Join(lines, "\n")
}

// strictError is a strict-YAML failure: the message after "Invalid YAML in
// frontmatter: " and the 1-based line and column it points at.
type strictError struct {
	msg       string
	line, col int
}

// errorAt builds the error; its position is the earlier mark, which is
// where the offending token starts.
func (t *yamlText) errorAt(context string, cm mark, problem string, pm mark) *strictError {
	at := pm
	if cm.pointer < pm.pointer {
		at = cm
	}
	return &strictError{msg: t.markedError(context, &cm, problem, &pm), line: at.line + 1, col: at.col + 1}
}

// strictLoad parses YAML text the way strictyaml.load does and returns the
// document node, or the error strictyaml would raise.
func strictLoad(text string) (*yaml.Node, *strictError) {
	t := newYAMLText(text)
	doc, yerr := parseYAML(text)
	if yerr != nil {
		// yaml.v3 gave up; strictyaml would still have refused any flow,
		// anchor or tag token it met before the syntax error.
		if e := t.firstDisallowedToken(yerr.line); e != nil {
			return nil, e
		}
		return nil, t.syntaxError(yerr)
	}
	if e := t.disallowedNode(doc); e != nil {
		return nil, e
	}
	if e := t.constructCheck(doc); e != nil {
		return nil, e
	}
	return doc, nil
}

// syntaxError renders a yaml.v3 syntax error in ruamel's shape. The
// wording is yaml.v3's (ruamel's own text cannot be derived), with the one
// common message translated.
func (t *yamlText) syntaxError(e *yamlError) *strictError {
	msg := strings.Replace(e.msg, "mapping values are not allowed in this context", "mapping values are not allowed here", 1)
	m := t.at(e.line, 1)
	for m.pointer < len(t.buf) && t.buf[m.pointer] == ' ' {
		m = m.shift(1)
	}
	return &strictError{msg: msg + "\n" + t.markString(m), line: m.line + 1, col: m.col + 1}
}

// tokenEnd returns the mark after the run of non-blank characters at m.
func (t *yamlText) tokenEnd(m mark) mark {
	n := 0
	for m.pointer+n < len(t.buf) {
		r := t.buf[m.pointer+n]
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			break
		}
		n++
	}
	return m.shift(n)
}

// propertyError returns the error for the first anchor or tag among the
// node properties starting at m (source order, as the scanner meets
// them), or nil when m starts neither.
func (t *yamlText) propertyError(m mark) *strictError {
	for k := 0; k < 4 && m.pointer < len(t.buf); k++ {
		switch t.buf[m.pointer] {
		case '&':
			return t.errorAt("While scanning", m, anchorProblem, t.tokenEnd(m))
		case '!':
			end := t.tokenEnd(m)
			return t.errorAt("While scanning", end, tagProblem, m)
		case ' ', '\t':
			m = m.shift(1)
		default:
			return nil
		}
	}
	return nil
}

// disallowedNode walks the document in source order and returns the error
// for the first flow collection, anchor or tag.
func (t *yamlText) disallowedNode(n *yaml.Node) *strictError {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.DocumentNode && n.Kind != yaml.AliasNode {
		m := t.at(n.Line, n.Column)
		if n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
			if e := t.propertyError(m); e != nil {
				return e
			}
		}
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle != 0 {
			for m.pointer < len(t.buf) && t.buf[m.pointer] != '[' && t.buf[m.pointer] != '{' && t.buf[m.pointer] != '\n' {
				m = m.shift(1)
			}
			return t.errorAt("While scanning", m, flowProblem, m.shift(1))
		}
	}
	for _, c := range n.Content {
		if e := t.disallowedNode(c); e != nil {
			return e
		}
	}
	return nil
}

// constructCheck reproduces strictyaml's construction checks in its
// order: depth first, a mapping's key and value are built before the key
// is compared with the earlier ones; a mapping's indentation is checked
// after all its pairs.
func (t *yamlText) constructCheck(n *yaml.Node) *strictError {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if e := t.constructCheck(c); e != nil {
				return e
			}
		}
	case yaml.MappingNode:
		seen := map[string]bool{}
		for k := 0; k+1 < len(n.Content); k += 2 {
			key, val := n.Content[k], n.Content[k+1]
			if e := t.constructCheck(key); e != nil {
				return e
			}
			if e := t.constructCheck(val); e != nil {
				return e
			}
			if key.Kind != yaml.ScalarNode {
				continue
			}
			if seen[key.Value] {
				start := t.at(key.Line, key.Column)
				return t.errorAt("While parsing", start, fmt.Sprintf("Duplicate key '%s' found", key.Value), t.keyEnd(start))
			}
			seen[key.Value] = true
		}
		indent := -1
		for k := 1; k < len(n.Content); k += 2 {
			v := n.Content[k]
			if v.Kind != yaml.MappingNode {
				continue
			}
			if indent < 0 {
				indent = v.Column
			}
			if v.Column != indent {
				start := t.at(v.Line, v.Column)
				end := t.at(lastLine(v)+1, 1)
				return t.errorAt("While parsing", start, indentProblem, end)
			}
		}
	}
	return nil
}

// keyEnd returns the mark after the key token at m: a quoted key up to its
// closing quote, a plain key up to the ": " that ends it.
func (t *yamlText) keyEnd(m mark) mark {
	p := m.pointer
	if p < len(t.buf) && (t.buf[p] == '"' || t.buf[p] == '\'') {
		q := t.buf[p]
		for k := p + 1; k < len(t.buf) && t.buf[k] != '\n'; k++ {
			if q == '"' && t.buf[k] == '\\' {
				k++
				continue
			}
			if t.buf[k] == q {
				return m.shift(k + 1 - p)
			}
		}
		return m
	}
	end := p
	for k := p; k < len(t.buf) && t.buf[k] != '\n'; k++ {
		if t.buf[k] == ':' && (k+1 == len(t.buf) || t.buf[k+1] == ' ' || t.buf[k+1] == '\n' || t.buf[k+1] == '\t') {
			break
		}
		if t.buf[k] != ' ' && t.buf[k] != '\t' {
			end = k + 1
		}
	}
	return m.shift(end - p)
}

// lastLine is the last 1-based line any node below n starts on.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		if cl := lastLine(c); cl > l {
			l = cl
		}
	}
	return l
}

// firstDisallowedToken scans the first maxLine lines for a flow
// collection start, an anchor or a tag where a YAML token begins. It is
// the fallback for text yaml.v3 cannot parse, so it is a line heuristic:
// it follows keys, "- " entries, quoted scalars, block scalars and plain
// continuation lines, which covers frontmatter as people write it.
func (t *yamlText) firstDisallowedToken(maxLine int) *strictError {
	const (
		normal = iota
		block
		quoted
		plainCont
	)
	mode, parent := normal, 0
	var quote rune
	for l := 0; l < len(t.lineStarts) && l < maxLine; l++ {
		start := t.lineStarts[l]
		end := len(t.buf)
		if l+1 < len(t.lineStarts) {
			end = t.lineStarts[l+1] - 1
		}
		line := t.buf[start:end]
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		rest := strings.TrimSpace(string(line[indent:]))
		if rest == "" || strings.HasPrefix(rest, "#") {
			continue
		}
		switch mode {
		case block, plainCont:
			if indent > parent {
				continue
			}
			mode = normal
		case quoted:
			k := closingQuote(line, 0, quote)
			if k < 0 {
				continue
			}
			mode = normal
			continue
		}
		pos := indent
		for pos < len(line) && line[pos] == '-' && (pos+1 == len(line) || line[pos+1] == ' ') {
			pos++
			for pos < len(line) && line[pos] == ' ' {
				pos++
			}
		}
		keyCol := pos
		for step := 0; step < 2 && pos < len(line); step++ {
			m := mark{line: l, col: pos, pointer: start + pos}
			switch line[pos] {
			case '[', '{':
				return t.errorAt("While scanning", m, flowProblem, m.shift(1))
			case '&':
				return t.errorAt("While scanning", m, anchorProblem, t.tokenEnd(m))
			case '!':
				return t.errorAt("While scanning", t.tokenEnd(m), tagProblem, m)
			case '#':
				step = 2
				continue
			case '|', '>':
				mode, parent = block, indent
				step = 2
				continue
			case '"', '\'':
				k := closingQuote(line, pos+1, line[pos])
				if k < 0 {
					mode, quote = quoted, line[pos]
					step = 2
					continue
				}
				pos = k + 1
				for pos < len(line) && line[pos] == ' ' {
					pos++
				}
				if pos < len(line) && line[pos] == ':' {
					pos++
					for pos < len(line) && line[pos] == ' ' {
						pos++
					}
					continue // the value after a quoted key
				}
				step = 2
				continue
			}
			sep := keySeparator(line, pos)
			if sep < 0 {
				mode, parent = plainCont, keyCol-1
				step = 2
				continue
			}
			pos = sep + 1
			for pos < len(line) && line[pos] == ' ' {
				pos++
			}
			if step == 1 || pos >= len(line) {
				if pos < len(line) {
					mode, parent = plainCont, keyCol
				}
				step = 2
			}
		}
	}
	return nil
}

// closingQuote returns the index of the quote closing a scalar opened with
// q, searching line from k, or -1.
func closingQuote(line []rune, k int, q rune) int {
	for ; k < len(line); k++ {
		switch {
		case q == '"' && line[k] == '\\':
			k++
		case q == '\'' && line[k] == '\'' && k+1 < len(line) && line[k+1] == '\'':
			k++
		case line[k] == q:
			return k
		}
	}
	return -1
}

// keySeparator returns the index of the ':' ending a plain key that starts
// at k (a ':' followed by a blank or the end of the line), or -1.
func keySeparator(line []rune, k int) int {
	for ; k < len(line); k++ {
		if line[k] == ':' && (k+1 == len(line) || line[k+1] == ' ' || line[k+1] == '\t') {
			return k
		}
		if line[k] == '#' && k > 0 && line[k-1] == ' ' {
			return -1
		}
	}
	return -1
}
