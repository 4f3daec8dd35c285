package cmdutil

import (
	"fmt"

	"github.com/skillrepo/skillrepo/skillrepo"
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
