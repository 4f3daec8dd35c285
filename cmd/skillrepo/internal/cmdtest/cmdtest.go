// Package cmdtest is what the command packages' tests share: a Factory
// over buffers and the parse of a command's flags and arguments with its
// run function stubbed (docs/architecture.md §6). For tests only.
package cmdtest

import (
	"bytes"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// Factory is a Factory whose streams are empty buffers and that opens no
// library.
func Factory() *cmdutil.Factory {
	return &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
}

// Parse runs cmd with args, its output discarded and cobra's own error
// and usage printing off: what it returns is what the flag parse, the
// argument check or the stubbed run function said.
func Parse(cmd *cobra.Command, args ...string) error {
	var out bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}
