package skillrepo

import (
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// ReviewOwner is what the background review's guards need to know about a
// skill: whether history shows it curator-managed, and whether it is
// protected from automatic writes.
type ReviewOwner struct {
	Managed bool
	// Pinned covers every reason an automatic write is refused whatever
	// the history: the config's protected list and a pin in the usage
	// sidecar (the reference keeps pins there).
	Pinned bool
	// Evidence names the commit that decided Managed ("" when none did).
	Evidence string
}

// OwnerForReview reads a skill's ownership from the history of rev, failing
// closed: without evidence a skill is user-owned (spec §4.5, #67140).
//
// Evidence, newest wins: a commit whose trailers say Skill-Action adopt
// (managed) or disown (user-owned) for the skill, unless the skill was
// created again after it; else the commit that
// introduced the skill's SKILL.md at its current path (present there, in
// none of its parents), which makes the skill managed when its
// Skill-Origin is background-review or curator, or when it is an import
// commit naming the skill in Skill-Imported-Agent.
//
// This interim reading does not follow renames (a moved skill counts as
// created by the move, so it is user-owned unless adopted); the history
// issue's ownership function replaces it.
func (l *Library) OwnerForReview(rev, name string) (ReviewOwner, error) {
	var o ReviewOwner
	if slices.Contains(l.Config.Protected, name) {
		o.Pinned = true
	}
	if recs, err := l.Usage().Load(); err == nil {
		if r, ok := recs[name]; ok && r.Pinned {
			o.Pinned = true
		}
	}
	snap, err := l.Snapshot(rev)
	if err != nil {
		return o, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return o, err
	}
	file := si.Dir + "/SKILL.md"
	store := newObjectStore(l, true)

	type verdict struct {
		when    int64
		managed bool
		commit  plumbing.Hash
	}
	var adopt, created *verdict
	seen := map[plumbing.Hash]bool{}
	queue := []plumbing.Hash{snap.Commit()}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h.IsZero() || seen[h] {
			continue
		}
		seen[h] = true
		c, err := l.repo.CommitObject(h)
		if err != nil {
			return o, fmt.Errorf("read history of %s: %w", name, err)
		}
		when := c.Committer.When.Unix()
		trailers := ParseTrailers(c.Message)
		action, origin, named, imported := "", "", false, false
		for _, t := range trailers {
			switch t.Key {
			case TrailerAction:
				action = t.Value
			case TrailerOrigin:
				origin = t.Value
			case TrailerName:
				named = named || t.Value == name
			case TrailerImported:
				imported = imported || t.Value == name
			}
		}
		if named && (action == "adopt" || action == "disown") && (adopt == nil || when > adopt.when) {
			adopt = &verdict{when: when, managed: action == "adopt", commit: h}
		}
		// Every commit queued holds the file; the walk follows the parents
		// that hold it too, and stops where it was introduced (evidence
		// older than the newest creation does not count).
		_, parents, err := store.commitInfo(h)
		if err != nil {
			return o, fmt.Errorf("read history of %s: %w", name, err)
		}
		introduced := true
		for _, p := range parents {
			pt, _, err := store.commitInfo(p)
			if err != nil {
				return o, fmt.Errorf("read history of %s: %w", name, err)
			}
			if had, _ := l.lookupPath(store, pt, file); !had.IsZero() {
				introduced = false
				queue = append(queue, p)
			}
		}
		if introduced && (created == nil || when > created.when) {
			managed := origin == OriginBackgroundReview || origin == OriginCurator || (action == ActionImport && imported)
			created = &verdict{when: when, managed: managed, commit: h}
		}
	}
	switch {
	case adopt != nil && (created == nil || adopt.when >= created.when):
		o.Managed, o.Evidence = adopt.managed, adopt.commit.String()
	case created != nil:
		o.Managed, o.Evidence = created.managed, created.commit.String()
	}
	return o, nil
}
