package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"
)

// Codex's config.toml is edited as text, not re-encoded: go-toml/v2 (the
// well-kept TOML library, used here to parse and to check) has no document
// model that keeps comments, and a user's config.toml is full of them.
// Our entry is the [mcp_servers.skillrepo] table and its sub-tables; the
// edit replaces, appends or removes exactly those lines, and the result is
// parsed again and must equal the original with only our entry changed —
// otherwise nothing is written.

// Compiled on first use, not in every command's start-up.
var (
	// tomlHeader matches a table or array-of-tables header line.
	tomlHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$`) })
	// ourTable matches the key path of our table or one under it.
	ourTable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^mcp_servers\s*\.\s*("skillrepo"|'skillrepo'|skillrepo)(\s*\..*)?$`)
	})
)

// editCodex sets (e != nil) or removes [mcp_servers.skillrepo] in a
// config.toml.
func editCodex(data []byte, e map[string]any) ([]byte, error) {
	var before map[string]any
	if err := toml.Unmarshal(data, &before); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	if before == nil {
		before = map[string]any{}
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// Find our block: from our header to the next header that is not ours.
	start, end := -1, -1
	for i, line := range lines {
		m := tomlHeader().FindStringSubmatch(strings.TrimRight(line, "\r\n"))
		if m == nil {
			continue
		}
		ours := ourTable().MatchString(m[1])
		switch {
		case ours && start < 0:
			start = i
		case ours && end >= 0:
			return nil, errors.New("[mcp_servers.skillrepo] appears in two places; merge them by hand")
		case !ours && start >= 0 && end < 0:
			end = i
		}
	}
	if start >= 0 && end < 0 {
		end = len(lines)
	}
	if start < 0 && hasEntry(before) {
		return nil, errors.New("mcp_servers.skillrepo is defined inline or with dotted keys, which skillrepo does not edit; remove it by hand and run again")
	}
	var block string
	if e != nil {
		body, err := toml.Marshal(map[string]any{"command": e["command"], "args": e["args"]})
		if err != nil {
			return nil, err
		}
		block = "[mcp_servers.skillrepo]\n" + string(body)
	}
	var out string
	switch {
	case start >= 0:
		rest := strings.Join(lines[end:], "")
		out = strings.Join(lines[:start], "") + block
		if block != "" && rest != "" {
			out += "\n"
		}
		out += rest
		if block == "" {
			out = strings.TrimRight(out, "\n") + "\n"
			if strings.TrimSpace(out) == "" {
				out = ""
			}
		}
	case block == "":
		return data, nil // nothing to remove
	default:
		out = string(data)
		if out != "" {
			out = strings.TrimRight(out, "\n") + "\n\n"
		}
		out += block
	}
	// The result must parse and differ from the original in our entry
	// alone.
	var after map[string]any
	if err := toml.Unmarshal([]byte(out), &after); err != nil {
		return nil, fmt.Errorf("the edit would not parse (%v); nothing written", err)
	}
	if after == nil {
		after = map[string]any{}
	}
	want := withoutEntry(before)
	if e != nil {
		if got, _ := entryOf(after); !reflect.DeepEqual(got, normalise(map[string]any{"command": e["command"], "args": e["args"]})) {
			return nil, errors.New("the edit would not hold the entry as meant; edit [mcp_servers.skillrepo] by hand")
		}
	}
	if !reflect.DeepEqual(withoutEntry(after), want) {
		return nil, errors.New("the edit would change more than [mcp_servers.skillrepo]; edit it by hand")
	}
	if bytes.Equal([]byte(out), data) {
		return data, nil
	}
	return []byte(out), nil
}

func hasEntry(cfg map[string]any) bool { _, ok := entryOf(cfg); return ok }

func entryOf(cfg map[string]any) (map[string]any, bool) {
	servers, _ := cfg["mcp_servers"].(map[string]any)
	e, ok := servers[ServerName].(map[string]any)
	return e, ok
}

// withoutEntry is cfg without mcp_servers.skillrepo (and without an
// mcp_servers table left empty by that).
func withoutEntry(cfg map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range cfg {
		out[k] = v
	}
	if servers, ok := cfg["mcp_servers"].(map[string]any); ok {
		rest := map[string]any{}
		for k, v := range servers {
			if k != ServerName {
				rest[k] = v
			}
		}
		if len(rest) == 0 {
			delete(out, "mcp_servers")
		} else {
			out["mcp_servers"] = rest
		}
	}
	return out
}

// normalise gives a value the types toml.Unmarshal produces.
func normalise(v map[string]any) map[string]any {
	data, _ := toml.Marshal(v)
	var out map[string]any
	_ = toml.Unmarshal(data, &out)
	return out
}
