package skillcmd

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ListOptions is what `skill list` was asked.
type ListOptions struct {
	Factory  *cmdutil.Factory
	State    string
	All      bool
	Rev      string
	Proposal string
}

// NewCmdList is `skill list`; runF, when not nil, runs instead of listRun.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "list [--state <active|stale|archived>] [--all]",
		Short: "List the skills of the library",
		Example: `  skillrepo skill list
  skillrepo skill list --state stale --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch opts.State {
			case "", usage.StateActive, usage.StateStale, usage.StateArchived:
			default:
				return cmdutil.UsageErrorf("--state %q: want active, stale or archived", opts.State)
			}
			var err error
			if opts.Rev, err = cmdutil.ProposalRev(opts.Proposal, opts.Rev); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.State, "state", "", "only skills in this state")
	cmd.Flags().BoolVar(&opts.All, "all", false, "include archived skills")
	cmd.Flags().StringVar(&opts.Rev, "rev", "", "read this branch or commit instead of the main branch")
	cmd.Flags().StringVar(&opts.Proposal, "proposal", "", "read proposal `id` (its branch) instead of the main branch")
	return cmd
}

type skillListItem struct {
	Name        string `json:"name"`
	Category    string `json:"category"`
	Path        string `json:"path"`
	State       string `json:"state"`
	Description string `json:"description"`
	Owner       string `json:"owner"`
	Pinned      bool   `json:"pinned"`
	// Unreadable: the SKILL.md does not parse (Error says why); agents
	// skip such a skill, and skill list exits 1.
	Unreadable bool   `json:"unreadable"`
	Error      string `json:"error,omitempty"`
}

// listSkills reads every skill with its description and state; unknown
// says why ownership shows as unknown (a shallow clone), else nil.
func listSkills(lib *skillrepo.Library, rev string) (items []skillListItem, unknown error, err error) {
	snap, err := lib.Snapshot(rev)
	if err != nil {
		return nil, nil, err
	}
	infos, err := snap.Skills()
	if err != nil {
		return nil, nil, err
	}
	recs, _, err := lib.UsageOf(snap)
	if err != nil {
		return nil, nil, err
	}
	owners, pins, unknown, err := ownersAndPins(lib, snap) // pin.go
	if err != nil {
		return nil, nil, err
	}
	items = make([]skillListItem, 0, len(infos))
	for _, si := range infos {
		it := skillListItem{Name: si.Name, Category: si.Category, Path: si.Dir, State: usage.StateActive,
			Owner: owners[si.Dir].Owner, Pinned: pins[si.Name]}
		if r, ok := recs[si.Name]; ok && r.State == usage.StateStale {
			it.State = usage.StateStale
		}
		if si.Archived {
			it.State = usage.StateArchived
		}
		b, err := snap.ReadFile(si.Dir + "/" + skill.FileName)
		if err == nil {
			var doc *skill.Document
			if doc, err = skill.Parse(b); err == nil {
				it.Description = doc.Description
			}
		}
		if err != nil {
			it.Error, it.Unreadable = err.Error(), true
		}
		items = append(items, it)
	}
	return items, unknown, nil
}

func listRun(opts *ListOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	all, unknown, err := listSkills(lib, opts.Rev)
	if err != nil {
		return err
	}
	if unknown != nil {
		f.WarnHinted(unknown)
	}
	items := []skillListItem{}
	for _, it := range all {
		if opts.State != "" && it.State != opts.State {
			continue
		}
		if opts.State == "" && !opts.All && it.State == usage.StateArchived {
			continue
		}
		items = append(items, it)
	}
	// By name, as a person looks a skill up; the same name in two places
	// (an archived copy, another category) by path.
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].Name != items[j].Name {
			return items[i].Name < items[j].Name
		}
		return items[i].Path < items[j].Path
	})
	var unreadable []string
	for _, it := range items {
		if it.Unreadable {
			unreadable = append(unreadable, it.Path)
		}
	}
	// Listed, then refused: a SKILL.md agents skip is a broken library,
	// whatever the rest of the list says.
	broken := func() error {
		if len(unreadable) == 0 {
			return nil
		}
		verb := "does"
		if len(unreadable) > 1 {
			verb = "do"
		}
		return skillrepo.WithHint(fmt.Errorf("the SKILL.md of %s %s not parse: %s", cmdutil.NounCount(len(unreadable), "skill"), verb, strings.Join(unreadable, ", ")),
			"agents skip them; fix the frontmatter, and run 'skillrepo lint' for the details")
	}
	if f.JSON {
		if err := cmdutil.PrintJSON(f.IO.Out, items); err != nil {
			return err
		}
		return broken()
	}
	if len(items) == 0 {
		fmt.Fprintln(f.IO.ErrOut, emptyListMessage(opts))
		return nil
	}
	tw := cmdutil.NewTable(f.IO.Out)
	tw.Header(f.IO, "NAME", "CATEGORY", "STATE", "OWNER", "PINNED", "DESCRIPTION")
	for _, it := range items {
		desc := it.Description
		if it.Error != "" {
			desc = "UNREADABLE SKILL.md (agents skip it): " + it.Error
		}
		desc = strings.Join(strings.Fields(desc), " ")
		if f.IO.IsStdoutTTY() && len([]rune(desc)) > 80 {
			desc = string([]rune(desc)[:77]) + "..."
		}
		cat := it.Category
		if cat == "" {
			cat = "-"
		}
		pinned := "-"
		if it.Pinned {
			pinned = "pinned"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", it.Name, cat, it.State, it.Owner, pinned, desc)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return broken()
}

// emptyListMessage says a listing is empty, and why when a filter made it
// so (on stderr: stdout stays empty for scripts).
func emptyListMessage(opts *ListOptions) string {
	switch {
	case opts.State != "":
		return fmt.Sprintf("no %s skills", opts.State)
	case opts.All:
		return "no skills in the library"
	}
	return "no skills in the library (archived skills are listed with --all)"
}
