package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillrepo/skillrepo/internal/gitserver"
)

// gitServerCmd is the testscript command
//
//	gitserver [-auth USER:PASSWORD] [-git] NAME
//
// which serves an empty bare repository NAME for the rest of the script
// from a real git server on 127.0.0.1 (git http-backend behind
// net/http/cgi; with -git, git daemon --inetd) and sets GITSERVER_URL to
// its URL and GITSERVER_DIR to its folder (docs/remote.md §8).
func gitServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: gitserver [-auth USER:PASSWORD] [-git] NAME")
	}
	var opts gitserver.Options
	daemon := false
	for len(args) > 1 {
		switch {
		case args[0] == "-auth" && len(args) > 2:
			opts.User, opts.Password, _ = strings.Cut(args[1], ":")
			args = args[2:]
		case args[0] == "-git":
			daemon, args = true, args[1:]
		default:
			ts.Fatalf("usage: gitserver [-auth USER:PASSWORD] [-git] NAME")
		}
	}
	if len(args) != 1 {
		ts.Fatalf("usage: gitserver [-auth USER:PASSWORD] [-git] NAME")
	}
	t := &scriptT{ts: ts}
	var srv *gitserver.Server
	if daemon {
		srv = gitserver.Daemon(t)
	} else {
		srv = gitserver.HTTP(t, opts)
	}
	ts.Setenv("GITSERVER_URL", srv.Init(t, args[0]))
	ts.Setenv("GITSERVER_DIR", srv.Dir(args[0]))
}

// scriptT adapts a testscript to what gitserver needs of a test.
type scriptT struct {
	ts *testscript.TestScript
	n  int
}

func (t *scriptT) Helper()                   {}
func (t *scriptT) Cleanup(fn func())         { t.ts.Defer(fn) }
func (t *scriptT) Skipf(f string, a ...any)  { t.ts.Fatalf(f, a...) }
func (t *scriptT) Fatalf(f string, a ...any) { t.ts.Fatalf(f, a...) }
func (t *scriptT) Errorf(f string, a ...any) { t.ts.Fatalf(f, a...) }

func (t *scriptT) TempDir() string {
	t.n++
	dir := t.ts.MkAbs(fmt.Sprintf(".gitserver-%d", t.n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.ts.Fatalf("%v", err)
	}
	return filepath.Clean(dir)
}
