package main

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

const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitConflict    = 3
	exitLocked      = 4
	exitNotRunning  = 5
	exitInterrupted = 130
)

// flagError is a usage error: the message is printed with a usage hint.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &flagError{fmt.Errorf(format, args...)}
}

// silentError ends the command with code after it already reported itself
// (lint after printing its findings).
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// notRunningError ends an install whose set-up was written but that the
// agent will not run yet (doctor found a problem): the files stay, and
// the hint is each problem's fix.
type notRunningError struct {
	what  string
	fixes []string
}

func (e *notRunningError) Error() string {
	return e.what + ": installed, but will not run until the problems found are fixed"
}
func (e *notRunningError) Hint() string  { return strings.Join(e.fixes, "\n") }
func (e *notRunningError) ExitCode() int { return exitNotRunning }

// exitCoder lets a package error choose its code.
type exitCoder interface{ ExitCode() int }

// hinter lets an error suggest the next command to run.
type hinter interface{ Hint() string }

func exitCodeFor(err error) int {
	var fe *flagError
	var se *silentError
	var ec exitCoder
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &se):
		return se.code
	case errors.As(err, &fe):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, skillrepo.ErrLocked):
		return exitLocked
	case errors.Is(err, skillrepo.ErrConflict):
		return exitConflict
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return exitFailure
}

// reportError prints err once, as "error: …" plus hints, and with --json
// also as a JSON line on stderr.
func reportError(io *iostreams, err error, jsonMode bool) {
	var se *silentError
	if errors.As(err, &se) {
		return
	}
	code := exitCodeFor(err)
	if jsonMode {
		b, _ := json.Marshal(map[string]any{"message_type": "exit_error", "code": code, "message": endpoint.RedactText(err.Error())})
		fmt.Fprintln(io.ErrOut, string(b))
		return
	}
	// Every message passes the one redaction: a URL in it (a model
	// server's, a remote's) never shows credentials or query values.
	fmt.Fprintf(io.ErrOut, "error: %s\n", endpoint.RedactText(err.Error()))
	var h hinter
	hinted := errors.As(err, &h) && h.Hint() != ""
	if hinted {
		for _, line := range strings.Split(h.Hint(), "\n") {
			fmt.Fprintf(io.ErrOut, "hint: %s\n", line)
		}
	}
	var fe *flagError
	if errors.As(err, &fe) && !hinted {
		fmt.Fprintln(io.ErrOut, "hint: run with --help for usage")
	}
}

const exitCodesHelp = `skillrepo exits with one of these codes:

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
