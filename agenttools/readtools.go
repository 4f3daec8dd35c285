package agenttools

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// read_file and search_files read one of two places, by their scope
// argument: the library (the default: the revision the toolbox reads) or
// the project the session worked in (Options.Project, read-only, through
// the guards of project.go). One scope argument on the two tools the model
// knows already, rather than two more tools, keeps the tool list, the
// prompts' tool names and the result shapes as they are: only where a path
// is read from changes.

// maxReadChars caps one read_file result.
const maxReadChars = 100_000

// searchSpace is what search_files walks: a file system, the folders and
// files it leaves out, and how it reads a file's text.
type searchSpace struct {
	fsys     fs.FS
	skipDir  func(p string) bool
	skipFile func(p string, d fs.DirEntry) bool
	read     func(p string) (string, bool, error)
	// maxFiles bounds the files a content search opens, maxEntries the
	// names a search visits (0: no bound).
	maxFiles, maxEntries int
}

func (tb *Toolbox) readFile(cl *call, data []byte) toolResult {
	var args struct {
		Path   string `json:"path"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
		Scope  string `json:"scope"`
	}
	if r := decodeArgs(ReadFile, data, &args); r != nil {
		return r
	}
	project, r := scopeOf(ReadFile, args.Scope)
	if r != nil {
		return r
	}
	var p, text string
	var binary bool
	if project {
		var res toolResult
		if p, text, binary, res = tb.projectFile(args.Path); res != nil {
			return res
		}
	} else {
		var err error
		if p, err = cleanRel(args.Path); err != nil {
			return argsRefusal(err.Error())
		}
		v, err := tb.currentView(cl.ctx)
		if err != nil {
			return failure("read_file: " + err.Error())
		}
		text, binary, err = readText(v.FS(), p)
		if errors.Is(err, fs.ErrNotExist) {
			return failure(fmt.Sprintf("File not found: %s (paths are relative to the library root; search_files with target 'files' lists them)", p))
		}
		if err != nil {
			return failure(fmt.Sprintf("read_file %s: %v", p, err))
		}
	}
	res := toolResult{"success": true, "path": p}
	if project {
		res["scope"] = ScopeProject
	}
	if binary {
		res["content"] = text
		return res
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	from := max(args.Offset, 1) - 1
	to := len(lines)
	if args.Limit > 0 {
		to = min(to, from+args.Limit)
	}
	from = min(from, len(lines))
	part := strings.Join(lines[from:to], "")
	truncated := false
	if len([]rune(part)) > maxReadChars {
		part, truncated = clip(part, maxReadChars), true
	}
	whole := from == 0 && to == len(lines) && !truncated
	if whole && !project {
		tb.reads[p] = true // a full read counts as a view (docs/reference-behaviour.md §2.5)
	}
	res["content"], res["total_lines"] = part, len(lines)
	if !whole {
		res["partial"] = fmt.Sprintf("lines %d-%d of %d", from+1, to, len(lines))
	}
	if truncated {
		res["truncated"] = true
	}
	return res
}

// scopeOf reads a scope argument: true for the project.
func scopeOf(tool, scope string) (bool, toolResult) {
	switch scope {
	case "", ScopeLibrary:
		return false, nil
	case ScopeProject:
		return true, nil
	}
	return false, argsRefusal(fmt.Sprintf("%s: unknown scope %q: use library (the default) or project", tool, scope))
}

func (tb *Toolbox) searchFiles(cl *call, data []byte) toolResult {
	var args struct {
		Pattern string `json:"pattern"`
		Target  string `json:"target"`
		Path    string `json:"path"`
		Limit   int    `json:"limit"`
		Scope   string `json:"scope"`
	}
	if r := decodeArgs(SearchFiles, data, &args); r != nil {
		return r
	}
	if args.Pattern == "" {
		return argsRefusal("pattern is required")
	}
	project, r := scopeOf(SearchFiles, args.Scope)
	if r != nil {
		return r
	}
	root := "."
	var space searchSpace
	if project {
		var res toolResult
		var done func()
		if root, space, done, res = tb.projectSpace(args.Path); res != nil {
			return res
		}
		defer done()
	} else {
		if args.Path != "" && args.Path != "." {
			p, err := cleanRel(args.Path)
			if err != nil {
				return argsRefusal(err.Error())
			}
			root = p
		}
		v, err := tb.currentView(cl.ctx)
		if err != nil {
			return failure("search_files: " + err.Error())
		}
		space = searchSpace{fsys: v.FS(),
			skipDir:  func(p string) bool { return path.Base(p) == ".git" },
			skipFile: func(string, fs.DirEntry) bool { return false },
			read:     func(p string) (string, bool, error) { return readText(v.FS(), p) },
		}
	}
	limit := args.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var match func(p string) bool
	var re *regexp.Regexp
	switch args.Target {
	case "files":
		if _, err := path.Match(args.Pattern, ""); err != nil {
			return argsRefusal(fmt.Sprintf("bad glob %q: %v", args.Pattern, err))
		}
		match = func(p string) bool {
			ok, _ := path.Match(args.Pattern, p)
			base, _ := path.Match(args.Pattern, path.Base(p))
			return ok || base
		}
	case "", "content":
		var err error
		re, err = regexp.Compile(args.Pattern)
		if err != nil {
			re = regexp.MustCompile(regexp.QuoteMeta(args.Pattern))
		}
	default:
		return argsRefusal(fmt.Sprintf("unknown target %q: use content or files", args.Target))
	}
	var found []map[string]any
	more, opened, visited := false, 0, 0
	err := fs.WalkDir(space.fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if visited++; space.maxEntries > 0 && visited > space.maxEntries {
			more = true
			return fs.SkipAll
		}
		if d.IsDir() {
			if p != root && space.skipDir(p) {
				return fs.SkipDir
			}
			return nil
		}
		if space.skipFile(p, d) {
			return nil
		}
		if len(found) >= limit {
			more = true
			return fs.SkipAll
		}
		if match != nil {
			if match(p) {
				found = append(found, map[string]any{"path": p})
			}
			return nil
		}
		if space.maxFiles > 0 && opened >= space.maxFiles {
			more = true
			return fs.SkipAll
		}
		opened++
		text, binary, err := space.read(p)
		if err != nil || binary {
			return nil
		}
		for i, line := range strings.Split(text, "\n") {
			if re.MatchString(line) {
				if len(found) >= limit {
					more = true
					return fs.SkipAll
				}
				found = append(found, map[string]any{"path": p, "line": i + 1, "text": clip(strings.TrimRight(line, "\r"), 200)})
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return failure(fmt.Sprintf("no such folder: %s", root))
	}
	if err != nil {
		return failure("search_files: " + err.Error())
	}
	if found == nil {
		found = []map[string]any{}
	}
	res := toolResult{"success": true, "matches": found, "count": len(found)}
	if project {
		res["scope"] = ScopeProject
	}
	if more {
		res["truncated"] = true
		res["hint"] = "more matches exist, or more files than one search reads; narrow the pattern or the path"
	}
	return res
}
