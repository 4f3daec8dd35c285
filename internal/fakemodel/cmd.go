package fakemodel

import (
	"flag"
	"io"

	"github.com/rogpeppe/go-internal/testscript"
)

// Cmd is the testscript command `fakemodel [-log FILE] SCRIPT`. It starts a
// server replaying SCRIPT for the rest of the script, points
// OPENAI_BASE_URL at it, sets a dummy OPENAI_API_KEY, and stops the server
// when the script ends. With -log, every request body is appended to FILE
// as one JSON line, for grep. Register it in testscript.Params.Cmds:
//
//	Cmds: map[string]func(*testscript.TestScript, bool, []string){"fakemodel": fakemodel.Cmd}
func Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fakemodel")
	}
	fs := flag.NewFlagSet("fakemodel", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	logPath := fs.String("log", "", "append request bodies to this file")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		ts.Fatalf("usage: fakemodel [-log FILE] SCRIPT")
	}
	if *logPath != "" {
		*logPath = ts.MkAbs(*logPath)
	}
	srv, stop, err := StartFile(ts.MkAbs(fs.Arg(0)), *logPath)
	ts.Check(err)
	ts.Defer(stop)
	ts.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	ts.Setenv("OPENAI_API_KEY", "fakemodel-key")
}
