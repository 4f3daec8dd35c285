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

// Handlers are the entries installed for an agent. Claude Code counts a
// skill use from its Skill tool (PostToolUse, matcher Skill) and from a
// typed /name (UserPromptExpansion); Codex has no Skill tool, so every
// shell command is looked at for a SKILL.md it reads; Gemini CLI loads a
// skill with its activate_skill tool. SessionEnd carries no timeout: one
// would raise Claude Code's 1.5 s SessionEnd budget (Codex gives it 1 s
// by default), and the handler returns well within it. Claude Code's use
// counters run async: counting rewrites the usage sidecar (tens of
// milliseconds on a library of a thousand skills, more on a busy disk)
// and the agent need not wait for it; the cost is that a count still
// running when `claude -p` tears down is lost. Stop may ask a goal judge
// (30 s at most, failing open), so it gets 45 s; UserPromptSubmit lets a
// typed prompt pause a goal whose continuation it interrupted.
func Handlers(a agent.Name) []Handler {
	switch a {
	case agent.ClaudeCode:
		return []Handler{
			{Event: agent.EventSessionStart, Timeout: 10},
			{Event: agent.EventPostToolUse, Matcher: "Skill", Timeout: 5, Async: true},
			{Event: agent.EventUserPromptExpansion, Timeout: 5, Async: true},
			{Event: agent.EventUserPromptSubmit, Timeout: 5},
			{Event: agent.EventStop, Timeout: 45},
			{Event: agent.EventSessionEnd},
		}
	case agent.Codex:
		return []Handler{
			{Event: agent.EventSessionStart, Timeout: 10},
			{Event: agent.EventPostToolUse, Matcher: "Bash", Timeout: 5},
			{Event: agent.EventUserPromptSubmit, Timeout: 5},
			{Event: agent.EventStop, Timeout: 45},
			{Event: agent.EventSessionEnd},
		}
	case agent.Gemini:
		return []Handler{
			{Event: agent.EventSessionStart, Timeout: 10, Name: "skillrepo-session-start"},
			{Event: agent.GeminiAfterTool, Matcher: "^" + geminiActivateSkill + "$", Timeout: 5, Name: "skillrepo-count-skill"},
			{Event: agent.GeminiBeforeAgent, Timeout: 5, Name: "skillrepo-prompt"},
			{Event: agent.GeminiAfterAgent, Timeout: 45, Name: "skillrepo-turn-end"},
			{Event: agent.EventSessionEnd, Name: "skillrepo-session-end"},
		}
	}
	return nil
}

// geminiActivateSkill is the tool Gemini CLI loads a skill with
// (tool_input.name is the skill).
const geminiActivateSkill = "activate_skill"

// AgentOptions say where an agent install or uninstall goes.
type AgentOptions struct {
	Agent agent.Name
	Scope agent.Scope // "" = user
	// Homes are the agents' user folders; Project the project folder (for
	// the project and local scopes).
	Homes   agent.Homes
	Project string
	// Library is the skills library the hooks serve (absolute); "" = the
	// scope's skills folder (see [DefaultLibrary]).
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
}

// SettingsPath is the file an agent reads hooks from at a scope: Claude
// Code's settings.json (user: in CLAUDE_CONFIG_DIR; project:
// .claude/settings.json; local: .claude/settings.local.json), Codex's
// hooks.json (user: in CODEX_HOME; project: .codex/hooks.json), Gemini
// CLI's settings.json (user: ~/.gemini; project: .gemini/settings.json).
func SettingsPath(a agent.Name, scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch a {
	case agent.ClaudeCode:
		switch scope {
		case agent.ScopeUser, "":
			return filepath.Join(homes.ClaudeConfig, "settings.json"), nil
		case agent.ScopeProject:
			return filepath.Join(project, ".claude", "settings.json"), nil
		case agent.ScopeLocal:
			return filepath.Join(project, ".claude", "settings.local.json"), nil
		}
	case agent.Codex:
		switch scope {
		case agent.ScopeUser, "":
			return filepath.Join(homes.CodexHome, "hooks.json"), nil
		case agent.ScopeProject:
			return filepath.Join(project, ".codex", "hooks.json"), nil
		case agent.ScopeLocal:
			return "", fmt.Errorf("codex has no local scope: use --scope user or project")
		}
	case agent.Gemini:
		switch scope {
		case agent.ScopeUser, "":
			return filepath.Join(homes.GeminiDir, "settings.json"), nil
		case agent.ScopeProject:
			return filepath.Join(project, ".gemini", "settings.json"), nil
		case agent.ScopeLocal:
			return "", fmt.Errorf("gemini has no local scope: use --scope user or project")
		}
	default:
		return "", fmt.Errorf("unknown agent %q", a)
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary is the skills folder an agent reads at a scope: Claude
// Code's skills in CLAUDE_CONFIG_DIR or <project>/.claude/skills, Codex's
// ~/.agents/skills or <project>/.agents/skills, Gemini CLI's
// ~/.gemini/skills or <project>/.gemini/skills.
func DefaultLibrary(a agent.Name, scope agent.Scope, homes agent.Homes, project string) string {
	project = filepath.Clean(project)
	if scope == agent.ScopeProject || scope == agent.ScopeLocal {
		return filepath.Join(project, projectSkillsDir(a))
	}
	switch a {
	case agent.ClaudeCode:
		return filepath.Join(homes.ClaudeConfig, "skills")
	case agent.Gemini:
		return filepath.Join(homes.GeminiDir, "skills")
	}
	return filepath.Join(homes.Home, ".agents", "skills")
}

// projectSkillsDir is an agent's skills folder inside a project.
func projectSkillsDir(a agent.Name) string {
	switch a {
	case agent.ClaudeCode:
		return filepath.Join(".claude", "skills")
	case agent.Gemini:
		return filepath.Join(".gemini", "skills")
	}
	return filepath.Join(".agents", "skills")
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
// committed file (project scope) names no path of this machine: Claude
// Code's commands run through sh with $CLAUDE_PROJECT_DIR set, so its
// library is written under it; Codex and Gemini CLI's get the library's
// path relative to the project, which `hooks run` looks for from the
// session's folder upwards. Personal files name the absolute path.
func libraryArg(opts AgentOptions) (string, error) {
	lib := opts.Library
	if lib == "" {
		lib = DefaultLibrary(opts.Agent, opts.Scope, opts.Homes, opts.Project)
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
	if opts.Agent == agent.ClaudeCode {
		return `"$CLAUDE_PROJECT_DIR"/` + shellWord(filepath.ToSlash(rel)), nil
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
// file at the scope. Only our handlers' text changes: every other key
// keeps its bytes, order and layout; handlers of an earlier install are
// replaced, so installing twice changes nothing. A file that is not JSON,
// or whose hooks are not of the agent's shape, is refused with
// ErrMalformed and nothing is written.
func InstallAgent(opts AgentOptions) (*AgentResult, error) {
	return editAgent(opts, true)
}

// UninstallAgent removes skillrepo's handlers (and only those) from the
// agent's settings file at the scope; a missing file is left missing.
func UninstallAgent(opts AgentOptions) (*AgentResult, error) {
	return editAgent(opts, false)
}

// settingsLimit bounds the read of a file we edit in place (an agent's
// settings, a git hook): they are kilobytes, and one that is not (or a
// FIFO) is refused rather than loaded.
const settingsLimit = 16 << 20

func editAgent(opts AgentOptions, install bool) (*AgentResult, error) {
	path, err := SettingsPath(opts.Agent, opts.Scope, opts.Homes, opts.Project)
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
		for _, h := range Handlers(opts.Agent) {
			want = append(want, wantHandler{Handler: h, Command: command(opts.Agent, opts.Executable, res.Library, h.Event)})
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
	// Group and Index place it: hooks.<Event>[Group].hooks[Index].
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
func Inspect(a agent.Name, scope agent.Scope, homes agent.Homes, project string) *Installation {
	in := &Installation{Agent: a, Scope: scope}
	path, err := SettingsPath(a, scope, homes, project)
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
	root, err := parseSettings(a, data)
	if err != nil {
		in.Err = err
		return in
	}
	in.Handlers = ours(root, data, marker(a))
	return in
}

// Installed reports whether the agent's settings file at the scope holds
// skillrepo's handlers, and the path it looked at.
func Installed(a agent.Name, scope agent.Scope, homes agent.Homes, project string) (bool, string) {
	in := Inspect(a, scope, homes, project)
	return in.Installed(), in.Settings
}

// HandlersIn lists our handlers in a settings file's content (a dry run's
// result, not yet on disk).
func HandlersIn(a agent.Name, content []byte) []InstalledHandler {
	root, err := parseSettings(a, content)
	if err != nil {
		return nil
	}
	return ours(root, content, marker(a))
}
