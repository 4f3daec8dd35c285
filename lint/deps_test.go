package lint

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the arrows of docs/architecture.md §1 honest: lint is pure (no
// go-git, no skillrepo library, no cobra, no network client), and hooks
// (the installers and the pre-commit check) reaches the CLI framework
// neither. (agentsession runs the agent hooks on the library;
// internal/archtest keeps go-git itself inside the engine.)
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	forbidden := map[string][]string{
		"github.com/skillrepo/skillrepo/lint":  {"github.com/go-git/", "github.com/skillrepo/skillrepo/skillrepo\n", "github.com/spf13/cobra", "net/http\n", "github.com/sashabaranov/"},
		"github.com/skillrepo/skillrepo/hooks": {"github.com/spf13/cobra"},
	}
	for pkg, bad := range forbidden {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := string(out)
		for _, b := range bad {
			if strings.Contains(deps, b) {
				t.Errorf("%s depends on %s", pkg, strings.TrimSpace(b))
			}
		}
	}
}
