package procinfo

import (
	"strconv"
	"strings"
)

// parsePS reads one line of `ps -o ppid= -o tty= -o args= -p PID`: the
// parent's id, the controlling terminal ("??", "?" or "-" for none) and
// the command line. ps joins the arguments with spaces, so an argument
// holding a space reads as several: enough to find a program and its
// flags, which is all its readers look for. The controlling terminal
// stands for standard input and output, which ps does not show: a job
// cron starts has none, a program a person started from a shell has
// one.
func parsePS(line string) (Process, int, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return Process{}, 0, false
	}
	ppid, err := strconv.Atoi(f[0])
	if err != nil {
		return Process{}, 0, false
	}
	tty := f[1] != "??" && f[1] != "?" && f[1] != "-"
	return Process{Args: f[2:], TerminalKnown: true, StdinTerminal: tty, StdoutTerminal: tty}, ppid, true
}
