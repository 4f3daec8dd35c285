package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/jsonedit"
)

// Installing the server into an agent's MCP configuration: one entry
// named "skillrepo" that runs `<command> mcp --library <dir> [args]`,
// merged into the client's file with every other key and server kept.
// Installing twice changes nothing; uninstall removes only our entry; a
// file that does not parse is refused and left alone.

// ServerName is the entry's name in every client's configuration.
const ServerName = "skillrepo"

// Clients.
const (
	ClientClaudeCode = string(agent.ClaudeCode)
	ClientCodex      = string(agent.Codex)
	ClientCursor     = "cursor"
	ClientGemini     = string(agent.Gemini)
)

// InstallOptions choose the client, the scope and the entry.
type InstallOptions struct {
	Client string
	// Scope: Claude Code project (.mcp.json, the default), user
	// (~/.claude.json) or local (~/.claude.json, this project only);
	// Codex user (~/.codex/config.toml, $CODEX_HOME, the default) or
	// project (.codex/config.toml); Cursor project (.cursor/mcp.json, the
	// default) or user (~/.cursor/mcp.json).
	Scope string
	// Home and Project are the user's home and the project folder
	// (absolute); CodexHome overrides ~/.codex, ClaudeConfigDir the folder
	// of ~/.claude.json (CLAUDE_CONFIG_DIR), GeminiDir ~/.gemini.
	Home, Project, CodexHome   string
	ClaudeConfigDir, GeminiDir string
	// Command runs skillrepo; Library is the library's absolute path;
	// Args are more server flags (--propose, --origin …).
	Command string
	Library string
	Args    []string
	// AllowTools lets the agent call our tools without asking: Gemini
	// CLI's "trust": true on the entry (Claude Code's permission rule is
	// in its settings file: see PlanAllowTools).
	AllowTools bool
}

// InstallPlan is a configuration file before and after.
type InstallPlan struct {
	Path          string
	Before, After []byte
	// Exists: the file was there before.
	Exists  bool
	Changed bool
	// Entry is the server entry as written (nil for an uninstall).
	Entry map[string]any
}

// DefaultScope is the scope a client's install uses when none is given.
func DefaultScope(client string) string {
	if client == ClientCodex || client == ClientGemini {
		return "user"
	}
	return "project"
}

// ConfigPath is the file a client reads at a scope.
func ConfigPath(o InstallOptions) (string, error) {
	scope := o.Scope
	if scope == "" {
		scope = DefaultScope(o.Client)
	}
	switch o.Client {
	case ClientClaudeCode:
		switch scope {
		case "project":
			return filepath.Join(o.Project, ".mcp.json"), nil
		case "user", "local":
			// CLAUDE_CONFIG_DIR moves ~/.claude.json into it (Claude Code
			// 2.1 writes $CLAUDE_CONFIG_DIR/.claude.json).
			if o.ClaudeConfigDir != "" {
				return filepath.Join(o.ClaudeConfigDir, ".claude.json"), nil
			}
			return filepath.Join(o.Home, ".claude.json"), nil
		}
		return "", fmt.Errorf("--scope %q: Claude Code takes project, user or local", scope)
	case ClientCodex:
		switch scope {
		case "user":
			home := o.CodexHome
			if home == "" {
				home = filepath.Join(o.Home, ".codex")
			}
			return filepath.Join(home, "config.toml"), nil
		case "project":
			return filepath.Join(o.Project, ".codex", "config.toml"), nil
		}
		return "", fmt.Errorf("--scope %q: Codex takes user or project", scope)
	case ClientCursor:
		switch scope {
		case "project":
			return filepath.Join(o.Project, ".cursor", "mcp.json"), nil
		case "user":
			return filepath.Join(o.Home, ".cursor", "mcp.json"), nil
		}
		return "", fmt.Errorf("--scope %q: Cursor takes project or user", scope)
	case ClientGemini:
		switch scope {
		case "user":
			dir := o.GeminiDir
			if dir == "" {
				dir = filepath.Join(o.Home, ".gemini")
			}
			return filepath.Join(dir, "settings.json"), nil
		case "project":
			return filepath.Join(o.Project, ".gemini", "settings.json"), nil
		}
		return "", fmt.Errorf("--scope %q: Gemini CLI takes user or project", scope)
	}
	return "", fmt.Errorf("unknown client %q: use claude-code, codex, cursor or gemini", o.Client)
}

// entry is the server entry in the client's shape.
func entry(o InstallOptions) map[string]any {
	args := append([]string{"mcp", "--library", o.Library}, o.Args...)
	e := map[string]any{"command": o.Command, "args": args}
	switch o.Client {
	case ClientClaudeCode:
		e["type"], e["env"] = "stdio", map[string]any{}
	case ClientCursor:
		e["env"] = map[string]any{}
	case ClientGemini:
		// Gemini CLI asks before each call of a server it does not trust;
		// --allow-tools trusts ours.
		if o.AllowTools {
			e["trust"] = true
		}
	}
	return e
}

// maxConfigBytes bounds a configuration file read (~/.claude.json grows
// with history, but not past this).
const maxConfigBytes = 64 << 20

func readConfig(path string) ([]byte, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, true, err
	}
	if len(data) > maxConfigBytes {
		return nil, true, fmt.Errorf("%s is larger than %d MiB; not editing it", path, maxConfigBytes>>20)
	}
	return data, true, nil
}

// PlanInstall computes the client's configuration with our entry set.
func PlanInstall(o InstallOptions) (*InstallPlan, error) {
	if o.Command == "" || o.Library == "" {
		return nil, errors.New("install: the command and the library are required")
	}
	return plan(o, entry(o))
}

// PlanUninstall computes the client's configuration without our entry.
func PlanUninstall(o InstallOptions) (*InstallPlan, error) { return plan(o, nil) }

func plan(o InstallOptions, e map[string]any) (*InstallPlan, error) {
	path, err := ConfigPath(o)
	if err != nil {
		return nil, err
	}
	before, exists, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	p := &InstallPlan{Path: path, Before: before, Exists: exists, Entry: e}
	if o.Client == ClientCodex {
		p.After, err = editCodex(before, e)
	} else {
		p.After, err = editJSON(before, entryKeys(o), e)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.Changed = !bytes.Equal(bytes.TrimSpace(p.Before), bytes.TrimSpace(p.After)) && !(len(bytes.TrimSpace(p.Before)) == 0 && e == nil)
	if !p.Changed {
		p.After = p.Before
	}
	return p, nil
}

// entryOrder is the order people write an entry's keys in.
var entryOrder = []string{"type", "command", "args", "env", "trust"}

// ordered is an entry as a JSON object with its keys in entryOrder.
func ordered(e map[string]any) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, k := range entryOrder {
		v, ok := e[k]
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// entryKeys is where our entry is in a JSON configuration.
func entryKeys(o InstallOptions) []string {
	if o.Client == ClientClaudeCode && o.Scope == "local" {
		return []string{"projects", o.Project, "mcpServers", ServerName}
	}
	return []string{"mcpServers", ServerName}
}

// editJSON sets (e != nil) or removes the value at keys in a JSON
// object, creating the objects on the way. The file is edited as text
// (package jsonedit): every other member keeps its bytes and place.
func editJSON(data []byte, keys []string, e map[string]any) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		if e == nil {
			return data, nil
		}
		data = []byte("{}\n")
	}
	root, err := jsonedit.Parse(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != jsonedit.Object {
		return nil, errors.New("not a JSON object")
	}
	if e == nil {
		path := make([]any, len(keys))
		for i, k := range keys {
			path[i] = k
		}
		out, err := jsonedit.Delete(data, path...)
		if err != nil || len(keys) != 2 {
			return out, err
		}
		// A top-level "mcpServers" that held only ours goes with it, so an
		// install and an uninstall give the file back.
		if r, err := jsonedit.Parse(out); err == nil {
			if v := r.Lookup(keys[0]); v != nil && v.Kind == jsonedit.Object && len(v.Members) == 0 && root.Lookup(keys[0]) != nil && len(root.Lookup(keys[0]).Members) == 1 {
				return jsonedit.Delete(out, keys[0])
			}
		}
		return out, nil
	}
	out, err := jsonedit.Set(data, keys, ordered(e))
	if errors.Is(err, jsonedit.ErrNotContainer) {
		return nil, fmt.Errorf("%v; not editing it", err)
	}
	return out, err
}

// ClaudePermissionRule is the permissions.allow rule that lets Claude
// Code call every tool of our server without asking (in `claude -p`,
// without it every call is refused).
const ClaudePermissionRule = "mcp__" + ServerName

// ClaudeSettingsPath is Claude Code's settings file of a scope, where
// its permission rules live: user settings.json in CLAUDE_CONFIG_DIR
// (else ~/.claude), project .claude/settings.json, local
// .claude/settings.local.json.
func ClaudeSettingsPath(o InstallOptions) string {
	switch o.Scope {
	case "project":
		return filepath.Join(o.Project, ".claude", "settings.json")
	case "local":
		return filepath.Join(o.Project, ".claude", "settings.local.json")
	}
	dir := o.ClaudeConfigDir
	if dir == "" {
		dir = filepath.Join(o.Home, ".claude")
	}
	return filepath.Join(dir, "settings.json")
}

// PlanAllowTools adds ClaudePermissionRule to permissions.allow in Claude
// Code's settings file of the install's scope, or with remove takes it
// out; the rest of the file keeps its bytes.
func PlanAllowTools(o InstallOptions, remove bool) (*InstallPlan, error) {
	path := ClaudeSettingsPath(o)
	before, exists, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	p := &InstallPlan{Path: path, Before: before, Exists: exists, After: before}
	data := before
	if len(bytes.TrimSpace(data)) == 0 {
		if remove {
			return p, nil
		}
		data = []byte("{}\n")
	}
	root, err := jsonedit.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	allow := root.Lookup("permissions", "allow")
	at := -1
	if allow != nil && allow.Kind == jsonedit.Array {
		for i, e := range allow.Elems {
			if string(data[e.Start:e.End]) == `"`+ClaudePermissionRule+`"` {
				at = i
				break
			}
		}
	}
	switch {
	case remove && at < 0, !remove && at >= 0:
		return p, nil
	case remove:
		p.After, err = jsonedit.DeleteElem(data, "permissions", "allow", at)
	case allow != nil && allow.Kind == jsonedit.Array:
		p.After, err = jsonedit.Append(data, ClaudePermissionRule, "permissions", "allow")
	case allow != nil:
		return nil, fmt.Errorf("%s: permissions.allow is not a list; not editing it", path)
	default:
		p.After, err = jsonedit.Set(data, []string{"permissions", "allow"}, []string{ClaudePermissionRule})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.Changed = !bytes.Equal(p.After, before)
	return p, nil
}

// Entry is our server's entry as a client's configuration holds it.
type Entry struct {
	// Path is the configuration file; Scope its scope.
	Path, Scope string
	Command     string
	Args        []string
	// Trust is Gemini CLI's "trust" of the entry.
	Trust bool
}

// Library is the --library the entry passes, or "".
func (e *Entry) Library() string {
	for i, a := range e.Args {
		if a == "--library" && i+1 < len(e.Args) {
			return e.Args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--library="); ok {
			return v
		}
	}
	return ""
}

// Inspect reads our entry from a client's configuration of a scope: nil
// when there is none.
func Inspect(o InstallOptions) (*Entry, error) {
	path, err := ConfigPath(o)
	if err != nil {
		return nil, err
	}
	data, exists, err := readConfig(path)
	if err != nil || !exists || len(bytes.TrimSpace(data)) == 0 {
		return nil, err
	}
	var raw map[string]any
	if o.Client == ClientCodex {
		var cfg map[string]any
		if err := toml.Unmarshal(data, &cfg); err != nil {
			return nil, fmt.Errorf("%s is not valid TOML: %w", path, err)
		}
		raw, _ = entryOf(cfg)
	} else {
		root, err := jsonedit.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		keys := entryKeys(o)
		at := make([]any, len(keys))
		for i, k := range keys {
			at[i] = k
		}
		v := root.Lookup(at...)
		if v == nil {
			return nil, nil
		}
		if err := json.Unmarshal(data[v.Start:v.End], &raw); err != nil {
			return nil, fmt.Errorf("%s: the skillrepo entry: %w", path, err)
		}
	}
	if raw == nil {
		return nil, nil
	}
	e := &Entry{Path: path, Scope: o.Scope}
	e.Command, _ = raw["command"].(string)
	if args, ok := raw["args"].([]any); ok {
		for _, a := range args {
			if s, ok := a.(string); ok {
				e.Args = append(e.Args, s)
			}
		}
	}
	e.Trust, _ = raw["trust"].(bool)
	return e, nil
}
