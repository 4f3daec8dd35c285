// Command genproject writes the files of a synthetic software project for
// the prefix-library benchmark (bench/prefix.sh): -files small source files
// in nested folders (100 per folder, 50 folders per package), no git.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "", "project folder to write into (created when missing)")
	files := flag.Int("files", 50000, "number of files")
	flag.Parse()
	if *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	for i := 0; i < *files; i++ {
		dir := filepath.Join(*out, "src", fmt.Sprintf("pkg%03d", i/5000), fmt.Sprintf("mod%02d", i/100%50))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				log.Fatal(err)
			}
		}
		body := fmt.Sprintf("package mod\n\n// File %d of the project.\nfunc F%d() int { return %d }\n", i, i, i*7)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%05d.go", i)), []byte(body), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
