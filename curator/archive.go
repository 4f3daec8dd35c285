package curator

import (
	"context"
	"fmt"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Archive archives one skill by hand (one commit, origin user). Like the
// reference's `curator archive`, it refuses a pinned skill: a pin means
// "keep this where it is" whoever asks. Errors: skillrepo.ErrRefused
// (pinned) and those of skillrepo.Policy.Archive.
func (c *Curator) Archive(ctx context.Context, name, reason string, dryRun bool) (*skillrepo.ArchiveResult, error) {
	snap, err := c.Lib.Snapshot("")
	if err != nil {
		return nil, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return nil, err
	}
	if !si.Archived {
		usage, err := c.Lib.Usage().Load()
		if err != nil {
			return nil, err
		}
		owners, err := c.ownership().Owners(snap, []skillrepo.SkillInfo{si}, usage)
		if err != nil {
			return nil, fmt.Errorf("skill ownership: %w", err)
		}
		if owners[si.Dir].Pinned {
			return nil, &skillrepo.RefusedError{Reason: fmt.Sprintf("skill %q is pinned; unpin it first to archive it", si.Name)}
		}
	}
	pol, err := c.Lib.Policy(skillrepo.Writer{})
	if err != nil {
		return nil, err
	}
	return pol.Archive(ctx, skillrepo.ArchiveOptions{Name: name, Reason: reason, DryRun: dryRun})
}
