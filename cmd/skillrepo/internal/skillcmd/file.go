package skillcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// WriteFileOptions is what `skill write-file` was asked.
type WriteFileOptions struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	Name        string
	Path        string
	W           cmdutil.WriteFlags
	ContentFile string
}

// NewCmdWriteFile is `skill write-file`; runF, when not nil, runs instead of writeFileRun.
func NewCmdWriteFile(f *cmdutil.Factory, runF func(*WriteFileOptions) error) *cobra.Command {
	opts := &WriteFileOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "write-file <name> <path> --content-file <file|->",
		Short: "Write a support file (references/, templates/, scripts/, assets/)",
		Example: `  skillrepo skill write-file ci-debugging references/flaky.md --content-file flaky.md
  echo '#!/bin/sh' | skillrepo skill write-file ci-debugging scripts/check.sh --content-file -`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Path, opts.Ctx = args[0], args[1], cmd.Context()
			if err := requireContentFile(opts.ContentFile); err != nil {
				return err
			}
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return writeFileRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "content to write (- for standard input)")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func writeFileRun(opts *WriteFileOptions) error {
	content, err := readContent(opts.Factory, opts.ContentFile)
	if err != nil {
		return err
	}
	return applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{{Action: skillrepo.ActionWriteFile, Name: opts.Name, FilePath: opts.Path, FileContent: &content}})
}

// RemoveFileOptions is what `skill remove-file` was asked.
type RemoveFileOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	W       cmdutil.WriteFlags
	Name    string
	Path    string
}

// NewCmdRemoveFile is `skill remove-file`; runF, when not nil, runs instead of removeFileRun.
func NewCmdRemoveFile(f *cmdutil.Factory, runF func(*RemoveFileOptions) error) *cobra.Command {
	opts := &RemoveFileOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "remove-file <name> <path>",
		Short:   "Remove a support file from a skill",
		Example: `  skillrepo skill remove-file ci-debugging references/old.md`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Path, opts.Ctx = args[0], args[1], cmd.Context()
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return removeFileRun(opts)
		},
	}
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func removeFileRun(opts *RemoveFileOptions) error {
	return applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{{Action: skillrepo.ActionRemoveFile, Name: opts.Name, FilePath: opts.Path}})
}
