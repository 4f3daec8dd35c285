package lint

import (
	"path"
	"strings"
)

// An orphan is a support file in one of the resource folders (references/,
// templates/, scripts/, assets/) that nothing in the skill reaches: no
// link or mention, no mention of a folder it is in, no relative import
// (`from api.trends import`, `require("./lib/x")`), no other file naming
// it. Files elsewhere in the skill (code trees, agents/, evals/) and
// package metadata are never orphans: they serve tools, not the agent.
//
// Whether a file is reached is decided with an index of what the skill's
// text files name, built once per skill ([reach]), so the check is linear
// in the number of files and the bytes of text. Asking every text whether
// it contains every candidate's name was quadratic: 32,000 unreferenced
// files in one skill took 13 s.

// reach indexes the names a skill's text files use. Each key maps to the
// file that used it, or to "*" when two or more files did, so that a file
// naming itself does not count.
type reach struct {
	named map[string]string
}

func newReach() *reach { return &reach{named: map[string]string{}} }

func (r *reach) note(key, from string) {
	if key == "" || key == "." {
		return
	}
	switch prev, ok := r.named[key]; {
	case !ok:
		r.named[key] = from
	case prev != from:
		r.named[key] = "*"
	}
}

// by reports whether key is named by a file other than rel.
func (r *reach) by(key, rel string) bool {
	from, ok := r.named[key]
	return ok && from != rel
}

// pathBytes marks the bytes a path token is made of: letters, digits,
// "._-/~@+" and every byte of a multi-byte character.
var pathBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 || strings.IndexByte("._-/~@+", byte(c)) >= 0
	}
	return t
}()

// index adds what the text of file from (relative to the skill) names:
// every token that holds a "/" or a "." — as written, resolved from the
// file's folder, each of its trailing path segments (so
// "~/.hermes/skills/x/references/a.md" names "references/a.md" and
// "a.md") and its folders — and every word after "import" or "from"
// (Python modules).
func (r *reach) index(from, text string) {
	dir := path.Dir(from)
	afterImport := false
	for k := 0; k < len(text); {
		if !pathBytes[text[k]] {
			k++
			continue
		}
		j, pathy := k, false
		for ; j < len(text) && pathBytes[text[j]]; j++ {
			if c := text[j]; c == '/' || c == '.' {
				pathy = true
			}
		}
		tok := text[k:j]
		k = j
		if afterImport {
			r.note("py:"+strings.TrimLeft(tok, "."), from)
		}
		afterImport = tok == "import" || tok == "from"
		if !pathy {
			continue
		}
		tok = strings.TrimRight(tok, ".-")
		if !strings.ContainsAny(tok, "/.") {
			continue
		}
		if strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "../") {
			p := path.Join(dir, tok)
			if p != ".." && !strings.HasPrefix(p, "../") {
				r.note(p, from)
			}
			continue
		}
		clean := strings.TrimSuffix(tok, "/")
		if dir != "." && !strings.HasPrefix(clean, "/") {
			r.note(path.Join(dir, clean), from)
		}
		// A file named in a folder below a resource folder marks the
		// folder as used: its other files are that code's package
		// (scripts/office/helpers/ beside scripts/office/pack.py) or
		// templates chosen at run time (templates/emails/*.txt).
		for d := path.Dir(clean); d != "." && d != "/" && strings.Contains(d, "/"); d = path.Dir(d) {
			r.note(d, from)
		}
		for {
			r.note(clean, from)
			slash := strings.IndexByte(clean, '/')
			if slash < 0 {
				break
			}
			clean = clean[slash+1:]
		}
	}
}

// reached reports whether support file rel is reached: its path, its
// name, a folder it is in (other than the resource folder itself, which
// only an explicit mention in used covers), its path without the
// extension (`./lib/x` in JavaScript), its folder for an index file, or
// for Python a module path ending in it.
func (r *reach) reached(rel string) bool {
	if r.by(rel, rel) || r.by(path.Base(rel), rel) {
		return true
	}
	for d := path.Dir(rel); d != "." && strings.Contains(d, "/"); d = path.Dir(d) {
		if r.by(d, rel) {
			return true
		}
	}
	ext := path.Ext(rel)
	stem := strings.TrimSuffix(rel, ext)
	if ext != "" && r.by(stem, rel) {
		return true
	}
	if strings.TrimSuffix(path.Base(rel), ext) == "index" && r.by(path.Dir(rel), rel) {
		return true
	}
	if ext == ".py" {
		segs := strings.Split(stem, "/")
		for k := len(segs) - 1; k >= 0; k-- {
			mod := strings.Join(segs[k:], ".")
			if r.by("py:"+mod, rel) || (k < len(segs)-1 && r.by(mod, rel)) {
				return true
			}
		}
	}
	return false
}

// orphanCandidate reports whether rel (relative to the skill) is a file
// the orphan rule judges: in a resource folder, not hidden, not package
// metadata, an index file or compiled output.
func orphanCandidate(rel string) bool {
	slash := strings.IndexByte(rel, '/')
	if slash < 0 || !isSupportDir(rel[:slash]) || hidden(rel) {
		return false
	}
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "__pycache__" || seg == "node_modules" {
			return false
		}
	}
	return !metaFile(path.Base(rel))
}

// metaFiles are file names that describe a package rather than teach the
// agent, compared in lower case.
var metaFiles = map[string]bool{
	"package.json": true, "package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"bun.lockb": true, "_meta.json": true, "__init__.py": true, "requirements.txt": true,
	"requirements-dev.txt": true, "pyproject.toml": true, "setup.py": true, "setup.cfg": true,
	"poetry.lock": true, "uv.lock": true, "pipfile": true, "pipfile.lock": true, "go.mod": true,
	"go.sum": true, "cargo.toml": true, "cargo.lock": true, "gemfile": true, "gemfile.lock": true,
	"tsconfig.json": true, "deno.json": true, "deno.lock": true, "makefile": true,
}

// metaFile reports package metadata, licences, read-mes, index files and
// compiled Python by file name.
func metaFile(base string) bool {
	low := strings.ToLower(base)
	if metaFiles[low] || strings.HasSuffix(low, ".lock") || strings.HasSuffix(low, ".pyc") {
		return true
	}
	for _, p := range []string{"license", "licence", "readme", "changelog", "notice", "copying", "index."} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}
