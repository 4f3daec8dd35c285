// Package skillcmd is the `skillrepo skill` command group: reads (list,
// view, log, blame) and writes (create, edit, patch, delete, write-file,
// remove-file, apply, pin, unpin, adopt, disown, move, archive, restore).
// Each verb has an options struct, a NewCmd… that only parses flags and
// arguments into it (handed a runF, a test checks the parse without a
// library) and a …Run that does the work through the domain's write
// policy (docs/architecture.md §2.1, §6).
package skillcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// NewCmdSkill is the skill command group.
func NewCmdSkill(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill <command>",
		Short: "Read and write skills (every write is a commit)",
		Example: `  skillrepo skill list
  skillrepo skill view ci-debugging
  skillrepo skill patch ci-debugging --old "step one" --new "step 1"`,
	}
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdView(f, nil),
		NewCmdCreate(f, nil),
		NewCmdEdit(f, nil),
		NewCmdPatch(f, nil),
		NewCmdDelete(f, nil),
		NewCmdWriteFile(f, nil),
		NewCmdRemoveFile(f, nil),
		NewCmdApply(f, nil),
		NewCmdLog(f, nil), NewCmdBlame(f, nil),
		NewCmdPin(f, nil), NewCmdUnpin(f, nil), NewCmdAdopt(f, nil), NewCmdDisown(f, nil), NewCmdMove(f, nil),
		NewCmdArchive(f, nil), NewCmdRestore(f, nil),
	)
	return cmd
}

// requireContentFile: --content-file was given (checked when the flags
// are parsed, before anything is read).
func requireContentFile(path string) error {
	if path == "" {
		return cmdutil.UsageErrorf("--content-file is required (a path, or - for standard input)")
	}
	return nil
}

// readContent reads --content-file (a path, or - for stdin), at most the
// largest file a skill may hold: no input is loaded past that.
func readContent(f *cmdutil.Factory, path string) (string, error) {
	b, err := boundedread.ReadInput(path, f.IO.In, skill.MaxFileBytes)
	if err != nil {
		return "", cmdutil.InputError("--content-file", err)
	}
	return string(b), nil
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
func applyOps(ctx context.Context, f *cmdutil.Factory, w *cmdutil.WriteFlags, ops []skillrepo.Op) error {
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, err := w.Policy(lib)
	if err != nil {
		return err
	}
	res, err := pol.Apply(ctx, ops, w.DryRun)
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
