package gitstore

// gitattributes(5), read the way git's attr.c reads it: the files, their
// order of precedence, the line syntax, the patterns (wildmatch) and the
// macros (the built-in "binary" and [attr] lines). Only what decides the
// blob ⇄ work-tree conversion is asked for (convert.go), but a line is
// parsed whole, because git drops a whole line for one invalid attribute.
//
// go-git has a gitattributes package, but its matcher lets a lower-
// precedence file override a higher one, has no built-in "binary" macro
// and matches with filepath.Match rather than wildmatch: close is not
// enough where a wrong answer rewrites a user's file.
//
// Precedence, highest first (gitattributes(5)): .git/info/attributes, the
// .gitattributes of the path's folder, then of each folder above it up to
// the root, core.attributesFile (default $XDG_CONFIG_HOME/git/attributes),
// and the system file (/etc/gitattributes unless GIT_ATTR_NOSYSTEM). In a
// file a later line wins. The first assignment found in that order wins,
// and a set macro assigns its attributes at the precedence it was set at.
//
// Attributes are read from the work tree's files, as git add and git
// status read them. git checkout reads the index's copy first; the two
// differ only while a .gitattributes edit is uncommitted, and a write
// that itself changes a .gitattributes file writes it before the files it
// governs (worktree.go), as git checkout does.

import (
	"bufio"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// attrKind is the state of one attribute for a path.
type attrKind uint8

const (
	attrUnknown     attrKind = iota // no line says anything
	attrTrue                        // "text"
	attrFalse                       // "-text"
	attrUnspecified                 // "!text"
	attrString                      // "eol=crlf"
)

type attrValue struct {
	kind  attrKind
	value string
}

type attrAssign struct {
	name string
	v    attrValue
}

type attrPattern struct {
	base      string // folder of the file, relative to the root ("" = root)
	pattern   string // without a trailing "/" (mustBeDir) and leading "/"
	nodir     bool   // no "/": matches the base name at any depth
	mustBeDir bool   // "dir/": never matches a file
}

type attrLine struct {
	pat   attrPattern
	attrs []attrAssign
}

// attrFile is one parsed attributes file: its lines in file order, and the
// macros it defines (only in files where git allows them).
type attrFile struct {
	lines  []attrLine
	macros []attrLine // pat unused; name in macroName
	names  []string   // macro names, parallel to macros
}

// builtinAttrs holds git's built-in macro: "[attr]binary -diff -merge -text".
var builtinAttrs = &attrFile{
	macros: []attrLine{{attrs: []attrAssign{{"diff", attrValue{kind: attrFalse}}, {"merge", attrValue{kind: attrFalse}}, {"text", attrValue{kind: attrFalse}}}}},
	names:  []string{"binary"},
}

// maxAttrLine is git's limit: a longer line is ignored (with a warning).
const maxAttrLine = 2048

// maxAttrFile bounds what is read of one attributes file (git ignores a
// file over 100 MiB); a .gitattributes is a few lines.
const maxAttrFile = 100 << 20

// readAttrFile parses the attributes file at full (nil when it does not
// exist or is a symlink, which git does not follow for .gitattributes).
// base is the folder it governs relative to the root; macroOK says whether
// [attr] lines are honoured there.
func readAttrFile(full, base string, macroOK, noFollow bool) (*attrFile, error) {
	if noFollow {
		if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
			return nil, nil
		}
	}
	f, err := os.Open(full)
	if err != nil {
		if os.IsNotExist(err) || isNotDir(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	return parseAttrs(io.LimitReader(f, maxAttrFile), base, macroOK)
}

func parseAttrs(r io.Reader, base string, macroOK bool) (*attrFile, error) {
	af := &attrFile{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAttrFile)
	for sc.Scan() {
		parseAttrLine(af, sc.Text(), base, macroOK)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return af, nil
}

const attrBlank = " \t\r\n"

// parseAttrLine adds one line to af, or nothing when git would ignore it.
func parseAttrLine(af *attrFile, line, base string, macroOK bool) {
	cp := strings.TrimLeft(line, attrBlank)
	if cp == "" || cp[0] == '#' || len(line) >= maxAttrLine {
		return
	}
	var name, states string
	if cp[0] == '"' {
		if n, rest, ok := unquoteC(cp); ok {
			name, states = n, rest
		}
	}
	if name == "" {
		n := strings.IndexAny(cp, attrBlank)
		if n < 0 {
			n = len(cp)
		}
		name, states = cp[:n], cp[n:]
	}
	isMacro := false
	if len(name) > len("[attr]") && strings.HasPrefix(name, "[attr]") {
		if !macroOK {
			return
		}
		isMacro = true
		name = strings.TrimLeft(name[len("[attr]"):], attrBlank)
		if n := strings.IndexAny(name, attrBlank); n >= 0 {
			name = name[:n]
		}
		if !attrNameValid(name) {
			return
		}
	}
	var attrs []attrAssign
	for _, tok := range strings.FieldsFunc(states, func(r rune) bool { return strings.ContainsRune(attrBlank, r) }) {
		a, ok := parseAttrToken(tok)
		if !ok {
			return // git drops the whole line
		}
		attrs = append(attrs, a)
	}
	if isMacro {
		af.macros = append(af.macros, attrLine{attrs: attrs})
		af.names = append(af.names, name)
		return
	}
	if strings.HasPrefix(name, "!") {
		return // negative patterns are ignored in attributes
	}
	p := attrPattern{base: base}
	if strings.HasSuffix(name, "/") {
		name = strings.TrimSuffix(name, "/")
		p.mustBeDir = true
	}
	p.nodir = !strings.Contains(name, "/")
	p.pattern = strings.TrimPrefix(name, "/")
	af.lines = append(af.lines, attrLine{pat: p, attrs: attrs})
}

func parseAttrToken(tok string) (attrAssign, bool) {
	name, value, hasEq := strings.Cut(tok, "=")
	v := attrValue{kind: attrTrue}
	switch {
	case name != "" && (name[0] == '-' || name[0] == '!'):
		v.kind = attrFalse
		if name[0] == '!' {
			v.kind = attrUnspecified
		}
		name = name[1:]
	case hasEq:
		v = attrValue{kind: attrString, value: value}
	}
	if !attrNameValid(name) || strings.HasPrefix(name, "builtin_") {
		return attrAssign{}, false
	}
	return attrAssign{name: name, v: v}, true
}

func attrNameValid(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '-' || c == '.' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// unquoteC reads a C-style quoted string at the start of s (git's
// unquote_c_style) and returns it and the rest of s.
func unquoteC(s string) (string, string, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", "", false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '\\', '"':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
					return "", "", false
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// match reports whether the pattern matches the file path p (slash path
// relative to the root).
func (ap *attrPattern) match(p string) bool {
	if ap.mustBeDir {
		return false // attributes are only asked for files
	}
	if ap.nodir {
		return wildmatch(ap.pattern, path.Base(p), false)
	}
	rel := p
	if ap.base != "" {
		if !strings.HasPrefix(p, ap.base+"/") {
			return false
		}
		rel = p[len(ap.base)+1:]
	}
	return wildmatch(ap.pattern, rel, true)
}

// attrStack is the attribute files that apply to one operation, read once
// each and kept for the operation.
type attrStack struct {
	root string
	// top are the files above every .gitattributes in precedence order,
	// highest first: .git/info/attributes; bottom the ones below them:
	// core.attributesFile, the system file, the built-in macro.
	top, bottom []*attrFile
	dirs        map[string]*attrFile // folder -> its .gitattributes (nil: none)
	err         error
}

func newAttrStack(root, gitDir string, cfg *convConfig) *attrStack {
	s := &attrStack{root: root, dirs: map[string]*attrFile{}}
	add := func(list *[]*attrFile, full string) {
		af, err := readAttrFile(full, "", true, false)
		if err != nil && s.err == nil {
			s.err = err
		}
		if af != nil {
			*list = append(*list, af)
		}
	}
	add(&s.top, filepath.Join(gitDir, "info", "attributes"))
	if cfg.attributesFile != "" {
		add(&s.bottom, cfg.attributesFile)
	}
	if cfg.systemAttributes != "" {
		add(&s.bottom, cfg.systemAttributes)
	}
	s.bottom = append(s.bottom, builtinAttrs)
	return s
}

// dir returns the parsed .gitattributes of a folder (nil: none).
func (s *attrStack) dir(d string) *attrFile {
	if af, ok := s.dirs[d]; ok {
		return af
	}
	af, err := readAttrFile(filepath.Join(s.root, filepath.FromSlash(d), ".gitattributes"), strings.TrimPrefix(d, "."), d == "", true)
	if err != nil && s.err == nil {
		s.err = err
	}
	s.dirs[d] = af
	return af
}

// forget drops the cached .gitattributes of folder d (a write replaced it).
func (s *attrStack) forget(d string) { delete(s.dirs, d) }

// lookup returns the state of the named attributes for file p, as git's
// check-attr would report them.
func (s *attrStack) lookup(p string, names ...string) map[string]attrValue {
	// The stack, highest precedence first.
	stack := append([]*attrFile(nil), s.top...)
	parts := strings.Split(p, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if af := s.dir(strings.Join(parts[:i], "/")); af != nil {
			stack = append(stack, af)
		}
	}
	stack = append(stack, s.bottom...)
	// The common case: no attributes file has a line for anyone.
	lines := false
	for _, af := range stack {
		lines = lines || len(af.lines) > 0
	}
	if !lines {
		return nil
	}
	// Macros: the highest-precedence definition of each name wins.
	macros := map[string][]attrAssign{}
	for _, af := range stack {
		for i := len(af.macros) - 1; i >= 0; i-- {
			if _, ok := macros[af.names[i]]; !ok {
				macros[af.names[i]] = af.macros[i].attrs
			}
		}
	}
	res := map[string]attrValue{}
	var fill func(attrs []attrAssign)
	fill = func(attrs []attrAssign) {
		for j := len(attrs) - 1; j >= 0; j-- {
			a := attrs[j]
			if _, done := res[a.name]; done {
				continue
			}
			res[a.name] = a.v
			if m, ok := macros[a.name]; ok && a.v.kind == attrTrue {
				fill(m)
			}
		}
	}
	for _, af := range stack {
		for i := len(af.lines) - 1; i >= 0; i-- {
			if af.lines[i].pat.match(p) {
				fill(af.lines[i].attrs)
			}
		}
	}
	out := make(map[string]attrValue, len(names))
	for _, n := range names {
		if v, ok := res[n]; ok && v.kind != attrUnspecified {
			out[n] = v
		}
	}
	return out
}

// wildmatch is git's wildmatch(): "*" and "?" do not match "/" when
// pathname is set, "**" between slashes (or at either end) matches any
// number of folders, "[...]" is a class ("!" or "^" negates; [:alpha:] and
// its kin), and "\" quotes the next character.
func wildmatch(pat, text string, pathname bool) bool {
	return wm(pat, 0, text, pathname)
}

func wm(pat string, pi int, text string, pathname bool) bool {
	ti := 0
	for pi < len(pat) {
		c := pat[pi]
		switch c {
		case '?':
			if ti >= len(text) || (pathname && text[ti] == '/') {
				return false
			}
			pi++
			ti++
		case '*':
			start := pi
			for pi < len(pat) && pat[pi] == '*' {
				pi++
			}
			rest := text[ti:]
			if pathname && pi-start >= 2 && (start == 0 || pat[start-1] == '/') && (pi == len(pat) || pat[pi] == '/') {
				if pi == len(pat) {
					return true // "**" at the end: everything below
				}
				// "**/": zero or more leading folders.
				if wm(pat, pi+1, rest, pathname) {
					return true
				}
				for j := 0; j < len(rest); j++ {
					if rest[j] == '/' && wm(pat, pi+1, rest[j+1:], pathname) {
						return true
					}
				}
				return false
			}
			if pi == len(pat) {
				return !pathname || !strings.Contains(rest, "/")
			}
			for j := 0; j <= len(rest); j++ {
				if wm(pat, pi, rest[j:], pathname) {
					return true
				}
				if j < len(rest) && pathname && rest[j] == '/' {
					return false
				}
			}
			return false
		case '[':
			if ti >= len(text) || (pathname && text[ti] == '/') {
				return false
			}
			ok, next, valid := matchClass(pat, pi, text[ti])
			if !valid {
				return false // git: an unterminated class never matches
			}
			if !ok {
				return false
			}
			pi = next
			ti++
		case '\\':
			if pi+1 < len(pat) {
				pi++
				c = pat[pi]
			}
			fallthrough
		default:
			if ti >= len(text) || text[ti] != c {
				return false
			}
			pi++
			ti++
		}
	}
	return ti == len(text)
}

// matchClass matches byte t against the class starting at pat[pi] ("[").
// It returns whether t is in it, the position after the class, and
// whether the class is well formed.
func matchClass(pat string, pi int, t byte) (bool, int, bool) {
	i := pi + 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	matched := false
	first := true
	for i < len(pat) {
		c := pat[i]
		if c == ']' && !first {
			return matched != negate, i + 1, true
		}
		first = false
		if c == '\\' && i+1 < len(pat) {
			i++
			c = pat[i]
		} else if c == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			if end := strings.Index(pat[i+2:], ":]"); end >= 0 {
				if classHas(pat[i+2:i+2+end], t) {
					matched = true
				}
				i += 2 + end + 2
				continue
			}
		}
		if i+2 < len(pat) && pat[i+1] == '-' && pat[i+2] != ']' {
			hi := pat[i+2]
			if hi == '\\' && i+3 < len(pat) {
				hi = pat[i+3]
				i++
			}
			if c <= t && t <= hi {
				matched = true
			}
			i += 3
			continue
		}
		if c == t {
			matched = true
		}
		i++
	}
	return false, i, false
}

func classHas(name string, t byte) bool {
	isUpper := 'A' <= t && t <= 'Z'
	isLower := 'a' <= t && t <= 'z'
	isDigit := '0' <= t && t <= '9'
	isAlpha := isUpper || isLower
	switch name {
	case "alnum":
		return isAlpha || isDigit
	case "alpha":
		return isAlpha
	case "blank":
		return t == ' ' || t == '\t'
	case "cntrl":
		return t < 32 || t == 127
	case "digit":
		return isDigit
	case "graph":
		return t > 32 && t < 127
	case "lower":
		return isLower
	case "print":
		return t >= 32 && t < 127
	case "punct":
		return t > 32 && t < 127 && !isAlpha && !isDigit
	case "space":
		return t == ' ' || (t >= '\t' && t <= '\r')
	case "upper":
		return isUpper
	case "xdigit":
		return isDigit || ('a' <= t && t <= 'f') || ('A' <= t && t <= 'F')
	}
	return false
}
