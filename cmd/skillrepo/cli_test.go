package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestTableHeaderAligned: a coloured header lines up with its rows (the
// escape codes take no width), and piped the header is left out.
func TestTableHeaderAligned(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var out bytes.Buffer
		ios := &iostreams{Out: &out, ErrOut: &bytes.Buffer{}, stdoutTTY: tty}
		ios.setColor(func(k string) string {
			if k == "CLICOLOR_FORCE" {
				return "1"
			}
			return ""
		}, false)
		tw := newTable(ios.Out)
		tw.header(ios, "NAME", "STATE", "DESCRIPTION")
		tw.Write([]byte("a-very-long-skill-name\tactive\tfirst\nb\tstale\tsecond\n"))
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if !tty {
			if len(lines) != 2 || strings.Contains(out.String(), "NAME") {
				t.Fatalf("piped table kept its header: %q", out.String())
			}
			continue
		}
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "\x1b[1m") {
			t.Fatalf("want a bold header and two rows, got %q", out.String())
		}
		head := sgr.ReplaceAllString(lines[0], "")
		if got, want := strings.Index(head, "STATE"), strings.Index(lines[1], "active"); got != want {
			t.Errorf("header column at %d, row column at %d:\n%s\n%s", got, want, head, lines[1])
		}
	}
}

// TestColourPerStream: stdout and stderr decide colour apart; the stream
// without colour receives the text with the codes removed.
func TestColourPerStream(t *testing.T) {
	tests := []struct {
		name             string
		outTTY, errTTY   bool
		env              map[string]string
		wantOut, wantErr bool
	}{
		{"both terminals", true, true, nil, true, true},
		{"stdout piped", false, true, nil, false, true},
		{"stderr redirected", true, false, nil, true, false},
		{"NO_COLOR", true, true, map[string]string{"NO_COLOR": "1"}, false, false},
		{"CLICOLOR_FORCE", false, false, map[string]string{"CLICOLOR_FORCE": "1"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			ios := &iostreams{Out: &out, ErrOut: &errOut, stdoutTTY: tt.outTTY, stderrTTY: tt.errTTY}
			ios.setColor(func(k string) string { return tt.env[k] }, false)
			ios.Out.Write([]byte(ios.Green("ok") + "\n"))
			ios.ErrOut.Write([]byte(ios.Red("error:") + " x\n"))
			if got := strings.Contains(out.String(), "\x1b["); got != tt.wantOut {
				t.Errorf("stdout coloured %v, want %v: %q", got, tt.wantOut, out.String())
			}
			if got := strings.Contains(errOut.String(), "\x1b["); got != tt.wantErr {
				t.Errorf("stderr coloured %v, want %v: %q", got, tt.wantErr, errOut.String())
			}
			if sgr.ReplaceAllString(out.String(), "") != "ok\n" || sgr.ReplaceAllString(errOut.String(), "") != "error: x\n" {
				t.Errorf("text changed: %q %q", out.String(), errOut.String())
			}
		})
	}
}

func TestANSIStripperSplitWrites(t *testing.T) {
	var b bytes.Buffer
	s := &ansiStripper{w: &b}
	for _, part := range []string{"a\x1b", "[1", ";32mb\x1b[0", "m c\r\x1b[K"} {
		s.Write([]byte(part))
	}
	if got, want := b.String(), "ab c\r\x1b[K"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestProgressOnlyOnTerminal: no reporter when stderr is piped or with
// --json; on a terminal a counter after 100 ms, erased at the end.
func TestProgressOnlyOnTerminal(t *testing.T) {
	var errOut bytes.Buffer
	f := &factory{IO: &iostreams{ErrOut: &errOut}}
	if f.progress() != nil || f.libraryProgress() != nil || f.lintProgress() != nil {
		t.Fatal("progress with stderr piped")
	}
	f.IO.stderrTTY, f.JSON = true, true
	if f.progress() != nil {
		t.Fatal("progress with --json")
	}
	f.JSON = false
	p := f.progress()
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	p.Start("linting skills", 3)
	p.Add(1)
	if errOut.Len() != 0 {
		t.Fatalf("drawn before 100 ms: %q", errOut.String())
	}
	clock = clock.Add(150 * time.Millisecond)
	p.Add(1)
	if !strings.Contains(errOut.String(), "linting skills: 2/3 (66%)") {
		t.Fatalf("no counter: %q", errOut.String())
	}
	p.Done()
	if !strings.HasSuffix(errOut.String(), "\r\x1b[K") {
		t.Errorf("line not erased: %q", errOut.String())
	}
}

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
		ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, stdoutTTY: tty}
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
