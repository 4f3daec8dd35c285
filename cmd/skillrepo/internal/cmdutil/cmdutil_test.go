package cmdutil

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestTableHeaderAligned: a coloured header lines up with its rows (the
// escape codes take no width), and piped the header is left out.
func TestTableHeaderAligned(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var out bytes.Buffer
		ios := &IOStreams{Out: &out, ErrOut: &bytes.Buffer{}, StdoutTTY: tty}
		ios.SetColor(func(k string) string {
			if k == "CLICOLOR_FORCE" {
				return "1"
			}
			return ""
		}, false)
		tw := NewTable(ios.Out)
		tw.Header(ios, "NAME", "STATE", "DESCRIPTION")
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
			ios := &IOStreams{Out: &out, ErrOut: &errOut, StdoutTTY: tt.outTTY, StderrTTY: tt.errTTY}
			ios.SetColor(func(k string) string { return tt.env[k] }, false)
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
	f := &Factory{IO: &IOStreams{ErrOut: &errOut}}
	if f.Progress() != nil || f.LibraryProgress() != nil || f.LintProgress() != nil {
		t.Fatal("progress with stderr piped")
	}
	f.IO.StderrTTY, f.JSON = true, true
	if f.Progress() != nil {
		t.Fatal("progress with --json")
	}
	f.JSON = false
	p := f.Progress()
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
