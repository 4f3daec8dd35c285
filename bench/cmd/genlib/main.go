// Command genlib writes a synthetic skills library for benchmarks (see
// package bench/genlib):
//
//	go run ./bench/cmd/genlib -out /tmp/lib -skills 10000 -categories 100 -support 3
//	go run ./bench/cmd/genlib -git -out /tmp/lib -skills 100000   # a library: one import commit on main
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
	git := flag.Bool("git", false, "make a git repository: the library as one import commit on main, streamed through git fast-import")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *git {
		if err := importLibrary(*out, d); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d skills, one commit on main\n", *out, d.Skills)
		return
	}
	st, err := genlib.Write(*out, d)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d skills, %d files, %d bytes\n", *out, st.Skills, st.Files, st.Bytes)
}

// importLibrary streams the library into a new repository at out.
func importLibrary(out string, o genlib.Options) error {
	fi, err := genlib.NewFastImport(out)
	if err != nil {
		return err
	}
	fi.Commit("refs/heads/main", fmt.Sprintf("import: %d skills into skillrepo\n\nSkill-Action: import\nSkill-Origin: import\n", o.Skills))
	fi.File(".gitignore", "/.usage.json\n/.usage.json.*\n")
	if err := genlib.Files(o, func(f genlib.File) error {
		fi.File(f.Path, string(f.Data))
		return nil
	}); err != nil {
		return err
	}
	return fi.Finish()
}
