package skillrepo

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A skill folder holding a git submodule is never
// moved or deleted file by file (the gitlink would stay behind, and
// .gitmodules would name a path that no longer holds it). Archive, delete
// and the curator's bulk move refuse, naming the submodule and the git
// command that moves it; nothing changes (refs, index, work tree).
func TestSubmoduleInSkillRefused(t *testing.T) {
	l, env := newTestLibrary(t)
	sub := filepath.Join(t.TempDir(), "vendor")
	gitIn(t, filepath.Dir(sub), env, false, "init", "-q", sub)
	gitIn(t, sub, env, false, "commit", "-q", "--allow-empty", "-m", "vendored")
	gitCmd(t, l, env, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "ci-debugging/vendor")
	gitCmd(t, l, env, "commit", "-q", "-m", "vendor a tool into ci-debugging")
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	user := Provenance{Origin: OriginUser}
	del := Op{Action: "delete", Name: "ci-debugging"}
	tests := []struct {
		name string
		run  func() error
	}{
		{"archive", func() error {
			_, err := person(l).Archive(context.Background(), ArchiveOptions{Name: "ci-debugging"})
			return err
		}},
		{"delete", func() error {
			_, err := l.apply(context.Background(), applyOptions{Ops: []Op{del}, Provenance: user})
			return err
		}},
		{"remove-file", func() error {
			_, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionRemoveFile, Name: "ci-debugging", FilePath: "vendor"}}, Provenance: user})
			return err
		}},
		{"bulk move", func() error {
			_, err := l.update(context.Background(), updateOptions{}, func(tx *writeTx) error {
				return tx.moveDirs([]Move{{From: "ci-debugging", To: ".archive/ci-debugging"}})
			})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "ci-debugging/vendor is a git submodule") {
				t.Fatalf("err = %v, want the submodule refusal", err)
			}
			var h interface{ Hint() string }
			if !errors.As(err, &h) || !strings.Contains(h.Hint(), "git mv ci-debugging/vendor") {
				t.Errorf("no hint naming git mv: %v", err)
			}
			if got := gitCmd(t, l, env, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
			assertConsistent(t, l, env)
		})
	}
	// A skill without a submodule still archives.
	if _, err := person(l).Archive(context.Background(), ArchiveOptions{Name: "git-bisect-regressions"}); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l, env)
}
