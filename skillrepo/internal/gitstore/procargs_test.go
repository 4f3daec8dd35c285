package gitstore

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procargs2 builds a KERN_PROCARGS2 buffer as macOS lays it out.
func procargs2(exe string, pad int, args, env []string) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(len(args)))
	b.WriteString(exe)
	b.Write(make([]byte, 1+pad))
	for _, a := range args {
		b.WriteString(a)
		b.WriteByte(0)
	}
	for _, e := range env {
		b.WriteString(e)
		b.WriteByte(0)
	}
	b.WriteByte(0)
	return b.Bytes()
}

func TestParseProcArgs2(t *testing.T) {
	full := procargs2("/usr/bin/git", 5, []string{"git", "-C", "sub", "switch", "main"}, []string{"HOME=/Users/a", "PWD=/Users/a/lib"})
	tests := []struct {
		name     string
		b        []byte
		ok       bool
		exe, dir string
		args     int
		git      bool
	}{
		{"git -C sub switch from the library", full, true, "/usr/bin/git", "/Users/a/lib/sub", 5, true},
		{"absolute -C wins over PWD", procargs2("/opt/homebrew/bin/git", 0, []string{"git", "-C", "/tmp/x", "-C", "y", "status"}, []string{"PWD=/Users/a"}), true, "/opt/homebrew/bin/git", "/tmp/x/y", 6, true},
		{"-C after the subcommand is the subcommand's", procargs2("/usr/bin/git", 2, []string{"git", "log", "-C"}, []string{"PWD=/w"}), true, "/usr/bin/git", "/w", 3, true},
		{"options with values are skipped", procargs2("/usr/bin/git", 2, []string{"git", "-c", "x=-C", "--git-dir", "-C", "commit"}, []string{"PWD=/w"}), true, "/usr/bin/git", "/w", 6, true},
		{"no PWD and a relative -C: unknown", procargs2("/usr/bin/git", 1, []string{"git", "-C", "rel", "status"}, nil), true, "/usr/bin/git", "", 4, true},
		{"a relative PWD is not trusted", procargs2("/usr/bin/git", 1, []string{"git", "status"}, []string{"PWD=rel"}), true, "/usr/bin/git", "", 2, true},
		{"a helper git runs", procargs2("/Library/Developer/CommandLineTools/usr/libexec/git-core/git-remote-https", 3, []string{"git-remote-https", "origin"}, []string{"PWD=/w"}), true, "/Library/Developer/CommandLineTools/usr/libexec/git-core/git-remote-https", "/w", 2, true},
		{"not git", procargs2("/bin/zsh", 1, []string{"zsh"}, []string{"PWD=/w"}), true, "/bin/zsh", "/w", 1, false},
		{"empty (another user's process)", nil, false, "", "", 0, false},
		{"argc larger than the buffer", append([]byte{0xff, 0xff, 0, 0}, "/usr/bin/git\x00"...), false, "", "", 0, false},
		{"zero argc", procargs2("/usr/bin/git", 1, nil, nil), false, "", "", 0, false},
		{"truncated in the arguments", full[:20], false, "", "", 0, false},
		{"no exec path", append([]byte{1, 0, 0, 0, 0}, "git\x00"...), false, "", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := parseProcArgs2(tt.b)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, p)
			}
			if !ok {
				return
			}
			if p.exe != tt.exe || len(p.args) != tt.args || p.dir() != tt.dir || p.isGit() != tt.git {
				t.Errorf("got exe %q args %q dir %q git %v; want %q, %d args, %q, %v", p.exe, p.args, p.dir(), p.isGit(), tt.exe, tt.args, tt.dir, tt.git)
			}
		})
	}
}

func TestGitComm(t *testing.T) {
	for comm, want := range map[string]bool{"git": true, "git-remote-http": true, "gitk": false, "zsh": false, "": false, "git-": true} {
		b := make([]byte, 17)
		copy(b, comm)
		if got := gitComm(b); got != want {
			t.Errorf("gitComm(%q) = %v, want %v", comm, got, want)
		}
	}
}

func TestInTreeAndAncestors(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want bool
	}{{"/w/lib", true}, {"/w/lib/a/b", true}, {"/w/library", false}, {"/w", false}, {"", false}} {
		if got := inTree(tt.dir, "/w/lib"); got != tt.want {
			t.Errorf("inTree(%q) = %v", tt.dir, got)
		}
	}
	got := ancestorsOf(40, map[int]int{40: 30, 30: 20, 20: 1, 7: 40})
	if len(got) != 3 || !got[40] || !got[30] || !got[20] || got[7] || got[1] {
		t.Errorf("ancestorsOf = %v", got)
	}
	if loop := ancestorsOf(5, map[int]int{5: 6, 6: 5}); len(loop) != 2 {
		t.Errorf("a parent loop: %v", loop)
	}
}

// TestProcArgsDirIsTheProcessFolder checks dir() against the truth on a
// system that has it: real git processes started with -C options, whose
// /proc arguments and environment are laid out as macOS's KERN_PROCARGS2
// would give them. dir() is where git was sent; git then moves up to its
// work tree's top, so what must agree with the process's real folder is
// whether it is in the library.
func TestProcArgsDirIsTheProcessFolder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the truth is read from /proc")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	lib, other := filepath.Join(root, "lib"), filepath.Join(root, "library-not")
	for _, repo := range []string{lib, other} {
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
		if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		args  []string
		dir   string
		inLib bool
	}{
		{[]string{"-C", "lib", "-C", "sub"}, filepath.Join(lib, "sub"), true},
		{[]string{"-C", other + "/sub"}, filepath.Join(other, "sub"), false},
	} {
		p, cwd := runningGit(t, root, tt.args)
		if got := p.dir(); got != tt.dir {
			t.Errorf("git %q: dir() = %q, want %q", tt.args, got, tt.dir)
		}
		if inTree(p.dir(), lib) != tt.inLib || inTree(cwd, lib) != tt.inLib {
			t.Errorf("git %q: in the library: dir() %q says %v, the process's folder %q says %v; want %v",
				tt.args, p.dir(), inTree(p.dir(), lib), cwd, inTree(cwd, lib), tt.inLib)
		}
	}
}

// runningGit starts git ARGS cat-file --batch in root (it waits on stdin,
// so it stays while it is read), waits until it has left root, and
// returns its /proc arguments and environment parsed as KERN_PROCARGS2,
// and its real folder.
func runningGit(t *testing.T, root string, args []string) (procArgs, string) {
	t.Helper()
	cmd := exec.Command("git", append(args, "cat-file", "--batch")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PWD="+root)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	dir := "/proc/" + strconv.Itoa(cmd.Process.Pid)
	var cwd string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if cwd, err = os.Readlink(dir + "/cwd"); err == nil && cwd != root {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("git %q never left %s: %v", args, root, err)
		}
	}
	exe, err1 := os.Readlink(dir + "/exe")
	cmdline, err2 := os.ReadFile(dir + "/cmdline")
	environ, err3 := os.ReadFile(dir + "/environ")
	if err := firstErr(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	argv := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	env := strings.Split(strings.TrimRight(string(environ), "\x00"), "\x00")
	p, ok := parseProcArgs2(procargs2(exe, 3, argv, env))
	if !ok || !p.isGit() {
		t.Fatalf("parse: ok %v, %+v", ok, p)
	}
	return p, cwd
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
