// Command fakemodel serves a fakemodel script on a loopback port until it
// is interrupted: the scripted model server of the tests, for the demo
// (scripts/demo.sh), the end-to-end runs of real agent programs
// (scripts/agents-e2e.sh) and for trying the review loop with no key and
// no network. It speaks OpenAI chat completions, Anthropic Messages and
// OpenAI Responses (see package fakemodel) and prints the OpenAI base URL
// to use, one line, on stdout (Anthropic's is the same without /v1).
//
//	fakemodel [-log FILE] [-sink FILE] SCRIPT
//
// With -sink it also starts a proxy that forwards nothing, prints its URL
// as a second line (for HTTPS_PROXY), and appends every attempt to go
// through it to FILE.
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
	sinkPath := flag.String("sink", "", "also start a proxy that forwards nothing, logging each attempt to this file")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: fakemodel [-log FILE] [-sink FILE] SCRIPT")
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
	if *sinkPath != "" {
		f, err := os.OpenFile(*sinkPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(1)
		}
		defer f.Close()
		sink := fakemodel.StartSink(f)
		defer sink.Close()
		fmt.Println(sink.URL())
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
