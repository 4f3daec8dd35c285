// Command fakemodel serves a fakemodel script on a loopback port until it
// is interrupted: the scripted model server of the tests, for the demo
// (scripts/demo.sh) and for trying the review loop with no key and no
// network. It prints the OpenAI base URL to use, one line, on stdout.
//
//	fakemodel [-log FILE] SCRIPT
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
)

func main() {
	logPath := flag.String("log", "", "append every request body to this file, one JSON line each")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: fakemodel [-log FILE] SCRIPT")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	srv, stop, err := fakemodel.StartFile(flag.Arg(0), *logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer stop()
	fmt.Println(srv.BaseURL())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
