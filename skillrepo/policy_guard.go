package skillrepo

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/secrets"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// The guards of the write policy (policy.go). Their words are the ones a
// model and a person read, the same through every door.

// Guards name which rule refused a write (RefusedError.Guard).
const (
	GuardSecret    = "secret"
	GuardDuplicate = "duplicate"
	GuardOwnership = "ownership"
	GuardReadFirst = "read_before_write"
	GuardAbsorbed  = "absorbed_into"
	GuardMeta      = "person_only"
)

// byAgent reports whether the origin is an agent (the working agent, a
// background review, the curator) rather than a person or an import: an
// agent is refused what a person is only warned of.
func (p Provenance) byAgent() bool {
	return p.Origin == OriginForeground || p.Autonomous()
}

// LabelFor is the word a refusal uses for an autonomous origin: "review"
// for a background review, "curator" for the curator.
func LabelFor(origin string) string {
	if origin == OriginCurator {
		return "curator"
	}
	return "review"
}

// label is the writer's word in refusals.
func (p *Policy) label() string { return LabelFor(p.w.Provenance.Origin) }

// precheck runs the checks that read only the operations and the base:
// secrets and duplicates. An agent is refused; a person is warned of a
// duplicate, and refused a likely secret unless they force it (an agent
// running the CLI writes as the person: issue 40 item 10).
func (p *Policy) precheck(ops []Op, base func() string) (warnings []string, err error) {
	agent := p.w.Provenance.byAgent()
	var snap *Snapshot
	for i, op := range ops {
		if msg := secretsIn(op); msg != "" {
			if agent || !p.w.Force {
				return nil, batchError(ops, i, &RefusedError{Reason: p.secretReason(msg), Guard: GuardSecret})
			}
			warnings = append(warnings, forcedSecret(msg))
		}
		if op.Action == ActionCreate && op.Category != "" {
			if r := p.l.Rules(); r.Flat {
				warnings = append(warnings, fmt.Sprintf("%s reads only <library>/<name>/SKILL.md: %s/%s/SKILL.md, in a category folder, will not load (create it without a category)", r.Runtime, op.Category, op.Name))
			}
		}
		if op.Action != ActionCreate || op.ForceNew || op.Content == nil || p.w.AllowOverlap {
			continue
		}
		if snap == nil {
			if snap, err = p.l.Snapshot(base()); err != nil {
				snap = nil
				continue // nothing to overlap yet (an empty library)
			}
		}
		ms, err := p.dups.duplicates(snap, op.Name, op.Category, *op.Content)
		if err != nil {
			return nil, fmt.Errorf("duplicate check: %w", err)
		}
		if len(ms) == 0 {
			continue
		}
		if agent {
			return nil, batchError(ops, i, &RefusedError{Reason: duplicateRefusal(op.Name, ms, p.duplicateAdvice(snap, ms[0].Name)), Guard: GuardDuplicate, Duplicates: ms})
		}
		warnings = append(warnings, duplicateWarning(op.Name, ms))
	}
	return warnings, nil
}

// secretReason is a secret's refusal as the writer reads it: a person
// is told how to write it anyway.
func (p *Policy) secretReason(msg string) string {
	if p.w.Provenance.byAgent() {
		return msg
	}
	return msg + " If it is not a secret, write it anyway with --force."
}

// forcedSecret is a secret's refusal as a warning to a person who forced
// the write: what was written, not what was refused.
func forcedSecret(msg string) string {
	msg, _, _ = strings.Cut(strings.TrimPrefix(msg, "refused: "), ". Secrets must never")
	return "written with --force: " + msg
}

// secretsIn is the refusal of an operation that carries a likely secret,
// or "".
func secretsIn(op Op) string {
	for _, f := range []struct {
		what string
		text *string
	}{{"content", op.Content}, {"new_string", op.NewString}, {"file_content", op.FileContent}} {
		if f.text == nil {
			continue
		}
		if found := secrets.Find(*f.text); len(found) > 0 {
			return secrets.Refusal(fmt.Sprintf("the %s of %s '%s'", f.what, op.Action, op.Name), found)
		}
	}
	return ""
}

// secretScan is the secret guard's look at the batch as a whole
// (stagedSecrets). Secrets added are refused, for a person unless
// forced, and then warned of (once: one already warned of by the
// operation check is not repeated).
func (p *Policy) secretScan(already []string, warn *[]string) func(tx *writeTx) error {
	agent := p.w.Provenance.byAgent()
	warnedOfSecret := slices.ContainsFunc(already, func(w string) bool { return strings.Contains(w, secrets.RefusalWords) })
	return func(tx *writeTx) error {
		*warn = (*warn)[:0]
		msgs, err := stagedSecrets(tx)
		if err != nil || len(msgs) == 0 {
			return err
		}
		if agent || !p.w.Force {
			return &RefusedError{Reason: p.secretReason(msgs[0]), Guard: GuardSecret}
		}
		if !warnedOfSecret {
			for _, msg := range msgs {
				*warn = append(*warn, forcedSecret(msg))
			}
		}
		return nil
	}
}

// stagedSecrets is the refusal of each file the transaction writes that
// adds a likely secret: every file, whole, and its path, against what
// the branch held there — two patches that each carry half a key
// assemble it, and a key can be a file's name.
func stagedSecrets(tx *writeTx) ([]string, error) {
	store := tx.gtx.Store()
	var paths []string
	for file, c := range tx.gtx.Staged() {
		if !c.Delete {
			paths = append(paths, file)
		}
	}
	sort.Strings(paths)
	var out []string
	for _, file := range paths {
		var found []secrets.Finding
		var where string
		oldHash, _ := store.LookupPath(tx.gtx.Tree(), file)
		if oldHash.IsZero() {
			if found = secrets.Find(file); len(found) > 0 {
				where = "the path " + file
			}
		}
		if len(found) == 0 {
			h, _, _ := tx.gtx.Stat(file)
			after, err := store.Blob(h)
			if err != nil {
				return nil, err
			}
			var before []byte
			if !oldHash.IsZero() {
				if before, err = store.Blob(oldHash); err != nil {
					return nil, err
				}
			}
			if found = secrets.Added(string(before), string(after)); len(found) > 0 {
				where = "what this batch writes to " + file
			}
		}
		if len(found) > 0 {
			out = append(out, secrets.Refusal(where, found))
		}
	}
	return out, nil
}

// checker is the check Apply runs before each operation, on the branch as
// the batch leaves it: an autonomous writer writes only skills it may
// (ownership, pins), reads before it writes, and deletes only what it
// absorbed. A skill the batch creates is the writer's own.
func (p *Policy) checker(staged bool) func(tx *writeTx, i int, op Op) error {
	if !p.w.Provenance.Autonomous() {
		return nil
	}
	var created, known map[string]bool
	var owners map[string]error
	return func(tx *writeTx, i int, op Op) error {
		if i == 0 { // Apply runs a batch again from its start when the branch moved
			created, known, owners = map[string]bool{}, map[string]bool{}, map[string]error{}
		}
		if op.Action == ActionCreate {
			created[op.Name] = true
			return nil
		}
		if created[op.Name] {
			return nil
		}
		si, err := tx.FindSkill(op.Name)
		if err != nil {
			return nil // not found: the operation says so in its own words
		}
		if _, seen := owners[si.Name]; !seen {
			owners[si.Name] = p.ownershipGuard(tx, op.Action, si.Name, staged)
		}
		if err := owners[si.Name]; err != nil {
			return err
		}
		if op.Action == ActionDelete {
			return p.deleteGuard(tx, op, created)
		}
		return p.readGuard(tx, op, si, known)
	}
}

// ownershipGuard refuses an autonomous write to a skill it may not touch:
// pinned or protected, not curator-managed, or of unreadable ownership
// (fail closed, docs/reference-behaviour.md §4.5). A staged batch (a
// review's proposal for the person to approve) may change their skills,
// except a protected one.
func (p *Policy) ownershipGuard(tx *writeTx, action, name string, staged bool) error {
	own, ok := ReviewOwner{}, false
	if p.w.Owners != nil {
		own, ok = p.w.Owners(name)
	}
	var err error
	if !ok && !tx.Base().IsZero() {
		own, err = p.l.Owners().ForReview(tx.Base().String(), name)
	}
	if staged && err == nil && !own.Protected {
		return nil
	}
	if msg := ownershipRefusal(p.label(), action, name, own, err); msg != "" {
		return &RefusedError{Reason: msg, Guard: GuardOwnership}
	}
	return nil
}

// ownershipRefusal is the message refusing an autonomous write to a skill
// it may not touch — pinned, not curator-managed, or of unreadable
// ownership — or "" when the write may go ahead. err is the error of
// reading the ownership.
func ownershipRefusal(label, action, name string, own ReviewOwner, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("Refusing background %s %s for '%s': its ownership could not be read from history (%v), so it is treated as user-owned.", label, action, name, err)
	case own.Protected:
		return fmt.Sprintf("Refusing background %s %s for '%s': the skill is listed in protected in .skillrepo/config.yaml, which blocks every automatic write. Leave it as it is.", label, action, name)
	case own.Pinned:
		return fmt.Sprintf("Refusing background %s %s for '%s': the skill is pinned, which blocks every automatic write. Ask the user to run `skillrepo skill unpin %s` if it should change.", label, action, name, name)
	case !own.Managed:
		return fmt.Sprintf("Refusing background %s %s for '%s': it is not curator-managed (no commit in its history shows a review or the curator created it, or a person adopted it), so it belongs to the user. Recommend `skillrepo skill adopt %s` in your reply instead.", label, action, name, name)
	}
	return ""
}

// deleteGuard lets an autonomous writer delete only a skill whose content
// it absorbed into another existing skill (or one this batch creates);
// the delete then archives (docs/reference-behaviour.md §4.4, §6.6). The
// curator may also prune: absorbed_into given and empty.
func (p *Policy) deleteGuard(tx *writeTx, op Op, created map[string]bool) error {
	label := p.label()
	refuse := func(format string, args ...any) error {
		return &RefusedError{Reason: fmt.Sprintf(format, args...), Guard: GuardAbsorbed}
	}
	if op.AbsorbedInto == nil || (strings.TrimSpace(*op.AbsorbedInto) == "" && p.w.Provenance.Origin != OriginCurator) {
		return refuse("Refusing background %s delete for '%s': a %s may only archive a skill whose content it has absorbed into an umbrella skill; pass absorbed_into naming that skill. Keeping '%s' active.", label, op.Name, label, op.Name)
	}
	into := strings.TrimSpace(*op.AbsorbedInto)
	if into == "" {
		return nil // the curator's prune
	}
	if into == op.Name {
		return refuse("Refusing background %s delete for '%s': absorbed_into must name a different skill.", label, op.Name)
	}
	if _, err := tx.findUmbrella(into); err != nil && !created[into] {
		return refuse("Refusing background %s delete for '%s': absorbed_into '%s' does not exist. Create or patch the umbrella skill first.", label, op.Name, into)
	}
	return nil
}

// readGuard refuses a change to an existing file the writer's session has
// not read (docs/reference-behaviour.md §4.5); a writer without a session
// has no such memory and passes. What an earlier operation of the batch
// wrote counts as read.
func (p *Policy) readGuard(tx *writeTx, op Op, si SkillInfo, known map[string]bool) error {
	file := skill.FileName
	switch op.Action {
	case ActionPatch, ActionWriteFile, ActionRemoveFile:
		if op.FilePath != "" && op.Content == nil {
			rel, err := skill.ValidateSupportPath(op.FilePath)
			if err != nil {
				return nil // the operation refuses the path in its own words
			}
			file = rel
		}
	case ActionEdit:
	default:
		return nil
	}
	target := path.Join(si.Dir, file)
	defer func() { known[target] = true }()
	if p.w.Read == nil || known[target] || p.w.Read(target) {
		return nil
	}
	if !tx.gtx.Exists(target) {
		return nil
	}
	view := fmt.Sprintf("skill_view(name='%s')", si.Name)
	if file != skill.FileName {
		view = fmt.Sprintf("skill_view(name='%s', file_path='%s')", si.Name, file)
	}
	label := p.label()
	return &RefusedError{Guard: GuardReadFirst, Reason: fmt.Sprintf("Refusing background %s %s for '%s': %s has not been read in this %s. Call %s first, then retry once; text quoted in the conversation does not count as a read.", label, op.Action, si.Name, file, label, view)}
}

// checkMeta checks a pin, unpin, adopt, disown, move or archive of the
// skill name by the policy's writer; the policy's verbs run it themselves
// (policy_writes.go), and a door asks it only to tell a writer beforehand.
// Unpin, adopt and disown decide who may change a skill, which is a
// person's decision alone, so an autonomous writer is refused them; pin,
// move and archive pass the ownership guard like any write, reading the
// policy's base. Any other writer passes.
func (p *Policy) checkMeta(action, name string) error {
	prov := p.w.Provenance
	if !prov.Autonomous() {
		return nil
	}
	label := p.label()
	switch action {
	case ActionUnpin, ActionAdopt, ActionDisown:
		return p.metaRefusal(action, "'"+name+"'")
	}
	snap, err := p.l.Snapshot(p.Base())
	if err != nil {
		return err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return err
	}
	own, err := p.l.Owners().ForReview(snap.Commit().String(), si.Name)
	if msg := ownershipRefusal(label, action, si.Name, own, err); msg != "" {
		return &RefusedError{Reason: msg, Guard: GuardOwnership}
	}
	return nil
}

// metaRefusal refuses an autonomous writer a decision that is a person's:
// who may change a skill (what is a skill name, or "every skill").
func (p *Policy) metaRefusal(action, what string) error {
	prov := p.w.Provenance
	return &RefusedError{Guard: GuardMeta, Reason: fmt.Sprintf("Refusing background %s %s for %s: only a person decides what an agent may change; run it without --origin %s.", p.label(), action, what, prov.Origin)}
}
