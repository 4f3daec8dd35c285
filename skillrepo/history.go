package skillrepo

// The history room's log and blame, over package history: the domain
// opens the index with its cache path and its trailer vocabulary, and
// finds the skill a command names in the branch it reads.

import (
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// metaActions are trailer actions about a skill that change none of its
// files.
var metaActions = map[string]bool{ActionAdopt: true, ActionDisown: true, ActionPin: true, ActionUnpin: true}

// history opens the history index, loading the cache when it is usable.
func (l *Library) history() *history.Index {
	return history.Open(l.repo, history.Options{
		CachePath:   l.State().cache("history.bin"),
		ReadOnly:    l.readOnly,
		Progress:    l.progress(),
		Trailers:    recordTrailers,
		MetaActions: metaActions,
	})
}

// recordTrailers reads the provenance trailers skillrepo writes into a
// history record (last value wins, as git's %(trailers)).
func recordTrailers(msg string, r *history.Record) {
	ts := trailer.Parse(msg)
	r.Action = trailer.Value(ts, TrailerAction)
	r.Origin = trailer.Value(ts, TrailerOrigin)
	r.ReviewID = trailer.Value(ts, TrailerReviewID)
	r.SessionID = trailer.Value(ts, TrailerSessionID)
	r.Model = trailer.Value(ts, TrailerModel)
	r.CuratorRun = trailer.Value(ts, TrailerCuratorRun)
	r.Names = trailer.Values(ts, TrailerName)
	r.Imported = trailer.Values(ts, TrailerImported)
	r.From = trailer.Values(ts, TrailerFrom)
}

// Log returns the commits that touched the skill name ("name" or a
// folder path such as "devops/name" or ".archive/name"), newest first.
// A skill that no longer exists is found through the commit that deleted
// it. Errors wrap ErrNotFound when no commit of the branch ever had the
// skill.
func (room History) Log(name string, opts history.LogOptions) ([]history.LogEntry, error) {
	h := room.l.history()
	defer h.Done()
	tip, dir, err := room.l.locateSkill(h, opts.Rev, name)
	if err != nil {
		return nil, err
	}
	return h.Log(tip, dir, opts)
}

// Blame attributes every line of file (a path inside the skill
// folder; "" = SKILL.md) to the commit that last wrote it, following the
// skill through renames, moves, archive and restore, and through merged
// proposals. Errors wrap ErrNotFound for an unknown skill or file.
func (room History) Blame(name, file string, opts history.BlameOptions) (*history.Blame, error) {
	l := room.l
	if file == "" {
		file = skill.FileName
	}
	rel, err := l.Rules().ValidateSupportPath(file)
	if err != nil && file != skill.FileName {
		return nil, err
	}
	if rel == "" {
		rel = file
	}
	h := l.history()
	defer h.Done()
	tip, dir, err := l.locateSkill(h, opts.Rev, name)
	if err != nil {
		return nil, err
	}
	return h.Blame(tip, dir, rel, name)
}

// defaultRev is the revision history commands read by default: the main
// branch, as every read command.
func (l *Library) defaultRev(rev string) string {
	if rev != "" {
		return rev
	}
	return l.MainBranch()
}

// locateSkill resolves rev and finds the skill's folder there, or, for a
// name that is not in the tip, in history ([history.Index.Locate]).
func (l *Library) locateSkill(h *history.Index, rev, name string) (Hash, string, error) {
	rev = l.defaultRev(rev)
	snap, err := l.Snapshot(rev)
	if err != nil {
		return ZeroHash, "", err
	}
	if snap.Commit().IsZero() {
		return ZeroHash, "", fmt.Errorf("skill %q: branch %s has no commits: %w", name, rev, ErrNotFound)
	}
	si, err := snap.FindSkill(name)
	if err == nil {
		return snap.Commit(), si.Dir, nil
	}
	name = strings.Trim(name, "/")
	at, dir, ok, err := h.Locate(snap.Commit(), name, snap.Exists)
	if err != nil {
		return ZeroHash, "", err
	}
	if !ok {
		return ZeroHash, "", WithHint(fmt.Errorf("skill %q: %w", name, ErrNotFound), "run 'skillrepo skill list --all' to see the skills")
	}
	return at, dir, nil
}
