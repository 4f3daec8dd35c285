package skillrepo

// Hermes' own curator moves idle skills into .archive/ and counts its runs
// in skills/.curator_state. When it ran since the library last looked, its
// moves are recorded as one commit with the curator's origin and the run
// named (Curator-Run: hermes-<n>), before anything else a sync records:
// history then says the curator archived them, not a person
// (docs/hermes.md §5).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// HermesCuratorRun is a run of Hermes' curator a sync recorded.
type HermesCuratorRun struct {
	Number   int      `json:"number"`
	At       string   `json:"at"`
	Summary  string   `json:"summary"`
	Archived []string `json:"archived"`
	Commit   Hash     `json:"-"`
}

// hermesCuratorSeen is the last Hermes curator run a sync looked at.
type hermesCuratorSeen struct {
	RunCount  int    `json:"run_count"`
	LastRunAt string `json:"last_run_at"`
}

// maxHermesSeen bounds the file, read as a regular file only.
const maxHermesSeen = 64 << 10

// parseHermesSeen decodes the file: missing or broken, it is a first sight
// (RunCount -1), which only remembers Hermes' state.
func parseHermesSeen(b []byte) hermesCuratorSeen {
	seen := hermesCuratorSeen{RunCount: -1}
	if json.Unmarshal(b, &seen) != nil {
		return hermesCuratorSeen{RunCount: -1}
	}
	return seen
}

func (l *Library) hermesSeenPath() string {
	return filepath.Join(l.repo.StateDir(), "hermes-curator-seen.json")
}

// HermesState reads Hermes' curator schedule from the skills
// folder; ok is false when the library is no Hermes skills folder or
// Hermes' curator never wrote it.
func (room CuratorRuns) HermesState() (st hermes.CuratorState, ok bool) {
	l := room.l
	st, ok, err := hermes.ReadCuratorState(l.Root)
	return st, ok && err == nil
}

// recordHermesCuratorRun records, as one commit with origin curator, the
// skills Hermes' curator moved into .archive/ since its last run the
// library saw. Nothing new: nil. The first sight of Hermes' state only
// remembers it (what Hermes did before is in the import).
func (l *Library) recordHermesCuratorRun(ctx context.Context, dryRun bool) (*HermesCuratorRun, error) {
	st, ok := l.CuratorRuns().HermesState()
	if !ok {
		return nil, nil
	}
	b, _ := boundedread.ReadFile(l.hermesSeenPath(), maxHermesSeen)
	seen := parseHermesSeen(b)
	now := hermesCuratorSeen{RunCount: st.RunCount, LastRunAt: st.LastRunAt}
	if seen == now {
		return nil, nil
	}
	remember := func() {
		if dryRun {
			return
		}
		if b, err := json.Marshal(now); err == nil {
			_ = os.MkdirAll(filepath.Dir(l.hermesSeenPath()), 0o755)
			_ = atomicfile.Write(l.hermesSeenPath(), append(b, '\n'), 0o644, false)
		}
	}
	if seen.RunCount < 0 {
		remember() // first sight
		return nil, nil
	}
	head, err := l.repo.HeadBranch()
	if err != nil || head != l.MainBranch() {
		return nil, err
	}
	run := &HermesCuratorRun{Number: st.RunCount, At: st.LastRunAt, Summary: st.LastRunSummary}
	_, err = l.update(ctx, updateOptions{Branch: head, DryRun: dryRun, RecordsWorktree: true}, func(tx *writeTx) error {
		d, err := l.worktreeDelta(ctx, tx.gtx.Store(), tx.gtx.Tree(), false)
		if err != nil {
			return err
		}
		moves, names := archiveMoves(d.changes)
		if len(moves) == 0 {
			return nil
		}
		d.changes = moves
		if err := d.stage(ctx, tx); err != nil {
			return err
		}
		run.Archived = names
		m := Message{Subject: fmt.Sprintf("curator: record Hermes' run %d (archived %s)", st.RunCount, strings.Join(names, ", "))}
		if st.LastRunSummary != "" {
			m.Body = "Hermes' curator: " + st.LastRunSummary
		}
		m.Add(TrailerAction, ActionArchive)
		for _, n := range names {
			m.Add(TrailerName, n)
		}
		Provenance{Origin: OriginCurator, CuratorRun: "hermes-" + strconv.Itoa(st.RunCount), Agent: string(agent.Hermes)}.addTrailers(&m)
		run.Commit, err = tx.Commit(m)
		if errors.Is(err, ErrNoChanges) {
			run.Archived = nil
			return nil
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("record Hermes' curator run %d: %w", st.RunCount, err)
	}
	remember()
	if run.Commit.IsZero() && !dryRun {
		return nil, nil
	}
	return run, nil
}

// archiveMoves picks, from a work tree's changes, the skills moved into
// .archive/: the files added under .archive/<folder>/ and the deleted
// files of a skill folder of that name. It returns those changes and the
// skills' names.
func archiveMoves(changes []FileChange) ([]FileChange, []string) {
	archived := map[string]bool{} // skill folder names now under .archive/
	for _, c := range changes {
		if rest, ok := strings.CutPrefix(c.Path, ArchiveDir+"/"); ok && c.Status == "added" && path.Base(c.Path) == "SKILL.md" {
			if dir := path.Dir(rest); !strings.Contains(dir, "/") {
				archived[hermes.ArchivedName(dir)] = true
			}
		}
	}
	if len(archived) == 0 {
		return nil, nil
	}
	gone := map[string]bool{} // deleted skill folders of those names
	for _, c := range changes {
		if c.Status == "deleted" && path.Base(c.Path) == "SKILL.md" && !strings.HasPrefix(c.Path, ArchiveDir+"/") && archived[path.Base(path.Dir(c.Path))] {
			gone[path.Dir(c.Path)] = true
		}
	}
	var out []FileChange
	names := map[string]bool{}
	for _, c := range changes {
		if strings.HasPrefix(c.Path, ArchiveDir+"/") && c.Status == "added" {
			out = append(out, c)
			continue
		}
		for dir := range gone {
			if c.Status == "deleted" && strings.HasPrefix(c.Path, dir+"/") {
				out = append(out, c)
				names[path.Base(dir)] = true
			}
		}
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return out, list
}
