package agenttools

import (
	"errors"
	"fmt"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// The guards an autonomous writer passes, whichever way it writes: the
// tools here, or the CLI with --origin background-review or curator
// ([AutonomousCheck]). Their words are the same on every path.

// LabelFor is the word a refusal uses for an origin: "review" for a
// background review, "curator" for the curator.
func LabelFor(origin string) string {
	if origin == skillrepo.OriginCurator {
		return "curator"
	}
	return "review"
}

// OwnershipRefusal is the message refusing an autonomous write to a skill
// it may not touch — pinned, not curator-managed, or of unreadable
// ownership (fail closed, docs/reference-behaviour.md §4.5) — or "" when
// the write may go ahead. err is the error of reading the ownership.
func OwnershipRefusal(label, action, name string, own Ownership, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("Refusing background %s %s for '%s': its ownership could not be read from history (%v), so it is treated as user-owned.", label, action, name, err)
	case own.Pinned:
		return fmt.Sprintf("Refusing background %s %s for '%s': the skill is pinned, which blocks every automatic write. Ask the user to run `skillrepo skill unpin %s` if it should change.", label, action, name, name)
	case !own.Managed:
		return fmt.Sprintf("Refusing background %s %s for '%s': it is not curator-managed (no commit in its history shows a review or the curator created it, or a person adopted it), so it belongs to the user. Recommend `skillrepo skill adopt %s` in your reply instead.", label, action, name, name)
	}
	return ""
}

// AbsorbedIntoRefusal refuses an autonomous delete that names no umbrella
// skill: an agent acting alone may only archive what it absorbed.
func AbsorbedIntoRefusal(label, name string) string {
	return fmt.Sprintf("Refusing background %s delete for '%s': a %s may only archive a skill whose content it has absorbed into an umbrella skill; pass absorbed_into naming that skill. Keeping '%s' active.", label, name, label, name)
}

// AutonomousCheck returns the check an autonomous write outside the tools
// (the CLI with --origin background-review or curator) passes before each
// operation: every operation on an existing skill needs that skill
// curator-managed and not pinned. (That an autonomous delete names
// absorbed_into, and archives, the engine enforces for every caller.) A
// skill an earlier operation of the same batch created passes. It returns
// nil for any other origin.
func AutonomousCheck(l *skillrepo.Library, prov skillrepo.Provenance) func(tx *skillrepo.Tx, i int, op skillrepo.Op) error {
	if !prov.Autonomous() {
		return nil
	}
	label := LabelFor(prov.Origin)
	created := map[string]bool{}
	return func(tx *skillrepo.Tx, i int, op skillrepo.Op) error {
		if i == 0 {
			clear(created) // Apply retries a batch from its first operation
		}
		if op.Action == skillrepo.ActionCreate {
			created[op.Name] = true
			return nil
		}
		if created[op.Name] {
			return nil
		}
		si, err := tx.FindSkill(op.Name)
		if err != nil {
			return err // not found: the operation reports it in its own words
		}
		var own Ownership
		if !tx.Base().IsZero() {
			ro, oerr := l.OwnerForReview(tx.Base().String(), si.Name)
			own, err = Ownership{Managed: ro.Managed, Pinned: ro.Pinned}, oerr
		}
		if msg := OwnershipRefusal(label, op.Action, si.Name, own, err); msg != "" {
			return &skillrepo.RefusedError{Reason: msg}
		}
		return nil
	}
}

// AutonomousMeta checks a pin, unpin, adopt, disown or move of the skill
// name from an autonomous origin, at rev ("" = main): unpin, adopt and
// disown decide who may change a skill, which is the user's decision
// alone, so they are refused; pin and move pass the ownership guard like
// any write, reading branch ("" = main), or from when branch does not
// exist yet. Any other origin passes.
func AutonomousMeta(l *skillrepo.Library, prov skillrepo.Provenance, branch, from, action, name string) error {
	if !prov.Autonomous() {
		return nil
	}
	label := LabelFor(prov.Origin)
	switch action {
	case skillrepo.ActionUnpin, skillrepo.ActionAdopt, skillrepo.ActionDisown:
		return &skillrepo.RefusedError{Reason: fmt.Sprintf("Refusing background %s %s for '%s': only a person decides what an agent may change; run it without --origin %s.", label, action, name, prov.Origin)}
	}
	snap, err := l.Snapshot(branch)
	if errors.Is(err, skillrepo.ErrNotFound) && from != "" {
		snap, err = l.Snapshot(from)
	}
	if err != nil {
		return err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return err
	}
	ro, err := l.OwnerForReview(snap.Commit().String(), si.Name)
	if msg := OwnershipRefusal(label, action, si.Name, Ownership{Managed: ro.Managed, Pinned: ro.Pinned}, err); msg != "" {
		return &skillrepo.RefusedError{Reason: msg}
	}
	return nil
}
