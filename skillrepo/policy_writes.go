package skillrepo

import (
	"context"
	"errors"
)

// The write policy's verbs other than skill batches (policy.go): every
// write a door makes goes through its writer's policy, so where it lands
// and whose commit it is (the route and the provenance) are decided in
// one place, and the meta checks an autonomous writer passes run inside
// the verb, not in each door (docs/architecture.md §2.1).

// target is where one of the policy's writes commits, and as whom.
type target struct {
	branch, from string
	prov         Provenance
	force        bool // a person's --force (Writer.Force)
}

// target is the policy's route and its writer's provenance.
func (p *Policy) target() target {
	return target{branch: p.route.Branch, from: p.route.From, prov: p.w.Provenance, force: p.w.Force}
}

// Pin adds the skill to the pins file in one commit (Skill-Action: pin)
// on the policy's route; pinning a pinned skill changes nothing. An
// autonomous writer passes the ownership guard ([Policy.checkMeta]).
// Error wraps ErrNotFound when the skill does not exist on the branch.
func (p *Policy) Pin(ctx context.Context, name string, opts MetaOptions) (*MetaResult, error) {
	if err := p.checkMeta(ActionPin, name); err != nil {
		return nil, err
	}
	return p.l.setPinned(ctx, name, true, p.target(), opts)
}

// Unpin removes the skill from the pins file in one commit (Skill-Action:
// unpin); a skill no longer in the library can still be unpinned. Only a
// person or the working agent unpins.
func (p *Policy) Unpin(ctx context.Context, name string, opts MetaOptions) (*MetaResult, error) {
	if err := p.checkMeta(ActionUnpin, name); err != nil {
		return nil, err
	}
	return p.l.setPinned(ctx, name, false, p.target(), opts)
}

// Adopt makes a user-owned skill curator-managed with an empty commit
// carrying Skill-Action: adopt; adopting a curator-managed skill changes
// nothing. Only a person or the working agent adopts.
func (p *Policy) Adopt(ctx context.Context, name string, opts MetaOptions) (*MetaResult, error) {
	if err := p.checkMeta(ActionAdopt, name); err != nil {
		return nil, err
	}
	return p.l.setOwner(ctx, name, true, p.target(), opts)
}

// Disown hands a curator-managed skill back to the user with an empty
// commit carrying Skill-Action: disown. Only a person or the working agent
// disowns.
func (p *Policy) Disown(ctx context.Context, name string, opts MetaOptions) (*MetaResult, error) {
	if err := p.checkMeta(ActionDisown, name); err != nil {
		return nil, err
	}
	return p.l.setOwner(ctx, name, false, p.target(), opts)
}

// AdoptAll makes every active user-owned skill curator-managed in one
// empty commit naming each (Skill-Action: adopt, one Skill-Name per
// skill): how a person hands the skills they already have to the agent's
// reviews and curator at once (`init --adopt`). It returns the skills
// adopted, sorted; none means no commit. Only a person or the working
// agent adopts.
func (p *Policy) AdoptAll(ctx context.Context, opts MetaOptions) ([]string, *UpdateResult, error) {
	if p.w.Provenance.Autonomous() {
		return nil, nil, p.metaRefusal(ActionAdopt, "every skill")
	}
	return p.l.adoptAll(ctx, p.target(), opts)
}

// MoveSkill moves a skill to another category and/or renames it, in one
// commit (Skill-Action: move or rename, Skill-From: the old folder) on the
// policy's route; the skill keeps its history, ownership and pin. An
// autonomous writer passes the ownership guard. Errors: ErrNotFound,
// ErrExists when the destination is taken, skill.ErrInvalid for a bad name
// or category.
func (p *Policy) MoveSkill(ctx context.Context, name string, opts MoveOptions) (*MetaResult, error) {
	if err := p.checkMeta(ActionMove, name); err != nil {
		return nil, err
	}
	return p.l.moveSkill(ctx, name, p.target(), opts)
}

// Archive moves one skill to .archive/<name>/ (suffix -YYYYMMDDHHMMSS when
// taken) as one commit with Skill-Action archive and Skill-From naming the
// folder it left, and records the state in the usage sidecar. A pinned
// skill is refused; an autonomous writer archives only a skill it may
// change (the ownership guard). Errors wrap ErrNotFound, ErrExists
// (already archived), ErrRefused (pinned) and the write's.
func (p *Policy) Archive(ctx context.Context, opts ArchiveOptions) (*ArchiveResult, error) {
	if err := p.checkMeta(ActionArchive, opts.Name); err != nil {
		return nil, err
	}
	return p.l.archive(ctx, p.target(), opts)
}

// Restore moves an archived skill back to the folder it was archived from
// (category included, read from history; <name>/ when history does not
// say) as one commit with Skill-Action restore, and marks it active in the
// usage sidecar. A skill purged from .archive/ is read back from the
// commit before the purge (Library.findPurged). Errors: ErrNotFound (no
// such archived skill), ErrExists (the destination is taken) and the
// write's.
func (p *Policy) Restore(ctx context.Context, opts RestoreOptions) (*RestoreResult, error) {
	return p.l.restore(ctx, p.target(), opts)
}

// ChangeMemory applies one memory operation on the policy's route, under
// the library lock (reading the store as the branch has it), and commits
// the new file with the writer's provenance. Errors: *memory.Error for a
// refused operation (nothing written), and the write's.
func (p *Policy) ChangeMemory(ctx context.Context, opts MemoryOptions) (*MemoryResult, error) {
	return p.l.changeMemory(ctx, p.target(), opts)
}

// ApproveProposal merges proposal id into main ([Library.approveProposal]
// gives the merge and its checks, the lint gate among them). The
// Approved-By trailer names the writer: opts.By when the door names one (a
// person's --by, the web form), else the agent that asked (an MCP client
// names itself), else the committer.
func (p *Policy) ApproveProposal(ctx context.Context, id string, opts ApproveOptions) (*ApproveResult, error) {
	opts.By = p.approver(opts.By)
	return p.l.approveProposal(ctx, id, opts)
}

// ApproveAll approves every open proposal, oldest first, as
// [Policy.ApproveProposal] does. A proposal that conflicts or that the
// lint gate refuses is skipped (its outcome carries the error) and the
// queue goes on; any other error stops it and is returned.
func (p *Policy) ApproveAll(ctx context.Context, opts ApproveOptions) ([]ApproveOutcome, error) {
	props, err := p.l.Proposals().List(ProposalQuery{})
	if err != nil {
		return nil, err
	}
	out := []ApproveOutcome{}
	for _, pr := range props {
		if pr.State != ProposalOpen {
			continue
		}
		res, err := p.ApproveProposal(ctx, pr.ID, opts)
		out = append(out, ApproveOutcome{ID: pr.ID, Result: res, Err: err})
		if err != nil && !errors.Is(err, ErrConflict) && !errors.Is(err, ErrRefused) {
			return out, err
		}
	}
	return out, nil
}

// RejectProposal deletes proposal id's branch and keeps its tip under
// refs/skillrepo/rejected/<id> ([Library.rejectProposal]); the
// Rejected-By trailer names the writer as an approval's Approved-By does.
func (p *Policy) RejectProposal(ctx context.Context, id string, opts RejectOptions) (*RejectResult, error) {
	opts.By = p.approver(opts.By)
	return p.l.rejectProposal(ctx, id, opts)
}

// approver is who approves or rejects: by when the door names someone;
// else the agent, by the name its client gave and its origin ("claude-code/2.1
// (foreground)"); else an agent origin by its word ("agent (curator)");
// else "" — the committer, a person at their own library.
func (p *Policy) approver(by string) string {
	if by != "" {
		return by
	}
	prov := p.w.Provenance
	switch {
	case prov.Agent != "":
		return prov.Agent + " (" + prov.Origin + ")"
	case prov.byAgent():
		return "agent (" + prov.Origin + ")"
	}
	return ""
}
