package proposalcmd

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// DiffOptions is what `proposal diff` was asked.
type DiffOptions struct {
	Factory *cmdutil.Factory
	ID      string
	Context int
}

// NewCmdDiff is `proposal diff`; runF, when not nil, runs instead of diffRun.
func NewCmdDiff(f *cmdutil.Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "diff <id> [-U <lines>]",
		Short: "Show a proposal's changes as a unified diff against its fork point",
		Long: `Show what a proposal changes, as git diff shows it, against the commit it forked
from (its merge base with main), so changes made on main since do not appear.
Colour is used on a terminal.`,
		Example: `  skillrepo proposal diff p-20261130-0a1b2c
  skillrepo proposal diff p-20261130-0a1b2c -U 1 | less -R`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if opts.Context < 0 {
				return cmdutil.UsageErrorf("-U %d: want 0 or more context lines", opts.Context)
			}
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	cmd.Flags().IntVarP(&opts.Context, "unified", "U", 3, "lines of context around each change")
	return cmd
}

type fileDiffJSON struct {
	fileStatJSON
	OldMode string `json:"old_mode,omitempty"`
	NewMode string `json:"new_mode,omitempty"`
	Patch   string `json:"patch"`
}

func diffRun(opts *DiffOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	_, diffs, err := lib.Proposals().Diff(opts.ID, opts.Context)
	if err != nil {
		return err
	}
	if f.JSON {
		out := []fileDiffJSON{}
		for _, d := range diffs {
			out = append(out, fileDiffJSON{
				fileStatJSON: fileStatJSON{Path: d.Path, Status: d.Status, Added: d.Added, Deleted: d.Deleted, Binary: d.Binary},
				OldMode:      modeString(d.OldMode), NewMode: modeString(d.NewMode), Patch: string(d.Hunks),
			})
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	var b bytes.Buffer
	for _, d := range diffs {
		writeFileDiff(&b, f.IO, d)
	}
	_, err = f.IO.Out.Write(b.Bytes())
	return err
}

func modeString(m uint32) string {
	if m == 0 {
		return ""
	}
	return fmt.Sprintf("%06o", m)
}

// writeFileDiff writes one file in git's patch format.
func writeFileDiff(b *bytes.Buffer, io *cmdutil.IOStreams, d skillrepo.FileDiff) {
	header := func(format string, args ...any) {
		b.WriteString(io.Bold(fmt.Sprintf(format, args...)))
		b.WriteByte('\n')
	}
	header("diff --git a/%s b/%s", d.Path, d.Path)
	old, new := "a/"+d.Path, "b/"+d.Path
	abbrev := func(h [20]byte) string { return fmt.Sprintf("%x", h[:])[:7] }
	switch d.Status {
	case "added":
		header("new file mode %s", modeString(d.NewMode))
		header("index 0000000..%s", abbrev(d.NewID))
		old = "/dev/null"
	case "deleted":
		header("deleted file mode %s", modeString(d.OldMode))
		header("index %s..0000000", abbrev(d.OldID))
		new = "/dev/null"
	default:
		if d.OldMode != d.NewMode {
			header("old mode %s", modeString(d.OldMode))
			header("new mode %s", modeString(d.NewMode))
			if d.OldID != d.NewID {
				header("index %s..%s", abbrev(d.OldID), abbrev(d.NewID))
			}
		} else {
			header("index %s..%s %s", abbrev(d.OldID), abbrev(d.NewID), modeString(d.NewMode))
		}
	}
	if d.Binary {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", old, new)
		return
	}
	if len(d.Hunks) == 0 {
		return
	}
	header("--- %s", old)
	header("+++ %s", new)
	for _, line := range strings.SplitAfter(string(d.Hunks), "\n") {
		text := strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "@@"):
			text = io.Cyan(text)
		case strings.HasPrefix(line, "+"):
			text = io.Green(text)
		case strings.HasPrefix(line, "-"):
			text = io.Red(text)
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
}
