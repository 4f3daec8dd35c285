package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

func TestPositionalKinds(t *testing.T) {
	tests := []struct {
		use  string
		want []string
	}{
		{"approve {<id> | --all} [--by <who>] [--dry-run]", []string{"id"}},
		{"patch <name> --old <text> --new <text> [--file <path>] [--replace-all]", []string{"name"}},
		{"blame <name> [<file>]", []string{"name", "file"}},
		{"lint [<path>...] [--profile <profile>]", []string{"path..."}},
		{"rollback <run-id> [--dry-run]", []string{"run-id"}},
		{"list [--state <active|stale|archived>] [--all]", nil},
	}
	for _, tt := range tests {
		if got := positionalKinds(tt.use); !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.use, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	tests := []struct {
		word  string
		cands []string
		want  []string
	}{
		{"lsit", []string{"edit", "list"}, []string{"list"}},
		{"aprove", []string{"approve"}, []string{"approve"}},
		{"lsit", []string{"init", "lint"}, []string{"init", "lint"}},
		{"x", nil, nil},
	}
	for _, tt := range tests {
		if got := nearest(tt.word, tt.cands); !slices.Equal(got, tt.want) {
			t.Errorf("%s in %q: got %q, want %q", tt.word, tt.cands, got, tt.want)
		}
	}
}

// TestTablesHaveAHeaderOnATerminal: every human table starts with its
// header row on a terminal and is rows alone piped; an empty one prints
// no header (its stderr says it is empty).
func TestTablesHaveAHeaderOnATerminal(t *testing.T) {
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed")
	}
	lib, env := testlib.ExampleLibrary(t)
	getenv := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return env[k]
	}
	runIn := func(tty bool, args ...string) (string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		ios := &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, StdoutTTY: tty}
		if code := run(append([]string{"-C", lib.Root}, args...), ios, getenv); code != 0 {
			t.Fatalf("skillrepo %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
		}
		return out.String(), errOut.String()
	}
	runIn(false, "skill", "adopt", "ci-debugging")
	runIn(false, "skill", "patch", "ci-debugging", "--old", "## Pitfalls", "--new", "## Traps", "--propose", "--review-id", "r-1", "--origin", skillrepo.OriginBackgroundReview)
	runIn(false, "usage", "bump", "ci-debugging", "--use")
	tests := []struct {
		args   []string
		header string // "" for an empty table
		empty  string // its stderr when empty
	}{
		{[]string{"skill", "list"}, "NAME CATEGORY STATE OWNER PINNED DESCRIPTION", ""},
		{[]string{"proposal", "list"}, "ID AGE ORIGIN REVIEW SKILLS +/- MERGES", ""},
		{[]string{"proposal", "list", "--rejected"}, "", "no rejected proposals"},
		{[]string{"usage", "show"}, "NAME STATE VIEWS USES PATCHES LAST ACTIVITY CREATED BY", ""},
		{[]string{"curator", "list-unmanaged"}, "NAME PATH PINNED WHY NOT MANAGED", ""},
		{[]string{"queue", "list"}, "", "the queue is empty"},
		{[]string{"lint", "--list-rules"}, "RULE", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			term, termErr := runIn(true, tt.args...)
			piped, _ := runIn(false, tt.args...)
			if tt.header == "" {
				if term != "" || piped != "" || !strings.Contains(termErr, tt.empty) {
					t.Fatalf("an empty table printed %q (piped %q), stderr %q; want nothing, and %q on stderr", term, piped, termErr, tt.empty)
				}
				return
			}
			first, rows, _ := strings.Cut(term, "\n")
			if got := strings.Join(strings.Fields(first), " "); !strings.HasPrefix(got, tt.header) {
				t.Errorf("first line on a terminal %q, want the header %q", first, tt.header)
			}
			// The header's widths may pad the columns: compare words.
			if rows == "" || strings.Join(strings.Fields(rows), " ") != strings.Join(strings.Fields(piped), " ") {
				t.Errorf("the rows on a terminal and piped differ, or there are none:\n%s---\n%s", rows, piped)
			}
		})
	}
}
