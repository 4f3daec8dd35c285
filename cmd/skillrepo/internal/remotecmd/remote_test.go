package remotecmd

import (
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

func TestNewCmdPushPull(t *testing.T) {
	tests := []struct {
		args           string
		remote         string
		dryRun, errors bool
	}{
		{args: "", remote: "origin"},
		{args: "--remote team --dry-run", remote: "team", dryRun: true},
		{args: "main", errors: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var push *PushOptions
			perr := cmdtest.Parse(NewCmdPush(cmdtest.Factory(), func(o *PushOptions) error { push = o; return nil }), strings.Fields(tt.args)...)
			var pull *PullOptions
			lerr := cmdtest.Parse(NewCmdPull(cmdtest.Factory(), func(o *PullOptions) error { pull = o; return nil }), strings.Fields(tt.args)...)
			if tt.errors {
				if perr == nil || lerr == nil || push != nil || pull != nil {
					t.Fatalf("push err %v, pull err %v: want errors and no run", perr, lerr)
				}
				return
			}
			if perr != nil || lerr != nil {
				t.Fatalf("push err %v, pull err %v", perr, lerr)
			}
			if push.Remote != tt.remote || push.DryRun != tt.dryRun || pull.Remote != tt.remote || pull.DryRun != tt.dryRun {
				t.Errorf("push %+v, pull %+v", push, pull)
			}
		})
	}
}

func TestNewCmdSync(t *testing.T) {
	tests := []struct {
		args string
		want SyncOptions
	}{
		{args: "", want: SyncOptions{Attempts: remote.DefaultShareAttempts}},
		{args: "--attempts 1 --background", want: SyncOptions{Attempts: 1, Background: true}},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *SyncOptions
			if err := cmdtest.Parse(NewCmdSync(cmdtest.Factory(), func(o *SyncOptions) error { got = o; return nil }), strings.Fields(tt.args)...); err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx = nil, nil
			if *got != tt.want {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
	if err := cmdtest.Parse(NewCmdSync(cmdtest.Factory(), func(*SyncOptions) error { t.Fatal("ran"); return nil }), "--attempts", "many"); err == nil {
		t.Error("--attempts many: want an error")
	}
}
