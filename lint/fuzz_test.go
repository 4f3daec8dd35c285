package lint

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// yamlBombs are hostile frontmatters: alias expansion (billion laughs),
// deep flow and block nesting, and a huge frontmatter.
func yamlBombs() map[string]string {
	var laughs strings.Builder
	laughs.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"} {
		laughs.WriteString(n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n")
		prev = n
	}
	var block strings.Builder
	for k := 0; k < 5000; k++ {
		block.WriteString(strings.Repeat(" ", k) + "k:\n")
	}
	return map[string]string{
		"billion laughs":   "name: bomb\ndescription: d\n" + laughs.String(),
		"deep flow":        "name: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n",
		"deep unclosed":    "name: " + strings.Repeat("{a: ", 50000) + "\n",
		"deep block":       block.String(),
		"huge frontmatter": "description: " + strings.Repeat("x", 2<<20) + "\n",
		"many anchors":     strings.Repeat("- &x [*x]\n", 20000),
	}
}

// TestYAMLBombs checks that hostile frontmatter is reported, not expanded:
// each check stays within a fixed allocation budget.
func TestYAMLBombs(t *testing.T) {
	for name, front := range yamlBombs() {
		t.Run(name, func(t *testing.T) {
			content := "---\n" + front + "---\nbody\n"
			for _, p := range []Profile{ProfileSpec, ProfileSkillsRef} {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				rep := check(t, map[string]string{"bomb/SKILL.md": content}, Options{Profile: p})
				runtime.ReadMemStats(&after)
				// The input itself is up to 2 MiB; the YAML parser's nodes
				// for 100k nesting levels cost tens of MiB at most.
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
					t.Errorf("%s: allocated %d MiB", p, alloc>>20)
				}
				if len(rep.Skills) != 1 {
					t.Errorf("%s: skills %v", p, rep.Skills)
				}
			}
		})
	}
}

// FuzzFrontmatter feeds arbitrary SKILL.md content through every profile:
// no panic, and every finding is well formed.
func FuzzFrontmatter(f *testing.F) {
	for _, b := range yamlBombs() {
		if len(b) < 64<<10 {
			f.Add("---\n" + b + "---\nbody\n")
		}
	}
	for _, s := range []string{
		"", "---", "---\n---\n", "---\nname: x\n---", "\ufeff---\nname: a\n---\n",
		"---\nname: [invalid\ndescription: broken\n---\nBody\n",
		"---\nname: a\n  b: c\n---\n", "---\r\nname: a\r\n---\r\n", "---\nx: !!str 1\n---\n",
		"---\nx: &a 1\ny: *a\n---\n", "---\na: 1\na: 2\n---\n", "---\n'a': \"b\nc\"\n---\n",
		"---\nm:\n  a: 1\nn:\n    b: 2\n---\n", "---\ndescription: |\n  [not flow]\n---\n",
		"---\nname: caf\u00e9\ndescription: \xff\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		for _, p := range Profiles() {
			rep, err := Check(mapFS(map[string]string{"fz/SKILL.md": content}), Options{Profile: p})
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range rep.Findings {
				if fd.Rule == "" || fd.Message == "" || fd.Line < 0 || fd.Column < 0 {
					t.Fatalf("bad finding %+v", fd)
				}
				if _, ok := LookupRule(fd.Rule); !ok {
					t.Fatalf("unknown rule %q", fd.Rule)
				}
			}
		}
		// The strict loader on its own, with a column inside the text.
		if doc, e := strictLoad(content); e != nil {
			if e.line < 1 || e.col < 1 || e.msg == "" {
				t.Fatalf("bad strict error %+v", e)
			}
		} else if doc == nil {
			t.Fatal("strictLoad returned neither document nor error")
		}
	})
}

// FuzzMarkdown checks the link scanner: no panic, and every reference
// points at text that is really on the line and column it names.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{
		"See [a](references/a.md) and ![b](assets/b.png \"t\").",
		"```\n[x](y)\n```\n[z](<w v.md>)",
		"[ref]: references/r.md\n<img src='assets/i.png'>",
		"`references/x.md` <!-- [c](d) --> text",
		"[a](b(c)d) [e](f\\)g) [[x]](y) ](",
		"~~~~\n```\n~~~~\n[a](b)",
		"<!-- open\n[a](b)\n-->[c](d)",
		"é [ü](references/ö.md) scripts/ä.sh",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		runes := map[int][]rune{}
		for _, r := range scanMarkdown(text, 1) {
			if r.Line < 1 || r.Line > len(lines) || r.Col < 1 {
				t.Fatalf("position %d:%d out of range in %q", r.Line, r.Col, text)
			}
			line := strings.TrimSuffix(lines[r.Line-1], "\r")
			if len(line) > maxScanLine {
				line = line[:maxScanLine]
			}
			rs, ok := runes[r.Line]
			if !ok {
				rs = []rune(line)
				runes[r.Line] = rs
			}
			if r.Col-1 > len(rs) {
				t.Fatalf("column %d beyond line %q", r.Col, line)
			}
			rest := string(rs[r.Col-1 : min(len(rs), r.Col-1+len(r.Target))])
			if utf8.ValidString(line) && !strings.HasPrefix(rest, r.Target) {
				t.Fatalf("ref %+v: line %q does not have the target at its column", r, line)
			}
		}
		linkPath(text)
		hasScheme(text)
	})
}
