package main

// Output rules (as age's tui.go states its own):
//   - data (what a command was asked for) goes to stdout;
//   - progress, confirmations ("✓ created …") and errors go to stderr;
//   - errors are "error: …" then optional "hint: …" lines, lower-case, no
//     final period;
//   - colour only when stdout is a terminal and NO_COLOR is unset
//     (CLICOLOR_FORCE=1 forces it); --json output never changes with the TTY.

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
	color     bool
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

// ColorEnabled reports whether output may use ANSI colour.
func (s *iostreams) ColorEnabled() bool { return s.color }

func (s *iostreams) setColor(getenv func(string) string, noColorFlag bool) {
	switch {
	case noColorFlag || getenv("NO_COLOR") != "":
		s.color = false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		s.color = true
	case getenv("CLICOLOR") == "0":
		s.color = false
	default:
		s.color = s.stdoutTTY
	}
}

// colorize wraps text in an ANSI colour code when colour is on.
func (s *iostreams) colorize(code, text string) string {
	if !s.color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s *iostreams) Red(t string) string    { return s.colorize("31", t) }
func (s *iostreams) Green(t string) string  { return s.colorize("32", t) }
func (s *iostreams) Yellow(t string) string { return s.colorize("33", t) }
func (s *iostreams) Bold(t string) string   { return s.colorize("1", t) }
func (s *iostreams) Faint(t string) string  { return s.colorize("2", t) }
