package cmdutil

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// WriteFlags are the flags every write of a skill or a memory takes.
type WriteFlags struct {
	Origin    string
	ReviewID  string
	SessionID string
	Model     string
	DryRun    bool
	Branch    string
	Propose   bool   // commit to a new proposal branch
	Proposal  string // add to this proposal
	Force     bool   // a person's write that lint errors and a likely secret do not stop
}

// AddWriteFlags declares w's flags on cmd.
func AddWriteFlags(cmd *cobra.Command, w *WriteFlags) {
	fl := cmd.Flags()
	fl.StringVar(&w.Origin, "origin", skillrepo.OriginUser, "who is writing: user, foreground, background-review, curator or import")
	fl.StringVar(&w.ReviewID, "review-id", "", "Review-Id trailer (background reviews)")
	fl.StringVar(&w.SessionID, "session-id", "", "Session-Id trailer")
	fl.StringVar(&w.Model, "model", "", "Model trailer")
	fl.BoolVar(&w.DryRun, "dry-run", false, "validate and show what would be committed, write nothing")
	fl.StringVar(&w.Branch, "branch", "", "write to this branch instead of the main branch")
	_ = fl.MarkHidden("branch")
	fl.BoolVar(&w.Propose, "propose", false, "commit to a new proposal branch proposals/<id> (id: --review-id, else generated) instead of main")
	fl.StringVar(&w.Proposal, "proposal", "", "add the write to proposal `id` (created from main when new)")
	fl.BoolVar(&w.Force, "force", false, "write even when the result has lint errors under the library's profile or a likely secret (--origin user only)")
}

// Check is the flags' own rules, checked when they are parsed (before
// the library opens): a known --origin, and --force for a person's
// writes only.
func (w *WriteFlags) Check() error {
	if !skillrepo.ValidOrigin(w.Origin) {
		return UsageErrorf("--origin %q: want user, foreground, background-review, curator or import", w.Origin)
	}
	if w.Force && w.Origin != skillrepo.OriginUser {
		return UsageErrorf("--force is for a person's writes (--origin user), not --origin %s", w.Origin)
	}
	return nil
}

// Policy is the library's write policy for this command's writer: its
// origin and trailers, --force, and where it asked to land (--propose,
// --proposal, --branch; else main, or a proposal for a non-user origin
// under review.write_approval, named by --review-id when it is one). The
// rules every write passes live there; a contradiction between the
// flags is a usage error.
func (w *WriteFlags) Policy(lib *skillrepo.Library) (*skillrepo.Policy, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	prov := skillrepo.Provenance{Origin: w.Origin, ReviewID: w.ReviewID, SessionID: w.SessionID, Model: w.Model}
	pol, err := lib.Policy(skillrepo.Writer{Provenance: prov, Force: w.Force, Branch: w.Branch, Proposal: w.Proposal, Propose: w.Propose})
	if errors.Is(err, skill.ErrInvalid) {
		return nil, &FlagError{Err: err}
	}
	return pol, err
}

// WriteTarget is where a write that is not a skill batch (a pin, a move,
// a memory edit) lands, by the write policy's route, and the policy.
func (w *WriteFlags) WriteTarget(lib *skillrepo.Library) (*skillrepo.Policy, skillrepo.Route, error) {
	pol, err := w.Policy(lib)
	if err != nil {
		return nil, skillrepo.Route{}, err
	}
	return pol, pol.Route(), nil
}

// InputError names the flag an unreadable input came from and says what
// to do about a refused one.
func InputError(flag string, err error) error {
	err = fmt.Errorf("read %s: %w", flag, err)
	var big *boundedread.TooLargeError
	var odd *boundedread.NotRegularError
	switch {
	case errors.As(err, &big):
		return skillrepo.WithHint(err, "nothing was written; split the content, or keep large data outside the skill")
	case errors.As(err, &odd):
		return skillrepo.WithHint(err, "to read from a pipe, pass "+flag+" - and redirect it to standard input")
	}
	return err
}

// NewCurator is the curator over the command's library, on the command's
// clock (--now), with progress on a terminal and the agents whose
// unattended runs it reads for the skills a scheduled job uses.
func NewCurator(f *Factory) (*curator.Curator, error) {
	lib, err := f.Library()
	if err != nil {
		return nil, err
	}
	c := &curator.Curator{Lib: lib, Now: f.Now, Agents: agents.Implementing[curator.Unattended]()}
	if p := f.Progress(); p != nil {
		c.Progress = p
	}
	return c, nil
}
