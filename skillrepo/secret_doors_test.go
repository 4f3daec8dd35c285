package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// testToken is a GitHub token's shape (no such token exists).
const testToken = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

func isSecretRefusal(err error) bool {
	var re *RefusedError
	return errors.As(err, &re) && re.Guard == GuardSecret
}

// sync records an agent's file edit as an agent's write: a likely secret
// in it is refused and the edit stays in the work tree; recorded as the
// person's own, it lands (issue 40 item 10: it landed under origin
// foreground).
func TestSyncRefusesAnAgentsSecret(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	head := rev(t, l, env, "main")
	p := filepath.Join(l.Root, "ci-debugging", "references", "deploy.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("deploy with "+testToken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, origin := range []string{OriginForeground, OriginBackgroundReview, OriginCurator} {
		_, err := l.Sync(ctx, SyncOptions{Origin: origin})
		if !isSecretRefusal(err) || !strings.Contains(err.Error(), "--origin user") {
			t.Fatalf("sync as %s: %v, want the secret guard's refusal", origin, err)
		}
		if got := rev(t, l, env, "main"); got != head {
			t.Fatalf("sync as %s committed %s", origin, got)
		}
	}
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), testToken) {
		t.Fatalf("the edit after the refusals: %q %v", b, err)
	}
	res, err := l.Sync(ctx, SyncOptions{Origin: OriginUser})
	if err != nil || res.Commit.IsZero() {
		t.Fatalf("sync as user: %+v %v", res, err)
	}
}

// memory add of a likely secret is refused whoever writes; a person may
// force it (issue 40 item 10: the CLI's memory add landed it without a
// word).
func TestChangeMemoryRefusesSecrets(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	head := rev(t, l, env, "main")
	add := MemoryOptions{Target: memory.Memory, Action: "add", Content: "the deploy token is " + testToken}
	change := func(origin string, force bool) (*MemoryResult, error) {
		pol, err := l.Policy(Writer{Provenance: Provenance{Origin: origin}, Force: force})
		if err != nil {
			t.Fatal(err)
		}
		return pol.ChangeMemory(ctx, add)
	}
	for _, origin := range []string{OriginUser, OriginForeground, OriginBackgroundReview} {
		if _, err := change(origin, false); !isSecretRefusal(err) {
			t.Errorf("%s: %v, want the secret guard's refusal", origin, err)
		}
	}
	if got := rev(t, l, env, "main"); got != head {
		t.Fatalf("a refused add committed %s", got)
	}
	if res, err := change(OriginUser, true); err != nil || res.Commit.IsZero() {
		t.Fatalf("the person's forced add: %+v %v", res, err)
	}
}
