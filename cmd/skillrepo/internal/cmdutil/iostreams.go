package cmdutil

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

// IOStreams is the only door to the terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// StdoutTTY and StderrTTY: the stream is a terminal (System finds
	// out; a test sets them).
	StdoutTTY bool
	StderrTTY bool

	color    bool // colour on stdout
	errColor bool // colour on stderr
}

// System is the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		StdoutTTY: isTerminal(os.Stdout),
		StderrTTY: isTerminal(os.Stderr),
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.StdoutTTY }

// IsStderrTTY reports whether stderr is a terminal (progress is shown only then).
func (s *IOStreams) IsStderrTTY() bool { return s.StderrTTY }

// ColorEnabled reports whether stdout may use ANSI colour.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// ErrColorEnabled reports whether stderr may use ANSI colour.
func (s *IOStreams) ErrColorEnabled() bool { return s.errColor }

// SetColor decides colour per stream (the rules above) from the
// environment and --no-color.
func (s *IOStreams) SetColor(getenv func(string) string, noColorFlag bool) {
	switch {
	case noColorFlag || getenv("NO_COLOR") != "":
		s.color, s.errColor = false, false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		s.color, s.errColor = true, true
	case getenv("CLICOLOR") == "0":
		s.color, s.errColor = false, false
	default:
		s.color, s.errColor = s.StdoutTTY, s.StderrTTY
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
func (s *IOStreams) colorize(code, text string) string {
	if !s.color && !s.errColor {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Red, Green, Yellow, Bold and Faint colour text (see colorize).
func (s *IOStreams) Red(t string) string    { return s.colorize("31", t) }
func (s *IOStreams) Green(t string) string  { return s.colorize("32", t) }
func (s *IOStreams) Yellow(t string) string { return s.colorize("33", t) }
func (s *IOStreams) Bold(t string) string   { return s.colorize("1", t) }
func (s *IOStreams) Faint(t string) string  { return s.colorize("2", t) }
func (s *IOStreams) Cyan(t string) string   { return s.colorize("36", t) }

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
