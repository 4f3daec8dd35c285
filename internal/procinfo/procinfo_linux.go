//go:build linux

package procinfo

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/internal/boundedread"
)

func ancestors(n int) []Process {
	var out []Process
	pid := os.Getppid()
	for i := 0; i < n && pid > 1; i++ {
		p, parent, ok := read(pid)
		if !ok {
			break
		}
		out = append(out, p)
		pid = parent
	}
	return out
}

// read reads /proc/<pid>: the command line (NUL-separated), the parent's
// id (the field after the command's name in stat, which may itself hold
// spaces and parentheses: read after the last ')') and the terminals of
// descriptors 0 and 1.
func read(pid int) (Process, int, bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	cmdline, err := boundedread.ReadFile(dir+"/cmdline", maxArgs)
	if err != nil {
		return Process{}, 0, false
	}
	stat, err := boundedread.ReadFile(dir+"/stat", 4096)
	if err != nil {
		return Process{}, 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return Process{}, 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return Process{}, 0, false
	}
	parent, err := strconv.Atoi(fields[1])
	if err != nil {
		return Process{}, 0, false
	}
	p := Process{PID: pid}
	for _, a := range bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0}) {
		p.Args = append(p.Args, string(a))
	}
	in, errIn := os.Readlink(dir + "/fd/0")
	outLink, errOut := os.Readlink(dir + "/fd/1")
	if errIn == nil && errOut == nil {
		p.TerminalKnown = true
		p.StdinTerminal, p.StdoutTerminal = terminal(in), terminal(outLink)
	}
	return p, parent, true
}

// terminal says whether a descriptor's link names a terminal device.
func terminal(link string) bool {
	return strings.HasPrefix(link, "/dev/pts/") || strings.HasPrefix(link, "/dev/tty") || link == "/dev/console"
}
