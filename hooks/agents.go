package hooks

import (
	"bytes"
	"encoding/json"
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

// ErrMalformed is returned for a settings file that is not a JSON object
// of the agent's hook shape; nothing is written.
var ErrMalformed = errors.New("malformed settings file")

// Handler is one hook entry skillrepo installs: an event (as the agent
// names it), an optional matcher and the command's settings.
type Handler struct {
	Event   string
	Matcher string
	Timeout int // seconds; 0: the agent's default
	// Async runs the handler in the background (Claude Code's "async":
	// true): the agent does not wait for it. For handlers that only
	// record (counting a use) and never return a decision.
	Async bool
	// Name is the handler's name where the agent shows one (Gemini CLI's
	// /hooks panel and its hooksConfig.disabled list).
	Name string
}

// Target is an agent whose hooks live in a JSON settings file of Claude
// Code's shape, {"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type":
// "command", "command": …}]}]}}: what the installer needs to know of it.
// Each agent's folder implements it (agents/<name>/install.go).
type Target interface {
	Name() agent.Name
	// Handlers are the entries installed, events as the agent names them.
	Handlers() []Handler
	// SettingsPath is the file the agent reads hooks from at a scope.
	SettingsPath(scope agent.Scope, homes agent.Homes, project string) (string, error)
	// DefaultLibrary is the skills folder the agent reads at a scope.
	DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string
	// Format says how its settings differ from Claude Code's.
	Format() Format
}

// Format is how an agent's settings file differs from Claude Code's.
type Format struct {
	// TimeoutMillis: timeouts are written in milliseconds (Gemini CLI),
	// not seconds.
	TimeoutMillis bool
	// NotEvents are keys of the hooks object that are settings, not
	// events (Gemini CLI's enabled, disabled, notifications).
	NotEvents []string
	// ProjectDir is the variable the agent sets to the project's folder
	// in a hook's shell (Claude Code's CLAUDE_PROJECT_DIR): a project's
	// shared settings name the library under it. "" names it relative to
	// the project, which `hooks run` looks for from the session's folder
	// upwards.
	ProjectDir string
	// Flat: each event lists its handlers directly, with no matcher
	// groups, a handler being {"type": "command", "bash": …,
	// "timeoutSec": …}, and a new file opens with "version": 1 (GitHub
	// Copilot CLI's hook files).
	Flat bool
}

// AgentOptions say where an agent install or uninstall goes.
type AgentOptions struct {
	Agent Target
	Scope agent.Scope // "" = user
	// Homes are the agents' user folders; Project the project folder (for
	// the project and local scopes).
	Homes   agent.Homes
	Project string
	// Library is the skills library the hooks serve (absolute); "" = the
	// scope's skills folder (Target.DefaultLibrary).
	Library string
	// Executable is how the hook commands call skillrepo; "" =
	// `skillrepo` from PATH.
	Executable string
	DryRun     bool
}

// AgentResult says what an install or uninstall did.
type AgentResult struct {
	// Settings is the settings file; Library the library the hooks use
	// (as written in the commands).
	Settings, Library string
	// Content is the file as written (or as it would be, on a dry run).
	Content []byte
	// Changed is false when the file already said the same.
	Changed bool
	// Added and Removed count hook handlers.
	Added, Removed int
	DryRun         bool
	// Command is the in-agent command's file (/refine) the install wrote
	// or the uninstall removed ("" for an agent or scope without one);
	// CommandChanged says it was (or would be) written or removed, and
	// CommandNote why it was left alone.
	Command        string
	CommandChanged bool
	CommandNote    string
}

// marker is what every command skillrepo installs contains; a handler
// whose command contains it is ours to replace or remove.
func marker(a agent.Name) string { return " hooks run " + string(a) + " " }

// command renders the shell command of one handler.
func command(a agent.Name, exe, library, event string) string {
	if exe == "" {
		exe = "skillrepo"
	}
	return shellQuote(exe) + marker(a) + event + " --library " + library
}

// libraryArg is the --library argument as written in the commands. A
// committed file (project scope) names no path of this machine: under
// the agent's project variable (Format.ProjectDir), else relative to the
// project. Personal files name the absolute path.
func libraryArg(opts AgentOptions) (string, error) {
	lib := opts.Library
	if lib == "" {
		lib = opts.Agent.DefaultLibrary(opts.Scope, opts.Homes, opts.Project)
	}
	if opts.Scope != agent.ScopeProject && opts.Scope != agent.ScopeLocal {
		return shellQuote(lib), nil
	}
	rel, err := filepath.Rel(filepath.Clean(opts.Project), lib)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if opts.Scope == agent.ScopeLocal {
			return shellQuote(lib), nil
		}
		return "", fmt.Errorf("the library %s is outside the project %s: a project's settings are shared, so they name a library inside it (use --scope user for a library elsewhere)", lib, opts.Project)
	}
	if v := opts.Agent.Format().ProjectDir; v != "" {
		return `"$` + v + `"/` + shellWord(filepath.ToSlash(rel)), nil
	}
	return shellWord(filepath.ToSlash(rel)), nil
}

// shellWord is s as one shell word: as it is when it holds only
// characters no shell treats specially, else quoted.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-+,@%=", r)) {
			return shellQuote(s)
		}
	}
	if s == "" {
		return "''"
	}
	return s
}

// InstallAgent merges skillrepo's hook handlers into the agent's settings
// file at the scope, and writes its in-agent command (Commander) beside
// them. Only our handlers' text changes: every other key
// keeps its bytes, order and layout; handlers of an earlier install are
// replaced, so installing twice changes nothing. A file that is not JSON,
// or whose hooks are not of the agent's shape, is refused with
// ErrMalformed and nothing is written. An agent that runs skillrepo's
// hooks through its plugin already (PluginFinder) is refused with a
// *PluginError, nothing written: both would run every event.
func InstallAgent(opts AgentOptions) (*AgentResult, error) {
	if p, ok := enabledPlugin(opts); ok {
		return nil, &PluginError{Plugin: p}
	}
	res, err := editAgent(opts, true)
	if err != nil {
		return nil, err
	}
	return res, editCommand(opts, res, true)
}

// UninstallAgent removes skillrepo's handlers (and only those) from the
// agent's settings file at the scope; a missing file is left missing. The
// agent's in-agent command goes too, when the file is ours.
func UninstallAgent(opts AgentOptions) (*AgentResult, error) {
	res, err := editAgent(opts, false)
	if err != nil {
		return nil, err
	}
	return res, editCommand(opts, res, false)
}

// settingsLimit bounds the read of a file we edit in place (an agent's
// settings, a git hook): they are kilobytes, and one that is not (or a
// FIFO) is refused rather than loaded.
const settingsLimit = 16 << 20

func editAgent(opts AgentOptions, install bool) (*AgentResult, error) {
	path, err := opts.Agent.SettingsPath(opts.Scope, opts.Homes, opts.Project)
	if err != nil {
		return nil, err
	}
	res := &AgentResult{Settings: path, DryRun: opts.DryRun}
	if install {
		if res.Library, err = libraryArg(opts); err != nil {
			return nil, err
		}
	}
	old, err := boundedread.ReadFile(path, settingsLimit)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if missing && !install {
		return res, nil
	}
	var want []wantHandler
	if install {
		for _, h := range opts.Agent.Handlers() {
			want = append(want, wantHandler{Handler: h, Command: command(opts.Agent.Name(), opts.Executable, res.Library, h.Event)})
		}
	}
	out, added, removed, err := mergeSettings(opts.Agent, old, want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	res.Content, res.Added, res.Removed = out, added, removed
	res.Changed = missing || !bytes.Equal(out, old)
	if !res.Changed || opts.DryRun {
		return res, nil
	}
	if !install && opts.Agent.Format().Flat && onlyVersion(out) {
		// A hook file of its own (Copilot CLI reads every file of its
		// hooks folder) left with nothing but its version goes, as the
		// install found it.
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove %s: %w", path, err)
		}
		return res, nil
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, out, perm, true); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return res, nil
}

// onlyVersion reports a JSON object holding at most "version".
func onlyVersion(data []byte) bool {
	var v map[string]json.RawMessage
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	delete(v, "version")
	return len(v) == 0
}

// Installation is what an agent's settings file at a scope holds of ours.
type Installation struct {
	Agent agent.Name
	Scope agent.Scope
	// Settings is the file looked at; Err why it could not be read (a
	// missing file is no error: nothing is installed).
	Settings string
	Err      error
	// Handlers are our handlers in it, in file order.
	Handlers []InstalledHandler
}

// Installed reports whether any handler of ours is in the file.
func (i *Installation) Installed() bool { return len(i.Handlers) > 0 }

// InstalledHandler is one of our handlers as the settings file has it.
type InstalledHandler struct {
	// Event is the key it is under (the agent's name for the event).
	Event string
	// Group and Index place it: hooks.<Event>[Group].hooks[Index] (in a
	// Flat file hooks.<Event>[Group], Index -1).
	Group, Index int
	// Matcher is its group's matcher ("" when none).
	Matcher    string
	HasMatcher bool
	Command    string
	// Timeout as written (0: none), in the agent's unit.
	Timeout       int64
	Async         bool
	StatusMessage *string
	Name          string
}

// Inspect reads what the agent's settings file at a scope holds of ours.
func Inspect(t Target, scope agent.Scope, homes agent.Homes, project string) *Installation {
	in := &Installation{Agent: t.Name(), Scope: scope}
	path, err := t.SettingsPath(scope, homes, project)
	if err != nil {
		in.Err = err
		return in
	}
	in.Settings = path
	data, err := boundedread.ReadFile(path, settingsLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return in
	}
	if err != nil {
		in.Err = err
		return in
	}
	root, err := parseSettings(t, data)
	if err != nil {
		in.Err = err
		return in
	}
	in.Handlers = ours(t, root, data, marker(t.Name()))
	return in
}

// Installed reports whether the agent's settings file at the scope holds
// skillrepo's handlers, and the path it looked at.
func Installed(t Target, scope agent.Scope, homes agent.Homes, project string) (bool, string) {
	in := Inspect(t, scope, homes, project)
	return in.Installed(), in.Settings
}

// HandlersIn lists our handlers in a settings file's content (a dry run's
// result, not yet on disk).
func HandlersIn(t Target, content []byte) []InstalledHandler {
	root, err := parseSettings(t, content)
	if err != nil {
		return nil
	}
	return ours(t, root, content, marker(t.Name()))
}

// Library is the library the handler's command names (its --library
// argument, as libraryArg wrote it), absolute: a path under the agent's
// project variable (projectVar, Format.ProjectDir) or relative is taken in
// project. "" when the command names none this can read without a shell
// (a plugin's, which expands the environment).
func (h InstalledHandler) Library(projectVar, project string) string {
	_, rest, ok := strings.Cut(h.Command, " --library ")
	if !ok {
		return ""
	}
	word, ok := shellWordAt(strings.TrimLeft(rest, " "), projectVar)
	if !ok || word == "" {
		return ""
	}
	if strings.HasPrefix(word, "$"+projectVar+"/") || word == "$"+projectVar {
		word = strings.TrimPrefix(strings.TrimPrefix(word, "$"+projectVar), "/")
		if word == "" {
			word = "."
		}
	}
	if filepath.IsAbs(word) {
		return filepath.Clean(word)
	}
	if project == "" {
		return ""
	}
	return filepath.Join(project, filepath.FromSlash(word))
}

// shellWordAt reads the first shell word of s as shellQuote and shellWord
// write it: single quotes, double quotes, backslashes. A variable is read
// only as "$projectVar" (left as $projectVar in the word); any other
// expansion makes it unreadable (ok false).
func shellWordAt(s, projectVar string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|':
			return b.String(), true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return "", false
			}
			inner := s[i+1 : i+1+j]
			if strings.ContainsAny(inner, "\\`") || strings.Contains(inner, "$") && (projectVar == "" || inner != "$"+projectVar) {
				return "", false
			}
			b.WriteString(inner)
			i += j + 1
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '$' || c == '`':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
