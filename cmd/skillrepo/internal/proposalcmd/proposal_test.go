package proposalcmd

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// parse runs cmd on args with its run function stubbed (the NewCmd was
// handed a runF that records the options), so flag parsing is tested
// without a library.
func parse(t *testing.T, cmd *cobra.Command, args string) error {
	t.Helper()
	var out bytes.Buffer
	cmd.SetArgs(strings.Fields(args))
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// wantUsage: the error is a usage error (exit 2), typed where it arose.
func wantUsage(t *testing.T, err error) {
	t.Helper()
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *cmdutil.FlagError", err, err)
	}
}

func TestNewCmdApprove(t *testing.T) {
	tests := []struct {
		args  string
		want  ApproveOptions
		usage bool // a usage error, and runF not called
	}{
		{args: "p-1", want: ApproveOptions{ID: "p-1"}},
		{args: "p-1 --by Ada --dry-run", want: ApproveOptions{ID: "p-1", By: "Ada", DryRun: true}},
		{args: "--all", want: ApproveOptions{All: true}},
		{args: "p-1 --all", usage: true},
		{args: "", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *ApproveOptions
			err := parse(t, NewCmdApprove(cmdtest.Factory(), func(o *ApproveOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				wantUsage(t, err)
				if got != nil {
					t.Fatal("runF called after a usage error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx = nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestNewCmdReject(t *testing.T) {
	tests := []struct {
		args    string
		want    RejectOptions
		wantErr bool
	}{
		{args: "p-1", want: RejectOptions{ID: "p-1"}},
		{args: "p-1 --reason dup --by Ada --dry-run", want: RejectOptions{ID: "p-1", Reason: "dup", By: "Ada", DryRun: true}},
		{args: "", wantErr: true},
		{args: "p-1 p-2", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *RejectOptions
			err := parse(t, NewCmdReject(cmdtest.Factory(), func(o *RejectOptions) error { got = o; return nil }), tt.args)
			if tt.wantErr {
				if err == nil || got != nil {
					t.Fatalf("err %v, runF called %v: want an error and no run", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx = nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestNewCmdPublish(t *testing.T) {
	tests := []struct {
		args  string
		want  PublishOptions
		usage bool
	}{
		{args: "p-1", want: PublishOptions{ID: "p-1"}},
		{args: "p-1 --pull-request gh --summary s --dry-run", want: PublishOptions{ID: "p-1", PullRequest: "gh", Host: config.RemotePullRequest("gh"), Summary: "s", DryRun: true}},
		{args: "p-1 --pull-request off", want: PublishOptions{ID: "p-1", PullRequest: "off", Host: config.RemotePullRequest("off")}},
		{args: "p-1 --pull-request github", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *PublishOptions
			err := parse(t, NewCmdPublish(cmdtest.Factory(), func(o *PublishOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				wantUsage(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx = nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestNewCmdDiff(t *testing.T) {
	tests := []struct {
		args  string
		want  DiffOptions
		usage bool
	}{
		{args: "p-1", want: DiffOptions{ID: "p-1", Context: 3}},
		{args: "p-1 -U 0", want: DiffOptions{ID: "p-1", Context: 0}},
		{args: "p-1 --unified 10", want: DiffOptions{ID: "p-1", Context: 10}},
		{args: "p-1 -U -1", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *DiffOptions
			err := parse(t, NewCmdDiff(cmdtest.Factory(), func(o *DiffOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				wantUsage(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestNewCmdListAndShow(t *testing.T) {
	var list *ListOptions
	if err := parse(t, NewCmdList(cmdtest.Factory(), func(o *ListOptions) error { list = o; return nil }), "--rejected"); err != nil || !list.Rejected {
		t.Fatalf("list --rejected: err %v, options %+v", err, list)
	}
	if err := parse(t, NewCmdList(cmdtest.Factory(), func(*ListOptions) error { t.Fatal("ran"); return nil }), "extra"); err == nil {
		t.Fatal("list with an argument: no error")
	}
	var show *ShowOptions
	if err := parse(t, NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { show = o; return nil }), "p-7"); err != nil || show.ID != "p-7" {
		t.Fatalf("show p-7: err %v, options %+v", err, show)
	}
}
