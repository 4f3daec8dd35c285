package main

// Output rules (as age's tui.go states its own):
//   - data (what a command was asked for) goes to stdout;
//   - progress, confirmations ("✓ created …") and errors go to stderr;
//   - errors are "error: …" then optional "hint: …" lines, lower-case, no
//     final period;
//   - colour is decided per stream: stdout has colour when stdout is a
//     terminal, stderr when stderr is; NO_COLOR, --no-color and CLICOLOR=0
//     turn both off, CLICOLOR_FORCE=1 both on. Commands colour text with
//     one scheme; a stream without colour gets the text with the escape
//     codes removed (ansiStripper), so `skillrepo … 2>log` keeps a clean
//     log while the terminal still shows colour;
//   - --json output never changes with the TTY.

import (
	"io"
	"os"
)

// iostreams is the only door to the terminal.
type iostreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdoutTTY bool
	stderrTTY bool
	color     bool // colour on stdout
	errColor  bool // colour on stderr
}

func systemIO() *iostreams {
	return &iostreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// IsStdoutTTY reports whether stdout is a terminal.
func (s *iostreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal (progress is shown only then).
func (s *iostreams) IsStderrTTY() bool { return s.stderrTTY }

// ColorEnabled reports whether stdout may use ANSI colour.
func (s *iostreams) ColorEnabled() bool { return s.color }

// ErrColorEnabled reports whether stderr may use ANSI colour.
func (s *iostreams) ErrColorEnabled() bool { return s.errColor }

func (s *iostreams) setColor(getenv func(string) string, noColorFlag bool) {
	switch {
	case noColorFlag || getenv("NO_COLOR") != "":
		s.color, s.errColor = false, false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		s.color, s.errColor = true, true
	case getenv("CLICOLOR") == "0":
		s.color, s.errColor = false, false
	default:
		s.color, s.errColor = s.stdoutTTY, s.stderrTTY
	}
	// Exactly one stream coloured: the other one drops the codes.
	if s.color && !s.errColor {
		s.ErrOut = &ansiStripper{w: s.ErrOut}
	}
	if s.errColor && !s.color {
		s.Out = &ansiStripper{w: s.Out}
	}
}

// colorize wraps text in an ANSI colour code when colour is on for either
// stream (see the rules above).
func (s *iostreams) colorize(code, text string) string {
	if !s.color && !s.errColor {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s *iostreams) Red(t string) string    { return s.colorize("31", t) }
func (s *iostreams) Green(t string) string  { return s.colorize("32", t) }
func (s *iostreams) Yellow(t string) string { return s.colorize("33", t) }
func (s *iostreams) Bold(t string) string   { return s.colorize("1", t) }
func (s *iostreams) Faint(t string) string  { return s.colorize("2", t) }

// ansiStripper removes SGR escape sequences ("\x1b[…m") from what passes
// through; other bytes, including other escapes, are kept. A sequence cut
// by a write boundary is held until the next write.
type ansiStripper struct {
	w       io.Writer
	pending []byte
}

func (a *ansiStripper) Write(p []byte) (int, error) {
	data := p
	if len(a.pending) > 0 {
		data = append(a.pending, p...)
		a.pending = nil
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		if data[i] != 0x1b {
			out = append(out, data[i])
			continue
		}
		j := i + 1
		if j == len(data) {
			a.pending = append([]byte(nil), data[i:]...)
			break
		}
		if data[j] != '[' {
			out = append(out, data[i])
			continue
		}
		j++
		for j < len(data) && (data[j] >= '0' && data[j] <= '9' || data[j] == ';') {
			j++
		}
		if j == len(data) {
			a.pending = append([]byte(nil), data[i:]...)
			break
		}
		if data[j] != 'm' {
			out = append(out, data[i:j+1]...)
		}
		i = j
	}
	if _, err := a.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
