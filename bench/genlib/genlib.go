// Package genlib generates synthetic skills libraries for benchmarks: N
// skills, flat (<name>/SKILL.md) or in category folders
// (<category>/<name>/SKILL.md), each with a realistic SKILL.md (frontmatter,
// headings, steps, a fenced command, links to its support files) and
// support files under references/, scripts/, templates/ and assets/.
//
// Output is a pure function of [Options]: the same options give the same
// bytes, so benchmarks are comparable across runs and machines. [Files]
// streams the files (for writers such as git fast-import); [Write] puts
// them in a folder.
package genlib

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Options describe the library to generate.
type Options struct {
	// Skills is the number of skills.
	Skills int
	// Categories spreads the skills over this many category folders
	// (cat-000, cat-001, ...); 0 means the flat layout.
	Categories int
	// Support is the number of support files per skill, cycling through
	// references/*.md, scripts/*.sh, templates/*.md and assets/*.json. Each
	// is linked from SKILL.md.
	Support int
	// BodyLines is the approximate length of the SKILL.md body.
	BodyLines int
	// DanglingEvery makes every n-th skill link a reference file that does
	// not exist (0: never), so linters have something to find.
	DanglingEvery int
	// Seed varies the wording.
	Seed int64
	// Shape is [ShapeUniform] (the default) or [ShapeReal]; with
	// ShapeReal, Support and BodyLines are ignored (sizes are drawn).
	Shape string
}

// Defaults are the options of the standard benchmark library.
func Defaults() Options {
	return Options{Skills: 10000, Categories: 100, Support: 3, BodyLines: 60, Seed: 1}
}

// File is one generated file; Path is slash-separated and relative to the
// library root.
type File struct {
	Path string
	Data []byte
}

// Stats count what was generated.
type Stats struct {
	Skills, Files int
	Bytes         int64
}

// SkillDir is the folder of skill i.
func SkillDir(i int, o Options) string {
	name := SkillName(i)
	if o.Categories <= 0 {
		return name
	}
	return fmt.Sprintf("cat-%03d/%s", i%o.Categories, name)
}

// SkillName is the name of skill i.
func SkillName(i int) string { return fmt.Sprintf("skill-%05d", i) }

var (
	verbs   = []string{"debug", "deploy", "migrate", "profile", "review", "release", "bisect", "rotate", "audit", "index"}
	objects = []string{"flaky CI jobs", "database schemas", "container images", "release notes", "API clients", "log pipelines", "TLS certificates", "search indexes", "feature flags", "cron jobs"}
	tools   = []string{"git", "docker", "kubectl", "psql", "jq", "curl", "make", "go", "npm", "terraform"}
)

type support struct {
	path, text string
}

// supportFiles lists skill i's support files.
func supportFiles(i int, o Options) []support {
	out := make([]support, 0, o.Support)
	for k := 0; k < o.Support; k++ {
		switch k % 4 {
		case 0:
			out = append(out, support{fmt.Sprintf("references/guide-%d.md", k), fmt.Sprintf("# Guide %d for %s\n\nBackground, edge cases and examples.\n\n- Check the inputs first.\n- Keep a log of what changed.\n- See [the template](../templates/report-%d.md) when writing up.\n", k, SkillName(i), k+2)})
		case 1:
			out = append(out, support{fmt.Sprintf("scripts/run-%d.sh", k), fmt.Sprintf("#!/bin/sh\nset -eu\n# helper %d for %s\necho \"running step $1\"\n", k, SkillName(i))})
		case 2:
			out = append(out, support{fmt.Sprintf("templates/report-%d.md", k), fmt.Sprintf("# Report: {{title}}\n\n## What happened\n\n## What we changed (%s)\n", SkillName(i))})
		case 3:
			out = append(out, support{fmt.Sprintf("assets/data-%d.json", k), fmt.Sprintf("{\"skill\": %q, \"version\": %d}\n", SkillName(i), k)})
		}
	}
	return out
}

// skillMD renders skill i's SKILL.md.
func skillMD(i int, o Options, rng *rand.Rand, sup []support) string {
	verb, obj, tool := verbs[rng.Intn(len(verbs))], objects[rng.Intn(len(objects))], tools[rng.Intn(len(tools))]
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: Use when you need to %s %s with %s.\n", SkillName(i), verb, obj, tool)
	if i%3 == 0 {
		fmt.Fprintf(&b, "metadata:\n  author: bench\n  version: \"1.%d\"\n", i%10)
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "# %s %s\n\n## When to use\n\nWhen a task asks to %s %s, or %s reports a failure.\n\n## Steps\n\n", strings.ToUpper(verb[:1])+verb[1:], obj, verb, obj, tool)
	lines := 10
	for k := 1; lines < o.BodyLines-len(sup)-8; k++ {
		fmt.Fprintf(&b, "%d. Step %d: run `%s` and check the output for %s; note anything unusual.\n", k, k, tool, obj)
		lines++
		if k%10 == 0 {
			fmt.Fprintf(&b, "\n```sh\n%s --verbose step-%d\n```\n\n", tool, k)
			lines += 5
		}
	}
	if len(sup) > 0 {
		b.WriteString("\n## Resources\n\n")
		for _, s := range sup {
			fmt.Fprintf(&b, "- [%s](%s)\n", filepath.Base(s.path), s.path)
		}
	}
	if o.DanglingEvery > 0 && i%o.DanglingEvery == 0 {
		b.WriteString("- [missing notes](references/never-written.md)\n")
	}
	b.WriteString("\n## Pitfalls\n\n- Do not skip the dry run.\n")
	return b.String()
}

// Files calls fn for every file of the library, in a fixed order; it stops
// at fn's first error.
func Files(o Options, fn func(File) error) error {
	if o.Skills < 0 || o.Support < 0 {
		return fmt.Errorf("genlib: negative counts in %+v", o)
	}
	rng := rand.New(rand.NewSource(o.Seed))
	if err := fn(File{".skillrepo/config.yaml", []byte("version: 1\nmain_branch: main\n")}); err != nil {
		return err
	}
	if o.Shape != ShapeUniform && o.Shape != ShapeReal {
		return fmt.Errorf("genlib: unknown shape %q", o.Shape)
	}
	for i := 0; i < o.Skills; i++ {
		dir := SkillDir(i, o)
		if o.Shape == ShapeReal {
			md, files := realSkill(i, o)
			if err := fn(File{dir + "/SKILL.md", []byte(md)}); err != nil {
				return err
			}
			for _, f := range files {
				if err := fn(File{dir + "/" + f.path, f.data}); err != nil {
					return err
				}
			}
			continue
		}
		sup := supportFiles(i, o)
		if err := fn(File{dir + "/SKILL.md", []byte(skillMD(i, o, rng, sup))}); err != nil {
			return err
		}
		for _, s := range sup {
			if err := fn(File{dir + "/" + s.path, []byte(s.text)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Write generates the library into dir, which must not exist yet.
func Write(dir string, o Options) (Stats, error) {
	var st Stats
	if _, err := os.Stat(dir); err == nil {
		return st, fmt.Errorf("genlib: %s already exists", dir)
	}
	made := map[string]bool{}
	err := Files(o, func(f File) error {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if d := filepath.Dir(p); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(f.Path, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.Data, mode); err != nil {
			return err
		}
		st.Files++
		st.Bytes += int64(len(f.Data))
		if strings.HasSuffix(f.Path, "/SKILL.md") {
			st.Skills++
		}
		return nil
	})
	return st, err
}
