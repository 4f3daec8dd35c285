package skillrepo

// Pins, adoption and moves: small writes that are each one commit.
//
// Pins live in the tracked file .skillrepo/pins, one skill name per line
// (blank lines and lines starting with "#" are ignored; skillrepo keeps
// the names sorted). Being tracked, a pin travels with the library through
// the remote and shows in history. A pinned skill cannot be deleted or
// archived (the reference's pinned guard); patches and edits stay allowed.
// Pin and unpin also mirror the flag into the usage sidecar's "pinned"
// field, so a Hermes agent reading .usage.json sees the same pins.
//
// Adopt and disown change no file: they are empty commits whose trailers
// (Skill-Action: adopt|disown, Skill-Name) are the evidence ownership is
// read from (owner.go), so they follow the skill through later renames.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// PinsFile is the tracked list of pinned skills.
const PinsFile = ".skillrepo/pins"

// Actions of the commits this file writes.
const (
	ActionPin    = "pin"
	ActionUnpin  = "unpin"
	ActionAdopt  = "adopt"
	ActionDisown = "disown"
	ActionMove   = "move"
	ActionRename = "rename"
)

const pinsHeader = `# Pinned skills, one name per line (written by 'skillrepo skill pin').
# A pinned skill cannot be deleted or archived; patches and edits are allowed.
`

// parsePins reads the pins file.
func parsePins(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

func formatPins(names []string) []byte {
	var b strings.Builder
	b.WriteString(pinsHeader)
	for _, n := range names {
		b.WriteString(n)
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// Pins returns the pinned skills of rev ("" = the main branch), sorted.
// At the main branch's tip they are the effective pins, the file's with
// every pin and unpin made in Hermes since the two last agreed
// (pinsync.go); at any other revision, the file's.
func (room Owners) Pins(rev string) ([]string, error) {
	l := room.l
	snap, err := l.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	data, err := snap.ReadFile(PinsFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	pins := parsePins(data)
	if pins == nil {
		pins = []string{}
	}
	if tip, err := l.MainTip(); err == nil && tip == snap.Commit() {
		pins, _ = l.effectivePins(pins, snap)
	}
	return pins, nil
}

// isPinned reports whether the skill name is pinned in the transaction's
// current state, Hermes' pins included (for guards running inside a
// write).
func (tx *writeTx) isPinned(name string) bool {
	pins, _ := tx.effectivePins()
	return slices.Contains(pins, path.Base(name))
}

// MetaOptions configures [Policy.Pin], [Policy.Unpin], [Policy.Adopt],
// [Policy.Disown] and [Policy.AdoptAll]; where the commit lands and whose
// it is are the policy's.
type MetaOptions struct {
	// Reason is recorded as a Reason trailer when set.
	Reason string
	DryRun bool
}

// MetaResult says what a pin, unpin, adopt or disown did.
type MetaResult struct {
	Name   string
	Action string
	// Changed is false when there was nothing to do (already pinned,
	// already curator-managed, ...): no commit was made.
	Changed bool
	Commit  Hash
	// Message says what happened, for the CLI.
	Message string
	Update  *UpdateResult
}

// setPinned adds the skill to the pins file, or removes it, in one commit
// (Skill-Action: pin or unpin) on t. Pinning a pinned skill changes
// nothing. Error wraps ErrNotFound when the skill does not exist on the
// branch; a skill that is no longer in the library can still be unpinned.
func (l *Library) setPinned(ctx context.Context, name string, pin bool, t target, opts MetaOptions) (*MetaResult, error) {
	action := ActionUnpin
	if pin {
		action = ActionPin
	}
	out := &MetaResult{Action: action}
	var finalPins []string
	res, err := l.update(ctx, updateOptions{Branch: t.branch, From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		// From the effective pins: a pin or unpin made in Hermes is
		// recorded with this one.
		pins, _ := tx.effectivePins()
		base := path.Base(strings.Trim(name, "/"))
		si, err := tx.FindSkill(name)
		switch {
		case err == nil:
			base = si.Name
		case errors.Is(err, ErrNotFound) && !pin && slices.Contains(pins, base):
			// unpinning a skill that is gone: allowed, cleans the list
		default:
			return err
		}
		out.Name = base
		has := slices.Contains(pins, base)
		if has == pin {
			out.Message = fmt.Sprintf("skill %s is already %s", base, map[bool]string{true: "pinned", false: "not pinned"}[pin])
			return nil
		}
		if pin {
			pins = append(pins, base)
			sort.Strings(pins)
		} else {
			pins = slices.DeleteFunc(pins, func(s string) bool { return s == base })
		}
		finalPins = pins
		if err := tx.gtx.WriteFile(PinsFile, formatPins(pins), false); err != nil {
			return err
		}
		_, err = tx.Commit(metaMessage(action, base, t.prov, opts.Reason))
		out.Changed = err == nil
		if pin {
			out.Message = fmt.Sprintf("pinned %s: it cannot be deleted or archived", base)
		} else {
			out.Message = fmt.Sprintf("unpinned %s", base)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Update, out.Commit = res, lastCommit(res)
	if out.Changed && !opts.DryRun && res.CheckedOut && (t.branch == "" || t.branch == l.MainBranch()) {
		// The sidecar's pinned mirrors .skillrepo/pins, so a Hermes
		// install sharing the folder sees the same pins (best effort, as
		// all telemetry: the commit already landed); both now agree.
		l.mirrorPins(finalPins)
	} else if out.Changed && !opts.DryRun {
		action := usage.Unpinned
		if pin {
			action = usage.Pinned
		}
		l.recordUsage(res, []usage.Change{{Name: out.Name, Action: action}})
	}
	return out, nil
}

func metaMessage(action, name string, prov Provenance, reason string) Message {
	m := Message{Subject: fmt.Sprintf("skill: %s %s", action, name)}
	m.Add(TrailerAction, action)
	m.Add(TrailerName, name)
	prov.addTrailers(&m)
	m.Add(TrailerReason, reason)
	return m
}

// setOwner makes a user-owned skill curator-managed (adopt), or hands a
// curator-managed skill back to the user (disown), with an empty commit
// carrying its Skill-Action on t. Adopting a curator-managed skill (or
// disowning a user's) changes nothing. Error wraps ErrNotFound for an
// unknown skill.
func (l *Library) setOwner(ctx context.Context, name string, curator bool, t target, opts MetaOptions) (*MetaResult, error) {
	action := ActionDisown
	if curator {
		action = ActionAdopt
	}
	out := &MetaResult{Action: action}
	res, err := l.update(ctx, updateOptions{Branch: cmp.Or(t.branch, l.MainBranch()), From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		si, err := tx.FindSkill(name)
		if err != nil {
			return err
		}
		out.Name = si.Name
		// Ownership as of this branch tip; the lock is held, so it
		// cannot move while we decide.
		own, err := l.ownersAt(tx.gtx.Base())
		if err != nil {
			return err
		}
		if o, ok := own[si.Dir]; ok && o.CuratorManaged() == curator {
			out.Message = fmt.Sprintf("skill %s is already %s (%s)", si.Name, o.Owner, o.Reason)
			return nil
		}
		if _, err := tx.commit(metaMessage(action, si.Name, t.prov, opts.Reason), true); err != nil {
			return err
		}
		out.Changed = true
		if curator {
			out.Message = fmt.Sprintf("adopted %s: the curator and background reviews may now change it", si.Name)
		} else {
			out.Message = fmt.Sprintf("disowned %s: only you change it now", si.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Update, out.Commit = res, lastCommit(res)
	return out, nil
}

// adoptAll makes every active user-owned skill of t's branch
// curator-managed in one empty commit naming each (Skill-Action: adopt,
// one Skill-Name per skill). It returns the skills adopted, sorted; none
// means no commit.
func (l *Library) adoptAll(ctx context.Context, t target, opts MetaOptions) ([]string, *UpdateResult, error) {
	var names []string
	res, err := l.update(ctx, updateOptions{Branch: cmp.Or(t.branch, l.MainBranch()), From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		own, err := l.ownersAt(tx.gtx.Base())
		if err != nil {
			return err
		}
		names = names[:0]
		for _, o := range own {
			if !o.CuratorManaged() && !strings.HasPrefix(o.Dir, ArchiveDir+"/") {
				names = append(names, o.Name)
			}
		}
		if len(names) == 0 {
			return nil
		}
		sort.Strings(names)
		m := Message{Subject: fmt.Sprintf("skill: adopt %d skills", len(names))}
		m.Add(TrailerAction, ActionAdopt)
		for _, n := range names {
			m.Add(TrailerName, n)
		}
		t.prov.addTrailers(&m)
		m.Add(TrailerReason, opts.Reason)
		_, err = tx.commit(m, true)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return names, res, nil
}

// MoveOptions configures [Policy.MoveSkill].
type MoveOptions struct {
	// Category is the new category folder ("" = the flat layout).
	Category string
	// NewName renames the skill ("" = keep the name); SKILL.md's name
	// field is rewritten to match.
	NewName string
	DryRun  bool
}

// moveSkill moves a skill to another category and/or renames it, in one
// commit on t (Skill-Action: move or rename, Skill-From: the old folder).
// The skill keeps its history, ownership and pin. Errors: ErrNotFound,
// ErrExists when the destination is taken, skill.ErrInvalid for a bad
// name or category.
func (l *Library) moveSkill(ctx context.Context, name string, t target, opts MoveOptions) (*MetaResult, error) {
	if err := skill.ValidateCategory(opts.Category); err != nil {
		return nil, err
	}
	if opts.NewName != "" {
		if err := skill.ValidateName(opts.NewName); err != nil {
			return nil, err
		}
	}
	out := &MetaResult{}
	var oldName string
	res, err := l.update(ctx, updateOptions{Branch: t.branch, From: t.from, DryRun: opts.DryRun}, func(tx *writeTx) error {
		si, err := tx.FindSkill(name)
		if err != nil {
			return err
		}
		if err := refuseArchived(si); err != nil {
			return err
		}
		oldName = si.Name
		newName := si.Name
		if opts.NewName != "" {
			newName = opts.NewName
		}
		to := path.Join(opts.Category, newName)
		if to == si.Dir {
			return fmt.Errorf("skill %q is already at %s: %w", si.Name, to, ErrExists)
		}
		if newName != si.Name {
			if other, err := tx.FindSkill(newName); err == nil {
				return fmt.Errorf("a skill named %q already exists at %s: %w", newName, other.Dir, ErrExists)
			}
		}
		if err := tx.gtx.Move(si.Dir, to); err != nil {
			return err
		}
		action := ActionMove
		if newName != si.Name {
			action = ActionRename
			md := to + "/" + skill.FileName
			data, err := tx.gtx.ReadFile(md)
			if err != nil {
				return err
			}
			if renamed, ok := renameFrontmatter(data, si.Name, newName); ok {
				if err := tx.gtx.WriteFile(md, renamed, false); err != nil {
					return err
				}
			}
			if tx.isPinned(si.Name) {
				pins, _ := tx.gtx.ReadFile(PinsFile)
				list := slices.DeleteFunc(parsePins(pins), func(s string) bool { return s == si.Name })
				list = append(list, newName)
				sort.Strings(list)
				if err := tx.gtx.WriteFile(PinsFile, formatPins(list), false); err != nil {
					return err
				}
			}
		}
		out.Name, out.Action = newName, action
		m := Message{Subject: fmt.Sprintf("skill: %s %s to %s", action, si.Dir, to)}
		m.Add(TrailerAction, action)
		m.Add(TrailerName, newName)
		t.prov.addTrailers(&m)
		m.Add(TrailerFrom, si.Dir)
		if _, err := tx.Commit(m); err != nil {
			return err
		}
		out.Changed = true
		out.Message = fmt.Sprintf("moved %s to %s", si.Dir, to)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Update, out.Commit = res, lastCommit(res)
	if out.Changed && !opts.DryRun && res.CheckedOut {
		l.carryUsage(res, map[string]string{oldName: out.Name})
	}
	return out, nil
}

// carryUsage moves the usage records of renamed skills (old name -> new
// name, folders) to their new key, merged with every alias, so a rename
// keeps the skill's record whole (docs/reference-behaviour.md §5.2): a
// record left under the old name would make the skill look unused. Best
// effort, as all telemetry: the commit landed.
func (l *Library) carryUsage(res *UpdateResult, renamed map[string]string) {
	if len(renamed) == 0 || res.Old.IsZero() {
		return
	}
	before, err := l.Snapshot(res.Old.String())
	if err != nil {
		return
	}
	after, err := l.Snapshot(res.New.String())
	if err != nil {
		return
	}
	oldSkills, err := before.Skills()
	if err != nil {
		return
	}
	keys, err := before.UsageKeys(oldSkills)
	if err != nil {
		return
	}
	_ = l.Usage().Update(func(recs map[string]*usage.Record) error {
		for from, to := range renamed {
			si, err := after.FindSkill(to)
			if err != nil {
				continue
			}
			keys.Carry(recs, from, after.usageKey(si))
		}
		return nil
	})
}

// renameFrontmatter rewrites the "name:" line of SKILL.md's frontmatter
// when it holds old; other lines are kept byte for byte.
func renameFrontmatter(data []byte, old, new string) ([]byte, bool) {
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, false
	}
	for i := 1; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(t) == "---" {
			break
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok || key != "name" {
			continue
		}
		v := strings.Trim(strings.TrimSpace(val), `"'`)
		if v != old {
			return nil, false
		}
		lines[i] = "name: " + new + lines[i][len(t):]
		return []byte(strings.Join(lines, "")), true
	}
	return nil, false
}

// refusePinned is the reference's pinned guard for delete (and the
// archive an autonomous delete becomes): a pinned skill stays; patches and
// edits are allowed.
func refusePinned(tx *writeTx, si SkillInfo) error {
	if tx.isPinned(si.Name) {
		return refusedf("skill %q is pinned and cannot be deleted or archived; patches and edits are allowed; run 'skillrepo skill unpin %s' first", si.Name, si.Name)
	}
	return nil
}

// lastCommit is the newest commit an update made (zero: none).
func lastCommit(res *UpdateResult) Hash {
	if res == nil || len(res.Commits) == 0 {
		return ZeroHash
	}
	return res.Commits[len(res.Commits)-1]
}
