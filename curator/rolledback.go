package curator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
)

// RolledBackFile, inside the state directory, remembers the skills a
// rollback brought back. A rollback undoes a run's decision, not the
// facts it was made from: the skill is as idle as before, so the next
// scheduled run would archive it again. A person who rolled it back
// expects it to stay until something changes, so the planner skips a
// remembered skill while it is exactly as the rollback left it: same
// folder, same files, no use, view or patch since. Once it is touched the
// entry no longer applies and the usual rules (with the new activity)
// decide.
const RolledBackFile = "curator-rolled-back.json"

// RolledBackSkill is one remembered skill.
type RolledBackSkill struct {
	Run  string    `json:"run"`
	At   time.Time `json:"at"`
	Dir  string    `json:"dir"`
	Tree string    `json:"tree"` // the skill folder's tree id right after the rollback
}

func rolledBackPath(stateDir string) string { return filepath.Join(stateDir, RolledBackFile) }

// readRolledBack reads the remembered skills; a missing file is none.
func readRolledBack(stateDir string) (map[string]RolledBackSkill, error) {
	b, err := os.ReadFile(rolledBackPath(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]RolledBackSkill{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]RolledBackSkill{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", RolledBackFile, err)
	}
	return m, nil
}

// rememberRolledBack adds skills to the file (a newer rollback of a skill
// replaces its entry). Called under the curator's lock.
func rememberRolledBack(stateDir string, add map[string]RolledBackSkill) error {
	if len(add) == 0 {
		return nil
	}
	m, err := readRolledBack(stateDir)
	if err != nil {
		m = map[string]RolledBackSkill{} // a torn file is rebuilt, not fatal
	}
	for k, v := range add {
		m[k] = v
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(rolledBackPath(stateDir), append(b, '\n'), 0o644, true)
}

// untouched reports whether a skill is as its rollback left it.
func (e RolledBackSkill) untouched(dir, tree string, u Usage) bool {
	if e.Dir != dir || e.Tree != tree {
		return false
	}
	at, _, ok := u.LastActivity()
	return !ok || !at.After(e.At)
}
