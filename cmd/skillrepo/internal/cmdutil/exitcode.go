package cmdutil

// Exit codes are decided here and nowhere else: commands return errors.
//
//	0   success, including "nothing found", and a write whose commit
//	    landed but whose work-tree update was deferred (with a warning)
//	1   failure, lint errors or a guard's refusal
//	2   usage error (usage is printed)
//	3   conflict: a proposal does not merge, a ref moved under us, or an
//	    uncommitted edit would be overwritten; nothing was written
//	4   the library is locked by another process, or a git command
//	    holds .git/index.lock; nothing was written
//	5   an install wrote its set-up, but the agent will not run it yet:
//	    the hint names the step that is left
//	130 interrupted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// The exit codes (the table above).
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitConflict    = 3
	ExitLocked      = 4
	ExitNotRunning  = 5
	ExitInterrupted = 130
)

// FlagError is a usage error (exit 2): the message is printed with a
// usage hint. Every misuse cobra finds is made one where it arises (the
// root's flag error function and each command's argument check), so no
// error is ever recognised by its text.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// UsageErrorf is a *FlagError with a formatted message.
func UsageErrorf(format string, args ...any) error {
	return &FlagError{Err: fmt.Errorf(format, args...)}
}

// SilentError ends the command with Code after it already reported itself
// (lint after printing its findings).
type SilentError struct{ Code int }

func (e *SilentError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// NotRunningError ends an install whose set-up was written but that the
// agent will not run yet (doctor found a problem): the files stay, and
// the hint is each problem's fix.
type NotRunningError struct {
	What  string
	Fixes []string
}

func (e *NotRunningError) Error() string {
	return e.What + ": installed, but will not run until the problems found are fixed"
}
func (e *NotRunningError) Hint() string  { return strings.Join(e.Fixes, "\n") }
func (e *NotRunningError) ExitCode() int { return ExitNotRunning }

// ExitCoder lets a package error choose its code.
type ExitCoder interface{ ExitCode() int }

// Hinter lets an error suggest the next command to run.
type Hinter interface{ Hint() string }

// ExitCodeFor is the exit code of a command that returned err.
func ExitCodeFor(err error) int {
	var fe *FlagError
	var se *SilentError
	var ec ExitCoder
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &se):
		return se.Code
	case errors.As(err, &fe):
		return ExitUsage
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, skillrepo.ErrLocked):
		return ExitLocked
	case errors.Is(err, skillrepo.ErrConflict):
		return ExitConflict
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return ExitFailure
}

// ReportError prints err once, as "error: …" plus hints, and with --json
// also as a JSON line on stderr.
func ReportError(io *IOStreams, err error, jsonMode bool) {
	var se *SilentError
	if errors.As(err, &se) {
		return
	}
	code := ExitCodeFor(err)
	if jsonMode {
		b, _ := json.Marshal(map[string]any{"message_type": "exit_error", "code": code, "message": endpoint.RedactText(err.Error())})
		fmt.Fprintln(io.ErrOut, string(b))
		return
	}
	// Every message passes the one redaction: a URL in it (a model
	// server's, a remote's) never shows credentials or query values.
	fmt.Fprintf(io.ErrOut, "error: %s\n", endpoint.RedactText(err.Error()))
	var h Hinter
	hinted := errors.As(err, &h) && h.Hint() != ""
	if hinted {
		for _, line := range strings.Split(h.Hint(), "\n") {
			fmt.Fprintf(io.ErrOut, "hint: %s\n", line)
		}
	}
	var fe *FlagError
	if errors.As(err, &fe) && !hinted {
		fmt.Fprintln(io.ErrOut, "hint: run with --help for usage")
	}
}

// ExitCodesHelp is `skillrepo help exit-codes`.
const ExitCodesHelp = `skillrepo exits with one of these codes:

  0    success, including "nothing found". A write whose commit landed
       but whose work tree could not be updated also exits 0, with a
       "warning:" line on stderr: the commit is there (do not retry), and
       the next skillrepo command finishes the work tree and index
  1    failure, lint errors found, or a guard refused the write
  2    usage error (an unknown command, flag or argument)
  3    conflict: a proposal does not merge, a ref moved under us, or an
       uncommitted edit would be overwritten (nothing was written)
  4    the library is locked by another skillrepo process, or a git
       command holds .git/index.lock (nothing was written)
  5    an install (hooks install, mcp install) wrote its set-up, but the
       agent will not run it yet: the hint says the step that is left
       (often a flag such as --trust or --accept)
  130  interrupted

Any other code must be treated as a failure.
`
