package skillrepo

import (
	"slices"
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
	// Protected: the config's protected list names the skill (Pinned is
	// set too). A background review may propose a change to a skill that
	// is only pinned or user-owned (docs/architecture.md §2.1); a
	// protected one stays untouched, as configured.
	Protected bool
	// Evidence names the commit that decided Managed ("" when none did).
	Evidence string
}

// ForReview reads a skill's ownership from the history of rev, failing
// closed: without evidence a skill is user-owned (docs/reference-behaviour.md §4.5). It
// is Library.ownerAt (owner.go: creation origin, import trailers, the
// newest adopt/disown, followed through renames and moves, cached per
// tip) plus the reasons an automatic write is refused whatever the
// history: the config's protected list and a pin ([Owners.Pins]: the
// tracked list, with Hermes' pins and unpins at the main branch's tip).
func (room Owners) ForReview(rev, name string) (ReviewOwner, error) {
	l := room.l
	var o ReviewOwner
	if slices.Contains(l.Config.Protected, name) {
		o.Pinned, o.Protected = true, true
	}
	own, err := l.ownerAt(rev, name)
	if err != nil {
		return o, err
	}
	o.Managed = own.CuratorManaged()
	if !own.Commit.IsZero() {
		o.Evidence = own.Commit.String()
	}
	if pins, err := l.Owners().Pins(rev); err == nil && slices.Contains(pins, own.Name) {
		o.Pinned = true
	}
	return o, nil
}
