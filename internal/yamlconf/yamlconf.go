// Package yamlconf decodes a YAML settings file strictly into typed
// structs: every key must name a field, every value must suit its field,
// and every problem names its line, its key and, where one helps, a hint.
//
// The struct is the schema. A field's `yaml` tag names its key and its
// `check` tag its validation, next to it:
//
//	MaxAttempts int    `yaml:"max_attempts" check:"min=1"`
//	BaseURL     string `yaml:"base_url" check:"url"`
//
// Built-in checks are min=N and max=N (numbers) and oneof=a|b (numbers and
// text); a [Decoder] adds named ones (url above). A field whose type
// implements yaml.Unmarshaler decodes its own value (a section another
// package owns, a duration). Decoding goes on after a problem, leaving
// that field as it was (its default), so one pass reports them all.
//
// A key with no value (`model:`) keeps the field's default.
package yamlconf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Error is one problem of a settings file.
type Error struct {
	Line int    // 1-based; 0 when unknown
	Key  string // dotted path of the key ("review.memory_interval"); "" for the file
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors are every problem found, in the order of the file.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Check validates a scalar's text and returns it as the field should hold
// it (normalised), or an error whose text is the problem ("want …").
type Check func(value string) (string, error)

// Decoder decodes with a set of named checks.
type Decoder struct {
	Checks map[string]Check
}

var syntaxLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) }) // on first use, not in every start-up

// Parse parses a YAML document. It returns nil for an empty document, and
// an *Error with the line for text that is not YAML or whose top is not a
// mapping.
func Parse(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err == nil {
		// A second document (after a "---" line) would be ignored
		// silently: what it sets would never take effect.
		var second yaml.Node
		if err2 := dec.Decode(&second); err2 == nil {
			return nil, &Error{Line: second.Line, Msg: "a second YAML document (after a --- line): only one is read, so its keys would be ignored",
				Hint: "merge its keys into the first document and remove the --- line"}
		} else if !errors.Is(err2, io.EOF) {
			err = err2
		}
	}
	if err != nil {
		if m := syntaxLine().FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &Error{Line: line, Msg: "not valid YAML: " + m[2], Hint: "check the indentation and quoting at that line and the one before it"}
		}
		return nil, &Error{Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if isNull(top) {
		return nil, nil
	}
	if top.Kind != yaml.MappingNode {
		return nil, &Error{Line: top.Line, Msg: "want a mapping of keys (key: value), got " + describe(top)}
	}
	return top, nil
}

// Decode decodes the mapping n into the struct v points to, strictly; path
// prefixes the keys it names ("" at the top). A nil or null n leaves v as
// it is.
func (d Decoder) Decode(n *yaml.Node, v any, path string) Errors {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic("yamlconf: Decode wants a pointer to a struct")
	}
	var errs Errors
	d.structure(n, rv.Elem(), path, &errs)
	return errs
}

type field struct {
	index []int
	check string // the value's checks (a list's or a mapping's: each item's)
	keys  string // a mapping's: each key's checks
}

// fields maps each key of struct type t to its field.
func fields(t reflect.Type) (map[string]field, []string) {
	byKey := map[string]field{}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		byKey[name] = field{index: f.Index, check: f.Tag.Get("check"), keys: f.Tag.Get("keys")}
		keys = append(keys, name)
	}
	return byKey, keys
}

func (d Decoder) structure(n *yaml.Node, rv reflect.Value, path string, errs *Errors) {
	n = deref(n)
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		*errs = append(*errs, &Error{Line: n.Line, Key: path, Msg: "want a mapping of keys (key: value), got " + describe(n)})
		return
	}
	byKey, keys := fields(rv.Type())
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := join(path, k.Value)
		if k.Kind != yaml.ScalarNode {
			*errs = append(*errs, &Error{Line: k.Line, Key: path, Msg: "a key must be a plain name, got " + describe(k)})
			continue
		}
		if first, ok := seen[k.Value]; ok {
			*errs = append(*errs, &Error{Line: k.Line, Key: key, Msg: fmt.Sprintf("set twice (first at line %d)", first), Hint: "keep one of the two"})
			continue
		}
		seen[k.Value] = k.Line
		f, ok := byKey[k.Value]
		if !ok {
			*errs = append(*errs, &Error{Line: k.Line, Key: key, Msg: "unknown key", Hint: unknownHint(k.Value, path, keys)})
			continue
		}
		d.value(val, rv.FieldByIndex(f.index), f, key, errs)
	}
}

var unmarshaler = reflect.TypeFor[yaml.Unmarshaler]()

// value decodes n into the field fv.
func (d Decoder) value(n *yaml.Node, fv reflect.Value, f field, key string, errs *Errors) {
	n = deref(n)
	if isNull(n) {
		return // a key without a value keeps its default
	}
	if reflect.PointerTo(fv.Type()).Implements(unmarshaler) {
		d.custom(n, fv, key, errs)
		return
	}
	switch fv.Kind() {
	case reflect.Struct:
		d.structure(n, fv, key, errs)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			*errs = append(*errs, &Error{Line: n.Line, Key: key, Msg: "want true or false, got " + describe(n)})
			return
		}
		b, _ := strconv.ParseBool(strings.ToLower(n.Value))
		fv.SetBool(b)
	case reflect.Int, reflect.Int64:
		d.integer(n, fv, f.check, key, errs)
	case reflect.String:
		s, ok := d.text(n, f.check, key, errs)
		if ok {
			fv.SetString(s)
		}
	case reflect.Slice:
		d.list(n, fv, f.check, key, errs)
	case reflect.Map:
		d.mapping(n, fv, f, key, errs)
	default:
		panic(fmt.Sprintf("yamlconf: %s: unsupported field type %s", key, fv.Type()))
	}
}

// custom decodes a value whose type decodes itself.
func (d Decoder) custom(n *yaml.Node, fv reflect.Value, key string, errs *Errors) {
	p := reflect.New(fv.Type())
	p.Elem().Set(fv)
	err := n.Decode(p.Interface())
	var many Errors
	var one *Error
	switch {
	case err == nil:
		fv.Set(p.Elem())
	case errors.As(err, &many):
		*errs = append(*errs, many...)
	case errors.As(err, &one):
		*errs = append(*errs, one)
	default:
		*errs = append(*errs, problem(n, key, err))
	}
}

func (d Decoder) integer(n *yaml.Node, fv reflect.Value, check, key string, errs *Errors) {
	i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || err != nil {
		*errs = append(*errs, &Error{Line: n.Line, Key: key, Msg: "want a whole number, got " + describe(n)})
		return
	}
	if _, err := d.run(check, strconv.FormatInt(i, 10), &i); err != nil {
		*errs = append(*errs, problem(n, key, err))
		return
	}
	fv.SetInt(i)
}

// text is a scalar's text after the field's checks; ok is false (and the
// problem recorded) when it does not pass.
func (d Decoder) text(n *yaml.Node, check, key string, errs *Errors) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		*errs = append(*errs, &Error{Line: n.Line, Key: key, Msg: "want text, got " + describe(n)})
		return "", false
	}
	s, err := d.run(check, n.Value, nil)
	if err != nil {
		*errs = append(*errs, problem(n, key, err))
		return "", false
	}
	return s, true
}

// problem is a check's error at n; an error with a Hint method gives the
// hint.
func problem(n *yaml.Node, key string, err error) *Error {
	e := &Error{Line: n.Line, Key: key, Msg: err.Error()}
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		e.Hint = h.Hint()
	}
	return e
}

func (d Decoder) list(n *yaml.Node, fv reflect.Value, check, key string, errs *Errors) {
	if fv.Type().Elem().Kind() != reflect.String {
		panic(fmt.Sprintf("yamlconf: %s: unsupported list type %s", key, fv.Type()))
	}
	if n.Kind != yaml.SequenceNode {
		*errs = append(*errs, &Error{Line: n.Line, Key: key, Msg: "want a list ([a, b] or one \"- item\" a line), got " + describe(n)})
		return
	}
	out := reflect.MakeSlice(fv.Type(), 0, len(n.Content))
	ok := true
	for i, item := range n.Content {
		s, good := d.text(deref(item), check, fmt.Sprintf("%s[%d]", key, i), errs)
		ok = ok && good
		out = reflect.Append(out, reflect.ValueOf(s).Convert(fv.Type().Elem()))
	}
	if ok {
		fv.Set(out)
	}
}

func (d Decoder) mapping(n *yaml.Node, fv reflect.Value, f field, key string, errs *Errors) {
	t := fv.Type()
	if t.Key().Kind() != reflect.String || t.Elem().Kind() != reflect.String {
		panic(fmt.Sprintf("yamlconf: %s: unsupported map type %s", key, t))
	}
	if n.Kind != yaml.MappingNode {
		*errs = append(*errs, &Error{Line: n.Line, Key: key, Msg: "want a mapping of keys (key: value), got " + describe(n)})
		return
	}
	out := reflect.MakeMapWithSize(t, len(n.Content)/2)
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], deref(n.Content[i+1])
		if _, err := d.run(f.keys, k.Value, nil); err != nil {
			*errs = append(*errs, problem(k, join(key, k.Value), err))
			ok = false
			continue
		}
		s, good := d.text(val, f.check, join(key, k.Value), errs)
		if out.MapIndex(reflect.ValueOf(k.Value).Convert(t.Key())).IsValid() {
			*errs = append(*errs, &Error{Line: k.Line, Key: join(key, k.Value), Msg: "set twice", Hint: "keep one of the two"})
			good = false
		}
		ok = ok && good
		out.SetMapIndex(reflect.ValueOf(k.Value).Convert(t.Key()), reflect.ValueOf(s).Convert(t.Elem()))
	}
	if ok {
		fv.Set(out)
	}
}

// run applies a field's checks to a value's text s (and, for a number,
// its value num): min= and max= bound a number, oneof= lists the values
// allowed, any other name is one of the decoder's checks, which may
// normalise s.
func (d Decoder) run(check, s string, num *int64) (string, error) {
	for _, c := range splitChecks(check) {
		name, arg, _ := strings.Cut(c, "=")
		switch name {
		case "min", "max":
			lim, err := strconv.ParseInt(arg, 10, 64)
			if num == nil || err != nil {
				panic("yamlconf: " + c + " is a check of a number")
			}
			if name == "min" && *num < lim {
				return "", fmt.Errorf("want %d or more, got %d", lim, *num)
			}
			if name == "max" && *num > lim {
				return "", fmt.Errorf("want %d or less, got %d", lim, *num)
			}
		case "oneof":
			if opts := strings.Split(arg, "|"); !slices.Contains(opts, s) {
				return "", fmt.Errorf("want %s, got %s", orList(opts), strconv.Quote(s))
			}
		default:
			fn, ok := d.Checks[name]
			if !ok {
				panic("yamlconf: unknown check " + c)
			}
			var err error
			if s, err = fn(s); err != nil {
				return "", err
			}
		}
	}
	return s, nil
}

func splitChecks(check string) []string {
	if check == "" {
		return nil
	}
	return strings.Split(check, ",")
}

func orList(opts []string) string {
	if len(opts) == 1 {
		return opts[0]
	}
	return strings.Join(opts[:len(opts)-1], ", ") + " or " + opts[len(opts)-1]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names what a node holds, for "want X, got Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := n.Value
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return strconv.Quote(v)
	}
	return "something else"
}

// unknownHint names the key meant, when one is close, and the keys there
// are.
func unknownHint(key, path string, known []string) string {
	where := "the top level"
	if path != "" {
		where = path
	}
	list := fmt.Sprintf("the keys of %s are %s", where, strings.Join(known, ", "))
	if len(known) == 0 {
		list = where + " takes no keys"
	}
	if near := nearest(key, known); near != "" {
		return "did you mean " + near + "? " + list
	}
	return list
}

// nearest is the known key within two edits of key, if one is.
func nearest(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(key), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
