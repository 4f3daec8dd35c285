package gitstore

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
)

// The pure half of macOS's process list (gitreaders_darwin.go), kept
// apart so that it is tested on every system: macOS has no /proc, and
// the folder a process runs in is not in any sysctl. What it has is
// KERN_PROCARGS2, a process's exec path, arguments and environment;
// where a git command runs is read from those, as git itself would
// resolve it: its -C options applied in turn from the PWD its shell gave
// it (docs/git-format.md, "What the engine keeps on each system").

// procArgs is what KERN_PROCARGS2 says of a process.
type procArgs struct {
	exe  string   // the executable's path
	args []string // argv
	env  []string // the environment, KEY=value
}

// parseProcArgs2 decodes a KERN_PROCARGS2 buffer: argc as a 32-bit
// integer in the machine's byte order (little-endian on every Mac Go
// builds for), the exec path, NUL padding, then argc NUL-terminated
// arguments and the environment's NUL-terminated strings up to an empty
// one. ok is false for a buffer that does not hold that shape (a process
// of another user reads as empty, or one that exited midway).
func parseProcArgs2(b []byte) (procArgs, bool) {
	if len(b) < 4 {
		return procArgs{}, false
	}
	argc := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if argc <= 0 || argc > len(b) {
		return procArgs{}, false
	}
	i := bytes.IndexByte(b, 0)
	if i <= 0 {
		return procArgs{}, false
	}
	p := procArgs{exe: string(b[:i])}
	b = b[i:]
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	for len(p.args) < argc {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return procArgs{}, false
		}
		p.args = append(p.args, string(b[:i]))
		b = b[i+1:]
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i <= 0 {
			break // the empty string that ends it, or a truncated last one
		}
		p.env = append(p.env, string(b[:i]))
		b = b[i+1:]
	}
	return p, true
}

// isGit reports a git executable (git, or a git-* helper git runs).
func (p procArgs) isGit() bool {
	base := filepath.Base(p.exe)
	return base == "git" || strings.HasPrefix(base, "git-")
}

// gitComm reports a process whose command name (at most 16 bytes, NUL
// padded) is git's, before its arguments are read.
func gitComm(comm []byte) bool {
	n := 0
	for n < len(comm) && comm[n] != 0 {
		n++
	}
	name := string(comm[:n])
	return name == "git" || strings.HasPrefix(name, "git-")
}

// dir is the folder the git command works in: PWD from its environment,
// with each -C option applied in turn ("" when PWD is unknown and no -C
// gives an absolute folder). A shell that changed folder with cd has
// updated PWD before it ran git.
func (p procArgs) dir() string {
	dir := ""
	for _, kv := range p.env {
		if v, ok := strings.CutPrefix(kv, "PWD="); ok && filepath.IsAbs(v) {
			dir = filepath.Clean(v)
		}
	}
	for i := 1; i < len(p.args); i++ {
		a := p.args[i]
		switch {
		case a == "-C" && i+1 < len(p.args):
			i++
			switch c := p.args[i]; {
			case c == "":
			case filepath.IsAbs(c):
				dir = filepath.Clean(c)
			case dir != "":
				dir = filepath.Join(dir, c)
			}
		case a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case !strings.HasPrefix(a, "-"):
			return dir // the subcommand: what follows is its own
		}
	}
	return dir
}

// inTree reports dir inside the work tree at root (both cleaned, absolute).
func inTree(dir, root string) bool {
	return dir != "" && (dir == root || strings.HasPrefix(dir, root+string(filepath.Separator)))
}

// ancestorsOf is pid and the processes it runs under, from a parent
// table (a pid not in it ends the chain).
func ancestorsOf(pid int, parent map[int]int) map[int]bool {
	out := map[int]bool{}
	for pid > 1 && !out[pid] {
		out[pid] = true
		pp, ok := parent[pid]
		if !ok {
			break
		}
		pid = pp
	}
	return out
}
