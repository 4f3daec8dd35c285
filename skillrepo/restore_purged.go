package skillrepo

// Restoring a purged skill. `curator purge` removes archived folders from
// the tree; history keeps them, so `skill restore` finds the commit that
// removed the folder, reads it from that commit's first parent and writes
// it back where the skill lived before it was archived, in one commit.
// Only public history readers are used (commits, snapshots), so this
// works whatever removed the folder: a purge, or a person's git rm.

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// ActionPurge is the Skill-Action of the commit that removes archived
// skills from the tree (`curator purge`).
const ActionPurge = "purge"

// PurgedArchive is an archived folder that history holds and the tree no
// longer does.
type PurgedArchive struct {
	// Dir is the archive folder (.archive/<x>) as it was.
	Dir string
	// Removed is the commit that removed it; Parent its first parent,
	// where the folder still is.
	Removed, Parent Hash
}

// findPurged walks the first-parent history of rev, newest first, for the
// commit that removed the archived skill name (.archive/<name> or a
// suffixed .archive/<name>-<14 digits>; name may also be given as the
// folder): a purge commit naming it in Skill-From first, else any commit
// whose first parent holds .archive/<name> and which does not, restores,
// rollbacks and moves excepted. Error wraps ErrNotFound.
func (l *Library) findPurged(rev, name string) (*PurgedArchive, error) {
	h, err := l.repo.ResolveRev(rev)
	if err != nil {
		return nil, err
	}
	name = strings.TrimPrefix(strings.Trim(name, "/"), ArchiveDir+"/")
	exact := ArchiveDir + "/" + name
	cur, err := l.Snapshot(h.String())
	if err != nil {
		return nil, err
	}
	for {
		c, err := l.History().Commit(h)
		if err != nil {
			return nil, err
		}
		if len(c.Parents) == 0 {
			break
		}
		parent := c.Parents[0]
		tr := c.Trailers()
		if trailer.Value(tr, TrailerAction) == ActionPurge {
			for _, from := range trailer.Values(tr, TrailerFrom) {
				if from == exact || ArchivedName(from) == name {
					return &PurgedArchive{Dir: from, Removed: h, Parent: parent}, nil
				}
			}
		}
		prev, err := l.Snapshot(parent.String())
		if err != nil {
			return nil, err
		}
		// A restore or rollback moves the folder back out: that is no
		// purge, and what it restored is in the tree (or was moved on).
		moved := false
		switch trailer.Value(tr, TrailerAction) {
		case ActionRestore, "rollback", ActionMove, ActionRename:
			moved = true
		}
		if !moved && prev.DirHash(ArchiveDir) != cur.DirHash(ArchiveDir) &&
			!prev.DirHash(exact).IsZero() && cur.DirHash(exact).IsZero() {
			return &PurgedArchive{Dir: exact, Removed: h, Parent: parent}, nil
		}
		h, cur = parent, prev
	}
	return nil, WithHint(fmt.Errorf("archived skill %q: %w, now or in history", name, ErrNotFound),
		"run 'skillrepo skill list --state archived' to see archived skills")
}

// activeSkill reports whether a skill outside .archive/ has the name.
func activeSkill(skills []SkillInfo, name string) bool {
	for _, si := range skills {
		if !si.Archived && si.Name == name {
			return true
		}
	}
	return false
}

// restorePurged stages the purged skill p back where it lived before it
// was archived (read from history; <name>/ when history does not say) and
// commits; out is filled in.
func (l *Library) restorePurged(tx *writeTx, p *PurgedArchive, prov Provenance, out *RestoreResult) error {
	name := ArchivedName(p.Dir)
	to, guessed, err := l.restoreTarget(tx, p.Parent.String(), p.Dir)
	if err != nil {
		return err
	}
	snap, err := l.Snapshot(p.Parent.String())
	if err != nil {
		return err
	}
	fsys := snap.FS()
	err = fs.WalkDir(fsys, p.Dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return err
		}
		return tx.gtx.WriteFile(to+strings.TrimPrefix(f, p.Dir), data, info.Mode().IsRegular() && info.Mode()&0o111 != 0)
	})
	if err != nil {
		return fmt.Errorf("restore %s from %s: %w", name, abbrev(p.Parent), err)
	}
	*out = RestoreResult{Name: path.Base(to), From: p.Dir, To: to, Guessed: guessed, PurgedIn: p.Removed.String()}
	body := fmt.Sprintf("Restored from history: %s was purged by %s; read from %s.", p.Dir, abbrev(p.Removed), abbrev(p.Parent))
	if guessed {
		body += fmt.Sprintf("\n\nHistory does not say where %s lived; restored as %s.", p.Dir, to)
	}
	out.Commit, err = tx.Commit(moveMessage(ActionRestore, out.Name, p.Dir, body, prov))
	return err
}

// abbrev is a commit's 12-character abbreviation, for messages.
func abbrev(h Hash) string { return h.String()[:12] }
