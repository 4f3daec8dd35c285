package curatorcmd

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// parse runs cmd on args with its run function stubbed (the NewCmd was
// handed a runF that records the options), so flag parsing is tested
// without a library.
type outcome int

const (
	ran      outcome = iota
	usageErr         // a *cmdutil.FlagError, runF not called
	failed           // any error (cobra's own checks), runF not called
)

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

func TestNewCmdRun(t *testing.T) {
	mk := func(runF func(*RunOptions) error) *cobra.Command { return NewCmdRun(cmdtest.Factory(), runF) }
	clear := func(o *RunOptions) { o.Factory, o.Ctx = nil, nil }
	tests := []struct {
		args    []string
		want    RunOptions
		outcome outcome
	}{
		{nil, RunOptions{Timeout: 10 * time.Minute}, ran},
		{[]string{"--dry-run", "--if-due", "--force"}, RunOptions{DryRun: true, IfDue: true, Force: true, Timeout: 10 * time.Minute}, ran},
		{[]string{"--consolidate", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--timeout", "30s", "--max-calls", "5"},
			RunOptions{Consolidate: true, Model: "m", BaseURL: "http://127.0.0.1:1/v1", Timeout: 30 * time.Second, MaxCalls: 5}, ran},
		{[]string{"extra"}, RunOptions{}, failed},
	}
	for _, tt := range tests {
		check(t, tt.args, mk, clear, tt.want, tt.outcome)
	}
}

func TestNewCmdPruneAndPurge(t *testing.T) {
	mkPrune := func(runF func(*PruneOptions) error) *cobra.Command { return NewCmdPrune(cmdtest.Factory(), runF) }
	clearPrune := func(o *PruneOptions) { o.Factory, o.Ctx = nil, nil }
	check(t, []string{"--days", "60", "--dry-run"}, mkPrune, clearPrune, PruneOptions{Days: 60, DryRun: true}, ran)
	check(t, nil, mkPrune, clearPrune, PruneOptions{}, ran)
	check(t, []string{"--days", "0"}, mkPrune, clearPrune, PruneOptions{}, usageErr)

	mkPurge := func(runF func(*PurgeOptions) error) *cobra.Command { return NewCmdPurge(cmdtest.Factory(), runF) }
	clearPurge := func(o *PurgeOptions) { o.Factory, o.Ctx = nil, nil }
	check(t, []string{"--days", "90"}, mkPurge, clearPurge, PurgeOptions{Days: 90}, ran)
	check(t, []string{"--days", "-1"}, mkPurge, clearPurge, PurgeOptions{}, usageErr)
}

func TestNewCmdRollback(t *testing.T) {
	mk := func(runF func(*RollbackOptions) error) *cobra.Command { return NewCmdRollback(cmdtest.Factory(), runF) }
	clear := func(o *RollbackOptions) { o.Factory, o.Ctx = nil, nil }
	check(t, []string{"20261130-120000", "--dry-run"}, mk, clear, RollbackOptions{Run: "20261130-120000", DryRun: true}, ran)
	check(t, nil, mk, clear, RollbackOptions{}, failed)
}

func TestNewCmdOverlap(t *testing.T) {
	mk := func(runF func(*OverlapOptions) error) *cobra.Command { return NewCmdOverlap(cmdtest.Factory(), runF) }
	clear := func(o *OverlapOptions) { o.Factory = nil }
	check(t, []string{"--threshold", "0.6"}, mk, clear, OverlapOptions{Threshold: 0.6}, ran)
	check(t, []string{"--threshold", "1.5"}, mk, clear, OverlapOptions{}, usageErr)
}

// TestNewCmdPauseResume: the two verbs share one run, each saying which.
func TestNewCmdPauseResume(t *testing.T) {
	clear := func(o *PauseOptions) { o.Factory = nil }
	check(t, nil, func(runF func(*PauseOptions) error) *cobra.Command { return NewCmdPause(cmdtest.Factory(), runF) }, clear, PauseOptions{Paused: true}, ran)
	check(t, nil, func(runF func(*PauseOptions) error) *cobra.Command { return NewCmdResume(cmdtest.Factory(), runF) }, clear, PauseOptions{Paused: false}, ran)
	check(t, []string{"now"}, func(runF func(*PauseOptions) error) *cobra.Command { return NewCmdPause(cmdtest.Factory(), runF) }, clear, PauseOptions{}, failed)
}

func TestNewCmdReads(t *testing.T) {
	check(t, nil, func(runF func(*StatusOptions) error) *cobra.Command { return NewCmdStatus(cmdtest.Factory(), runF) },
		func(o *StatusOptions) { o.Factory = nil }, StatusOptions{}, ran)
	check(t, []string{"x"}, func(runF func(*ListUnmanagedOptions) error) *cobra.Command {
		return NewCmdListUnmanaged(cmdtest.Factory(), runF)
	},
		func(o *ListUnmanagedOptions) {}, ListUnmanagedOptions{}, failed)
}
