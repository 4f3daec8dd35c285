// Package jsonedit edits a JSON document as text: it sets, appends and
// deletes members and elements by changing only their own bytes, so every
// other key keeps its place, spacing, line breaks and comments (an agent's
// settings file is the person's: a one-line hook stays one line, a
// multi-line object stays multi-line). Text it inserts follows the
// container it goes into: one line in a one-line container, else one
// member a line with the siblings' indentation. Deleting what an insert
// added gives the original bytes back.
//
// Comments (// and /* */) are read as white space, as the agents that
// allow them in their settings do (Gemini CLI); a trailing comma is an
// error, as it is for JSON.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Kind is the type of a value.
type Kind byte

// Kinds of values.
const (
	Object Kind = '{'
	Array  Kind = '['
	String Kind = '"'
	Number Kind = '0'
	Bool   Kind = 't'
	Null   Kind = 'n'
)

// Value is a parsed value with its place in the text: Start and End are
// byte offsets, End exclusive.
type Value struct {
	Kind       Kind
	Start, End int
	Members    []*Member // Object
	Elems      []*Value  // Array
}

// Member is one key of an object.
type Member struct {
	Key      string
	KeyStart int
	Val      *Value
}

// SyntaxError says where a document stops being JSON.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not valid JSON at line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse reads a document whose top level is any JSON value.
func Parse(data []byte) (*Value, error) {
	p := &parser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos != len(data) {
		return nil, p.fail("more after the value")
	}
	return v, nil
}

// Get returns the member of obj named key, or nil.
func (v *Value) Get(key string) *Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	// The last of duplicate keys wins, as in every JSON reader.
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i]
		}
	}
	return nil
}

// Lookup follows a path down from v: a string is an object's key, an
// int a list's index. It returns nil when the path leads nowhere.
func (v *Value) Lookup(path ...any) *Value {
	for _, step := range path {
		switch k := step.(type) {
		case string:
			m := v.Get(k)
			if m == nil {
				return nil
			}
			v = m.Val
		case int:
			if v == nil || v.Kind != Array || k < 0 || k >= len(v.Elems) {
				return nil
			}
			v = v.Elems[k]
		default:
			return nil
		}
	}
	return v
}

// maxDepth bounds nesting: a settings file is a few levels deep.
const maxDepth = 1000

type parser struct {
	data []byte
	pos  int
	err  error
}

func (p *parser) fail(format string, args ...any) error {
	line := 1 + bytes.Count(p.data[:p.pos], []byte("\n"))
	col := p.pos - bytes.LastIndexByte(p.data[:p.pos], '\n')
	return &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// space skips white space and comments.
func (p *parser) space() {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '/':
			i := bytes.IndexByte(p.data[p.pos:], '\n')
			if i < 0 {
				p.pos = len(p.data)
			} else {
				p.pos += i
			}
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '*':
			i := bytes.Index(p.data[p.pos+2:], []byte("*/"))
			if i < 0 {
				p.err = p.fail("unterminated comment")
				p.pos = len(p.data)
				return
			}
			p.pos += i + 4
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Value, error) {
	if p.err != nil {
		return nil, p.err
	}
	if depth > maxDepth {
		return nil, p.fail("nested too deeply")
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &Value{Kind: String, Start: start, End: p.pos}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, lit := range []struct {
		text string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if bytes.HasPrefix(p.data[p.pos:], []byte(lit.text)) {
			p.pos += len(lit.text)
			return &Value{Kind: lit.kind, Start: start, End: p.pos}, nil
		}
	}
	return nil, p.fail("unexpected %q", string(p.data[p.pos]))
}

func (p *parser) object(depth int) (*Value, error) {
	v := &Value{Kind: Object, Start: p.pos}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.End = p.pos
		return v, p.err
	}
	for {
		if p.err != nil {
			return nil, p.err
		}
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("want a key in double quotes")
		}
		m := &Member{KeyStart: p.pos}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		m.Key = key
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("want ':' after the key")
		}
		p.pos++
		p.space()
		if m.Val, err = p.value(depth + 1); err != nil {
			return nil, err
		}
		v.Members = append(v.Members, m)
		p.space()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				return nil, p.fail("a comma before '}'")
			}
		case '}':
			p.pos++
			v.End = p.pos
			return v, p.err
		default:
			return nil, p.fail("want ',' or '}' in an object")
		}
	}
}

func (p *parser) array(depth int) (*Value, error) {
	v := &Value{Kind: Array, Start: p.pos}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.End = p.pos
		return v, p.err
	}
	for {
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, e)
		p.space()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of input in a list")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == ']' {
				return nil, p.fail("a comma before ']'")
			}
		case ']':
			p.pos++
			v.End = p.pos
			return v, p.err
		default:
			return nil, p.fail("want ',' or ']' in a list")
		}
	}
}

// str reads a string literal and returns its value.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.data[start:p.pos], &s); err != nil {
				p.pos = start
				return "", p.fail("bad string: %v", err)
			}
			return s, nil
		case c == '\\':
			p.pos += 2
		case c < 0x20:
			return "", p.fail("a control character in a string")
		default:
			p.pos++
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) number() (*Value, error) {
	start := p.pos
	for p.pos < len(p.data) && bytes.IndexByte([]byte("+-0123456789.eE"), p.data[p.pos]) >= 0 {
		p.pos++
	}
	var n json.Number
	if err := json.Unmarshal(p.data[start:p.pos], &n); err != nil {
		p.pos = start
		return nil, p.fail("bad number")
	}
	return &Value{Kind: Number, Start: start, End: p.pos}, nil
}

// ErrNotContainer is returned when a path goes through a value that is
// not an object (or, for an append, does not end at a list).
var ErrNotContainer = errors.New("not an object")

// Set sets the member at keys to val (any value encoding/json marshals),
// creating the objects on the way. A member that already holds an equal
// value keeps its bytes; a new one goes last in its object.
func Set(data []byte, keys []string, val any) ([]byte, error) {
	raw, err := marshal(val)
	if err != nil {
		return nil, err
	}
	root, err := Parse(data)
	if err != nil {
		return nil, err
	}
	obj := root
	for i, k := range keys {
		if obj.Kind != Object {
			return nil, fmt.Errorf("%s: %w", pathString(toAny(keys[:i])), ErrNotContainer)
		}
		m := obj.Get(k)
		if m == nil {
			// Build the rest of the path as one new member.
			var v any = json.RawMessage(raw)
			for j := len(keys) - 1; j > i; j-- {
				v = map[string]any{keys[j]: v}
			}
			return insert(data, obj, k, v)
		}
		if i == len(keys)-1 {
			if jsonEqual(data[m.Val.Start:m.Val.End], raw) {
				return data, nil
			}
			return replace(data, m.Val.Start, m.Val.End, render(data, m.KeyStart, json.RawMessage(raw), inline(data, obj))), nil
		}
		obj = m.Val
	}
	return nil, errors.New("jsonedit: empty path")
}

// Delete removes the member at path (its last step a key); a missing one
// is no change.
func Delete(data []byte, path ...any) ([]byte, error) {
	root, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return nil, errors.New("jsonedit: empty path")
	}
	key, ok := path[len(path)-1].(string)
	if !ok {
		return nil, errors.New("jsonedit: Delete takes a key; DeleteElem removes a list's element")
	}
	obj := root.Lookup(path[:len(path)-1]...)
	if obj == nil || obj.Kind != Object {
		return data, nil
	}
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if obj.Members[i].Key == key {
			starts, ends := spans(obj)
			return cut(data, obj, starts, ends, i), nil
		}
	}
	return data, nil
}

// Append adds val as the last element of the list at path.
func Append(data []byte, val any, path ...any) ([]byte, error) {
	root, err := Parse(data)
	if err != nil {
		return nil, err
	}
	list := root.Lookup(path...)
	if list == nil || list.Kind != Array {
		return nil, fmt.Errorf("%s: not a list", pathString(path))
	}
	return insert(data, list, "", val)
}

// DeleteElem removes the element at path (its last step an index).
func DeleteElem(data []byte, path ...any) ([]byte, error) {
	root, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return nil, errors.New("jsonedit: empty path")
	}
	i, ok := path[len(path)-1].(int)
	list := root.Lookup(path[:len(path)-1]...)
	if !ok || list == nil || list.Kind != Array || i < 0 || i >= len(list.Elems) {
		return nil, fmt.Errorf("%s: no such element", pathString(path))
	}
	starts, ends := spans(list)
	return cut(data, list, starts, ends, i), nil
}

func pathString(path []any) string {
	if len(path) == 0 {
		return "the top level"
	}
	b, _ := json.Marshal(path)
	return string(b)
}

func toAny(keys []string) []any {
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// spans are the start and end of each member (key to value) or element.
func spans(c *Value) (starts, ends []int) {
	if c.Kind == Object {
		for _, m := range c.Members {
			starts, ends = append(starts, m.KeyStart), append(ends, m.Val.End)
		}
		return starts, ends
	}
	for _, e := range c.Elems {
		starts, ends = append(starts, e.Start), append(ends, e.End)
	}
	return starts, ends
}

// cut removes item i of container c with one of the commas around it: the
// one before it (from the end of the previous item), or for the first
// item the one after it (up to the next item). The only item leaves an
// empty container written as {} or [].
func cut(data []byte, c *Value, starts, ends []int, i int) []byte {
	switch {
	case len(starts) == 1:
		empty := "{}"
		if c.Kind == Array {
			empty = "[]"
		}
		return replace(data, c.Start, c.End, []byte(empty))
	case i > 0:
		return replace(data, ends[i-1], ends[i], nil)
	default:
		return replace(data, starts[0], starts[1], nil)
	}
}

// insert adds key: val (an object member) or val (a list element, key
// "") as the last item of c, in c's style.
func insert(data []byte, c *Value, key string, val any) ([]byte, error) {
	starts, ends := spans(c)
	sep := ": "
	if c.Kind == Object && len(c.Members) > 0 {
		last := c.Members[len(c.Members)-1]
		keyEnd := last.KeyStart + len(mustMarshal(last.Key))
		if keyEnd <= last.Val.Start && isPlainSep(data[keyEnd:last.Val.Start]) {
			sep = string(data[keyEnd:last.Val.Start])
		}
	}
	spaced := c.Kind == Array || sep != ":"
	if c.Kind == Array && len(starts) > 1 {
		spaced = bytes.HasPrefix(bytes.TrimLeft(data[ends[0]:starts[1]], ","), []byte(" "))
	}
	item := func(at int, oneLine bool) []byte {
		var b []byte
		if c.Kind == Object {
			b = append(mustMarshal(key), sep...)
		}
		v := render(data, at, val, oneLine)
		if oneLine && spaced {
			v = spaceOut(v)
		}
		return append(b, v...)
	}
	if len(starts) == 0 {
		if inlineEmpty(data, c) {
			b := append([]byte{data[c.Start]}, item(c.Start, true)...)
			return replace(data, c.Start, c.End, append(b, data[c.End-1])), nil
		}
		// Open it up: one item a line, one step in from the line of the
		// opening bracket.
		indent := lineIndent(data, c.Start)
		b := []byte{data[c.Start], '\n'}
		b = append(b, indent+indentUnit(data)...)
		b = append(b, renderAt(data, indent+indentUnit(data), key, sep, val, c.Kind)...)
		b = append(b, '\n')
		b = append(b, indent...)
		b = append(b, data[c.End-1])
		return replace(data, c.Start, c.End, b), nil
	}
	lastEnd := ends[len(ends)-1]
	if inline(data, c) {
		// A one-line container: one more item on the line, after a comma
		// spaced as the container's first one (or its key separator).
		comma := ","
		if len(starts) > 1 {
			gap := data[ends[0]:starts[1]]
			if i := bytes.IndexByte(gap, ','); i >= 0 {
				comma = "," + string(bytes.TrimLeft(gap[i+1:], "\r\n"))
			}
		} else if c.Kind == Array || sep != ":" {
			comma = ", "
		}
		return replace(data, lastEnd, lastEnd, append([]byte(comma), item(lastEnd, true)...)), nil
	}
	indent := lineIndent(data, starts[len(starts)-1])
	b := append([]byte(",\n"), indent...)
	b = append(b, renderAt(data, indent, key, sep, val, c.Kind)...)
	return replace(data, lastEnd, lastEnd, b), nil
}

// inlineEmpty reports whether an empty container stays on its line when
// an item goes into it: it does when its line holds an opening bracket
// before it or more text after it (a one-line object), not when it ends
// its line (a key of a multi-line object, or the whole document).
func inlineEmpty(data []byte, c *Value) bool {
	ls := bytes.LastIndexByte(data[:c.Start], '\n') + 1
	if bytes.ContainsAny(data[ls:c.Start], "{[") {
		return true
	}
	return lineRest(data, c.End)
}

// renderAt is one multi-line item at indent: key: value or value.
func renderAt(data []byte, indent, key, sep string, val any, kind Kind) []byte {
	var b []byte
	if kind == Object {
		b = append(mustMarshal(key), sep...)
	}
	return append(b, marshalIndent(val, indent, indentUnit(data))...)
}

func isPlainSep(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 1 && bytes.TrimSpace(b)[0] == ':' && !bytes.Contains(b, []byte("\n"))
}

// render is val written for the place at: compact on one line, else
// indented as the line of at is.
func render(data []byte, at int, val any, oneLine bool) []byte {
	if oneLine {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(val)
		return bytes.TrimRight(buf.Bytes(), "\n")
	}
	return marshalIndent(val, lineIndent(data, at), indentUnit(data))
}

// spaceOut puts a space after every ':' and ',' of compact JSON outside
// strings, as a one-line container written by a person has them.
func spaceOut(compact []byte) []byte {
	out := make([]byte, 0, len(compact)+len(compact)/4)
	in := false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		out = append(out, c)
		switch {
		case in && c == '\\':
			i++
			if i < len(compact) {
				out = append(out, compact[i])
			}
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			out = append(out, ' ')
		}
	}
	return out
}

// inline reports whether a container is written on one line.
func inline(data []byte, c *Value) bool {
	return !bytes.Contains(data[c.Start:c.End], []byte("\n"))
}

func marshalIndent(val any, prefix, unit string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, unit)
	_ = enc.Encode(val)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// marshal is json.Marshal without HTML escaping: a shell command's && and
// > stay as they are written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// mustMarshal marshals a string (a key), which cannot fail.
func mustMarshal(s string) []byte {
	b, _ := marshal(s)
	return b
}

func replace(data []byte, from, to int, with []byte) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(with))
	out = append(out, data[:from]...)
	out = append(out, with...)
	return append(out, data[to:]...)
}

// lineIndent is the leading white space of the line holding offset at.
func lineIndent(data []byte, at int) string {
	ls := bytes.LastIndexByte(data[:at], '\n') + 1
	i := ls
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return string(data[ls:i])
}

// lineRest reports whether the line goes on after offset at with more
// than white space or a comma.
func lineRest(data []byte, at int) bool {
	for i := at; i < len(data) && data[i] != '\n'; i++ {
		if bytes.IndexByte([]byte(" \t\r,"), data[i]) < 0 {
			return true
		}
	}
	return false
}

// indentUnit is the document's indentation step: the leading white space
// of its first indented line; two spaces for a document with none.
func indentUnit(data []byte) string {
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimLeft(l, " \t")
		if len(t) < len(l) && len(t) > 0 {
			return string(l[:len(l)-len(t)])
		}
	}
	return "  "
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// Standard returns data with its comments blanked out (line breaks
// kept), for a JSON decoder that knows none; data must parse.
func Standard(data []byte) ([]byte, error) {
	if _, err := Parse(data); err != nil {
		return nil, err
	}
	out := bytes.Clone(data)
	in := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case !in && c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/")) + i + 4
			for ; i < end; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out, nil
}
