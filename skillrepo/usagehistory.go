package skillrepo

// The domain's side of the usage history (package usage keeps the log):
// who wrote what, a skill's events under any of its keys, and an agent's
// counted use with its session.

import (
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// UsageHistory returns the library's usage history.
func (l *Library) UsageHistory() *usage.History {
	return l.State().UsageHistory(l.repo.Now)
}

// UsageHistory is the usage history kept in s, for a keeper that has the
// state but not the library open (the queue worker). now stamps events
// appended without a time (nil: time.Now).
func (s State) UsageHistory(now func() time.Time) *usage.History {
	return usage.NewHistory(filepath.Join(s.dir, "usage"), now)
}

// historyKinds maps the sidecar's write actions to history kinds.
var historyKinds = map[string]string{
	usage.Created:   usage.HistoryCreate,
	usage.Patched:   usage.HistoryPatch,
	usage.Archived:  usage.HistoryArchive,
	usage.Restored:  usage.HistoryRestore,
	usage.Forgotten: usage.HistoryDelete,
}

// recordHistory appends a landed write's events to the usage history,
// with who wrote it. Like recordUsage, only a write to the checked-out
// branch counts now; a proposal's are recorded when it is approved
// (settlePendingUsage). Best effort, as all telemetry.
func (l *Library) recordHistory(res *UpdateResult, events []usage.Change, prov Provenance) {
	if res == nil || res.DryRun || !res.CheckedOut || len(res.Commits) == 0 {
		return
	}
	l.appendWrites(events, prov)
}

func (l *Library) appendWrites(events []usage.Change, prov Provenance) {
	var out []usage.HistoryEvent
	for _, e := range events {
		kind, ok := historyKinds[e.Action]
		if !ok {
			continue
		}
		out = append(out, usage.HistoryEvent{Kind: kind, Skill: e.Name, Session: prov.SessionID, Review: prov.ReviewID, Origin: prov.Origin})
	}
	_ = l.UsageHistory().Append(out...)
}

// Skill returns the usage history of the skill name names (its
// folder, frontmatter name or category/name, as usage show takes it):
// events recorded under any of its keys.
func (room History) Skill(name string, f usage.HistoryFilter) ([]usage.HistoryEvent, error) {
	l := room.l
	snap, err := l.Snapshot("")
	if err != nil {
		return nil, err
	}
	_, keys, err := l.UsageOf(snap)
	if err != nil {
		return nil, err
	}
	owner, ok := keys.Skill(name)
	if !ok {
		owner = name
	}
	match := f.Match
	f.Match = func(e usage.HistoryEvent) bool {
		if e.Skill == "" {
			return false
		}
		o, ok := keys.Skill(e.Skill)
		if !ok {
			o = e.Skill
		}
		return o == owner && (match == nil || match(e))
	}
	return l.UsageHistory().Read(f)
}

// historyKindOf is the history kind of a counted use: an agent's view is
// a load ([usage.HistoryLoad]), a person's or tool's a view.
func historyKindOf(kind UseKind, agent bool) string {
	switch {
	case kind == UseUse:
		return usage.HistoryUse
	case agent:
		return usage.HistoryLoad
	}
	return usage.HistoryView
}

// RecordSessionUse is Library.recordUse for an agent's hook that knows
// its session: a counted use is also appended to the usage history with
// the session's id.
func (l *Library) RecordSessionUse(name string, kind UseKind, dedupeKey, session string) (counted bool, err error) {
	counted, err = l.recordUse(name, kind, dedupeKey)
	if err == nil && counted {
		_ = l.UsageHistory().Append(usage.HistoryEvent{Kind: historyKindOf(kind, true), Skill: name, Session: session})
	}
	return counted, err
}
