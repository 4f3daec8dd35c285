package skillrepo

// The domain's side of the usage sidecar (package usage keeps the file):
// what a landed write means for it, counting an agent's use of a skill
// once, and a proposal's events held until it is approved.

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// UseKind is what an agent did with a skill, for Library.recordUse.
type UseKind string

// Use kinds.
const (
	// UseView: the agent loaded the skill (its SKILL.md): a view and a
	// use, as the reference's skill_view counts it.
	UseView UseKind = "view"
	// UseUse: the agent invoked the skill (a typed /name, a preloaded
	// skill): a use.
	UseUse UseKind = "use"
)

// recordUse counts an agent's use of a skill in the usage sidecar, once
// per dedupeKey (the agent's tool_use_id: a hook event delivered twice
// counts once; an empty key always counts). name is the skill's name or
// folder on the checked-out branch; the record is keyed by its frontmatter
// name, as the reference keys it. kind is [UseView] (loaded: a view and a
// use) or [UseUse] (invoked: a use). counted is false when the key was
// already counted. The check and the bump are one atomic write under the
// sidecar's lock (.usage.json.lock), so concurrent hooks neither lose nor
// double a use.
//
// Errors: ErrNotFound for an unknown or archived skill; ErrInvalid for an
// unknown kind; the sidecar's I/O errors.
func (l *Library) recordUse(name string, kind UseKind, dedupeKey string) (counted bool, err error) {
	if kind != UseView && kind != UseUse {
		return false, fmt.Errorf("use kind %q: want %q or %q: %w", kind, UseView, UseUse, skill.ErrInvalid)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		return false, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return false, err
	}
	if si.Archived {
		return false, fmt.Errorf("skill %s is archived: %w", si.Name, ErrNotFound)
	}
	return l.Usage().BumpOnce(snap.usageKey(si), kind == UseView, dedupeKey)
}

// CountUse counts a view (kind [UseView]: also a use) or a use of a skill
// on main's tip, archived ones included, under the key the reference
// counts it by (its frontmatter name: [Snapshot.usageKey]), and returns
// the skill's record afterwards with every alias merged — what Hermes and
// skillrepo both read as the skill's usage. With dryRun the sidecar is
// read, not written. It is the person's or tool's count; an agent's hook
// uses Library.recordUse, which counts a tool call once.
//
// Errors: ErrNotFound for an unknown skill; ErrInvalid for an unknown
// kind; the sidecar's I/O errors.
func (l *Library) CountUse(name string, kind UseKind, dryRun bool) (*usage.Record, error) {
	if kind != UseView && kind != UseUse {
		return nil, fmt.Errorf("use kind %q: want %q or %q: %w", kind, UseView, UseUse, skill.ErrInvalid)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		return nil, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return nil, err
	}
	key := snap.usageKey(si)
	after, err := l.Usage().Bump(key, kind == UseView, dryRun)
	if err != nil {
		return nil, err
	}
	if !dryRun {
		_ = l.UsageHistory().Append(usage.HistoryEvent{Kind: historyKindOf(kind, false), Skill: si.Name})
	}
	recs, keys, err := l.UsageOf(snap)
	if err != nil {
		return nil, err
	}
	if dryRun {
		raw, err := l.Usage().Load()
		if err != nil {
			return nil, err
		}
		raw[key] = after
		recs = keys.Resolve(raw)
	}
	if r := recs[si.Name]; r != nil {
		return r, nil
	}
	return after, nil
}

// opsUsage is what a batch of operations means for the sidecar: a create
// resets the record (created_by "agent" for an autonomous origin, as only
// the reference's review and curator forks mark it); an autonomous delete
// is an archive; a person's delete forgets the record; anything else is a
// patch.
func opsUsage(ops []Op, prov Provenance) []usage.Change {
	var events []usage.Change
	patched := map[string]bool{}
	for _, op := range ops {
		switch op.Action {
		case ActionCreate:
			events = append(events, usage.Change{Name: op.Name, Action: usage.Created, Agent: prov.Autonomous()})
		case ActionDelete:
			if prov.Autonomous() {
				events = append(events, usage.Change{Name: op.Name, Action: usage.Archived})
			} else {
				events = append(events, usage.Change{Name: op.Name, Action: usage.Forgotten})
			}
		default:
			// One patch per skill per batch: the batch is one write.
			if !patched[op.Name] {
				patched[op.Name] = true
				events = append(events, usage.Change{Name: op.Name, Action: usage.Patched})
			}
		}
	}
	return events
}

// recordUsage updates the sidecar after a write landed. On the checked-out
// branch the events are recorded at once; on a proposal branch they wait
// in .git/skillrepo/usage/pending/<id>.json until the proposal is approved
// (then they are recorded) or rejected (then dropped), so a staged
// review's create is marked created_by "agent" when it reaches main and a
// rejected one leaves no trace. Telemetry is best effort, as in the
// reference: a failure here never fails the write that already committed.
func (l *Library) recordUsage(res *UpdateResult, events []usage.Change) {
	if res == nil || res.DryRun || len(res.Commits) == 0 || len(events) == 0 {
		return
	}
	events = l.keyEvents(res, events)
	if res.CheckedOut {
		_ = l.Usage().Apply(events)
		return
	}
	if id, ok := strings.CutPrefix(res.Branch, ProposalBranchPrefix); ok && ValidateProposalID(id) == nil {
		_ = l.addPendingUsage(id, events)
	}
}

// keyEvents names each event's record by the key the reference reads (the
// skill's frontmatter name: usagekeys.go) and lists its aliases: events
// come named as the write was asked for (a folder, category/name, a
// frontmatter name). The skill is looked up after the write, or before it
// for one the write removed.
func (l *Library) keyEvents(res *UpdateResult, events []usage.Change) []usage.Change {
	var snaps []*Snapshot
	for _, h := range []Hash{res.New, res.Old} {
		if !h.IsZero() {
			if s, err := l.Snapshot(h.String()); err == nil {
				snaps = append(snaps, s)
			}
		}
	}
	recs, loadErr := l.Usage().Load()
	out := make([]usage.Change, len(events))
	for i, e := range events {
		out[i] = e
		for _, s := range snaps {
			si, ok := s.writtenSkill(e.Name, res.Paths)
			if !ok {
				var err error
				if si, err = s.FindSkill(e.Name); err != nil {
					continue
				}
			}
			key, aliases, err := s.usageKeyOf(si, recs)
			if err != nil {
				break
			}
			out[i].Name = key
			if loadErr == nil {
				for _, a := range aliases {
					if a != key {
						out[i].Aliases = append(out[i].Aliases, a)
					}
				}
			}
			break
		}
	}
	return out
}

// writtenSkill is the skill folder called name among the folders of the
// files a write changed (paths), when no other skill of s has that folder
// name: then it is what FindSkill answers, without FindSkill's lookup
// through the index — after a write, the index just written, which in a
// 100,000-skill library is 40 MB read and scanned again (bench/README.md).
// ok is false in every other case (a frontmatter name, a folder name two
// skills share, an archived or removed skill), which FindSkill decides.
func (s *Snapshot) writtenSkill(name string, paths []string) (SkillInfo, bool) {
	if name == "" || strings.ContainsAny(name, "/") || strings.HasPrefix(name, ".") || s.tree.IsZero() {
		return SkillInfo{}, false
	}
	for _, p := range paths {
		for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if path.Base(dir) != name {
				continue
			}
			if strings.HasPrefix(dir, ArchiveDir+"/") || strings.HasPrefix(dir, ".") {
				return SkillInfo{}, false
			}
			if h, _ := s.store.LookupPath(s.tree, dir+"/"+skill.FileName); h.IsZero() || !s.onlyFolderNamed(name) {
				return SkillInfo{}, false
			}
			return skillInfoAt(dir), true
		}
	}
	return SkillInfo{}, false
}

func (l *Library) pendingUsagePath(id string) string {
	return filepath.Join(l.State().dir, "usage", "pending", id+".json")
}

// addPendingUsage appends events to a proposal's pending file.
func (l *Library) addPendingUsage(id string, events []usage.Change) error {
	return l.Usage().AddPending(l.pendingUsagePath(id), events)
}

// settlePendingUsage records (approved) or drops a proposal's pending
// events.
func (l *Library) settlePendingUsage(id string, approved bool) {
	path := l.pendingUsagePath(id)
	if approved {
		if events, err := usage.ReadPending(path); err == nil && len(events) > 0 {
			if l.Usage().Apply(events) != nil {
				return // keep them for the next try
			}
			l.appendWrites(events, Provenance{ReviewID: id})
		}
	}
	_ = os.Remove(path)
}

// Usage returns the library's sidecar.
func (l *Library) Usage() *usage.Sidecar {
	return usage.NewSidecar(filepath.Join(l.Root, usage.File), l.repo.Now)
}
