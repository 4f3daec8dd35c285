package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
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

// lintGate is the check every CLI write passes: the skills it touches
// must have no lint errors under the library's profile (its config's,
// else its runtime's). A person may write anyway with --force; an agent
// never may.
func (w *writeFlags) lintGate(lib *skillrepo.Library) (func(fs.FS, []string) error, error) {
	if w.Force {
		if w.Origin != skillrepo.OriginUser {
			return nil, usageErrorf("--force is for a person's writes (--origin user), not --origin %s", w.Origin)
		}
		return nil, nil
	}
	return func(fsys fs.FS, dirs []string) error {
		err := lint.GateFor(fsys, dirs, lib.Config.Raw, lib.Config.Runtime)
		var ef *lint.ErrorsFound
		if errors.As(err, &ef) && w.Origin == skillrepo.OriginUser {
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

// readContent reads --content-file (a path, or - for stdin).
func readContent(f *factory, path string) (string, error) {
	if path == "" {
		return "", usageErrorf("--content-file is required (a path, or - for standard input)")
	}
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(f.IO.In, 16<<20))
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("read content: %w", err)
	}
	return string(b), nil
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
	verify, err := w.lintGate(lib)
	if err != nil {
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
	return nil
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
