package agentid

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"491e126e-1e71-469c-ade2-fcc8af567c74", true},
		{"20261130_101502_a1b2c3", true},
		{"toolu_01ABCdef", true},
		{"r-20261130-0a1b2c", true},
		{"s", true},
		{"", false},
		{"--mcp-config=/tmp/x.json", false},
		{"-cmcp_servers.pwn.command=/tmp/pwn", false},
		{"-", false},
		{"..", false},
		{".hidden", false},
		{"a/b", false},
		{"a b", false},
		{"a\nSkill-Origin: user", false},
		{"a\x1b[2J", false},
		{"ünïcode", false},
		{strings.Repeat("a", MaxLen), true},
		{strings.Repeat("a", MaxLen+1), false},
	} {
		if got := Valid(tt.id); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
	if err := Check("session_id", "--mcp-config=x"); err == nil || !strings.Contains(err.Error(), `session_id "--mcp-config=x" is not an id`) {
		t.Errorf("Check: %v", err)
	}
	if err := Check("session_id", ""); err != nil {
		t.Errorf("Check of an empty id: %v", err)
	}
}
