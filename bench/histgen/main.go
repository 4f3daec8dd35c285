// Command histgen generates a large library with a history worth walking,
// for the skill log / skill blame benchmark (bench/history.sh): N skills
// and C commits streamed into `git fast-import`, where one "hot" skill of
// 240 lines is patched by every tenth commit (about 200 touches, by all
// origins, with review ids and models), renamed into a category, archived,
// restored, and patched on a proposal branch that is merged with a merge
// commit. The other commits append a lesson to a random skill. The skills'
// content comes from bench/genlib (one support file each).
//
//	go run ./bench/histgen -out /tmp/lib -skills 10000 -commits 2000 -layout flat
//
// It prints the hot skill's final folder.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path"
	"strings"

	"github.com/skillrepo/skillrepo/bench/genlib"
)

func main() {
	out := flag.String("out", "", "library folder to create (must not exist)")
	skills := flag.Int("skills", 10000, "number of skills besides the hot one")
	commits := flag.Int("commits", 2000, "number of commits on main, the import included")
	layout := flag.String("layout", "flat", "flat (<name>/SKILL.md) or category (100 folders of <cat>/<name>/SKILL.md)")
	seed := flag.Int64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || (*layout != "flat" && *layout != "category") || *commits < 100 {
		flag.Usage()
		os.Exit(2)
	}
	o := genlib.Options{Skills: *skills, Support: 1, BodyLines: 20, Seed: *seed}
	if *layout == "category" {
		o.Categories = 100
	}
	if err := generate(*out, o, *commits); err != nil {
		fmt.Fprintln(os.Stderr, "histgen:", err)
		os.Exit(1)
	}
}

// hot is the heavily edited skill: its name and 240 body lines.
type hot struct {
	name  string
	lines []string
}

func (h *hot) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: Use when the hot path needs care. Many lessons.\n---\n# Hot skill\n\n", h.name)
	for _, l := range h.lines {
		b.WriteString(l)
		b.WriteString("\n")
	}
	return b.String()
}

var origins = []string{"background-review", "user", "foreground", "curator"}
var models = []string{"qwen3-32b", "llama-3.3-70b", "gpt-4.1-mini"}

func generate(out string, o genlib.Options, nCommits int) error {
	nSkills := o.Skills
	fi, err := genlib.NewFastImport(out)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(o.Seed))
	commit := fi.Commit
	trailers := func(action, name, origin string, n int) string {
		s := fmt.Sprintf("Skill-Action: %s\nSkill-Name: %s\nSkill-Origin: %s\n", action, name, origin)
		if origin == "background-review" || origin == "curator" {
			s += fmt.Sprintf("Review-Id: r-%04d\nModel: %s\n", n, models[n%len(models)])
		}
		return s
	}

	h := &hot{name: "hot-skill"}
	for k := 0; k < 240; k++ {
		h.lines = append(h.lines, fmt.Sprintf("%d. Hot step %d, first version.", k+1, k+1))
	}
	hotDir := "hot-skill"

	msg := fmt.Sprintf("import: %d skills into skillrepo\n\nSkill-Action: import\nSkill-Origin: import\n", nSkills+1)
	for i := 0; i < nSkills; i += 3 {
		msg += fmt.Sprintf("Skill-Imported-Agent: skill-%05d\n", i)
	}
	tip := commit("refs/heads/main", msg)
	fi.File(".gitignore", "/.usage.json\n/.usage.json.*\n")
	skillMD := make([]string, nSkills) // current SKILL.md of each skill
	if err := genlib.Files(o, func(f genlib.File) error {
		if strings.HasSuffix(f.Path, "/SKILL.md") {
			var i int
			if _, err := fmt.Sscanf(path.Base(path.Dir(f.Path)), "skill-%d", &i); err == nil && i < nSkills {
				skillMD[i] = string(f.Data)
			}
		}
		fi.File(f.Path, string(f.Data))
		return nil
	}); err != nil {
		return err
	}
	fi.File(hotDir+"/SKILL.md", h.render())

	lessons := make([]int, nSkills)
	// patchSkill appends a lesson to skill i on main.
	patchSkill := func(i int, origin string, c int) {
		lessons[i]++
		skillMD[i] += fmt.Sprintf("- lesson %d learned in commit %d\n", lessons[i], c)
		name := genlib.SkillName(i)
		tip = commit("refs/heads/main", fmt.Sprintf("skill: patch %s\n\n%s", name, trailers("patch", name, origin, c)), tip)
		fi.File(genlib.SkillDir(i, o)+"/SKILL.md", skillMD[i])
	}
	patchHot := func(ref string, c int, parents ...int) int {
		k := rng.Intn(len(h.lines))
		h.lines[k] = fmt.Sprintf("%d. Hot step %d, revised in commit %d.", k+1, k+1, c)
		origin := origins[rng.Intn(len(origins))]
		m := commit(ref, fmt.Sprintf("skill: patch %s\n\n%s", h.name, trailers("patch", h.name, origin, c)), parents...)
		fi.File(hotDir+"/SKILL.md", h.render())
		return m
	}
	move := func(to, action, origin string, c int, rename string) {
		name := h.name
		if rename != "" {
			name = rename
		}
		tip = commit("refs/heads/main", fmt.Sprintf("skill: %s %s to %s\n\n%sSkill-From: %s\n", action, hotDir, to, trailers(action, name, origin, c), hotDir), tip)
		fi.Rename(hotDir, to)
		hotDir = to
		if rename != "" {
			h.name = rename
			fi.File(hotDir+"/SKILL.md", h.render())
		}
	}
	proposalAt := nCommits * 3 / 4
	for c := 2; c <= nCommits; c++ {
		switch {
		case c == nCommits/4:
			move("tools/hot-tool", "rename", "user", c, "hot-tool")
		case c == nCommits/2:
			move(".archive/hot-tool", "archive", "curator", c, "")
		case c == nCommits/2+10:
			move("tools/hot-tool", "restore", "user", c, "")
		case c == proposalAt:
			// A background review proposes three patches on its own
			// branch; main moves on with other skills; the proposal is
			// merged with a merge commit.
			fork := tip
			p := fork
			for k := 0; k < 3; k++ {
				p = patchHot("refs/heads/proposals/r-9000", 9000+k, p)
			}
			patchSkill(1, "user", c)
			tip = commit("refs/heads/main", "Merge proposal r-9000\n\nApproved-By: Bench <bench@example.com>\n", tip, p)
			fi.File(hotDir+"/SKILL.md", h.render())
			c++
		case c%10 == 0:
			tip = patchHot("refs/heads/main", c, tip)
		default:
			patchSkill(rng.Intn(nSkills), origins[rng.Intn(len(origins))], c)
		}
	}
	if err := fi.Finish(); err != nil {
		return err
	}
	fmt.Println(hotDir)
	return nil
}
