package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	ClientClaudeCode = "claude-code"
	ClientCodex      = "codex"
	ClientCursor     = "cursor"
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
	// (absolute); CodexHome overrides ~/.codex.
	Home, Project, CodexHome string
	// Command runs skillrepo; Library is the library's absolute path;
	// Args are more server flags (--propose, --origin …).
	Command string
	Library string
	Args    []string
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
	if client == ClientCodex {
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
	}
	return "", fmt.Errorf("unknown client %q: use claude-code, codex or cursor", o.Client)
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
		keys := []string{"mcpServers", ServerName}
		if o.Client == ClientClaudeCode && o.Scope == "local" {
			keys = []string{"projects", o.Project, "mcpServers", ServerName}
		}
		p.After, err = editJSON(before, keys, e)
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

// member is one key of a JSON object, in file order.
type member struct {
	key string
	val json.RawMessage
}

// parseObject reads a JSON object keeping its keys' order; empty input is
// an empty object.
func parseObject(data []byte) ([]member, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		out = append(out, member{key: tok.(string), val: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: more after the object")
	}
	return out, nil
}

// renderObject writes members as an indented object.
func renderObject(ms []member) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(m.key)
		var val bytes.Buffer
		if err := json.Indent(&val, m.val, "  ", "  "); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n  %s: %s", key, val.Bytes())
	}
	if len(ms) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// editJSON sets (e != nil) or removes the value at keys in a JSON
// object, creating the objects on the way; every other member keeps its
// value and place.
func editJSON(data []byte, keys []string, e map[string]any) ([]byte, error) {
	ms, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	var val json.RawMessage
	if e != nil {
		if val, err = json.Marshal(e); err != nil {
			return nil, err
		}
	}
	ms, err = setPath(ms, keys, val)
	if err != nil {
		return nil, err
	}
	out, err := renderObject(ms)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// setPath sets keys to val (nil: removes it) in ms.
func setPath(ms []member, keys []string, val json.RawMessage) ([]member, error) {
	i := slices.IndexFunc(ms, func(m member) bool { return m.key == keys[0] })
	if len(keys) == 1 {
		switch {
		case val == nil && i >= 0:
			return slices.Delete(ms, i, i+1), nil
		case val == nil:
			return ms, nil
		case i >= 0:
			if jsonEqual(ms[i].val, val) {
				return ms, nil // installed already: keep its bytes
			}
			ms[i].val = val
			return ms, nil
		}
		return append(ms, member{keys[0], val}), nil
	}
	var inner []member
	if i >= 0 {
		if !bytes.HasPrefix(bytes.TrimSpace(ms[i].val), []byte("{")) {
			return nil, fmt.Errorf("%q is not an object; not editing it", keys[0])
		}
		var err error
		if inner, err = parseObject(ms[i].val); err != nil {
			return nil, err
		}
	} else if val == nil {
		return ms, nil // nothing to remove
	}
	inner, err := setPath(inner, keys[1:], val)
	if err != nil {
		return nil, err
	}
	raw, err := renderObject(inner)
	if err != nil {
		return nil, err
	}
	if i >= 0 {
		ms[i].val = raw
		return ms, nil
	}
	return append(ms, member{keys[0], raw}), nil
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
