package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// FileTarget is an agent whose hooks are one file of skillrepo's own
// rather than entries in a settings file: OpenCode loads every JavaScript
// module of its plugins folder, so skillrepo's hooks are a plugin module
// that runs `skillrepo hooks run <agent> <event>` (docs/agents.md). The
// file is written whole and removed whole; a file of that name that is
// not skillrepo's is never touched.
type FileTarget interface {
	Name() agent.Name
	// PluginFile is the file the install writes for the scope.
	PluginFile(scope agent.Scope, homes agent.Homes, project string) (string, error)
	// DefaultLibrary is the library the hooks serve unless --library
	// names one.
	DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string
	// PluginSource is the file's content: it runs command (a path, or
	// "skillrepo" found on PATH) on library (absolute, or relative to the
	// project the agent runs in). It must contain FileMarker.
	PluginSource(command, library string) []byte
	// PluginLibrary is the library an installed file serves (a relative
	// one taken from project); false when the file does not say.
	PluginLibrary(data []byte, project string) (string, bool)
}

// FileMarker is what every file a FileTarget install writes contains: a
// file without it is not ours to replace or remove.
func FileMarker(a agent.Name) string { return "skillrepo hooks install --" + string(a) }

// FileOptions configure a FileTarget install or uninstall.
type FileOptions struct {
	Agent   FileTarget
	Scope   agent.Scope
	Homes   agent.Homes
	Project string
	// Library is the library's absolute path ("" for the default).
	Library string
	// Executable is this binary's path ("" names skillrepo on PATH, as a
	// project's shared file must).
	Executable string
	DryRun     bool
}

// FileResult is what a FileTarget install or uninstall did (or would do).
type FileResult struct {
	Path    string
	Library string
	Content []byte
	Changed bool
}

// ErrNotOurs is returned when the file the install would write or remove
// exists and is not skillrepo's.
var ErrNotOurs = errors.New("the file is not skillrepo's")

// InstallFile writes the agent's plugin file for the scope. A project's
// file names the library relative to the project.
func InstallFile(opts FileOptions) (*FileResult, error) {
	path, err := opts.Agent.PluginFile(opts.Scope, opts.Homes, opts.Project)
	if err != nil {
		return nil, err
	}
	lib := opts.Library
	if lib == "" {
		lib = opts.Agent.DefaultLibrary(opts.Scope, opts.Homes, opts.Project)
	}
	if opts.Scope == agent.ScopeProject {
		rel, err := filepath.Rel(filepath.Clean(opts.Project), lib)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("the library %s is outside the project %s: a project's shared plugin names it relative to the project (install with --scope user instead)", lib, opts.Project)
		}
		lib = filepath.ToSlash(rel)
	}
	command := opts.Executable
	if command == "" {
		command = "skillrepo"
	}
	content := opts.Agent.PluginSource(command, lib)
	old, err := readOurs(opts.Agent.Name(), path)
	if err != nil {
		return nil, err
	}
	res := &FileResult{Path: path, Library: lib, Content: content, Changed: !bytes.Equal(old, content)}
	if !res.Changed || opts.DryRun {
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if err := atomicfile.Write(path, content, 0o644, true); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return res, nil
}

// UninstallFile removes the agent's plugin file of the scope, if it is
// skillrepo's.
func UninstallFile(opts FileOptions) (*FileResult, error) {
	path, err := opts.Agent.PluginFile(opts.Scope, opts.Homes, opts.Project)
	if err != nil {
		return nil, err
	}
	old, err := readOurs(opts.Agent.Name(), path)
	if err != nil {
		return nil, err
	}
	res := &FileResult{Path: path, Changed: old != nil}
	if !res.Changed || opts.DryRun {
		return res, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remove %s: %w", path, err)
	}
	return res, nil
}

// ReadFileTarget is the agent's plugin file of the scope: its path, and
// its content when it exists and is skillrepo's (nil when there is none).
func ReadFileTarget(t FileTarget, scope agent.Scope, homes agent.Homes, project string) (string, []byte, error) {
	path, err := t.PluginFile(scope, homes, project)
	if err != nil {
		return "", nil, err
	}
	data, err := readOurs(t.Name(), path)
	return path, data, err
}

// readOurs reads path: nil when it does not exist, ErrNotOurs when it
// is not skillrepo's.
func readOurs(a agent.Name, path string) ([]byte, error) {
	data, err := boundedread.ReadFile(path, settingsLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !bytes.Contains(data, []byte(FileMarker(a))) {
		return nil, fmt.Errorf("%s: %w (it does not say %q); nothing was written", path, ErrNotOurs, FileMarker(a))
	}
	return data, nil
}
