package curator

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
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
//
// The rollback commits on the main branch are the record every clone
// shares (a rollback pushed from one clone holds in the others); the
// file is this clone's copy, which also keeps the skills whose stale
// state a rollback put back (the usage sidecar is per clone too).
const RolledBackFile = "curator-rolled-back.json"

// RolledBackSkill is one remembered skill.
type RolledBackSkill struct {
	Run  string    `json:"run"`
	At   time.Time `json:"at"`
	Dir  string    `json:"dir"`
	Tree string    `json:"tree"` // the skill folder's tree id right after the rollback
}

func rolledBackFile(stateDir string) statefile.File[map[string]RolledBackSkill] {
	return statefile.File[map[string]RolledBackSkill]{Path: filepath.Join(stateDir, RolledBackFile), Limit: maxStateFile, Perm: 0o644, Sync: true}
}

// readRolledBack reads the remembered skills; a missing file is none.
func readRolledBack(stateDir string) (map[string]RolledBackSkill, error) {
	m, err := rolledBackFile(stateDir).Read()
	if errors.Is(err, fs.ErrNotExist) || (err == nil && m == nil) {
		return map[string]RolledBackSkill{}, nil
	}
	return m, err
}

// rolledBack is what the planner skips: the skills the rollback commits
// on the main branch restored (each as that commit left it), and the
// clone's own file, the newer entry winning. A file that does not parse
// is a copy, not the record: it is set aside (the next rollback rewrites
// it) rather than stopping every run.
func rolledBack(lib *skillrepo.Library) (map[string]RolledBackSkill, error) {
	m, err := readRolledBack(lib.State().Curator())
	if err != nil {
		m = map[string]RolledBackSkill{}
	}
	fromHistory, err := rolledBackFromHistory(lib)
	if err != nil {
		return nil, err
	}
	for name, e := range fromHistory {
		if old, ok := m[name]; !ok || e.At.After(old.At) {
			m[name] = e
		}
	}
	return m, nil
}

// rolledBackFromHistory reads the rollback commits of curator runs on the
// main branch (Skill-Action: rollback, with a Curator-Run trailer): each
// skill they name (Skill-Name), where and how that commit left it. The
// newest rollback of a skill wins.
func rolledBackFromHistory(lib *skillrepo.Library) (map[string]RolledBackSkill, error) {
	out := map[string]RolledBackSkill{}
	err := lib.History().WalkMain(skillrepo.ZeroHash, func(ci *skillrepo.CommitInfo) (bool, error) {
		tr := ci.Trailers()
		run := trailer.Value(tr, skillrepo.TrailerCuratorRun)
		if run == "" || trailer.Value(tr, skillrepo.TrailerAction) != ActionRollback {
			return false, nil
		}
		var snap *skillrepo.Snapshot
		for _, name := range trailer.Values(tr, skillrepo.TrailerName) {
			if _, seen := out[name]; seen {
				continue // a newer rollback of it was met first
			}
			if snap == nil {
				var err error
				if snap, err = lib.Snapshot(ci.Hash.String()); err != nil {
					return true, err
				}
			}
			si, err := snap.FindSkill(name)
			if err != nil {
				continue
			}
			out[name] = RolledBackSkill{Run: run, At: ci.When, Dir: si.Dir, Tree: snap.DirHash(si.Dir).String()}
		}
		return false, nil
	})
	return out, err
}

// rememberRolledBack adds skills to the file (a newer rollback of a skill
// replaces its entry). Called under the curator's lock.
func rememberRolledBack(stateDir string, add map[string]RolledBackSkill) error {
	if len(add) == 0 {
		return nil
	}
	f := rolledBackFile(stateDir)
	m, err := f.Load()
	if err != nil || m == nil {
		m = map[string]RolledBackSkill{} // a torn file is set aside and rebuilt, not fatal
	}
	for k, v := range add {
		m[k] = v
	}
	return f.Write(m)
}

// untouched reports whether a skill is as its rollback left it.
func (e RolledBackSkill) untouched(dir, tree string, u Usage) bool {
	if e.Dir != dir || e.Tree != tree {
		return false
	}
	at, _, ok := u.LastActivity()
	return !ok || !at.After(e.At)
}
