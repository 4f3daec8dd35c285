// Package procinfo says what the system tells of the processes above this
// one: each one's arguments and whether its standard input and output are
// terminals. An agent's hook runs below the agent's own process, so an
// agent that puts no mark of a headless run in its hooks' payload or
// environment (Gemini CLI, GitHub Copilot CLI) is told by the command line
// and terminals of its process (docs/agents.md, "Stop"). Linux reads
// /proc; the BSDs and macOS ask ps (parsePS); elsewhere nothing is known
// and Ancestors returns none.
package procinfo

// Process is one process above this one.
type Process struct {
	PID  int
	Args []string
	// Terminal says whether its standard input and standard output are
	// terminals; TerminalKnown is false when the system would not say
	// (another user's process, no /proc).
	StdinTerminal, StdoutTerminal, TerminalKnown bool
}

// maxArgs bounds what is read of a process's command line: an agent's
// arguments, a prompt among them, are far smaller.
const maxArgs = 256 << 10

// Ancestors returns up to n processes above this one, the parent first;
// fewer when the chain ends or a process cannot be read.
func Ancestors(n int) []Process {
	return ancestors(n)
}
