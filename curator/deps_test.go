package curator

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps design.md's arrows: the curator and the review
// loop never import each other (what they share lives in skillrepo), and
// the curator needs no CLI framework and no model client.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/skillrepo/skillrepo/curator").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, bad := range []string{"github.com/skillrepo/skillrepo/review\n", "github.com/spf13/cobra", "github.com/sashabaranov/"} {
		if strings.Contains(string(out), bad) {
			t.Errorf("curator depends on %s", strings.TrimSpace(bad))
		}
	}
}
