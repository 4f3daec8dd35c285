// Command genrepo generates a large skillrepo library for benchmarks: N
// skills (flat or in categories) and a linear history of C commits, each
// patching one skill with provenance trailers, streamed into
// `git fast-import` so 10,000 skills and 2,000 commits take seconds.
//
//	go run ./bench/genrepo -out /tmp/lib -skills 10000 -commits 2000 -layout category
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/bench/genlib"
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
	fi, err := genlib.NewFastImport(out)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(seed))
	revs := make([]int, nSkills)
	importMsg := fmt.Sprintf("import: %d skills into skillrepo\n\nSkill-Action: import\nSkill-Origin: import\n", nSkills)
	if agent {
		var b strings.Builder
		for i := 0; i < nSkills; i++ {
			fmt.Fprintf(&b, "Skill-Imported-Agent: skill-%05d\n", i)
		}
		importMsg += b.String()
	}
	tip := fi.Commit("refs/heads/main", importMsg)
	fi.File(".skillrepo/config.yaml", "version: 1\nmain_branch: main\n")
	fi.File(".gitignore", "/.usage.json\n/.usage.json.*\n")
	for i := 0; i < nSkills; i++ {
		fi.File(skillDir(i, layout)+"/SKILL.md", skillMD(i, 0))
		if i%10 == 0 {
			fi.File(skillDir(i, layout)+"/references/notes.md", fmt.Sprintf("# Notes for skill %d\n\nDetails.\n", i))
		}
	}
	origins := []string{"background-review", "user", "foreground", "curator"}
	for c := 2; c <= nCommits; c++ {
		i := rng.Intn(nSkills)
		revs[i]++
		origin := origins[rng.Intn(len(origins))]
		tip = fi.Commit("refs/heads/main", fmt.Sprintf("skill: patch skill-%05d\n\nSkill-Action: patch\nSkill-Name: skill-%05d\nSkill-Origin: %s\n", i, i, origin), tip)
		fi.File(skillDir(i, layout)+"/SKILL.md", skillMD(i, revs[i]))
	}
	if err := fi.Finish(); err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	fmt.Printf("%s: %d skills (%s layout), %d commits\n", abs, nSkills, layout, nCommits)
	return nil
}
