package skillcmd

import (
	"errors"
	"reflect"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// parse runs cmd on args with its run function stubbed (the NewCmd was
// handed a runF that records the options), so flag parsing is tested
// without a library.
// user is the write flags' defaults: a person writing to main.
var user = cmdutil.WriteFlags{Origin: skillrepo.OriginUser}

// outcome is what a parse must give: the options runF saw, a usage error
// (*cmdutil.FlagError, runF not called), or any error cobra's own checks
// return (runF not called).
type outcome int

const (
	ran outcome = iota
	usageErr
	failed
)

// check runs one case: newCmd builds the command with a recording runF
// and got returns what it recorded (nil when runF was not called).
func check[O any](t *testing.T, args []string, newCmd func(runF func(*O) error) *cobra.Command, clear func(*O), want O, wantOutcome outcome) {
	t.Helper()
	var got *O
	err := cmdtest.Parse(newCmd(func(o *O) error { got = o; return nil }), args...)
	switch wantOutcome {
	case ran:
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		clear(got)
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", args, *got, want)
		}
		return
	case usageErr:
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v (%T), want a *cmdutil.FlagError", args, err, err)
		}
	case failed:
		if err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	if got != nil {
		t.Errorf("%q: runF called after an error", args)
	}
}

func TestNewCmdCreate(t *testing.T) {
	tests := []struct {
		args    []string
		want    CreateOptions
		outcome outcome
	}{
		{[]string{"x", "--content-file", "s.md"}, CreateOptions{Name: "x", ContentFile: "s.md", W: user}, ran},
		{[]string{"x", "--content-file", "-", "--category", "ops", "--propose", "--origin", "foreground"},
			CreateOptions{Name: "x", ContentFile: "-", Category: "ops", W: cmdutil.WriteFlags{Origin: "foreground", Propose: true}}, ran},
		{[]string{"x", "--content-file", "s.md", "--force-new", "--reason", "differs"}, CreateOptions{Name: "x", ContentFile: "s.md", ForceNew: true, Reason: "differs", W: user}, ran},
		{[]string{"x"}, CreateOptions{}, usageErr},
		{[]string{"x", "--content-file", "s.md", "--force-new"}, CreateOptions{}, usageErr},
		{[]string{"x", "--content-file", "s.md", "--reason", "r"}, CreateOptions{}, usageErr},
		// The write flags' own rules, checked before the library opens.
		{[]string{"x", "--content-file", "s.md", "--origin", "robot"}, CreateOptions{}, usageErr},
		{[]string{"x", "--content-file", "s.md", "--origin", "curator", "--force"}, CreateOptions{}, usageErr},
		{[]string{"--content-file", "s.md"}, CreateOptions{}, failed},
	}
	for _, tt := range tests {
		check(t, tt.args, func(runF func(*CreateOptions) error) *cobra.Command { return NewCmdCreate(cmdtest.Factory(), runF) },
			func(o *CreateOptions) { o.Factory, o.Ctx = nil, nil }, tt.want, tt.outcome)
	}
}

func TestNewCmdPatch(t *testing.T) {
	tests := []struct {
		args    []string
		want    PatchOptions
		outcome outcome
	}{
		{[]string{"x", "--old", "a", "--new", "b"}, PatchOptions{Name: "x", Old: "a", New: "b", W: user}, ran},
		{[]string{"x", "--old", "a", "--new", "", "--file", "references/r.md", "--replace-all", "--dry-run"},
			PatchOptions{Name: "x", Old: "a", File: "references/r.md", ReplaceAll: true, W: cmdutil.WriteFlags{Origin: skillrepo.OriginUser, DryRun: true}}, ran},
		{[]string{"x", "--new", "b"}, PatchOptions{}, usageErr},
		{[]string{"x", "--old", "a"}, PatchOptions{}, usageErr},
		{[]string{"x", "--old", "a", "--new", "b", "--origin", "robot"}, PatchOptions{}, usageErr},
		{[]string{"x", "y", "--old", "a", "--new", "b"}, PatchOptions{}, failed},
	}
	for _, tt := range tests {
		check(t, tt.args, func(runF func(*PatchOptions) error) *cobra.Command { return NewCmdPatch(cmdtest.Factory(), runF) },
			func(o *PatchOptions) { o.Factory, o.Ctx = nil, nil }, tt.want, tt.outcome)
	}
}

func TestNewCmdDelete(t *testing.T) {
	tests := []struct {
		args    []string
		want    DeleteOptions
		outcome outcome
	}{
		{[]string{"x"}, DeleteOptions{Name: "x", W: user}, ran},
		// An empty --absorbed-into is given (the curator's prune), not absent.
		{[]string{"x", "--absorbed-into", "", "--origin", "curator"}, DeleteOptions{Name: "x", HasAbsorbedInto: true, W: cmdutil.WriteFlags{Origin: "curator"}}, ran},
		{[]string{"x", "--absorbed-into", "umbrella"}, DeleteOptions{Name: "x", AbsorbedInto: "umbrella", HasAbsorbedInto: true, W: user}, ran},
		{[]string{}, DeleteOptions{}, failed},
	}
	for _, tt := range tests {
		check(t, tt.args, func(runF func(*DeleteOptions) error) *cobra.Command { return NewCmdDelete(cmdtest.Factory(), runF) },
			func(o *DeleteOptions) { o.Factory, o.Ctx = nil, nil }, tt.want, tt.outcome)
	}
}

func TestNewCmdFiles(t *testing.T) {
	check(t, []string{"x", "references/r.md", "--content-file", "r.md"}, func(runF func(*WriteFileOptions) error) *cobra.Command {
		return NewCmdWriteFile(cmdtest.Factory(), runF)
	},
		func(o *WriteFileOptions) { o.Factory, o.Ctx = nil, nil }, WriteFileOptions{Name: "x", Path: "references/r.md", ContentFile: "r.md", W: user}, ran)
	check(t, []string{"x", "references/r.md"}, func(runF func(*WriteFileOptions) error) *cobra.Command {
		return NewCmdWriteFile(cmdtest.Factory(), runF)
	},
		func(o *WriteFileOptions) {}, WriteFileOptions{}, usageErr)
	check(t, []string{"x", "references/r.md", "--session-id", "s-1"}, func(runF func(*RemoveFileOptions) error) *cobra.Command {
		return NewCmdRemoveFile(cmdtest.Factory(), runF)
	},
		func(o *RemoveFileOptions) { o.Factory, o.Ctx = nil, nil }, RemoveFileOptions{Name: "x", Path: "references/r.md", W: cmdutil.WriteFlags{Origin: skillrepo.OriginUser, SessionID: "s-1"}}, ran)
	check(t, []string{"x"}, func(runF func(*RemoveFileOptions) error) *cobra.Command {
		return NewCmdRemoveFile(cmdtest.Factory(), runF)
	},
		func(o *RemoveFileOptions) {}, RemoveFileOptions{}, failed)
}

func TestNewCmdApply(t *testing.T) {
	check(t, []string{"--ops", "-", "--review-id", "r-1", "--origin", "background-review"}, func(runF func(*ApplyOptions) error) *cobra.Command { return NewCmdApply(cmdtest.Factory(), runF) },
		func(o *ApplyOptions) { o.Factory, o.Ctx = nil, nil }, ApplyOptions{OpsFile: "-", W: cmdutil.WriteFlags{Origin: "background-review", ReviewID: "r-1"}}, ran)
	check(t, nil, func(runF func(*ApplyOptions) error) *cobra.Command { return NewCmdApply(cmdtest.Factory(), runF) },
		func(o *ApplyOptions) {}, ApplyOptions{}, usageErr)
}

func TestNewCmdMove(t *testing.T) {
	tests := []struct {
		args    []string
		want    MoveOptions
		outcome outcome
	}{
		{[]string{"x", "--category", "ops"}, MoveOptions{Name: "x", Category: "ops", W: user}, ran},
		{[]string{"x", "--flat", "--name", "y"}, MoveOptions{Name: "x", Flat: true, NewName: "y", W: user}, ran},
		{[]string{"x", "--name", "y"}, MoveOptions{Name: "x", NewName: "y", W: user}, ran},
		{[]string{"x", "--flat", "--category", "ops"}, MoveOptions{}, usageErr},
		{[]string{"x"}, MoveOptions{}, usageErr},
	}
	for _, tt := range tests {
		check(t, tt.args, func(runF func(*MoveOptions) error) *cobra.Command { return NewCmdMove(cmdtest.Factory(), runF) },
			func(o *MoveOptions) { o.Factory, o.Ctx = nil, nil }, tt.want, tt.outcome)
	}
}

// TestNewCmdMeta: pin, unpin, adopt and disown parse alike, each naming
// its action.
func TestNewCmdMeta(t *testing.T) {
	for action, newCmd := range map[string]func(*cmdutil.Factory, func(*MetaOptions) error) *cobra.Command{
		skillrepo.ActionPin: NewCmdPin, skillrepo.ActionUnpin: NewCmdUnpin, skillrepo.ActionAdopt: NewCmdAdopt, skillrepo.ActionDisown: NewCmdDisown,
	} {
		mk := func(runF func(*MetaOptions) error) *cobra.Command { return newCmd(cmdtest.Factory(), runF) }
		clear := func(o *MetaOptions) { o.Factory, o.Ctx = nil, nil }
		check(t, []string{"x", "--reason", "why", "--propose"}, mk, clear, MetaOptions{Name: "x", Reason: "why", Action: action, W: cmdutil.WriteFlags{Origin: skillrepo.OriginUser, Propose: true}}, ran)
		check(t, []string{}, mk, clear, MetaOptions{}, failed)
		check(t, []string{"x", "--origin", "robot"}, mk, clear, MetaOptions{}, usageErr)
	}
}

func TestNewCmdArchiveRestore(t *testing.T) {
	check(t, []string{"x", "--reason", "old", "--dry-run"}, func(runF func(*ArchiveOptions) error) *cobra.Command { return NewCmdArchive(cmdtest.Factory(), runF) },
		func(o *ArchiveOptions) { o.Factory, o.Ctx = nil, nil }, ArchiveOptions{Name: "x", Reason: "old", DryRun: true}, ran)
	check(t, []string{"x", "y"}, func(runF func(*ArchiveOptions) error) *cobra.Command { return NewCmdArchive(cmdtest.Factory(), runF) },
		func(o *ArchiveOptions) {}, ArchiveOptions{}, failed)
	check(t, []string{".archive/x-1", "--dry-run"}, func(runF func(*RestoreOptions) error) *cobra.Command { return NewCmdRestore(cmdtest.Factory(), runF) },
		func(o *RestoreOptions) { o.Factory, o.Ctx = nil, nil }, RestoreOptions{Name: ".archive/x-1", DryRun: true}, ran)
}

func TestNewCmdReads(t *testing.T) {
	clearList := func(o *ListOptions) { o.Factory = nil }
	mkList := func(runF func(*ListOptions) error) *cobra.Command { return NewCmdList(cmdtest.Factory(), runF) }
	check(t, []string{"--state", "stale", "--all"}, mkList, clearList, ListOptions{State: "stale", All: true}, ran)
	check(t, []string{"--proposal", "p-1"}, mkList, clearList, ListOptions{Proposal: "p-1", Rev: skillrepo.ProposalBranch("p-1")}, ran)
	check(t, []string{"--state", "asleep"}, mkList, clearList, ListOptions{}, usageErr)
	check(t, []string{"--proposal", "p-1", "--rev", "main"}, mkList, clearList, ListOptions{}, usageErr)

	clearView := func(o *ViewOptions) { o.Factory = nil }
	mkView := func(runF func(*ViewOptions) error) *cobra.Command { return NewCmdView(cmdtest.Factory(), runF) }
	check(t, []string{"x", "references/r.md", "--rev", "abc"}, mkView, clearView, ViewOptions{Name: "x", File: "references/r.md", Rev: "abc"}, ran)
	check(t, []string{"x", "--as-agent"}, mkView, clearView, ViewOptions{Name: "x", AsAgent: true}, ran)
	check(t, []string{"x", "--proposal", "../bad"}, mkView, clearView, ViewOptions{}, usageErr)

	mkLog := func(runF func(*LogOptions) error) *cobra.Command { return NewCmdLog(cmdtest.Factory(), runF) }
	check(t, []string{"x", "-p", "-n", "3"}, mkLog, func(o *LogOptions) { o.Factory = nil }, LogOptions{Name: "x", Patch: true, MaxCount: 3}, ran)
	check(t, []string{"x", "-n", "-1"}, mkLog, func(o *LogOptions) {}, LogOptions{}, usageErr)

	mkBlame := func(runF func(*BlameOptions) error) *cobra.Command { return NewCmdBlame(cmdtest.Factory(), runF) }
	check(t, []string{"x", "SKILL.md", "--rev", "main"}, mkBlame, func(o *BlameOptions) { o.Factory = nil }, BlameOptions{Name: "x", File: "SKILL.md", Rev: "main"}, ran)
}
