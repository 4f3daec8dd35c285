// Package agentid checks the ids that arrive from outside — a hook
// payload's session_id, tool_use_id and prompt_id, an MCP client's
// session, a review id read back from a queue file — before they are used
// as a trailer, part of a file name, or an argument of an agent's
// program (docs/agents.md, "The model backend"). An id is a short run of
// letters, digits and `-_.:`, starting with a letter or a digit: so it
// can never be taken for an option (`--mcp-config=…`, `-c…`), a path
// (`..`, `/`), a trailer line or a control sequence.
package agentid

import "fmt"

// MaxLen bounds an id: the agents' ids are UUIDs (36 bytes) or
// timestamps with a suffix (Hermes: 22 bytes).
const MaxLen = 128

// Valid reports whether id is a well-formed id.
func Valid(id string) bool {
	if id == "" || len(id) > MaxLen || !alnum(id[0]) {
		return false
	}
	for i := 1; i < len(id); i++ {
		if c := id[i]; !alnum(c) && c != '-' && c != '_' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Check returns an error naming field when id is set and not well formed
// (an empty id is the caller's to judge).
func Check(field, id string) error {
	if id == "" || Valid(id) {
		return nil
	}
	return fmt.Errorf("%s %q is not an id (up to %d letters, digits and -_.: starting with a letter or digit)", field, clip(id), MaxLen)
}

// clip shortens an id for a message; %q escapes what is left.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
