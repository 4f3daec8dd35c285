// Command genlib writes a synthetic skills library for benchmarks (see
// package bench/genlib):
//
//	go run ./bench/cmd/genlib -out /tmp/lib -skills 10000 -categories 100 -support 3
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skillrepo/skillrepo/bench/genlib"
)

func main() {
	d := genlib.Defaults()
	out := flag.String("out", "", "library folder to create (must not exist)")
	flag.IntVar(&d.Skills, "skills", d.Skills, "number of skills")
	flag.IntVar(&d.Categories, "categories", d.Categories, "category folders (0: flat layout)")
	flag.IntVar(&d.Support, "support", d.Support, "support files per skill")
	flag.IntVar(&d.BodyLines, "lines", d.BodyLines, "approximate SKILL.md body lines")
	flag.IntVar(&d.DanglingEvery, "dangling-every", d.DanglingEvery, "every n-th skill links a missing file (0: none)")
	flag.Int64Var(&d.Seed, "seed", d.Seed, "random seed")
	flag.StringVar(&d.Shape, "shape", d.Shape, `"" (uniform skills) or "real" (sizes, tables, code, nested folders and imports like real collections)`)
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	st, err := genlib.Write(*out, d)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d skills, %d files, %d bytes\n", *out, st.Skills, st.Files, st.Bytes)
}
