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
// points at text that is really on the line and column it names, with
// the real parse units and with tiny ones.
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
		"[![a](b.md)](b.md) [x\\]](<y>)\n> [q]:\n> z.md 't'\n\n[q]",
		"- a\n\n\t[t](u)\n  \t[v](w)\n\n    [c](d)\n[^1]: [e](f)\n",
	} {
		f.Add(s)
	}
	md := newMarkdownParser()
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		runes := map[int][]rune{}
		// Tiny parse units exercise every way a unit is cut.
		refs := append(scanMarkdown(md, text, 1), scanMarkdownUnits(md, text, 1, 64)...)
		for _, r := range refs {
			if r.Line < 1 || r.Line > len(lines) || r.Col < 1 {
				t.Fatalf("position %d:%d out of range in %q", r.Line, r.Col, text)
			}
			line := strings.TrimSuffix(lines[r.Line-1], "\r")
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
		_ = hasScheme(text) // must not panic
	})
}

// markdownBombs are texts that make a CommonMark parser slow or large:
// deep nesting on one line or many, unclosed link and comment openers
// (goldmark's quadratic cases), brackets, a paragraph of link definitions,
// and one very long line.
func markdownBombs() map[string]string {
	return map[string]string{
		"deep block quote":      strings.Repeat(">", 1<<20),
		"deep quote lines":      strings.Repeat(strings.Repeat("> ", 2<<10)+"[a](b.md)\n", 64),
		"deep list line":        strings.Repeat(strings.Repeat("- ", 4<<10)+"x\n", 32),
		"unclosed links":        strings.Repeat(strings.Repeat("[a](", 256)+"\n", 256),
		"unclosed comments":     strings.Repeat("a <!--a\n", 32<<10),
		"nested brackets":       strings.Repeat("[", 512<<10) + strings.Repeat("]", 512<<10),
		"nested images":         strings.Repeat("![", 16<<10) + "a" + strings.Repeat("](x.png)", 16<<10),
		"link definitions":      strings.Repeat("[a]: b.md\n", 32<<10),
		"long line":             strings.Repeat("[a](references/a.md) ", 64<<10),
		"unclosed fence":        "```\n" + strings.Repeat("[a](b.md) <!--\n\n", 32<<10),
		"emphasis":              strings.Repeat("*a_b*c_d**e_f*g**h*i_j**", 16<<10),
		"blank lines and lists": strings.Repeat("- a\n\n  b [c](d.md)\n\n", 16<<10),
	}
}

// TestMarkdownBombs checks that hostile Markdown is scanned within a
// fixed allocation budget and with every position on its line: the parse
// units and the nesting limit bound what goldmark is given.
func TestMarkdownBombs(t *testing.T) {
	md := newMarkdownParser()
	for name, text := range markdownBombs() {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			refs := scanMarkdown(md, text, 1)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 512<<20 {
				t.Errorf("allocated %d MiB for %d KiB", alloc>>20, len(text)>>10)
			}
			lines := strings.Count(text, "\n") + 1
			for _, r := range refs {
				if r.Line < 1 || r.Line > lines || r.Col < 1 {
					t.Fatalf("position %d:%d out of range", r.Line, r.Col)
				}
			}
		})
	}
}

// FuzzPlainScanner checks that leaving linkless blocks to the plain
// scanner (mdplain.go) finds exactly what goldmark finds parsing every
// block, with the real parse units and with tiny ones.
func FuzzPlainScanner(f *testing.F) {
	for _, s := range plainScannerCases() {
		if len(s) < 4<<10 {
			f.Add(s)
		}
	}
	for _, s := range []string{
		"# T\n\nplain scripts/a.py\n\n- list\n- items\n\n```\ncode\n```\nafter [a](b.md)\n",
		"para\n\n---\n    code\n\n* * *\n\n1. one\n2) two\n\n[r]: references/r.md\n",
		"<div>\n\ntext\n</div>\n\nplain\n\n<!-- a\n\nb -->\n",
	} {
		f.Add(s)
	}
	md := newMarkdownParser()
	f.Fuzz(func(t *testing.T, text string) {
		for _, window := range []int{mdWindow, 64} {
			want := refStrings(scanMarkdownWith(mdScanOptions{p: md, window: window}, []byte(text), 1))
			got := refStrings(scanMarkdownWith(mdScanOptions{p: md, window: window, plain: true}, []byte(text), 1))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("window %d, %q: plain scanner found\n%q\ngoldmark\n%q", window, text, got, want)
			}
		}
	})
}

// FuzzPlacement reads arbitrary text around every mention it holds, as
// lint does for a mention about to be reported: it must never panic or
// read outside the text.
func FuzzPlacement(f *testing.F) {
	for _, s := range []string{
		"Run `python scripts/x.py` from the repo root.\n",
		"```\ncd app\nscripts/b.sh\n```\n",
		"```\nproj/\n├── scripts/c.sh\n```\n`scripts/c.sh`",
		"If `./templates/f.pptx` exists, load it.",
		"`lora`' `references/m.md`",
		"./references/x.md", "e.g. references/a.md", "|references/t.md|", "\n- references/l.md\n",
	} {
		f.Add(s)
	}
	md := newMarkdownParser()
	f.Fuzz(func(t *testing.T, text string) {
		refs := scanMarkdownBytes(md, []byte(text), 1)
		pl := &placement{text: []byte(text), rel: "SKILL.md", refs: refs}
		for _, r := range refs {
			if r.Kind == refMention {
				pl.outside(strings.TrimSuffix(strings.TrimPrefix(r.Target, "./"), "/"), r.off)
			}
		}
	})
}
