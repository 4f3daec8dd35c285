package gemini

import "testing"

// Gemini CLI's process as the system shows it: its launcher, or node
// running its package's script (a relaunched Gemini CLI has node options
// first); Headless reads its flags as Gemini CLI does (-i wins over -p).
func TestGeminiCommandLines(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		gemini bool
		how    string
	}{
		{[]string{"/usr/bin/node", "/usr/local/bin/gemini", "-p", "summarise"}, true, "gemini -p"},
		{[]string{"node", "--max-old-space-size=8192", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--prompt=x"}, true, "gemini --prompt"},
		{[]string{"gemini", "-i", "x", "-p", "y"}, true, "interactive"},
		{[]string{"gemini", "--acp"}, true, "interactive"},
		{[]string{"gemini", "--model", "gemini-2.5-pro"}, true, ""},
		{[]string{"/tmp/go-build1/b001/skillrepo.test", "-test.run=TestScript/hooks_gemini"}, false, ""},
		{[]string{"go", "test", "./agents/gemini"}, false, ""},
		{[]string{"bash", "-c", "gemini -p x"}, false, ""},
	} {
		args, ok := geminiArgs(tt.args)
		if ok != tt.gemini {
			t.Errorf("%q: Gemini CLI %v, want %v", tt.args, ok, tt.gemini)
			continue
		}
		if got := headlessArgs(args); ok && got != tt.how {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.how)
		}
	}
}
