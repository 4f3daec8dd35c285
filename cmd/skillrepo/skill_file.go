package main

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type skillWriteFileOptions struct {
	f           *cmdutil.Factory
	w           writeFlags
	ContentFile string
}

func newSkillWriteFileCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &skillWriteFileOptions{f: f}
	cmd := &cobra.Command{
		Use:   "write-file <name> <path> --content-file <file|->",
		Short: "Write a support file (references/, templates/, scripts/, assets/)",
		Example: `  skillrepo skill write-file ci-debugging references/flaky.md --content-file flaky.md
  echo '#!/bin/sh' | skillrepo skill write-file ci-debugging scripts/check.sh --content-file -`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			content, err := readContent(f, opts.ContentFile)
			if err != nil {
				return err
			}
			return applyOps(cmd, f, &opts.w, []skillrepo.Op{{Action: skillrepo.ActionWriteFile, Name: args[0], FilePath: args[1], FileContent: &content}})
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "content to write (- for standard input)")
	addWriteFlags(cmd, &opts.w)
	return cmd
}

func newSkillRemoveFileCmd(f *cmdutil.Factory) *cobra.Command {
	var w writeFlags
	cmd := &cobra.Command{
		Use:     "remove-file <name> <path>",
		Short:   "Remove a support file from a skill",
		Example: `  skillrepo skill remove-file ci-debugging references/old.md`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return applyOps(cmd, f, &w, []skillrepo.Op{{Action: skillrepo.ActionRemoveFile, Name: args[0], FilePath: args[1]}})
		},
	}
	addWriteFlags(cmd, &w)
	return cmd
}
