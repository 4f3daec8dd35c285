package gitstore

// The conversion between a blob and its work-tree file, as git's
// convert.c does it (docs/git-format.md, "Line endings and filters"):
// "clean" is what git add stores for a work-tree file, "smudge" is what
// git checkout writes for a blob. Only the end-of-line conversion is
// carried out: core.autocrlf, core.eol and the text, eol and crlf
// attributes. A path whose conversion runs a program (a configured
// filter=<driver>, git-lfs being the common one), expands $Id$ (ident)
// or re-encodes (working-tree-encoding) is not written at all: the write
// is refused before anything is stored (refuseUnconverted).
//
// The common case converts nothing: core.autocrlf unset or false and no
// attributes file anywhere. The converter is still built (a few config
// files read once per write), but then every path is the identity and
// no per-file work is done beyond one cached Lstat per folder.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

type autoCRLF uint8

const (
	autoCRLFFalse autoCRLF = iota
	autoCRLFTrue
	autoCRLFInput
)

// convConfig is the configuration the conversion depends on.
type convConfig struct {
	autocrlf autoCRLF
	// eolCRLF: core.eol says CRLF (crlf, or native where native is CRLF).
	eolCRLF bool
	// attributesFile is core.attributesFile (default: the XDG one);
	// systemAttributes /etc/gitattributes unless GIT_ATTR_NOSYSTEM.
	attributesFile, systemAttributes string
	// filters are the filter drivers with any filter.<name>.* key: git
	// applies a filter=<name> attribute only when its driver is defined.
	filters map[string]bool
	// split is how the index is written (splitindex.go), read from the
	// same config files in the same pass.
	split splitConfig
	// gcAuto is gc.auto when set to a number (maintenance.go), read in
	// the same pass: a write that passed the loose-object bound would
	// otherwise parse the config files a second time.
	gcAuto    int
	gcAutoSet bool
	// err: the configuration could not be read as git reads it; a write
	// refuses (configProblem).
	err error
}

// textEOLIsCRLF is git's text_eol_is_crlf: the line ending of a text file
// whose attributes name none.
func (c *convConfig) textEOLIsCRLF() bool {
	switch c.autocrlf {
	case autoCRLFTrue:
		return true
	case autoCRLFInput:
		return false
	}
	return c.eolCRLF
}

// readConvConfig reads the keys the conversion needs from git's
// configuration (gitconfig.go: git's files in git's order, includes
// followed, then "git -c"): a later value wins.
func (l *Repo) readConvConfig() *convConfig {
	vals, filters, err := l.gitConfigValues()
	home := l.getenv("HOME")
	xdg := l.getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	c := convConfigFrom(vals, filters, home, xdg)
	c.err = err
	c.split = splitConfigFrom(vals)
	if n, err := strconv.Atoi(strings.TrimSpace(vals["gc.auto"])); err == nil {
		c.gcAuto, c.gcAutoSet = n, true
	}
	if !isTrue(l.getenv("GIT_ATTR_NOSYSTEM")) {
		c.systemAttributes = "/etc/gitattributes"
	}
	return c
}

// gitConfigValues reads git's configuration as git does (gitconfig.go):
// the keys without a subsection, by lower-case "section.name", a later
// value winning; and the names of the filter.<name> subsections. err says
// why the configuration is not what git reads (a write refuses then).
func (l *Repo) gitConfigValues() (map[string]string, map[string]bool, error) {
	vals := map[string]string{}
	filters := map[string]bool{}
	entries, err := l.readGitConfig()
	for _, e := range entries {
		sec, rest, _ := strings.Cut(e.key, ".")
		sub, name := "", rest
		if i := strings.LastIndex(rest, "."); i >= 0 {
			sub, name = rest[:i], rest[i+1:]
		}
		if sec == "filter" && sub != "" {
			filters[sub] = true
			continue
		}
		if sub == "" {
			vals[sec+"."+name] = e.value
		}
	}
	return vals, filters, err
}

// convConfigFrom picks the conversion's keys out of the config values.
func convConfigFrom(vals map[string]string, filters map[string]bool, home, xdg string) *convConfig {
	c := &convConfig{filters: filters}
	if v, ok := vals["core.autocrlf"]; ok {
		switch {
		case strings.EqualFold(v, "input"):
			c.autocrlf = autoCRLFInput
		case isTrue(v):
			c.autocrlf = autoCRLFTrue
		}
	}
	switch v := strings.ToLower(vals["core.eol"]); v {
	case "crlf":
		c.eolCRLF = true
	case "native":
		c.eolCRLF = runtime.GOOS == "windows"
	}
	c.attributesFile = expandHome(vals["core.attributesfile"], home)
	if _, ok := vals["core.attributesfile"]; !ok && xdg != "" {
		c.attributesFile = filepath.Join(xdg, "git", "attributes")
	}
	return c
}

// parseConfigParameters splits GIT_CONFIG_PARAMETERS ('key'='value'
// 'key2'='value2', shell-quoted, as git -c sets it) into pairs.
func parseConfigParameters(s string) [][2]string {
	var out [][2]string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" || s[0] != '\'' {
			return out
		}
		key, rest, ok := shellUnquote(s)
		if !ok {
			return out
		}
		value := "true" // 'key' alone: git's "no value", a boolean true
		if strings.HasPrefix(rest, "=") {
			if value, rest, ok = shellUnquote(rest[1:]); !ok {
				return out
			}
		} else if k, v, found := strings.Cut(key, "="); found {
			key, value = k, v // the older 'key=value' form
		}
		out = append(out, [2]string{key, value})
		s = rest
	}
}

// shellUnquote reads one single-quoted word (with '\” escapes) at the
// start of s.
func shellUnquote(s string) (string, string, bool) {
	var b strings.Builder
	for len(s) > 0 && s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		if strings.HasPrefix(s, `\'`) {
			b.WriteByte('\'')
			s = s[2:]
		}
	}
	return b.String(), s, true
}

func expandHome(p, home string) string {
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	return p
}

// crlfAction is git's convert_crlf_action.
type crlfAction uint8

const (
	crlfUndefined crlfAction = iota
	crlfBinary
	crlfText
	crlfTextInput
	crlfTextCRLF
	crlfAuto
	crlfAutoInput
	crlfAutoCRLF
)

func (a crlfAction) auto() bool { return a == crlfAuto || a == crlfAutoInput || a == crlfAutoCRLF }

// pathConv is what the attributes and config decide for one path.
type pathConv struct {
	cfg    *convConfig
	action crlfAction
	// unsupported names the attribute whose conversion we do not carry
	// out ("filter=lfs", "ident", "working-tree-encoding=UTF-16"), "" if
	// none.
	unsupported string
	// filter is the configured filter driver, "" if none.
	filter string
}

// identity reports whether content passes unchanged both ways.
func (pc pathConv) identity() bool { return pc.action == crlfBinary && pc.unsupported == "" }

// outputCRLF is git's output_eol(...) == EOL_CRLF.
func (pc pathConv) outputCRLF() bool {
	switch pc.action {
	case crlfTextCRLF, crlfUndefined, crlfAutoCRLF:
		return true
	case crlfText, crlfAuto:
		return pc.cfg.textEOLIsCRLF()
	}
	return false
}

// converter decides and carries out the conversion of the paths of one
// operation: the config and the attributes files are read once.
type converter struct {
	cfg   *convConfig
	attrs *attrStack
}

// converter returns the repository's converter, built on first use; a
// write drops it first (Update), so config and attributes are read anew.
func (l *Repo) converter() *converter {
	if l.conv == nil {
		cfg := l.readConvConfig()
		l.conv = &converter{cfg: cfg, attrs: newAttrStack(l.Root, l.GitDir, cfg)}
	}
	return l.conv
}

// convAttrNames are the attributes convert.c asks for.
var convAttrNames = []string{"crlf", "ident", "filter", "eol", "text", "working-tree-encoding"}

// forPath decides the conversion of the file p (a slash path from the
// repository root), as git's convert_attrs does.
func (c *converter) forPath(p string) pathConv {
	a := c.attrs.lookup(p, convAttrNames...)
	pc := pathConv{cfg: c.cfg, action: crlfOf(a["text"])}
	if pc.action == crlfUndefined {
		pc.action = crlfOf(a["crlf"])
	}
	if pc.action != crlfBinary {
		var eol string
		if v := a["eol"]; v.kind == attrString {
			eol = v.value
		}
		switch {
		case pc.action == crlfAuto && eol == "lf":
			pc.action = crlfAutoInput
		case pc.action == crlfAuto && eol == "crlf":
			pc.action = crlfAutoCRLF
		case eol == "lf":
			pc.action = crlfTextInput
		case eol == "crlf":
			pc.action = crlfTextCRLF
		}
	}
	switch {
	case pc.action == crlfText && c.cfg.textEOLIsCRLF():
		pc.action = crlfTextCRLF
	case pc.action == crlfText:
		pc.action = crlfTextInput
	case pc.action == crlfUndefined && c.cfg.autocrlf == autoCRLFTrue:
		pc.action = crlfAutoCRLF
	case pc.action == crlfUndefined && c.cfg.autocrlf == autoCRLFInput:
		pc.action = crlfAutoInput
	case pc.action == crlfUndefined:
		pc.action = crlfBinary
	}
	if v := a["filter"]; v.kind == attrString && c.cfg.filters[v.value] {
		pc.filter = v.value
		pc.unsupported = "filter=" + v.value
	} else if a["ident"].kind == attrTrue {
		pc.unsupported = "ident"
	} else if v := a["working-tree-encoding"]; v.kind == attrString && v.value != "" && !isUTF8Name(v.value) {
		pc.unsupported = "working-tree-encoding=" + v.value
	}
	return pc
}

// crlfOf is git_path_check_crlf for the text (or crlf) attribute.
func crlfOf(v attrValue) crlfAction {
	switch v.kind {
	case attrTrue:
		return crlfText
	case attrFalse:
		return crlfBinary
	case attrString:
		switch v.value {
		case "input":
			return crlfTextInput
		case "auto":
			return crlfAuto
		}
	}
	return crlfUndefined
}

func isUTF8Name(s string) bool {
	return strings.EqualFold(s, "utf-8") || strings.EqualFold(s, "utf8")
}

// textStat is git's text_stat: the line-ending counts and a rough
// printable/non-printable census.
type textStat struct {
	nul, loneCR, loneLF, crlf int
	printable, nonPrintable   int
}

func gatherStats(b []byte) textStat {
	var s textStat
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
		case c == '\n':
			s.loneLF++
		case c == 127:
			s.nonPrintable++
		case c < 32:
			switch c {
			case '\b', '\t', '\033', '\014':
				s.printable++
			case 0:
				s.nul++
				s.nonPrintable++
			default:
				s.nonPrintable++
			}
		default:
			s.printable++
		}
	}
	// A trailing ^Z (DOS end of file) is not counted against the text.
	if len(b) > 0 && b[len(b)-1] == '\032' {
		s.nonPrintable--
	}
	return s
}

// binary is git's convert_is_binary: a lone CR, a NUL, or more than one
// non-printable byte in 128 makes content binary for text=auto.
func (s textStat) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || s.printable>>7 < s.nonPrintable
}

// blobHasCRLF is git's has_crlf_in_index for a blob: text with a CRLF.
func blobHasCRLF(blob []byte) bool {
	if bytes.IndexByte(blob, '\r') < 0 {
		return false
	}
	s := gatherStats(blob)
	return !s.binary() && s.crlf > 0
}

// clean returns what git add stores for work-tree content data. indexBlob
// returns the blob the index holds for the path (nil: none), consulted
// only for text=auto content with CRLFs: git leaves such a file alone
// when the index's copy has CRLFs itself (its "safer autocrlf").
func (pc pathConv) clean(data []byte, indexBlob func() []byte) []byte {
	if pc.action == crlfBinary || len(data) == 0 || bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	s := gatherStats(data)
	if s.crlf == 0 {
		return data
	}
	if pc.action.auto() {
		if s.binary() {
			return data
		}
		if b := indexBlob(); b != nil && blobHasCRLF(b) {
			return data
		}
	}
	out := make([]byte, 0, len(data)-s.crlf)
	for i := 0; i < len(data); i++ {
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		out = append(out, data[i])
	}
	return out
}

// smudge returns what git checkout writes for blob: LF becomes CRLF when
// the path's line ending is CRLF, except (text=auto) for binary content
// or a blob that has CRs already.
func (pc pathConv) smudge(blob []byte) []byte {
	if len(blob) == 0 || !pc.outputCRLF() || bytes.IndexByte(blob, '\n') < 0 {
		return blob
	}
	s := gatherStats(blob)
	if s.loneLF == 0 {
		return blob
	}
	if pc.action.auto() && (s.loneCR > 0 || s.crlf > 0 || s.binary()) {
		return blob
	}
	out := make([]byte, 0, len(blob)+s.loneLF)
	for i, c := range blob {
		if c == '\n' && (i == 0 || blob[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// lfsPointerMatches reports whether data is the content a Git LFS pointer
// blob names (the size and SHA-256 it records): the work-tree file is
// then the checked-out form of the blob, not an edit, without running
// git-lfs.
func lfsPointerMatches(blob, data []byte) bool {
	const version = "version https://git-lfs.github.com/spec/v1\n"
	if len(blob) > 1024 || !bytes.HasPrefix(blob, []byte(version)) {
		return false
	}
	var oid string
	size := int64(-1)
	for _, line := range strings.Split(string(blob[len(version):]), "\n") {
		if v, ok := strings.CutPrefix(line, "oid sha256:"); ok {
			oid = v
		} else if v, ok := strings.CutPrefix(line, "size "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return false
			}
			size = n
		}
	}
	if len(oid) != 64 || size != int64(len(data)) {
		return false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) == oid
}

// refuseUnconverted refuses a write of paths (repository paths) whose
// conversion runs a program or re-encodes: we would store the work-tree
// form where git stores the clean one (an LFS pointer replaced by the
// content), or write a blob's repository form where git writes the
// smudged one. Nothing is written.
func (l *Repo) refuseUnconverted(paths []string) error {
	for _, p := range paths {
		if err := l.CheckConvertible(p); err != nil {
			return err
		}
	}
	return nil
}

// CheckConvertible returns the *StateError a write of p (a repository
// path) would be refused with because its conversion runs a program or
// re-encodes (refuseUnconverted), nil when the engine carries out its
// conversion. A reader such as a dry-run sync asks it to report such a
// path rather than fail on it: our hash of its work-tree file is not what
// git add stores, so we cannot tell whether it is an edit
// (docs/git-format.md, "Line endings and filters").
func (l *Repo) CheckConvertible(p string) error {
	c := l.converter()
	pc := c.forPath(p)
	if pc.unsupported == "" {
		return nil
	}
	if err := c.attrs.err; err != nil {
		return fmt.Errorf("read attributes: %w", err)
	}
	fix := fmt.Sprintf("make this change with git itself, which carries out %s: edit the file, then 'git add %s' and 'git commit' (or 'git rm'/'git mv')", pc.unsupported, p)
	if pc.filter == "lfs" {
		fix = fmt.Sprintf("make this change with git and git lfs (which carries out filter=lfs): edit the file, then 'git add %s' and 'git commit'; skillrepo never replaces an LFS pointer with content, or content with a pointer", p)
	} else if pc.filter != "" {
		fix = fmt.Sprintf("make this change with git, which runs filter.%s.clean/smudge for filter=%s: edit the file, then 'git add %s' and 'git commit' (or 'git rm'/'git mv')", pc.filter, pc.filter, p)
	}
	return &StateError{
		State: fmt.Sprintf("%s has the attribute %s (.gitattributes), whose conversion skillrepo does not run", p, pc.unsupported),
		Fix:   fix,
	}
}

// cleanWorktree returns what git add would store for the work-tree file p
// whose raw content is data, and whether it could tell: a path with an
// unsupported conversion gives its raw content (false), unless it is the
// checked-out form of an LFS pointer the index holds, which gives that
// pointer.
func (l *Repo) cleanWorktree(idx *Index, p string, data []byte) ([]byte, bool, error) {
	pc := l.converter().forPath(p)
	if err := l.conv.attrs.err; err != nil {
		return nil, false, fmt.Errorf("read attributes: %w", err)
	}
	if pc.identity() {
		return data, true, nil
	}
	indexBlob := func() []byte {
		e, ok := idx.lookup(p)
		if !ok {
			return nil
		}
		b, err := l.readObject(plumbing.BlobObject, e.Hash)
		if err != nil {
			return nil
		}
		return b
	}
	if pc.unsupported != "" {
		if pc.filter == "lfs" {
			if b := indexBlob(); b != nil && lfsPointerMatches(b, data) {
				return b, true, nil
			}
		}
		return data, false, nil
	}
	return pc.clean(data, indexBlob), true, nil
}

// ReadWorktreeBlob returns the content git add would store for the work
// tree file p (a repository path): a symlink's target, or the file's
// content after the end-of-line conversion its attributes and config
// ask for. idx is the index (the text=auto rule reads its blob).
func (l *Repo) ReadWorktreeBlob(idx *Index, p string) ([]byte, error) {
	full := filepath.Join(l.Root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(full)
		return []byte(t), err
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	b, _, err := l.cleanWorktree(idx, p, data)
	return b, err
}

// smudgeFor returns what git checkout writes at p for blob data.
func (l *Repo) smudgeFor(p string, data []byte) []byte {
	return l.converter().forPath(p).smudge(data)
}

// convIdentity reports whether p converts nothing either way.
func (l *Repo) convIdentity(p string) bool { return l.converter().forPath(p).identity() }

// isAttributesFile reports whether p is a .gitattributes file, and its
// folder.
func isAttributesFile(p string) (string, bool) {
	if path.Base(p) != ".gitattributes" {
		return "", false
	}
	d := path.Dir(p)
	if d == "." {
		d = ""
	}
	return d, true
}
