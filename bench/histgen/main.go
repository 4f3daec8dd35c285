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
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
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
	rng := rand.New(rand.NewSource(o.Seed))
	when := int64(1764000000)
	mark := 0
	data := func(s string) { fmt.Fprintf(w, "data %d\n%s\n", len(s), s) }
	// commit starts a commit on ref with parents; the file commands follow.
	commit := func(ref, msg string, parents ...int) int {
		mark++
		fmt.Fprintf(w, "commit %s\nmark :%d\n", ref, mark)
		fmt.Fprintf(w, "author Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\n", when, when)
		data(msg)
		for i, p := range parents {
			if i == 0 {
				fmt.Fprintf(w, "from :%d\n", p)
			} else {
				fmt.Fprintf(w, "merge :%d\n", p)
			}
		}
		when += 60
		return mark
	}
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
	fmt.Fprintf(w, "M 100644 inline .gitignore\n")
	data("/.usage.json\n/.usage.json.*\n")
	skillMD := make([]string, nSkills) // current SKILL.md of each skill
	if err := genlib.Files(o, func(f genlib.File) error {
		if strings.HasSuffix(f.Path, "/SKILL.md") {
			var i int
			if _, err := fmt.Sscanf(path.Base(path.Dir(f.Path)), "skill-%d", &i); err == nil && i < nSkills {
				skillMD[i] = string(f.Data)
			}
		}
		fmt.Fprintf(w, "M 100644 inline %s\n", f.Path)
		data(string(f.Data))
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", hotDir)
	data(h.render())

	lessons := make([]int, nSkills)
	// patchSkill appends a lesson to skill i on main.
	patchSkill := func(i int, origin string, c int) {
		lessons[i]++
		skillMD[i] += fmt.Sprintf("- lesson %d learned in commit %d\n", lessons[i], c)
		name := genlib.SkillName(i)
		tip = commit("refs/heads/main", fmt.Sprintf("skill: patch %s\n\n%s", name, trailers("patch", name, origin, c)), tip)
		fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", genlib.SkillDir(i, o))
		data(skillMD[i])
	}
	patchHot := func(ref string, c int, parents ...int) int {
		k := rng.Intn(len(h.lines))
		h.lines[k] = fmt.Sprintf("%d. Hot step %d, revised in commit %d.", k+1, k+1, c)
		origin := origins[rng.Intn(len(origins))]
		m := commit(ref, fmt.Sprintf("skill: patch %s\n\n%s", h.name, trailers("patch", h.name, origin, c)), parents...)
		fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", hotDir)
		data(h.render())
		return m
	}
	move := func(to, action, origin string, c int, rename string) {
		name := h.name
		if rename != "" {
			name = rename
		}
		tip = commit("refs/heads/main", fmt.Sprintf("skill: %s %s to %s\n\n%sSkill-From: %s\n", action, hotDir, to, trailers(action, name, origin, c), hotDir), tip)
		fmt.Fprintf(w, "R %s %s\n", hotDir, to)
		hotDir = to
		if rename != "" {
			h.name = rename
			fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", hotDir)
			data(h.render())
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
			fmt.Fprintf(w, "M 100644 inline %s/SKILL.md\n", hotDir)
			data(h.render())
			c++
		case c%10 == 0:
			tip = patchHot("refs/heads/main", c, tip)
		default:
			patchSkill(rng.Intn(nSkills), origins[rng.Intn(len(origins))], c)
		}
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
	fmt.Println(hotDir)
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
