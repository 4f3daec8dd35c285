package curator

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzStateFiles: whatever the curator's state files hold — the schedule,
// a run's record, the rollback memory — reading them never panics.
func FuzzStateFiles(f *testing.F) {
	f.Add([]byte(`{"version":1,"run_count":2}`))
	f.Add([]byte(`{"alpha":{"run":"r","dir":"alpha","tree":"x"}}`))
	f.Add([]byte(`{"version":1,"id":"20260601-120000","landing":true}`))
	f.Add([]byte("{not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		for _, name := range []string{StateFileName, RolledBackFile, "run.json"} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		NewStore(dir).Load()
		readRolledBack(dir)
		ReadRun(dir)
	})
}
