package gitstore

// git's configuration, read as git reads it (config.c): the files in
// git's order — system, global, the repository's, the worktree's, then
// "git -c" — each parsed in git's syntax, with include.path and
// includeIf.<condition>.path followed where they appear (an included
// file's values come between the values before and after the include,
// so a later value still wins). The conditions are git's four: gitdir:,
// gitdir/i:, onbranch: and hasconfig:remote.*.url:. A condition of any
// other kind, a file that does not parse, or includes nested deeper than
// git allows make the configuration unreadable: a write then refuses
// (configProblem) rather than guess at settings that decide what it
// stores (a filter driver, core.autocrlf).

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// configEntry is one variable as git sees it: "section.name" or
// "section.subsection.name", section and name lower-cased. A name alone
// (no "=") is git's boolean true: value "true", noValue set.
type configEntry struct {
	key, value string
	noValue    bool
}

// maxIncludeDepth is git's MAX_INCLUDE_DEPTH.
const maxIncludeDepth = 10

// ConfigError says why git's configuration could not be read the way git
// reads it. It matches ErrConflict: nothing was written.
type ConfigError struct {
	File, Problem string
}

func (e *ConfigError) Error() string {
	if e.File == "" {
		return "git configuration: " + e.Problem
	}
	return "git configuration " + e.File + ": " + e.Problem
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConfigError) Is(target error) bool { return target == ErrConflict }

// Hint says how to get going again.
func (e *ConfigError) Hint() string {
	return "skillrepo reads git's configuration as git does, includes (include.path, includeIf gitdir:, gitdir/i:, onbranch:, hasconfig:remote.*.url:) included; fix the file ('git config --list --show-origin' shows what git reads) and retry"
}

// configReader reads one repository's configuration.
type configReader struct {
	l       *Repo
	entries []configEntry
	// remoteURLs are every remote.*.url of the configuration, for
	// hasconfig:remote.*.url: (collected by a first pass).
	remoteURLs []string
	// collecting: the first pass, which takes no hasconfig include.
	collecting bool
	// underHasconfig: reading a file included by hasconfig:, where git
	// forbids remote URLs.
	underHasconfig int
}

// readGitConfig returns every variable of the configuration in git's
// order (a later entry wins for a single-valued key).
func (l *Repo) readGitConfig() ([]configEntry, error) {
	first := &configReader{l: l, collecting: true}
	if err := first.all(); err != nil {
		return nil, err
	}
	r := &configReader{l: l}
	for _, e := range first.entries {
		if strings.HasPrefix(e.key, "remote.") && strings.HasSuffix(e.key, ".url") {
			r.remoteURLs = append(r.remoteURLs, e.value)
		}
	}
	if err := r.all(); err != nil {
		return nil, err
	}
	return r.entries, nil
}

// all reads git's sources in git's order.
func (r *configReader) all() error {
	l := r.l
	home := l.getenv("HOME")
	xdg := l.getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if !isTrue(l.getenv("GIT_CONFIG_NOSYSTEM")) {
		sys := l.getenv("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		if err := r.file(sys, 0); err != nil {
			return err
		}
	}
	var global []string
	if g := l.getenv("GIT_CONFIG_GLOBAL"); g != "" {
		global = []string{g}
	} else {
		if xdg != "" {
			global = append(global, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			global = append(global, filepath.Join(home, ".gitconfig"))
		}
	}
	for _, g := range global {
		if err := r.file(g, 0); err != nil {
			return err
		}
	}
	if err := r.file(filepath.Join(l.GitDir, "config"), 0); err != nil {
		return err
	}
	if isTrue(r.last("extensions.worktreeconfig")) {
		if err := r.file(filepath.Join(l.GitDir, "config.worktree"), 0); err != nil {
			return err
		}
	}
	// git -c: GIT_CONFIG_COUNT pairs, then GIT_CONFIG_PARAMETERS.
	var cmdline [][2]string
	if n, err := strconv.Atoi(l.getenv("GIT_CONFIG_COUNT")); err == nil {
		for i := 0; i < n; i++ {
			cmdline = append(cmdline, [2]string{l.getenv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i)), l.getenv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))})
		}
	}
	cmdline = append(cmdline, parseConfigParameters(l.getenv("GIT_CONFIG_PARAMETERS"))...)
	for _, kv := range cmdline {
		key, ok := canonicalConfigKey(kv[0])
		if !ok {
			continue
		}
		if key == "include.path" || (strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")) {
			return &ConfigError{Problem: fmt.Sprintf("%s given with 'git -c' (or GIT_CONFIG_COUNT) is not followed by skillrepo", kv[0])}
		}
		r.entries = append(r.entries, configEntry{key: key, value: kv[1]})
	}
	return nil
}

// last is the last value of key read so far.
func (r *configReader) last(key string) string {
	for i := len(r.entries) - 1; i >= 0; i-- {
		if r.entries[i].key == key {
			return r.entries[i].value
		}
	}
	return ""
}

// file reads one config file (a missing one is no error, as in git).
func (r *configReader) file(name string, depth int) error {
	if name == os.DevNull {
		// An empty configuration, as git reads it: Gemini CLI's shell
		// sets GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM to it
		// (docs/agents.md). Any other device or FIFO is refused below.
		return nil
	}
	// Opened without blocking and checked on the descriptor: a FIFO named
	// as a config file must not hang every write.
	f, err := boundedread.Open(name)
	if errors.Is(err, os.ErrNotExist) || isNotDir(err) {
		return nil
	}
	var nr *boundedread.NotRegularError
	if errors.As(err, &nr) {
		return &ConfigError{File: name, Problem: "not a regular file"}
	}
	if err != nil {
		return &ConfigError{File: name, Problem: err.Error()}
	}
	defer f.Close()
	return r.parse(name, io.LimitReader(f, maxConfigFile), depth)
}

// maxConfigFile bounds one config file (git's are a few KB).
const maxConfigFile = 16 << 20

// parse reads git's config syntax: [section], [section "subsection"]
// (and the old [section.subsection]), name = value lines with quotes,
// escapes, comments and continuation lines; a name alone is true.
func (r *configReader) parse(name string, in io.Reader, depth int) error {
	br := bufio.NewReader(in)
	section := ""
	lineNo := 0
	bad := func(what string) error {
		return &ConfigError{File: name, Problem: fmt.Sprintf("line %d: %s", lineNo, what)}
	}
	for {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			if err == io.EOF {
				return nil
			}
			return &ConfigError{File: name, Problem: err.Error()}
		}
		lineNo++
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		s := strings.TrimLeft(line, " \t\r\n")
		switch {
		case s == "" || s[0] == '#' || s[0] == ';':
			continue
		case s[0] == '[':
			sec, rest, ok := parseSectionHeader(s)
			if !ok {
				return bad("bad section header")
			}
			section = sec
			s = strings.TrimLeft(rest, " \t\r\n")
			if s == "" || s[0] == '#' || s[0] == ';' {
				continue
			}
		}
		if section == "" {
			return bad("a variable outside any section")
		}
		// name [= value]
		i := 0
		for i < len(s) && (isAlnum(s[i]) || s[i] == '-') {
			i++
		}
		if i == 0 || !isAlpha(s[0]) {
			return bad("bad variable name")
		}
		key := section + "." + strings.ToLower(s[:i])
		rest := strings.TrimLeft(s[i:], " \t")
		value, noValue := "true", true // a name alone: git's boolean true
		if strings.HasPrefix(rest, "=") {
			noValue = false
			v, err := readConfigValue(rest[1:], br, &lineNo)
			if err != nil {
				return bad(err.Error())
			}
			value = v
		} else if rest != "" && rest[0] != '\n' && rest[0] != '\r' && rest[0] != '#' && rest[0] != ';' {
			return bad("bad variable line")
		}
		if err := r.entry(name, configEntry{key: key, value: value, noValue: noValue}, depth); err != nil {
			return err
		}
	}
}

// entry records one variable, following it when it is an include.
func (r *configReader) entry(file string, e configEntry, depth int) error {
	key, value := e.key, e.value
	if r.underHasconfig > 0 && strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".url") {
		return &ConfigError{File: file, Problem: "remote URLs cannot be set in a file included by includeIf.hasconfig:remote.*.url (git refuses it too)"}
	}
	r.entries = append(r.entries, e)
	if e.noValue && (key == "include.path" || strings.HasPrefix(key, "includeif.")) {
		return &ConfigError{File: file, Problem: key + " has no value (git refuses it too)"}
	}
	var cond string
	switch {
	case key == "include.path":
	case strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
		cond = key[len("includeif.") : len(key)-len(".path")]
		// The subsection keeps its case; the key was lower-cased only in
		// its section and name.
		if cond == "" {
			return nil
		}
	default:
		return nil
	}
	hasconfig := strings.HasPrefix(cond, "hasconfig:")
	if cond != "" {
		ok, err := r.condition(file, cond)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
	}
	if depth+1 > maxIncludeDepth {
		return &ConfigError{File: file, Problem: fmt.Sprintf("includes nested deeper than %d (git refuses them too)", maxIncludeDepth)}
	}
	path := expandHome(value, r.l.getenv("HOME"))
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(file), path)
	}
	if hasconfig {
		r.underHasconfig++
		defer func() { r.underHasconfig-- }()
	}
	return r.file(path, depth+1)
}

// condition evaluates includeIf's condition, as git's include_condition.
func (r *configReader) condition(file, cond string) (bool, error) {
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return r.gitdirMatches(file, cond[len("gitdir:"):], false), nil
	case strings.HasPrefix(cond, "gitdir/i:"):
		return r.gitdirMatches(file, cond[len("gitdir/i:"):], true), nil
	case strings.HasPrefix(cond, "onbranch:"):
		b, err := os.ReadFile(filepath.Join(r.l.GitDir, "HEAD"))
		if err != nil {
			return false, nil
		}
		branch, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
		if !ok {
			return false, nil
		}
		pat := cond[len("onbranch:"):]
		if strings.HasSuffix(pat, "/") {
			pat += "**"
		}
		return wildmatch(pat, branch, true), nil
	case strings.HasPrefix(cond, "hasconfig:remote.*.url:"):
		if r.collecting {
			return false, nil
		}
		pat := cond[len("hasconfig:remote.*.url:"):]
		for _, u := range r.remoteURLs {
			if wildmatch(pat, u, true) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, &ConfigError{File: file, Problem: fmt.Sprintf("includeIf %q: skillrepo reads the conditions gitdir:, gitdir/i:, onbranch: and hasconfig:remote.*.url:, not this one", cond)}
}

// gitdirMatches is git's include_by_gitdir: the pattern is matched
// against the repository's .git folder (as given and with symlinks
// resolved); "~/" is the home folder, "./" the including file's folder,
// a relative pattern matches at any depth ("**/" before it) and a
// trailing "/" matches everything below.
func (r *configReader) gitdirMatches(file, pat string, icase bool) bool {
	switch {
	case strings.HasPrefix(pat, "~/"):
		pat = expandHome(pat, r.l.getenv("HOME"))
	case strings.HasPrefix(pat, "./"):
		pat = filepath.Join(filepath.Dir(file), pat[2:])
		if strings.HasSuffix(pat[2:], "/") {
			pat += "/"
		}
	case !filepath.IsAbs(pat):
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	dirs := []string{r.l.GitDir}
	if real, err := filepath.EvalSymlinks(r.l.GitDir); err == nil && real != r.l.GitDir {
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		text, p := d, pat
		if icase {
			text, p = strings.ToLower(text), strings.ToLower(p)
		}
		if wildmatch(p, text, true) {
			return true
		}
	}
	return false
}

// parseSectionHeader reads "[section]", `[section "sub"]` or the old
// "[section.sub]" at the start of s, returning "section" or
// "section.sub" (section lower-cased; a quoted subsection keeps its
// case, the old form's is lower-cased) and what follows "]".
func parseSectionHeader(s string) (string, string, bool) {
	s = s[1:]
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i == 0 || i == len(s) {
		return "", "", false
	}
	name := strings.ToLower(s[:i])
	switch s[i] {
	case ']':
		return name, s[i+1:], true
	case ' ', '\t':
	default:
		return "", "", false
	}
	if strings.Contains(name, ".") {
		return "", "", false
	}
	rest := strings.TrimLeft(s[i:], " \t")
	if rest == "" || rest[0] != '"' {
		return "", "", false
	}
	var sub strings.Builder
	for j := 1; j < len(rest); j++ {
		switch c := rest[j]; c {
		case '\\':
			j++
			if j < len(rest) {
				sub.WriteByte(rest[j])
			}
		case '"':
			if j+1 < len(rest) && rest[j+1] == ']' {
				return name + "." + sub.String(), rest[j+2:], true
			}
			return "", "", false
		case '\n':
			return "", "", false
		default:
			sub.WriteByte(c)
		}
	}
	return "", "", false
}

// readConfigValue reads a value after "=": leading blanks dropped,
// trailing ones too outside quotes, "#" and ";" start a comment outside
// quotes, \\ \" \n \t \b are escapes, and a "\" at the end of a line
// continues the value on the next.
func readConfigValue(s string, br *bufio.Reader, lineNo *int) (string, error) {
	var b strings.Builder
	quoted := false
	pending := 0 // blanks seen outside quotes, written only if more follows
	s = strings.TrimLeft(s, " \t")
	for {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\n' || (c == '\r' && i+1 < len(s) && s[i+1] == '\n'):
				if quoted {
					return "", errors.New("a quoted value does not end on its line")
				}
				return b.String(), nil
			case !quoted && (c == ' ' || c == '\t'):
				if b.Len() > 0 {
					pending++
				}
				continue
			case !quoted && (c == '#' || c == ';'):
				return b.String(), nil
			}
			for ; pending > 0; pending-- {
				b.WriteByte(' ')
			}
			switch c {
			case '"':
				quoted = !quoted
			case '\\':
				if i+1 >= len(s) || s[i+1] == '\n' || (s[i+1] == '\r' && i+2 < len(s) && s[i+2] == '\n') {
					// Continuation: the value goes on on the next line.
					i = len(s)
					continue
				}
				i++
				switch s[i] {
				case '\\', '"':
					b.WriteByte(s[i])
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'b':
					b.WriteByte('\b')
				default:
					return "", fmt.Errorf("bad escape \\%c", s[i])
				}
			default:
				b.WriteByte(c)
			}
		}
		// The line ended: with a continuation (or at the end of the file).
		next, err := br.ReadString('\n')
		if next == "" && err != nil {
			if quoted {
				return "", errors.New("a quoted value does not end")
			}
			return b.String(), nil
		}
		*lineNo++
		s = next
	}
}

// canonicalConfigKey lower-cases a "section[.sub].name" key's section and
// name (git -c keys), keeping the subsection's case.
func canonicalConfigKey(k string) (string, bool) {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first <= 0 || last == len(k)-1 {
		return "", false
	}
	if first == last {
		return strings.ToLower(k), true
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:]), true
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func isAlnum(c byte) bool { return isAlpha(c) || (c >= '0' && c <= '9') }
