// Package indexcmd is `skillrepo index`, the skill catalogue an agent
// puts in its system prompt: Options, NewCmdIndex that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and indexRun (docs/architecture.md §6).
package indexcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/promptindex"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// Options is what `index` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Format  string
	States  []string
	Budget  int
	Rev     string
}

// NewCmdIndex is `index`; runF, when not nil, runs instead of indexRun.
func NewCmdIndex(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "index [--format xml|markdown|hermes|json] [--state <state>...] [--budget <chars>]",
		Short: "Print the skill catalogue an agent puts in its system prompt",
		Long: `Print the catalogue of the checked-out branch's skills (archived skills are
never listed) for an agent's system prompt:

  xml       the Agent Skills <available_skills> block, byte for byte what the
            reference validator's 'skills-ref to-prompt' prints
  markdown  Codex's list: "- name: description (file: path)"
  hermes    Hermes' index: grouped by category, descriptions cut to 60 characters
  json      the entries as data (also with the global --json)

--state keeps only skills in the given usage states (active, stale). --budget
caps the output in characters: the least recently used skills are dropped until
it fits, and the dropped names are reported on stderr.`,
		Example: `  skillrepo index > catalogue.xml
  skillrepo index --format markdown --budget 8000
  skillrepo index --format hermes --state active`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.JSON {
				opts.Format = promptindex.JSON
			}
			if opts.Budget < 0 {
				return cmdutil.UsageErrorf("--budget must be a number of characters (0 = no limit)")
			}
			switch opts.Format {
			case promptindex.XML, promptindex.Markdown, promptindex.Hermes, promptindex.JSON:
			default:
				return cmdutil.UsageErrorf("--format %q: want xml, markdown, hermes or json", opts.Format)
			}
			for _, s := range opts.States {
				if s != usage.StateActive && s != usage.StateStale {
					return cmdutil.UsageErrorf("--state %q: want active or stale (archived skills are never listed)", s)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return indexRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", promptindex.XML, "xml, markdown, hermes or json")
	cmd.Flags().StringSliceVar(&opts.States, "state", nil, "only skills in these usage states (active, stale)")
	cmd.Flags().IntVar(&opts.Budget, "budget", 0, "at most this many characters (0 = no limit)")
	cmd.Flags().StringVar(&opts.Rev, "rev", "", "read this branch or commit instead of the checked-out branch")
	return cmd
}

func indexRun(opts *Options) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := promptindex.Render(lib, promptindex.Options{Rev: opts.Rev, Format: opts.Format, States: opts.States, Budget: opts.Budget})
	if err != nil {
		return err
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(f.IO.ErrOut, "warning: %s left out: %s\n", s.Path, s.Reason)
	}
	if len(res.Omitted) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "budget: left out %s: %s\n", cmdutil.NounCount(len(res.Omitted), "skill"), strings.Join(res.Omitted, ", "))
	}
	text := res.Text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n" // Hermes' section ends without one; a terminal wants it
	}
	_, err = fmt.Fprint(f.IO.Out, text)
	return err
}
