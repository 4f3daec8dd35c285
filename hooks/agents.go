package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Agent names a hook system skillrepo installs into.
type Agent string

// Agents whose hooks skillrepo installs.
const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
)

// Scope is which settings file of an agent an install writes.
type Scope string

// Scopes: the user's settings (every project), the project's shared
// settings, or the project's personal settings (Claude Code only).
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
	ScopeLocal   Scope = "local"
)

// ErrMalformed is returned for a settings file that is not a JSON object
// of the agent's hook shape; nothing is written.
var ErrMalformed = errors.New("malformed settings file")

// Event names as the agents spell them.
const (
	EventSessionStart        = "SessionStart"
	EventPostToolUse         = "PostToolUse"
	EventUserPromptExpansion = "UserPromptExpansion"
	EventStop                = "Stop"
	EventSessionEnd          = "SessionEnd"
	EventUserPromptSubmit    = "UserPromptSubmit"
)

// ParseEvent accepts an event name in any case, with or without dashes.
func ParseEvent(s string) (string, error) {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	for _, e := range []string{EventSessionStart, EventPostToolUse, EventUserPromptExpansion, EventUserPromptSubmit, EventStop, EventSessionEnd} {
		if strings.ToLower(e) == k {
			return e, nil
		}
	}
	return "", fmt.Errorf("unknown hook event %q: want SessionStart, PostToolUse, UserPromptExpansion, UserPromptSubmit, Stop or SessionEnd", s)
}

// Handler is one hook entry skillrepo installs: an event, an optional
// matcher and the event name the command passes to `hooks run`.
type Handler struct {
	Event   string
	Matcher string
	Timeout int // seconds; 0: the agent's default
	// Async runs the handler in the background (Claude Code's "async":
	// true): the agent does not wait for it. For handlers that only
	// record (counting a use) and never return a decision.
	Async bool
}

// Handlers are the entries installed for an agent. Claude Code counts a
// skill use from its Skill tool (PostToolUse, matcher Skill) and from a
// typed /name (UserPromptExpansion); Codex has no Skill tool, so every
// shell command is looked at for a SKILL.md it reads. SessionEnd carries
// no timeout: one would raise Claude Code's 1.5 s SessionEnd budget, and
// the handler returns well within it. Claude Code's use counters run
// async: counting rewrites the usage sidecar (tens of milliseconds on a
// library of a thousand skills, more on a busy disk) and the agent need
// not wait for it; the cost is that a count still running when `claude
// -p` tears down is lost. Stop may ask a goal judge (30 s at
// most, failing open), so it gets 45 s; UserPromptSubmit lets a typed
// prompt pause a goal whose continuation it interrupted.
func Handlers(a Agent) []Handler {
	switch a {
	case ClaudeCode:
		return []Handler{
			{Event: EventSessionStart, Timeout: 10},
			{Event: EventPostToolUse, Matcher: "Skill", Timeout: 5, Async: true},
			{Event: EventUserPromptExpansion, Timeout: 5, Async: true},
			{Event: EventUserPromptSubmit, Timeout: 5},
			{Event: EventStop, Timeout: 45},
			{Event: EventSessionEnd},
		}
	case Codex:
		return []Handler{
			{Event: EventSessionStart, Timeout: 10},
			{Event: EventPostToolUse, Matcher: "Bash", Timeout: 5},
			{Event: EventUserPromptSubmit, Timeout: 5},
			{Event: EventStop, Timeout: 45},
			{Event: EventSessionEnd},
		}
	}
	return nil
}

// ParseAgent accepts claude-code (claude) and codex.
func ParseAgent(s string) (Agent, error) {
	switch strings.ToLower(s) {
	case "claude-code", "claude", "claudecode":
		return ClaudeCode, nil
	case "codex":
		return Codex, nil
	}
	return "", fmt.Errorf("unknown agent %q: want claude-code or codex", s)
}

// AgentOptions say where an agent install or uninstall goes.
type AgentOptions struct {
	Agent Agent
	Scope Scope // "" = user
	// Home is the user's home folder; Project the project folder (for
	// the project and local scopes).
	Home, Project string
	// Library is the skills library the hooks serve; "" = the scope's
	// skills folder (see [DefaultLibrary]).
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
// Code's ~/.claude/settings.json, <project>/.claude/settings.json and
// settings.local.json; Codex's ~/.codex/hooks.json and
// <project>/.codex/hooks.json.
func SettingsPath(a Agent, scope Scope, home, project string) (string, error) {
	switch a {
	case ClaudeCode:
		switch scope {
		case ScopeUser, "":
			return filepath.Join(home, ".claude", "settings.json"), nil
		case ScopeProject:
			return filepath.Join(project, ".claude", "settings.json"), nil
		case ScopeLocal:
			return filepath.Join(project, ".claude", "settings.local.json"), nil
		}
	case Codex:
		switch scope {
		case ScopeUser, "":
			return filepath.Join(home, ".codex", "hooks.json"), nil
		case ScopeProject:
			return filepath.Join(project, ".codex", "hooks.json"), nil
		case ScopeLocal:
			return "", fmt.Errorf("codex has no local scope: use --scope user or project")
		}
	default:
		return "", fmt.Errorf("unknown agent %q", a)
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary is the skills folder an agent reads at a scope: Claude
// Code's ~/.claude/skills or <project>/.claude/skills, Codex's
// ~/.agents/skills or <project>/.agents/skills.
func DefaultLibrary(a Agent, scope Scope, home, project string) string {
	dir := ".claude"
	if a == Codex {
		dir = ".agents"
	}
	if scope == ScopeProject || scope == ScopeLocal {
		return filepath.Join(project, dir, "skills")
	}
	return filepath.Join(home, dir, "skills")
}

// marker is what every command skillrepo installs contains; a handler
// whose command contains it is ours to replace or remove.
func marker(a Agent) string { return " hooks run " + string(a) + " " }

// command renders the shell command of one handler. Claude Code runs it
// through sh, so the library of a project-scoped install is written
// relative to $CLAUDE_PROJECT_DIR and the committed file works in every
// clone.
func command(a Agent, exe, library, event string) string {
	if exe == "" {
		exe = "skillrepo"
	}
	return shellQuote(exe) + marker(a) + event + " --library " + library
}

// libraryArg is the --library argument as written in the commands.
func libraryArg(opts AgentOptions) string {
	lib := opts.Library
	if opts.Agent == ClaudeCode && opts.Library == "" && (opts.Scope == ScopeProject || opts.Scope == ScopeLocal) {
		return `"$CLAUDE_PROJECT_DIR"/.claude/skills`
	}
	if lib == "" {
		lib = DefaultLibrary(opts.Agent, opts.Scope, opts.Home, opts.Project)
	}
	return shellQuote(lib)
}

// InstallAgent merges skillrepo's hook handlers into the agent's settings
// file at the scope. Every other key and hook is kept (key order too);
// handlers of an earlier install are replaced, so installing twice
// changes nothing. A file that is not JSON, or whose hooks are not of
// the agent's shape, is refused with ErrMalformed and nothing is written.
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
	path, err := SettingsPath(opts.Agent, opts.Scope, opts.Home, opts.Project)
	if err != nil {
		return nil, err
	}
	res := &AgentResult{Settings: path, Library: libraryArg(opts), DryRun: opts.DryRun}
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
	out, added, removed, err := mergeSettings(old, marker(opts.Agent), want)
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

// Installed reports whether the agent's settings file at the scope holds
// skillrepo's handlers, and the path it looked at.
func Installed(a Agent, scope Scope, home, project string) (bool, string) {
	path, err := SettingsPath(a, scope, home, project)
	if err != nil {
		return false, ""
	}
	data, err := boundedread.ReadFile(path, settingsLimit)
	if err != nil || !gjson.ValidBytes(data) {
		return false, path
	}
	return len(ours(data, marker(a))) > 0, path
}

type wantHandler struct {
	Handler
	Command string
}

// found is one of our handlers in a settings file.
type found struct {
	event          string
	group, handler int
	matcher        string
	command        string
	timeout        int64
	async          bool
}

// ours lists the handlers whose command carries mark, in file order.
func ours(data []byte, mark string) []found {
	var out []found
	gjson.GetBytes(data, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		gi := 0
		groups.ForEach(func(_, g gjson.Result) bool {
			hi := 0
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				if c := h.Get("command").String(); strings.Contains(c, mark) {
					out = append(out, found{event: ev.String(), group: gi, handler: hi,
						matcher: g.Get("matcher").String(), command: c, timeout: h.Get("timeout").Int(), async: h.Get("async").Bool()})
				}
				hi++
				return true
			})
			gi++
			return true
		})
		return true
	})
	return out
}

// mergeSettings removes our handlers from data and appends want. When
// the handlers in the file already are exactly want, data comes back
// unchanged, byte for byte.
func mergeSettings(data []byte, mark string, want []wantHandler) (out []byte, added, removed int, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	if err := checkShape(data); err != nil {
		return nil, 0, 0, err
	}
	have := ours(data, mark)
	if sameHandlers(have, want) {
		return data, 0, 0, nil
	}
	out = slices.Clone(data)
	// Delete from the end so earlier indexes stay valid.
	for i := len(have) - 1; i >= 0; i-- {
		f := have[i]
		ev := "hooks." + escapeKey(f.event)
		gpath := fmt.Sprintf("%s.%d", ev, f.group)
		if out, err = sjson.DeleteBytes(out, fmt.Sprintf("%s.hooks.%d", gpath, f.handler)); err != nil {
			return nil, 0, 0, err
		}
		removed++
		if n := len(gjson.GetBytes(out, gpath+".hooks").Array()); n == 0 {
			if out, err = sjson.DeleteBytes(out, gpath); err != nil {
				return nil, 0, 0, err
			}
		}
		if len(gjson.GetBytes(out, ev).Array()) == 0 {
			if out, err = sjson.DeleteBytes(out, ev); err != nil {
				return nil, 0, 0, err
			}
		}
	}
	for _, w := range want {
		// Keys in the order people write them: matcher first, then hooks;
		// type, command, timeout.
		hb, _ := json.Marshal(struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout,omitempty"`
			Async   bool   `json:"async,omitempty"`
		}{"command", w.Command, w.Timeout, w.Async})
		var group []byte
		if w.Matcher != "" {
			mb, _ := json.Marshal(w.Matcher)
			group = []byte(`{"matcher":` + string(mb) + `,"hooks":[` + string(hb) + `]}`)
		} else {
			group = []byte(`{"hooks":[` + string(hb) + `]}`)
		}
		if out, err = sjson.SetRawBytes(out, "hooks."+escapeKey(w.Event)+".-1", group); err != nil {
			return nil, 0, 0, err
		}
		added++
	}
	opts := &pretty.Options{Width: 80, Prefix: "", Indent: indentOf(data), SortKeys: false}
	return pretty.PrettyOptions(out, opts), added, removed, nil
}

func sameHandlers(have []found, want []wantHandler) bool {
	if len(have) != len(want) {
		return false
	}
	for i := range have {
		h, w := have[i], want[i]
		if h.event != w.Event || h.matcher != w.Matcher || h.command != w.Command || h.timeout != int64(w.Timeout) || h.async != w.Async {
			return false
		}
	}
	return true
}

// checkShape accepts a JSON object whose "hooks", when present, maps
// event names to lists of objects whose "hooks" are lists of objects.
func checkShape(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, int(se.Offset))
			return fmt.Errorf("%w: not valid JSON at line %d, column %d: %v", ErrMalformed, line, col, se)
		}
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%w: the top level is not a JSON object", ErrMalformed)
	}
	hooks, ok := top["hooks"]
	if !ok {
		return nil
	}
	events, ok := hooks.(map[string]any)
	if !ok {
		return fmt.Errorf("%w: \"hooks\" is not an object of events", ErrMalformed)
	}
	for ev, groups := range events {
		list, ok := groups.([]any)
		if !ok {
			return fmt.Errorf("%w: hooks.%s is not a list of matcher groups", ErrMalformed, ev)
		}
		for i, g := range list {
			gm, ok := g.(map[string]any)
			if !ok {
				return fmt.Errorf("%w: hooks.%s[%d] is not an object", ErrMalformed, ev, i)
			}
			if hs, ok := gm["hooks"]; ok {
				hl, ok := hs.([]any)
				if !ok {
					return fmt.Errorf("%w: hooks.%s[%d].hooks is not a list", ErrMalformed, ev, i)
				}
				for j, h := range hl {
					if _, ok := h.(map[string]any); !ok {
						return fmt.Errorf("%w: hooks.%s[%d].hooks[%d] is not an object", ErrMalformed, ev, i, j)
					}
				}
			}
		}
	}
	return nil
}

func lineCol(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// indentOf keeps the file's indentation unit (the leading white space of
// its first indented line); two spaces for a new or one-line file.
func indentOf(data []byte) string {
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimLeft(l, " \t")
		if len(t) < len(l) && len(t) > 0 {
			return string(l[:len(l)-len(t)])
		}
	}
	return "  "
}

// escapeKey escapes a key for a gjson/sjson path.
func escapeKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(`.*?|#@\!=<>%"`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
