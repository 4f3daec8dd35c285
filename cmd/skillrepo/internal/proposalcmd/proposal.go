// Package proposalcmd is the `skillrepo proposal` command group: list,
// show, diff, approve, reject and publish. Each verb is a file with an
// options struct, a NewCmd… that only parses flags into it (handed a
// runF, a test checks the parse without a library) and a …Run that does
// the work through the domain (docs/architecture.md §6).
package proposalcmd

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// NewCmdProposal is the proposal command group.
func NewCmdProposal(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "proposal <command>",
		Short: "Review staged writes: proposals are branches, approval is a merge",
		Long: `A write made with --propose (or by a non-user origin when the config sets
review.write_approval: true) becomes a commit on the branch proposals/<id>,
forked from main, instead of changing main. Review it with list, show and
diff; approve merges it into main with a merge commit carrying Approved-By;
reject keeps its tip under refs/skillrepo/rejected/<id>.

Proposal branches are ordinary git branches: 'git push origin "proposals/*"'
(or 'skillrepo push') lets a team review them as pull requests, and a
proposal merged by git or on GitHub counts as approved.`,
		Example: `  skillrepo skill patch ci-debugging --old "step one" --new "step 1" --propose
  skillrepo proposal list
  skillrepo proposal diff p-20261130-0a1b2c
  skillrepo proposal approve p-20261130-0a1b2c --by "Ada <ada@example.com>"`,
	}
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdShow(f, nil),
		NewCmdDiff(f, nil),
		NewCmdApprove(f, nil),
		NewCmdReject(f, nil),
		NewCmdPublish(f, nil),
	)
	return cmd
}

// proposalJSON is one proposal in list and show output.
type proposalJSON struct {
	ID         string         `json:"id"`
	State      string         `json:"state"`
	Ref        string         `json:"ref"`
	Tip        string         `json:"tip"`
	Base       string         `json:"base"`
	Created    string         `json:"created"`
	Updated    string         `json:"updated"`
	Origin     string         `json:"origin"`
	ReviewID   string         `json:"review_id"`
	Skills     []string       `json:"skills"`
	Files      []fileStatJSON `json:"files"`
	Added      int            `json:"added"`
	Deleted    int            `json:"deleted"`
	Commits    int            `json:"commits"`
	Mergeable  *bool          `json:"mergeable"`
	Applied    bool           `json:"applied"`
	Conflicts  []conflictJSON `json:"conflicts"`
	RejectedBy string         `json:"rejected_by,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	RejectedAt string         `json:"rejected_at,omitempty"`
	// Remote is where the proposal stands on the shared remote (absent
	// when it was never published: docs/remote.md).
	Remote *proposalRemoteJSON `json:"remote,omitempty"`
}

type proposalRemoteJSON struct {
	State       string `json:"state"`
	PullRequest string `json:"pull_request,omitempty"`
	PublishedAt string `json:"published_at,omitempty"`
}

func toProposalRemoteJSON(r remote.ProposalState) *proposalRemoteJSON {
	out := &proposalRemoteJSON{State: r.State, PullRequest: r.PullRequest}
	if !r.At.IsZero() {
		out.PublishedAt = cmdutil.RFC3339(r.At)
	}
	return out
}

type fileStatJSON struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary"`
}

type conflictJSON struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

func toProposalJSON(p *skillrepo.Proposal) proposalJSON {
	out := proposalJSON{
		ID: p.ID, State: string(p.State), Ref: p.Ref, Tip: cmdutil.HashString(p.Tip), Base: cmdutil.HashString(p.Base),
		Created: cmdutil.RFC3339(p.Created), Updated: cmdutil.RFC3339(p.Updated), Origin: p.Origin, ReviewID: p.ReviewID,
		Skills: p.Skills, Files: []fileStatJSON{}, Added: p.Added, Deleted: p.Deleted, Commits: len(p.Commits),
		Conflicts: conflictsJSON(p.Conflicts), Applied: p.Applied,
	}
	if out.Skills == nil {
		out.Skills = []string{}
	}
	for _, fs := range p.Files {
		out.Files = append(out.Files, fileStatJSON{Path: fs.Path, Status: fs.Status, Added: fs.Added, Deleted: fs.Deleted, Binary: fs.Binary})
	}
	if p.Checked {
		m := p.Mergeable()
		out.Mergeable = &m
	}
	if r := p.Rejection; r != nil {
		out.RejectedBy, out.Reason, out.RejectedAt = r.By, r.Reason, cmdutil.RFC3339(r.When)
	}
	return out
}

func conflictsJSON(cs []merge.PathConflict) []conflictJSON {
	out := []conflictJSON{}
	for _, c := range cs {
		out = append(out, conflictJSON{Path: c.Path, Reason: string(c.Reason), Detail: c.Detail})
	}
	return out
}

// mergeState is the list's MERGES column.
func mergeState(p *skillrepo.Proposal) string {
	switch {
	case p.State == skillrepo.ProposalApproved:
		return "merged"
	case p.State == skillrepo.ProposalRejected:
		return "rejected"
	case !p.Checked:
		return "?"
	case p.Applied:
		return "applied"
	case p.Mergeable():
		return "yes"
	}
	return "conflict"
}
