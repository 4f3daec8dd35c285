package archtest

import (
	"slices"
	"strings"
	"testing"
)

// lockImporters are the packages that may take a file lock themselves:
// the state-file primitive, through which every state file of ours is
// locked, read and written (docs/architecture.md §1), and the engine, whose
// repository lock follows git's own protocol.
var lockImporters = []string{"internal/statefile", engine}

// TestOnlyTheStateFilePrimitiveLocks keeps the state files' hardening in
// one place: no package but lockImporters imports gofrs/flock, in its
// code or its tests, so a lock, a bounded read or a corrupt file set aside
// is never written by hand again; and the primitive stays a leaf that
// imports only the helpers it is built on.
func TestOnlyTheStateFilePrimitiveLocks(t *testing.T) {
	for path, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if !slices.Contains(lockImporters, rel) {
			for _, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
				if slices.Contains(imports, "github.com/gofrs/flock") {
					t.Errorf("%s imports gofrs/flock: take the lock through internal/statefile", rel)
					break
				}
			}
		}
		if rel == "internal/statefile" {
			for _, d := range p.Imports {
				if strings.HasPrefix(d, module+"/") && d != module+"/internal/boundedread" && d != module+"/internal/atomicfile" {
					t.Errorf("internal/statefile imports %s: it must stay a leaf", d)
				}
			}
		}
	}
}
