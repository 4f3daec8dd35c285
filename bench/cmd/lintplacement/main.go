// Command lintplacement measures the precision and recall of lint's
// path-dangling rule on skill collections, comparing two skillrepo
// binaries (before and after a change to the rule).
//
// Precision: every path-dangling finding of the before binary is labelled
// by hand in the labels file (TP: a file of the skill that is missing; FP:
// a path the text places elsewhere, an example, a placeholder); precision
// is TP / findings for each binary, and recall the share of the labelled
// TPs the after binary still reports.
//
// Recall on real references (a larger sample): each collection is copied
// with every file under references/, templates/, scripts/ and assets/
// deleted, so every mention of one becomes a dangling reference of the
// skill's own file; recall is the share of those (beyond the collection's
// original findings) the after binary reports, of those the before binary
// reports.
//
//	go run ./bench/cmd/lintplacement -before OLD -after NEW -labels bench/lint-placement-labels.tsv DIR...
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type finding struct {
	Rule    string `json:"rule"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// key names a finding: the collection, the file, the line and the path
// mentioned (the quoted part of the message).
type key struct {
	coll, path string
	line       int
	mention    string
}

func main() {
	before := flag.String("before", "", "the skillrepo binary before the change")
	after := flag.String("after", "", "the skillrepo binary after the change")
	labels := flag.String("labels", "", "hand labels (TSV: collection, path, line, mention, TP|FP)")
	flag.Parse()
	if *before == "" || *after == "" || *labels == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: lintplacement -before BIN -after BIN -labels FILE DIR...")
		os.Exit(2)
	}
	if err := run(*before, *after, *labels, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "lintplacement:", err)
		os.Exit(1)
	}
}

func run(before, after, labelFile string, dirs []string) error {
	labels, err := readLabels(labelFile)
	if err != nil {
		return err
	}
	fmt.Println("Precision on the labelled findings (path-dangling):")
	fmt.Printf("%-40s %11s %11s %10s %10s %8s\n", "collection", "TP bef/aft", "FP bef/aft", "precision", "after", "recall")
	// Each collection is linted from a copy outside any repository, so
	// finding paths are the collection's own.
	tmp, err := os.MkdirTemp("", "lintplacement-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for k, dir := range dirs {
		c := filepath.Join(tmp, filepath.Base(dir))
		if err := copyTree(dir, c, false); err != nil {
			return err
		}
		dirs[k] = c
	}
	var all [4]int // TP, FP before; TP, FP after
	for _, dir := range dirs {
		coll := filepath.Base(dir)
		b, err := dangling(before, coll, dir)
		if err != nil {
			return err
		}
		a, err := dangling(after, coll, dir)
		if err != nil {
			return err
		}
		var n [4]int
		for k := range b {
			l, ok := labels[k]
			if !ok {
				return fmt.Errorf("%s/%s:%d %q has no label: label it in %s", coll, k.path, k.line, k.mention, labelFile)
			}
			i := map[string]int{"TP": 0, "FP": 1}[l]
			n[i]++
			if a[k] {
				n[2+i]++
			}
		}
		for k := range a {
			if !b[k] {
				fmt.Printf("  new after the change (label it): %s/%s:%d %s\n", coll, k.path, k.line, k.mention)
			}
		}
		for i := range all {
			all[i] += n[i]
		}
		printRow(coll, n)
	}
	printRow("all", all)

	fmt.Println("\nRecall on real references (support files deleted, findings beyond the originals):")
	fmt.Printf("%-40s %8s %8s %8s\n", "collection", "before", "after", "recall")
	var tb, ta int
	for _, dir := range dirs {
		coll := filepath.Base(dir)
		nb, na, err := mutated(before, after, coll, dir)
		if err != nil {
			return err
		}
		tb, ta = tb+nb, ta+na
		fmt.Printf("%-40s %8d %8d %7.1f%%\n", coll, nb, na, pct(na, nb))
	}
	fmt.Printf("%-40s %8d %8d %7.1f%%\n", "all", tb, ta, pct(ta, tb))
	return nil
}

func printRow(name string, n [4]int) {
	fmt.Printf("%-40s %5d/%-5d %5d/%-5d %9.1f%% %9.1f%% %7.1f%%\n", name, n[0], n[2], n[1], n[3], pct(n[0], n[0]+n[1]), pct(n[2], n[2]+n[3]), pct(n[2], n[0]))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func readLabels(file string) (map[key]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[key]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 5 || (c[4] != "TP" && c[4] != "FP") {
			return nil, fmt.Errorf("%s: bad line %q", file, line)
		}
		var n int
		if _, err := fmt.Sscan(c[2], &n); err != nil {
			return nil, fmt.Errorf("%s: bad line %q", file, line)
		}
		out[key{c[0], c[1], n, c[3]}] = c[4]
	}
	return out, sc.Err()
}

// dangling lints dir with bin and returns its path-dangling findings.
func dangling(bin, coll, dir string) (map[key]bool, error) {
	cmd := exec.Command(bin, "lint", "--allow-empty", "--format", "json", ".")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("%s lint in %s: %w", bin, dir, err)
		}
	}
	var rep struct{ Findings []finding }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("%s lint in %s: %w", bin, dir, err)
	}
	got := map[key]bool{}
	for _, f := range rep.Findings {
		if f.Rule != "path-dangling" {
			continue
		}
		mention := f.Message
		if i := strings.IndexByte(mention, '"'); i >= 0 {
			if j := strings.IndexByte(mention[i+1:], '"'); j >= 0 {
				mention = mention[i+1 : i+1+j]
			}
		}
		got[key{coll, f.Path, f.Line, mention}] = true
	}
	return got, nil
}

// mutated copies dir without its support files and counts the new
// path-dangling findings of each binary.
func mutated(before, after, coll, dir string) (nb, na int, err error) {
	orig, err := dangling(before, coll, dir)
	if err != nil {
		return 0, 0, err
	}
	tmp, err := os.MkdirTemp("", "lintplacement-*")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(tmp)
	copyDir := filepath.Join(tmp, coll)
	if err := copyTree(dir, copyDir, true); err != nil {
		return 0, 0, err
	}
	b, err := dangling(before, coll, copyDir)
	if err != nil {
		return 0, 0, err
	}
	a, err := dangling(after, coll, copyDir)
	if err != nil {
		return 0, 0, err
	}
	var keys []key
	for k := range b {
		if !orig[k] {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].path < keys[j].path || keys[i].path == keys[j].path && keys[i].line < keys[j].line
	})
	for _, k := range keys {
		nb++
		if a[k] {
			na++
		} else {
			fmt.Printf("  not reported after: %s/%s:%d %s\n", coll, k.path, k.line, k.mention)
		}
	}
	return nb, na, nil
}

// copyTree copies the regular files of src to dst (following a link to a
// folder at the top only); without support, it leaves out every file
// inside a references/, templates/, scripts/ or assets/ folder.
func copyTree(src, dst string, withoutSupport bool) error {
	root, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		for _, seg := range strings.Split(filepath.ToSlash(filepath.Dir(rel)), "/") {
			if !withoutSupport {
				break
			}
			switch seg {
			case "references", "templates", "scripts", "assets":
				return nil
			}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
