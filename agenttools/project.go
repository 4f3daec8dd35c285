package agenttools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// A run's reads of the project the session worked in (read_file and
// search_files with scope "project"): read-only, inside the project's
// folder only, bounded, and never a secret (docs/agents.md, "What a review
// reads"). Every refusal is a tool result the model reads.

// Scopes of read_file and search_files.
const (
	ScopeLibrary = "library"
	ScopeProject = "project"
)

// Bounds of the project reads of one run (one toolbox).
const (
	// MaxProjectFile is the largest project file read; a larger one is
	// refused, not cut, so no read loads more than this.
	MaxProjectFile = 256 << 10
	// MaxProjectReads is how many project reads (read_file and
	// search_files calls with scope project) one run may make.
	MaxProjectReads = 50
	// maxSearchFiles is how many files one project content search opens,
	// and maxSearchEntries how many names one search visits.
	maxSearchFiles   = 2000
	maxSearchEntries = 20000
)

// DeniedProjectDirs are the folders a project read never enters, at any
// depth (git's own files, keys and cloud credentials), and
// DeniedProjectFiles the file names (globs, matched without case) it never
// reads: names that hold secrets. The agents' own programs get the same
// lists as their deny rules (package agentcli).
var (
	DeniedProjectDirs  = []string{".git", ".ssh", ".gnupg", ".aws", ".docker", ".kube"}
	DeniedProjectFiles = []string{".env*", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks",
		"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "credentials*", ".netrc", ".npmrc", ".pypirc", ".pgpass", ".git-credentials"}
)

// deniedProjectPath says why a slash path inside the project is never
// read ("" when it may be).
func deniedProjectPath(rel string) string {
	segs := strings.Split(rel, "/")
	for _, seg := range segs {
		if slices.Contains(DeniedProjectDirs, strings.ToLower(seg)) {
			return fmt.Sprintf("%s is inside %s/, which reviews never read", rel, seg)
		}
	}
	base := strings.ToLower(segs[len(segs)-1])
	for _, g := range DeniedProjectFiles {
		if ok, _ := path.Match(g, base); ok {
			return fmt.Sprintf("%s looks like a secret (its name matches %s); reviews never read keys, credentials or .env files", rel, g)
		}
	}
	return ""
}

// projectRel checks a path the model gave inside the project: relative,
// no "..", nothing denied.
func projectRel(tool, p string) (string, toolResult) {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if p == "" || p == "." {
		return ".", nil
	}
	if strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':') {
		return "", guardRefusal(fmt.Sprintf("%s: absolute paths are not read (%q); give a path relative to the project's folder", tool, p))
	}
	if slices.Contains(strings.Split(p, "/"), "..") {
		return "", guardRefusal(fmt.Sprintf("%s: '..' is not allowed (%q): only files inside the project's folder are read", tool, p))
	}
	p = path.Clean(p)
	if why := deniedProjectPath(p); why != "" {
		return "", guardRefusal(tool + ": refused: " + why)
	}
	return p, nil
}

// openProject counts one project read against the run's bound and opens
// the project's folder (its real path, links resolved) as a root that no
// open escapes.
func (tb *Toolbox) openProject(tool string) (string, *os.Root, toolResult) {
	if tb.opts.Project == "" {
		return "", nil, guardRefusal(tool + ": this run has no project folder (the session's folder is unknown or gone); use the library scope")
	}
	if tb.projectReads >= MaxProjectReads {
		return "", nil, guardRefusal(fmt.Sprintf("%s: the %d project reads of this run are used up; work with what you have read", tool, MaxProjectReads))
	}
	tb.projectReads++
	dir, err := filepath.EvalSymlinks(tb.opts.Project)
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return "", nil, failure(fmt.Sprintf("%s: the project's folder cannot be read: %v", tool, err))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", nil, failure(fmt.Sprintf("%s: the project's folder cannot be read: %v", tool, err))
	}
	return dir, root, nil
}

// projectFile reads a project file for read_file: its path as given
// (cleaned), its text (or a placeholder for binary content).
func (tb *Toolbox) projectFile(given string) (string, string, bool, toolResult) {
	p, res := projectRel(ReadFile, given)
	if res != nil {
		return "", "", false, res
	}
	dir, root, res := tb.openProject(ReadFile)
	if res != nil {
		return "", "", false, res
	}
	defer root.Close()
	// Where the path leads, links resolved: a link may not lead out of
	// the project, nor to a file that is refused by its own name. (The
	// root refuses an escape again at the open, should a link change in
	// between.)
	real, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", false, failure(fmt.Sprintf("File not found in the project: %s (paths are relative to the project's folder; search_files with scope 'project' and target 'files' lists them)", p))
	}
	if err != nil {
		return "", "", false, failure(fmt.Sprintf("read_file %s: %v", p, err))
	}
	rel, err := filepath.Rel(dir, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", "", false, guardRefusal(fmt.Sprintf("read_file: refused: %s is a link that leads outside the project's folder; only files inside it are read", p))
	}
	rel = filepath.ToSlash(rel)
	if why := deniedProjectPath(rel); why != "" {
		return "", "", false, guardRefusal(fmt.Sprintf("read_file: refused: %s is a link to a file never read: %s", p, why))
	}
	data, err := boundedread.ReadFileIn(root, rel, MaxProjectFile)
	var big *boundedread.TooLargeError
	var odd *boundedread.NotRegularError
	switch {
	case errors.As(err, &big):
		size := "over " + boundedread.Human(MaxProjectFile)
		if big.Size >= 0 {
			size = boundedread.Human(big.Size)
		}
		return "", "", false, guardRefusal(fmt.Sprintf("read_file: refused: %s is %s; project files are read only up to %s", p, size, boundedread.Human(MaxProjectFile)))
	case errors.As(err, &odd):
		return "", "", false, failure(fmt.Sprintf("read_file: %s is not a regular file", p))
	case err != nil:
		return "", "", false, failure(fmt.Sprintf("read_file %s: %v", p, err))
	}
	text, binary := textOf(data)
	return p, text, binary, nil
}

// projectSpace is the project as search_files walks it: from the folder
// given, leaving out the denied folders and files, links (a walk does not
// follow them) and files over MaxProjectFile, opening at most
// maxSearchFiles files and visiting at most maxSearchEntries names. done
// closes it.
func (tb *Toolbox) projectSpace(given string) (string, searchSpace, func(), toolResult) {
	start, res := projectRel(SearchFiles, given)
	if res != nil {
		return "", searchSpace{}, nil, res
	}
	_, root, res := tb.openProject(SearchFiles)
	if res != nil {
		return "", searchSpace{}, nil, res
	}
	space := searchSpace{
		fsys:    root.FS(),
		skipDir: func(p string) bool { return deniedProjectPath(p) != "" },
		skipFile: func(p string, d fs.DirEntry) bool {
			if !d.Type().IsRegular() || deniedProjectPath(p) != "" {
				return true
			}
			info, err := d.Info()
			return err != nil || info.Size() > MaxProjectFile
		},
		read: func(p string) (string, bool, error) {
			data, err := boundedread.ReadFileIn(root, p, MaxProjectFile)
			if err != nil {
				return "", false, err
			}
			text, binary := textOf(data)
			return text, binary, nil
		},
		maxFiles: maxSearchFiles, maxEntries: maxSearchEntries,
	}
	return start, space, func() { root.Close() }, nil
}
