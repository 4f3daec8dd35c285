package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/internal/yamlconf"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// A broken config (docs/config.md, "A broken config"): [Parse] returns
// every key that is right and the default for each one that is not,
// beside an *Error naming each problem's line, so the domain can open the
// library for reads and refuse every write until the file is fixed.
// `skillrepo lint` and the pre-commit hook report the problems as errors.

// Error is a config file with problems, each at its line.
type Error struct {
	// File is the file as the message names it.
	File     string
	Problems yamlconf.Errors
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = e.File + ":" + strings.TrimPrefix(p.Error(), "line ")
		if p.Line == 0 {
			lines[i] = e.File + ": " + p.Error()
		}
	}
	return strings.Join(lines, "\n")
}

// Hint collects the problems' hints and says where the keys are
// described.
func (e *Error) Hint() string {
	var hints []string
	for _, p := range e.Problems {
		if p.Hint != "" {
			hints = append(hints, p.Hint)
		}
	}
	return strings.Join(append(hints, "every key is described in docs/config.md"), "\n")
}

// decoder holds the named checks of the config's `check` tags.
var decoder = yamlconf.Decoder{Checks: map[string]yamlconf.Check{
	"version":  checkVersion,
	"branch":   checkBranchName,
	"runtime":  checkRuntime,
	"url":      checkURL,
	"nonempty": checkNonEmpty,
	"remote":   checkRemoteName,
}}

// Parse parses a config file's bytes, once, for the library at
// root (a folder on disk, or where a commit or git's index would put it):
// the defaults fill what the file leaves out, and a runtime it does not
// name is detected from root's path. A file with problems is a
// *Error naming each one's line; the Config returned with it holds
// every key that is right and the default of each one that is not.
func Parse(data []byte, root string) (Config, error) {
	cfg := Default()
	var problems yamlconf.Errors
	top, err := yamlconf.Parse(data)
	var one *yamlconf.Error
	switch {
	case errors.As(err, &one):
		problems = yamlconf.Errors{one}
	case err != nil:
		return cfg, err
	default:
		problems = decoder.Decode(top, &cfg, "")
	}
	if cfg.Runtime == "" {
		cfg.Runtime = skill.DetectRuntime(root)
	}
	if len(problems) > 0 {
		return cfg, &Error{File: Path, Problems: problems}
	}
	return cfg, nil
}

// readFile reads the config file of the library at root, at most
// [Limit] bytes. A missing file is an fs.ErrNotExist error.
func readFile(root string) ([]byte, error) {
	return boundedread.ReadFile(filepath.Join(root, filepath.FromSlash(Path)), Limit)
}

// Read reads the config of the library at root from its work tree, as
// the domain's Open does (and a process that keeps no library open, such
// as the worker between entries); a missing file means the defaults. A
// file with problems is an *Error naming the file by its full path, with
// the Config as [Parse] leaves it.
func Read(root string) (Config, error) {
	b, err := readFile(root)
	if errors.Is(err, fs.ErrNotExist) {
		return Parse(nil, root)
	}
	if err != nil {
		return Default(), fmt.Errorf("read %s: %w", Path, err)
	}
	cfg, err := Parse(b, root)
	var ce *Error
	if errors.As(err, &ce) {
		ce.File = filepath.Join(root, filepath.FromSlash(Path))
	}
	return cfg, err
}

// SetsKey reports whether the config file of the library at root sets
// the top-level key (as opposed to leaving it to its default).
func SetsKey(root, key string) bool {
	b, err := readFile(root)
	if err != nil {
		return false
	}
	top, err := yamlconf.Parse(b)
	if err != nil || top == nil {
		return false
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			return true
		}
	}
	return false
}

// Duration is a config duration: a Go duration ("15s", "30m") or a plain
// number of seconds, never negative.
type Duration time.Duration

// UnmarshalYAML reads "15s" or 15.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v := strings.TrimSpace(n.Value)
	if n.Kind == yaml.ScalarNode {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
			*d = Duration(secs * float64(time.Second))
			return nil
		}
		if dd, err := time.ParseDuration(v); err == nil && dd >= 0 {
			*d = Duration(dd)
			return nil
		}
	}
	return &hintedProblem{msg: fmt.Sprintf("want a duration such as 15s, 30m or 2h (or a number of seconds), got %q", v),
		hint: "a duration is a number with a unit (ms, s, m, h), not negative"}
}

// String is the duration as Go writes it.
func (d Duration) String() string { return time.Duration(d).String() }

// hintedProblem is a check's refusal with a hint for the user.
type hintedProblem struct{ msg, hint string }

func (p *hintedProblem) Error() string { return p.msg }
func (p *hintedProblem) Hint() string  { return p.hint }

func checkVersion(s string) (string, error) {
	if s != "1" {
		return "", &hintedProblem{msg: fmt.Sprintf("version %s is not one this skillrepo reads (1)", s),
			hint: "a newer skillrepo wrote this file: upgrade skillrepo, or set version: 1"}
	}
	return s, nil
}

func checkRuntime(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil // detected from the library's path
	}
	r, err := skill.ParseRuntime(s)
	return string(r), err
}

func checkURL(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	if _, err := endpoint.Parse(s); err != nil {
		return "", err
	}
	return strings.TrimSpace(s), nil
}

func checkNonEmpty(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("want a name, got nothing")
	}
	return s, nil
}

// checkBranchName holds a branch name to git's rules for ref names
// (git check-ref-format --branch).
func checkBranchName(s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%q is not a branch name: %s", s, why)
	}
	switch {
	case s == "":
		return bad("empty")
	case strings.HasPrefix(s, "-"):
		return bad(`it starts with "-"`)
	case strings.HasPrefix(s, "/"), strings.HasSuffix(s, "/"), strings.Contains(s, "//"):
		return bad(`an empty part between "/"`)
	case strings.Contains(s, ".."), strings.Contains(s, "@{"), s == "@":
		return bad(`".." and "@{" are not allowed`)
	case strings.HasSuffix(s, "."):
		return bad(`it ends in "."`)
	}
	for _, part := range strings.Split(s, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return bad(`a part starts with "." or ends in ".lock"`)
		}
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return bad(fmt.Sprintf("%q is not allowed", r))
		}
	}
	return s, nil
}
