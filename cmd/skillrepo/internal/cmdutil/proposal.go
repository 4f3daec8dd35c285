package cmdutil

import (
	"fmt"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// ReportProposed tells the user where a proposed write went (a skill
// write, a pin, a memory edit made with --propose).
func ReportProposed(f *Factory, id string) {
	fmt.Fprintf(f.IO.ErrOut, "proposal %s: review with 'skillrepo proposal diff %s', approve with 'skillrepo proposal approve %s'\n", id, id, id)
}

// ProposalRev is the revision a read with --proposal ID looks at.
func ProposalRev(id, rev string) (string, error) {
	if id == "" {
		return rev, nil
	}
	if rev != "" {
		return "", UsageErrorf("--proposal and --rev are exclusive")
	}
	if err := skillrepo.ValidateProposalID(id); err != nil {
		return "", &FlagError{Err: err}
	}
	return skillrepo.ProposalBranch(id), nil
}

// PublishJSON is a published proposal in `proposal publish --json` and
// `remote sync --json` (docs/json.md).
type PublishJSON struct {
	ID              string `json:"id"`
	Remote          string `json:"remote"`
	Branch          string `json:"branch"`
	Tip             string `json:"tip"`
	Pushed          bool   `json:"pushed"`
	PullRequest     string `json:"pull_request"`
	PullRequestNote string `json:"pull_request_note,omitempty"`
	DryRun          bool   `json:"dry_run"`
}

// NewPublishJSON is r as JSON.
func NewPublishJSON(r *remote.PublishResult) PublishJSON {
	return PublishJSON{ID: r.ID, Remote: r.Remote, Branch: r.Branch, Tip: HashString(r.Tip), Pushed: r.Pushed,
		PullRequest: r.PullRequest, PullRequestNote: r.PullRequestNote, DryRun: r.DryRun}
}

// ReportPublished says on stderr where a publish left the proposal.
func ReportPublished(f *Factory, r *remote.PublishResult) {
	w := f.IO.ErrOut
	switch {
	case r.DryRun && r.Pushed:
		fmt.Fprintf(w, "dry run: would push %s to %s at %s\n", r.Branch, r.Remote, Short(r.Tip))
	case r.DryRun:
		fmt.Fprintf(w, "dry run: %s already has %s at %s\n", r.Remote, r.Branch, Short(r.Tip))
	case r.Pushed:
		fmt.Fprintf(w, "%s published proposal %s: %s on %s at %s\n", f.IO.Green("✓"), r.ID, r.Branch, r.Remote, Short(r.Tip))
	default:
		fmt.Fprintf(w, "proposal %s: %s already has %s at %s\n", r.ID, r.Remote, r.Branch, Short(r.Tip))
	}
	switch {
	case r.PullRequest != "":
		fmt.Fprintf(w, "  pull request: %s\n", r.PullRequest)
	case r.PullRequestNote != "" && !r.DryRun:
		fmt.Fprintf(w, "  no pull request: %s\n", r.PullRequestNote)
	}
}
