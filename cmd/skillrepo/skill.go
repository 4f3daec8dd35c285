package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

func newSkillCmd(f *factory) *cobra.Command {
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
	Force     bool   // a person's write that lint errors do not stop
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
	fl.BoolVar(&w.Force, "force", false, "write even when the result has lint errors under the library's profile (--origin user only)")
}

// lintGate is the check every CLI write passes: the write must not add
// lint errors, under the library's profile (its config's, else its
// runtime's), to the skills it touches. Errors the skills already had
// before the write (a name that never matched its folder) do not block
// an unrelated patch; they are lint's to report. A person may write
// anyway with --force; an agent never may. base is the revision the
// write starts from.
func (w *writeFlags) lintGate(lib *skillrepo.Library, base string) (func(fs.FS, []string) error, error) {
	if w.Force {
		if w.Origin != skillrepo.OriginUser {
			return nil, usageErrorf("--force is for a person's writes (--origin user), not --origin %s", w.Origin)
		}
		return nil, nil
	}
	gate := func(fsys fs.FS, dirs []string) error {
		return lint.GateFor(fsys, dirs, lib.Config.LintSettings())
	}
	return func(fsys fs.FS, dirs []string) error {
		err := gate(fsys, dirs)
		var ef *lint.ErrorsFound
		if !errors.As(err, &ef) {
			return err
		}
		if snap, serr := lib.Snapshot(base); serr == nil {
			var before *lint.ErrorsFound
			if errors.As(gate(snap.FS(), dirs), &before) {
				if ef = ef.Without(before); ef == nil {
					return nil
				}
				err = ef
			}
		}
		if w.Origin == skillrepo.OriginUser {
			return &hintedError{err: err, hint: "fix the findings, or write anyway with --force"}
		}
		return err
	}, nil
}

func (w *writeFlags) provenance() (skillrepo.Provenance, error) {
	if !skillrepo.ValidOrigin(w.Origin) {
		return skillrepo.Provenance{}, usageErrorf("--origin %q: want user, foreground, background-review, curator or import", w.Origin)
	}
	return skillrepo.Provenance{Origin: w.Origin, ReviewID: w.ReviewID, SessionID: w.SessionID, Model: w.Model}, nil
}

// readContent reads --content-file (a path, or - for stdin), at most the
// largest file a skill may hold: no input is loaded past that.
func readContent(f *factory, path string) (string, error) {
	if path == "" {
		return "", usageErrorf("--content-file is required (a path, or - for standard input)")
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
		return &hintedError{err: err, hint: "nothing was written; split the content, or keep large data outside the skill"}
	case errors.As(err, &odd):
		return &hintedError{err: err, hint: "to read from a pipe, pass " + flag + " - and redirect it to standard input"}
	}
	return err
}

type applyJSON struct {
	Commit   string               `json:"commit,omitempty"`
	Branch   string               `json:"branch"`
	Proposal string               `json:"proposal,omitempty"`
	DryRun   bool                 `json:"dry_run"`
	Paths    []string             `json:"paths"`
	Results  []skillrepo.OpResult `json:"results"`
}

// applyOps runs a batch and reports it.
func applyOps(cmd *cobra.Command, f *factory, w *writeFlags, ops []skillrepo.Op) error {
	prov, err := w.provenance()
	if err != nil {
		return err
	}
	lib, err := f.Library()
	if err != nil {
		return err
	}
	branch, from, proposal, err := w.writeTarget(f, lib)
	if err != nil {
		return err
	}
	base := firstNonEmpty(branch, lib.MainBranch())
	if _, err := lib.BranchTip(base); err != nil {
		base = firstNonEmpty(from, lib.MainBranch()) // a proposal made by this write
	}
	verify, err := w.lintGate(lib, base)
	if err != nil {
		return err
	}
	if err := checkDuplicates(cmd, f, lib, prov, branch, from, ops); err != nil {
		return err
	}
	// An autonomous origin passes the guards the agent's tools enforce
	// (curator-managed only, pinned refused, delete needs absorbed_into),
	// so the CLI is no way around them.
	res, err := lib.Apply(cmd.Context(), skillrepo.ApplyOptions{Branch: branch, From: from, Ops: ops, Provenance: prov, DryRun: w.DryRun,
		Check: agenttools.AutonomousCheck(lib, prov), Verify: verify})
	if err != nil {
		return explainApplyError(err)
	}
	if f.JSON {
		paths := res.Update.Paths
		if paths == nil {
			paths = []string{}
		}
		return printJSON(f.IO.Out, applyJSON{Commit: hashString(res.Commit), Branch: res.Update.Branch, Proposal: proposal, DryRun: w.DryRun, Paths: paths, Results: res.Results})
	}
	out := f.IO.ErrOut
	for _, r := range res.Results {
		fmt.Fprintf(out, "%s %s\n", f.IO.Green("✓"), r.Message)
	}
	if w.DryRun {
		fmt.Fprintf(out, "dry run: would commit to %s, changing:\n", res.Update.Branch)
	} else {
		fmt.Fprintf(out, "committed %s on %s, changing:\n", short(res.Commit), res.Update.Branch)
	}
	for _, p := range res.Update.Paths {
		fmt.Fprintf(out, "  %s\n", p)
	}
	if proposal != "" && !w.DryRun {
		reportProposed(f, proposal)
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
func undeleteHint(f *factory, r skillrepo.OpResult, commit skillrepo.Hash) string {
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
	return fmt.Sprintf("bring it back with '%s revert --no-edit %s'", git, short(commit))
}

// explainApplyError adds the file preview a failed patch carries.
func explainApplyError(err error) error {
	var pe *skillrepo.PatchError
	if errors.As(err, &pe) && pe.Preview != "" {
		lines := strings.Split(strings.TrimRight(pe.Preview, "\n"), "\n")
		if len(lines) > 12 {
			lines = lines[:12]
		}
		return &hintedError{err: err, hint: "the file starts with:\n  " + strings.Join(lines, "\n  ")}
	}
	return err
}

type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() }
func (e *hintedError) Unwrap() error { return e.err }
func (e *hintedError) Hint() string  { return e.hint }

// checkDuplicates runs the agent tools' duplicate check on the creates
// among ops: from an autonomous origin a create that overlaps an existing
// skill is refused, naming it (the agent patches it, or passes
// --force-new with a reason); a person's create only warns.
func checkDuplicates(cmd *cobra.Command, f *factory, lib *skillrepo.Library, prov skillrepo.Provenance, branch, from string, ops []skillrepo.Op) error {
	rev := branch
	if rev == "" {
		rev = lib.MainBranch()
	}
	if _, err := lib.BranchTip(rev); errors.Is(err, skillrepo.ErrNotFound) && from != "" {
		rev = from
	}
	dups, err := agenttools.CreateDuplicates(cmd.Context(), agenttools.Open(lib), rev, ops, agenttools.DuplicateThreshold)
	if err != nil {
		return fmt.Errorf("duplicate check: %w", err)
	}
	for i := range ops {
		ms := dups[i]
		if len(ms) == 0 {
			continue
		}
		if prov.Autonomous() {
			err := &skillrepo.RefusedError{Reason: fmt.Sprintf("refusing to create %q from origin %s: it overlaps the existing skill %q (similarity %.2f; shared: %s)",
				ops[i].Name, prov.Origin, ms[0].Name, ms[0].Similarity, strings.Join(ms[0].Shared, ", "))}
			return &hintedError{err, fmt.Sprintf("patch it instead: skillrepo skill view %s, then skillrepo skill patch %s\nonly if it is truly a different skill: add --force-new --reason 'how it differs'", ms[0].Name, ms[0].Name)}
		}
		fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", agenttools.DuplicateWarning(ops[i].Name, ms))
	}
	return nil
}
