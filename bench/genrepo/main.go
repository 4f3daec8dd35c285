// Command genrepo generates a large skillrepo library for benchmarks: N
// skills (flat or in categories) and a linear history of C commits, each
// patching one skill with provenance trailers, streamed into
// `git fast-import` so 10,000 skills and 2,000 commits take seconds.
//
//	go run ./bench/genrepo -out /tmp/lib -skills 10000 -commits 2000 -layout category
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("out", "", "library folder to create (must not exist)")
	skills := flag.Int("skills", 10000, "number of skills")
	commits := flag.Int("commits", 2000, "number of commits, the import included")
	layout := flag.String("layout", "category", "flat (<name>/SKILL.md) or category (<cat>/<name>/SKILL.md, 100 per category)")
	seed := flag.Int64("seed", 1, "random seed")
	agent := flag.Bool("agent", false, "the import names every skill agent-made (Skill-Imported-Agent), so all are curator-managed")
	flag.Parse()
	if *out == "" || (*layout != "flat" && *layout != "category") {
		flag.Usage()
		os.Exit(2)
	}
	if err := generate(*out, *skills, *commits, *layout, *seed, *agent); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
}

func skillDir(i int, layout string) string {
	name := fmt.Sprintf("skill-%05d", i)
	if layout == "flat" {
		return name
	}
	return fmt.Sprintf("cat-%03d/%s", i/100, name)
}

func skillMD(i, rev int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: skill-%05d\ndescription: Use when task %d comes up. Steps and pitfalls.\n---\n", i, i)
	fmt.Fprintf(&b, "# Skill %d\n\n", i)
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&b, "%d. Step %d of the procedure for task %d.\n", k+1, k+1, i)
	}
	for r := 1; r <= rev; r++ {
		fmt.Fprintf(&b, "- lesson %d learned in revision %d\n", r, r)
	}
	return b.String()
}

func generate(out string, nSkills, nCommits int, layout string, seed int64, agent bool) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists", out)
	}
	if err := run("", "git", "init", "-q", "-b", "main", out); err != nil {
		return err
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = out
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	rng := rand.New(rand.NewSource(seed))
	revs := make([]int, nSkills)
	when := int64(1764000000)
	data := func(s string) { fmt.Fprintf(w, "data %d\n%s\n", len(s), s) }
	commit := func(msg string, mark int) {
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", mark)
		fmt.Fprintf(w, "author Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\n", when, when)
		data(msg)
		if mark > 1 {
			fmt.Fprintf(w, "from :%d\n", mark-1)
		}
		when += 60
	}
	importMsg := fmt.Sprintf("import: %d skills into skillrepo\n\nSkill-Action: import\nSkill-Origin: import\n", nSkills)
	if agent {
		var b strings.Builder
		for i := 0; i < nSkills; i++ {
			fmt.Fprintf(&b, "Skill-Imported-Agent: skill-%05d\n", i)
		}
		importMsg += b.String()
	}
	commit(importMsg, 1)
	fmt.Fprintf(w, "M 100644 inline .skillrepo/config.yaml\n")
	data("version: 1\nmain_branch: main\n")
	fmt.Fprintf(w, "M 100644 inline .gitignore\n")
	data("/.usage.json\n/.usage.json.*\n")
	for i := 0; i < nSkills; i++ {
		fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", skillDir(i, layout))
		data(skillMD(i, 0))
		if i%10 == 0 {
			fmt.Fprintf(w, "M 100644 inline %s/references/notes.md\n", skillDir(i, layout))
			data(fmt.Sprintf("# Notes for skill %d\n\nDetails.\n", i))
		}
	}
	origins := []string{"background-review", "user", "foreground", "curator"}
	for c := 2; c <= nCommits; c++ {
		i := rng.Intn(nSkills)
		revs[i]++
		origin := origins[rng.Intn(len(origins))]
		commit(fmt.Sprintf("skill: patch skill-%05d\n\nSkill-Action: patch\nSkill-Name: skill-%05d\nSkill-Origin: %s\n", i, i, origin), c)
		fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", skillDir(i, layout))
		data(skillMD(i, revs[i]))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("fast-import: %w", err)
	}
	if err := run(out, "git", "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	if err := run(out, "git", "repack", "-adq"); err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	fmt.Printf("%s: %d skills (%s layout), %d commits\n", abs, nSkills, layout, nCommits)
	return nil
}

func run(dir string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}
