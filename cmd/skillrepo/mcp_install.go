package main

import "github.com/spf13/cobra"

func newMCPInstallCmd(f *factory) *cobra.Command { return &cobra.Command{Use: "install", Hidden: true} }
func newMCPUninstallCmd(f *factory) *cobra.Command {
	return &cobra.Command{Use: "uninstall", Hidden: true}
}
