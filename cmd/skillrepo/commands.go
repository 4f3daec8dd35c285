package main

// Rules for the command tree, applied to every command whoever added it,
// so a new command group gets them without a line of its own:
//   - a group (a command with subcommands and nothing to run) given a word
//     that is none of its subcommands is a usage error (exit 2) naming the
//     word and the nearest subcommands ("did you mean"), at any depth —
//     never help and exit 0, which would let a script's typo pass;
//   - a group given nothing prints its help (exit 0), as git and gh do;
//   - `skillrepo help <topic>` for an unknown topic is the same usage error.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// unknownCommandError is a word that names no subcommand of cmd.
type unknownCommandError struct {
	word, parent string
	suggestions  []string
}

func (e *unknownCommandError) Error() string {
	return fmt.Sprintf("unknown command %q for %q", e.word, e.parent)
}

func (e *unknownCommandError) Hint() string {
	if len(e.suggestions) == 0 {
		return fmt.Sprintf("run '%s --help' for the list of commands", e.parent)
	}
	q := make([]string, len(e.suggestions))
	for i, s := range e.suggestions {
		q[i] = fmt.Sprintf("'%s %s'", e.parent, s)
	}
	return "did you mean " + strings.Join(q, " or ") + "?"
}

func newUnknownCommandError(parent *cobra.Command, word string) error {
	if parent.SuggestionsMinimumDistance <= 0 {
		parent.SuggestionsMinimumDistance = 2 // cobra's default, set only on its own path
	}
	sugg := nearest(word, parent.SuggestionsFor(word))
	return &cmdutil.FlagError{Err: &unknownCommandError{word: word, parent: parent.CommandPath(), suggestions: sugg}}
}

// typeUsageErrors makes every misuse cobra finds a *cmdutil.FlagError (exit 2)
// where it arises, never recognised later by its message: a flag that
// does not parse (the flag error function, inherited by every command),
// and arguments of the wrong number, a required flag left out or flags of
// a group misused (each command's argument check, which cobra runs
// first, checks the flags' rules too). Call it after every command is
// added and guardCommandGroups has set the groups' checks.
func typeUsageErrors(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &cmdutil.FlagError{Err: err} })
	walkCommands(root, func(c *cobra.Command) {
		args := c.Args
		if args == nil {
			args = cobra.ArbitraryArgs
		}
		c.Args = func(cmd *cobra.Command, a []string) error {
			err := args(cmd, a)
			if err == nil {
				err = cmd.ValidateRequiredFlags()
			}
			if err == nil {
				err = cmd.ValidateFlagGroups()
			}
			var fe *cmdutil.FlagError
			if err != nil && !errors.As(err, &fe) {
				err = &cmdutil.FlagError{Err: err}
			}
			return err
		}
	})
}

// walkCommands calls fn for cmd and every command below it.
func walkCommands(cmd *cobra.Command, fn func(*cobra.Command)) {
	fn(cmd)
	for _, c := range cmd.Commands() {
		walkCommands(c, fn)
	}
}

// guardCommandGroups applies the rules above to the tree under root. Call
// it after every command is added.
func guardCommandGroups(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	walkCommands(root, func(c *cobra.Command) {
		if !c.HasSubCommands() {
			return
		}
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2 // cobra's default, set only on its own path
		}
		if c.Run != nil || c.RunE != nil {
			// A command that runs and has subcommands (mcp, mcp install):
			// arguments it refuses that look like a subcommand get the
			// "did you mean" error.
			orig := c.Args
			c.Args = func(cmd *cobra.Command, args []string) error {
				if orig == nil {
					return nil
				}
				err := orig(cmd, args)
				if err != nil && len(args) > 0 && len(nearest(args[0], cmd.SuggestionsFor(args[0]))) > 0 {
					return newUnknownCommandError(cmd, args[0])
				}
				return err
			}
			return
		}
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return newUnknownCommandError(cmd, args[0])
			}
			return nil
		}
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	})
	for _, c := range root.Commands() {
		if c.Name() != "help" {
			continue
		}
		c.Run = nil
		c.RunE = func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil {
				return newUnknownCommandError(root, args[0])
			}
			if len(rest) > 0 && target.HasSubCommands() {
				return newUnknownCommandError(target, rest[0])
			}
			target.InitDefaultHelpFlag()
			target.InitDefaultVersionFlag()
			return target.Help()
		}
	}
}

// nearest keeps the candidates closest to word by edit distance counting a
// swap of two neighbours as one edit ("lsit" is one from "list", two from
// "edit"), so the hint names the command the typist meant.
func nearest(word string, cands []string) []string {
	best, out := -1, []string(nil)
	for _, c := range cands {
		d := editDistance(word, c)
		switch {
		case best < 0 || d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	return out
}

// editDistance is the optimal string alignment distance.
func editDistance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
