package procinfo

import (
	"slices"
	"testing"
)

// ps's line (where there is no /proc): parent, controlling terminal,
// command line; a line ps could not have printed is refused.
func TestParsePS(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
		ppid int
		tty  bool
		args []string
	}{
		{"  812 ttys003  /usr/local/bin/node /usr/local/bin/gemini -p summarise", true, 812, true, []string{"/usr/local/bin/node", "/usr/local/bin/gemini", "-p", "summarise"}},
		{"1 ?? copilot -p fix", true, 1, false, []string{"copilot", "-p", "fix"}},
		{"77 - opencode run", true, 77, false, []string{"opencode", "run"}},
		{"", false, 0, false, nil},
		{"x ttys001 gemini", false, 0, false, nil},
		{"12 ttys001", false, 0, false, nil},
	} {
		p, ppid, ok := parsePS(tt.line)
		if ok != tt.ok || !ok {
			if ok != tt.ok {
				t.Errorf("%q: ok %v", tt.line, ok)
			}
			continue
		}
		if ppid != tt.ppid || p.StdinTerminal != tt.tty || p.StdoutTerminal != tt.tty || !p.TerminalKnown || !slices.Equal(p.Args, tt.args) {
			t.Errorf("%q: %+v parent %d", tt.line, p, ppid)
		}
	}
}
