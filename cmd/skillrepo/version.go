package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// version is the release's version, stamped by the release build
// (.goreleaser.yaml: -ldflags "-X main.version=1.2.3"); empty in any other
// build. It is the one variable a linker may set, never written at run time.
var version string

// versionInfo is what `skillrepo version` reports: the release's version
// when the release build stamped it, else the module version from the
// build information the Go toolchain embeds (a tag for
// `go install …@v1.2.3`, "(devel)" for a build in a clone); and the VCS
// revision the binary was built from.
type versionInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	Go         string `json:"go"`
}

func readVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if ok && bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if version != "" {
		v.Version = version
	}
	if !ok {
		return v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// toolVersion is the version other programs are told (the MCP server's
// implementation, lint's SARIF driver): readVersion's, "dev" for a build in
// a clone.
func toolVersion() string {
	if v := readVersion().Version; v != "(devel)" {
		return v
	}
	return "dev"
}

// String is the one line `skillrepo --version` prints.
func (v versionInfo) String() string {
	s := "skillrepo " + v.Version
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (commit " + c
		if v.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s + " " + v.Go
}

func newVersionCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print skillrepo's version and the commit it was built from",
		Example: "  skillrepo version\n  skillrepo version --json\n  skillrepo --version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := readVersion()
			if f.JSON {
				return cmdutil.PrintJSON(f.IO.Out, v)
			}
			_, err := fmt.Fprintln(f.IO.Out, v.String())
			return err
		},
	}
}
