//go:build unix

// Command indexfloor measures what the kernel alone charges for replacing
// an index file the way a skillrepo write does (bench/prefix.sh): in a
// fresh process each time, map the file and read every byte, write a new
// file holding the same bytes, rename it over the old one, and make it
// durable (syncfs on Linux, as the write's second barrier; fsync
// elsewhere); the process then exits, which frees the replaced file. No
// hashing, no parsing: the difference between a project's index and a
// library's is the part of a folder library's extra time no code of ours
// can remove.
//
//	indexfloor [-runs N] FILE...
//
// Each FILE is copied into a temp folder beside it (same file system) and
// replaced N times; prints the median and first quartile per file.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 30, "replacements per file")
	child := flag.String("child", "", "internal: replace this file once and exit")
	flag.Parse()
	if *child != "" {
		if err := replace(*child); err != nil {
			log.Fatal(err)
		}
		return
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	for _, src := range flag.Args() {
		b, err := os.ReadFile(src)
		if err != nil {
			log.Fatal(err)
		}
		dir, err := os.MkdirTemp(filepath.Dir(src), "indexfloor-")
		if err != nil {
			log.Fatal(err)
		}
		path := filepath.Join(dir, "index")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			log.Fatal(err)
		}
		var ms []float64
		for i := 0; i < *runs; i++ {
			t := time.Now()
			if out, err := exec.Command(self, "-child", path).CombinedOutput(); err != nil {
				log.Fatalf("%v: %s", err, out)
			}
			ms = append(ms, float64(time.Since(t).Microseconds())/1000)
		}
		os.RemoveAll(dir)
		sort.Float64s(ms)
		fmt.Printf("%s (%d bytes): median %.1f ms  q1 %.1f ms\n", src, len(b), ms[len(ms)/2], ms[len(ms)/4])
	}
}

// replace does what a write does to the index, minus our code's work.
func replace(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		return err
	}
	var sum byte
	for i := 0; i < len(b); i += 64 {
		sum += b[i] // touch every cache line, as the entry scan does
	}
	runtime.KeepAlive(sum) // the reads are not optimised away
	tmp, err := os.CreateTemp(filepath.Dir(path), "new-")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if err := durable(path); err != nil {
		return err
	}
	return nil
}
