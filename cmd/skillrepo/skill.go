package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

func newSkillCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill <command>",
		Short: "Read and write skills (every write is a commit)",
		Example: `  skillrepo skill list
  skillrepo skill view ci-debugging
  skillrepo skill patch ci-debugging --old "step one" --new "step 1"`,
	}
	cmd.AddCommand(
		newSkillListCmd(f),
		newSkillViewCmd(f),
		newSkillCreateCmd(f),
		newSkillEditCmd(f),
		newSkillPatchCmd(f),
		newSkillDeleteCmd(f),
		newSkillWriteFileCmd(f),
		newSkillRemoveFileCmd(f),
		newSkillApplyCmd(f),
		newSkillLogCmd(f), newSkillBlameCmd(f), newSkillPinCmd(f), newSkillUnpinCmd(f), newSkillAdoptCmd(f), newSkillDisownCmd(f), newSkillMoveCmd(f),
		newSkillArchiveCmd(f), newSkillRestoreCmd(f),
	)
	return cmd
}

// writeFlags are the flags every skill write takes.
type writeFlags struct {
	Origin    string
	ReviewID  string
	SessionID string
	Model     string
	DryRun    bool
	Branch    string
	Propose   bool   // commit to a new proposal branch (proposal.go)
	Proposal  string // add to this proposal (proposal.go)
	Force     bool   // a person's write that lint errors and a likely secret do not stop
}

func addWriteFlags(cmd *cobra.Command, w *writeFlags) {
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

// policy is the library's write policy for this command's writer: its
// origin and trailers, --force, and where it asked to land (--propose,
// --proposal, --branch; else main, or a proposal for a non-user origin
// under review.write_approval, named by --review-id when it is one). The
// rules every write passes live there; a contradiction between the
// flags is a usage error.
func (w *writeFlags) policy(lib *skillrepo.Library) (*skillrepo.Policy, error) {
	prov, err := w.provenance()
	if err != nil {
		return nil, err
	}
	if w.Force && w.Origin != skillrepo.OriginUser {
		return nil, cmdutil.UsageErrorf("--force is for a person's writes (--origin user), not --origin %s", w.Origin)
	}
	pol, err := lib.Policy(skillrepo.Writer{Provenance: prov, Force: w.Force, Branch: w.Branch, Proposal: w.Proposal, Propose: w.Propose})
	if errors.Is(err, skill.ErrInvalid) {
		return nil, &cmdutil.FlagError{Err: err}
	}
	return pol, err
}

// writeTarget is where a write that is not a skill batch (a pin, a move,
// a memory edit) lands, by the write policy's route, and the policy.
func (w *writeFlags) writeTarget(lib *skillrepo.Library) (*skillrepo.Policy, skillrepo.Route, error) {
	pol, err := w.policy(lib)
	if err != nil {
		return nil, skillrepo.Route{}, err
	}
	return pol, pol.Route(), nil
}

func (w *writeFlags) provenance() (skillrepo.Provenance, error) {
	if !skillrepo.ValidOrigin(w.Origin) {
		return skillrepo.Provenance{}, cmdutil.UsageErrorf("--origin %q: want user, foreground, background-review, curator or import", w.Origin)
	}
	return skillrepo.Provenance{Origin: w.Origin, ReviewID: w.ReviewID, SessionID: w.SessionID, Model: w.Model}, nil
}

// readContent reads --content-file (a path, or - for stdin), at most the
// largest file a skill may hold: no input is loaded past that.
func readContent(f *cmdutil.Factory, path string) (string, error) {
	if path == "" {
		return "", cmdutil.UsageErrorf("--content-file is required (a path, or - for standard input)")
	}
	b, err := boundedread.ReadInput(path, f.IO.In, skill.MaxFileBytes)
	if err != nil {
		return "", inputError("--content-file", err)
	}
	return string(b), nil
}

// inputError names the flag an unreadable input came from and says what
// to do about a refused one.
func inputError(flag string, err error) error {
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

type applyJSON struct {
	// Held: the create waits, unwritten, for the files it links
	// (skillrepo.HeldCreate); Missing names them.
	Held     bool                 `json:"held,omitempty"`
	Missing  []string             `json:"missing,omitempty"`
	Expired  []string             `json:"expired_held,omitempty"`
	Commit   string               `json:"commit,omitempty"`
	Branch   string               `json:"branch"`
	Proposal string               `json:"proposal,omitempty"`
	DryRun   bool                 `json:"dry_run"`
	Paths    []string             `json:"paths"`
	Results  []skillrepo.OpResult `json:"results"`
}

// applyOps runs a batch through the library's write policy and reports
// it.
func applyOps(cmd *cobra.Command, f *cmdutil.Factory, w *writeFlags, ops []skillrepo.Op) error {
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, err := w.policy(lib)
	if err != nil {
		return err
	}
	res, err := pol.Apply(cmd.Context(), ops, w.DryRun)
	if err != nil {
		return explainApplyError(err)
	}
	var expired []string
	for _, h := range res.Expired {
		expired = append(expired, fmt.Sprintf("the create of '%s' held since %s expired unwritten: its files never came (%s)", h.Name, cmdutil.RFC3339(h.Since), strings.Join(h.Missing, "; ")))
	}
	for _, warning := range append(res.Warnings, expired...) {
		fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", warning)
	}
	proposal := pol.Route().Proposal
	if f.JSON {
		paths := res.Update.Paths
		if paths == nil {
			paths = []string{}
		}
		out := applyJSON{Commit: cmdutil.HashString(res.Commit), Branch: res.Update.Branch, Proposal: proposal, DryRun: w.DryRun, Paths: paths, Results: res.Results, Expired: expired}
		if res.Held != nil {
			out.Held, out.Missing, out.Results = true, res.Held.Missing, []skillrepo.OpResult{}
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	out := f.IO.ErrOut
	if h := res.Held; h != nil {
		verb := "is held, not written yet"
		if w.DryRun {
			verb = "would be held"
		}
		session := "--session-id " + w.SessionID
		if w.ReviewID != "" {
			session = "--review-id " + w.ReviewID
		}
		fmt.Fprintf(out, "held: skill '%s' %s: its SKILL.md links files that are not there (%s)\n", h.Name, verb, strings.Join(h.Missing, "; "))
		fmt.Fprintf(out, "hint: write each with 'skillrepo skill write-file %s <path> --content-file <file> %s' and the skill lands with them in one commit\n", h.Name, session)
		return nil
	}
	for _, r := range res.Results {
		fmt.Fprintf(out, "%s %s\n", f.IO.Green("✓"), r.Message)
	}
	if w.DryRun {
		fmt.Fprintf(out, "dry run: would commit to %s, changing:\n", res.Update.Branch)
	} else {
		fmt.Fprintf(out, "committed %s on %s, changing:\n", cmdutil.Short(res.Commit), res.Update.Branch)
	}
	for _, p := range res.Update.Paths {
		fmt.Fprintf(out, "  %s\n", p)
	}
	if proposal != "" && !w.DryRun {
		cmdutil.ReportProposed(f, proposal)
	}
	if !w.DryRun && proposal == "" {
		for _, r := range res.Results {
			if hint := undeleteHint(f, r, res.Commit); hint != "" {
				fmt.Fprintf(out, "hint: %s\n", hint)
			}
		}
	}
	return nil
}

// undeleteHint says how a deleted skill comes back: an archived one is
// restored, a deleted one is in history and the delete commit reverts.
func undeleteHint(f *cmdutil.Factory, r skillrepo.OpResult, commit skillrepo.Hash) string {
	if r.Action != skillrepo.ActionDelete {
		return ""
	}
	if r.Archived {
		return fmt.Sprintf("bring it back with 'skillrepo skill restore %s'", r.Name)
	}
	git := "git"
	if f.Dir != "" && f.Dir != "." {
		git = "git -C " + f.Dir
	}
	return fmt.Sprintf("bring it back with '%s revert --no-edit %s'", git, cmdutil.Short(commit))
}

// explainApplyError adds what a person needs to go on: the file preview
// a failed patch carries, the commands that patch an existing skill
// instead of creating a duplicate.
func explainApplyError(err error) error {
	var re *skillrepo.RefusedError
	if errors.As(err, &re) && re.Guard == skillrepo.GuardDuplicate {
		name := re.Duplicates[0].Name
		return skillrepo.WithHint(err, fmt.Sprintf("patch it instead: skillrepo skill view %s, then skillrepo skill patch %s\nonly if it is truly a different skill: add --force-new --reason 'how it differs'", name, name))
	}
	var pe *skillrepo.PatchError
	if errors.As(err, &pe) && pe.Preview != "" {
		lines := strings.Split(strings.TrimRight(pe.Preview, "\n"), "\n")
		if len(lines) > 12 {
			lines = lines[:12]
		}
		return skillrepo.WithHint(err, "the file starts with:\n  "+strings.Join(lines, "\n  "))
	}
	return err
}
