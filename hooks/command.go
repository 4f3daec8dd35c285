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

// Commander is an agent that takes a command the person types in its
// session — /refine [focus], the reference's manual review — from a file
// installed beside its hooks: its folder says where the file goes and
// what it holds (agents/<name>/command.go).
type Commander interface {
	// CommandFile is the command's file at the scope ("" when the agent
	// reads none there that skillrepo writes).
	CommandFile(scope agent.Scope, homes agent.Homes, project string) string
	// CommandContent is the file: a command that runs the shell line run
	// with the person's words appended as the value of --focus.
	CommandContent(run string) []byte
}

// RefineMarker is in every command file skillrepo writes: a file holding
// it is ours to replace or remove, any other is the person's.
const RefineMarker = " review --session current --focus "

// RefineLine is the shell line an installed command runs, but for its
// focus: the review of the session the command runs in, on the library
// the hooks serve.
func RefineLine(exe, library string) string {
	if exe == "" {
		exe = "skillrepo"
	}
	return shellWord(exe) + " -C " + shellWord(library) + " review --session current"
}

// editCommand writes (install) or removes the agent's command file at the
// scope, after its hooks; it says what it did in res. A file of the same
// name that is not ours is left as it is, and so is a file that would
// fall inside the library (a skills folder the agent also reads commands
// from).
func editCommand(opts AgentOptions, res *AgentResult, install bool) error {
	c, ok := opts.Agent.(Commander)
	if !ok {
		return nil
	}
	path := c.CommandFile(opts.Scope, opts.Homes, opts.Project)
	if path == "" {
		return nil
	}
	old, err := boundedread.ReadFile(path, settingsLimit)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return fmt.Errorf("read %s: %w", path, err)
	}
	ours := !missing && bytes.Contains(old, []byte(RefineMarker))
	if !install {
		if !ours {
			return nil
		}
		res.Command, res.CommandChanged = path, true
		if opts.DryRun {
			return nil
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		if dir := filepath.Dir(path); filepath.Base(dir) == "refine" {
			_ = os.Remove(dir) // the command's own folder (a Codex skill's), when now empty
		}
		return nil
	}
	lib := opts.Library
	if lib == "" {
		lib = opts.Agent.DefaultLibrary(opts.Scope, opts.Homes, opts.Project)
	}
	res.Command = path
	switch {
	case !missing && !ours:
		res.CommandNote = "left as it is: the file is not skillrepo's"
		return nil
	case inside(lib, path):
		res.CommandNote = "not written: it would be inside the library " + lib
		return nil
	}
	content := c.CommandContent(RefineLine(opts.Executable, lib))
	if res.CommandChanged = missing || !bytes.Equal(old, content); !res.CommandChanged || opts.DryRun {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, content, 0o644, true); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// inside reports whether p is in the folder dir (links not followed: both
// are as the install names them).
func inside(dir, p string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// CommandInstalled is the agent's command file at the scope when it holds
// skillrepo's command ("" otherwise).
func CommandInstalled(t Target, scope agent.Scope, homes agent.Homes, project string) string {
	c, ok := t.(Commander)
	if !ok {
		return ""
	}
	path := c.CommandFile(scope, homes, project)
	if path == "" {
		return ""
	}
	data, err := boundedread.ReadFile(path, settingsLimit)
	if err != nil || !bytes.Contains(data, []byte(RefineMarker)) {
		return ""
	}
	return path
}
