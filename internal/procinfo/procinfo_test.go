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
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		if got := Ancestors(3); got != nil {
			t.Fatalf("neither /proc nor ps, yet %+v", got)
		}
		t.Skip("reads /proc or ps")
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
	// ps (no /proc) joins the arguments with spaces: compare the words.
	got, want := strings.Fields(strings.ReplaceAll(string(out), "\x1f", " ")), strings.Fields(strings.Join(os.Args, " "))
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the parent's arguments read as %q, want %q", got, want)
	}
	if got := Ancestors(0); len(got) != 0 {
		t.Errorf("Ancestors(0) = %+v", got)
	}
}
