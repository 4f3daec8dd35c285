package procinfo

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// A child started with known arguments finds this test among its
// ancestors, with this test's own command line.
func TestAncestorsSeeTheParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		if got := Ancestors(3); got != nil {
			t.Fatalf("no /proc, yet %+v", got)
		}
		t.Skip("reads /proc")
	}
	if os.Getenv("PROCINFO_CHILD") == "1" {
		a := Ancestors(3)
		if len(a) == 0 {
			os.Exit(3)
		}
		os.Stdout.WriteString(strings.Join(a[0].Args, "\x1f"))
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAncestorsSeeTheParent$")
	cmd.Env = append(os.Environ(), "PROCINFO_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	args := strings.Split(string(out), "\x1f")
	if len(args) != len(os.Args) || args[0] != os.Args[0] {
		t.Fatalf("the parent's arguments read as %q, want %q", args, os.Args)
	}
	if got := Ancestors(0); len(got) != 0 {
		t.Errorf("Ancestors(0) = %+v", got)
	}
}
