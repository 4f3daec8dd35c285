package genlib

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
)

// Shapes of generated skills.
const (
	// ShapeUniform is the standard benchmark library: every skill alike,
	// a 60-line SKILL.md and a few small linked support files.
	ShapeUniform = ""
	// ShapeReal imitates real collections (calibrated on the hermes-agent
	// and anthropics skills in lint/testdata/corpora: 6.3 files a skill,
	// 9.9 KB a file on average, SKILL.md median 9 KB, Markdown two thirds
	// of the files, a few reference files near 1 MB): sizes drawn from a
	// heavy-tailed distribution; SKILL.md with tables, fenced code, lists,
	// inline and reference links, URLs, bold paths and path mentions with
	// line suffixes; long reference files in nested folders; Python
	// scripts importing each other, JavaScript with relative imports,
	// templates and binary assets. Every support file is reached, so lint
	// reports no dangling reference or orphan but what DanglingEvery
	// plants (a long SKILL.md draws a size warning, as real ones do).
	ShapeReal = "real"
)

// logNormal draws a size with the given median and spread (sigma of the
// underlying normal), clamped to [lo, hi].
func logNormal(rng *rand.Rand, median float64, sigma float64, lo, hi int) int {
	v := int(median * math.Exp(rng.NormFloat64()*sigma))
	return min(max(v, lo), hi)
}

var words = strings.Fields(`the a request response cluster node cache retry timeout budget token
schema migration index query plan replica leader follower quorum shard partition offset commit
rollback deploy release canary rollout feature flag metric alert dashboard trace span log error
warning latency throughput backoff jitter circuit breaker queue worker pool batch stream window
checkpoint snapshot restore verify compare diff patch build test lint format review approve merge
branch tag version config secret key certificate rotate expire renew audit policy role permission`)

// sentence writes n words of prose, with an occasional inline code span,
// bold word or URL, as real instructions have.
func sentence(b *strings.Builder, rng *rand.Rand, n int) {
	for k := 0; k < n; k++ {
		if k > 0 {
			b.WriteByte(' ')
		}
		w := words[rng.Intn(len(words))]
		switch r := rng.Intn(40); {
		case r == 0:
			fmt.Fprintf(b, "`%s --%s`", w, words[rng.Intn(len(words))])
		case r == 1:
			fmt.Fprintf(b, "**%s**", w)
		case r == 2:
			fmt.Fprintf(b, "https://docs.example.com/%s/%s", w, words[rng.Intn(len(words))])
		default:
			b.WriteString(w)
		}
	}
	b.WriteString(".")
}

// realFile is one support file of a real-shaped skill.
type realFile struct {
	path string
	data []byte
}

// realSkill generates skill i in the real shape: its SKILL.md and its
// support files. Each skill has its own random source, so a skill does
// not depend on the ones before it.
func realSkill(i int, o Options) (string, []realFile) {
	rng := rand.New(rand.NewSource(o.Seed*1_000_003 + int64(i)))
	name := SkillName(i)
	var files []realFile
	var linked, mentioned []string

	// Support files: 0 to 40, about 5.3 on average.
	n := min(int(math.Exp(rng.NormFloat64()*0.9)*3.5), 40)
	topics := []string{"api", "troubleshooting", "examples", "advanced", "config", "migration", "security", "performance"}
	pyMods := []string{}
	for k := 0; k < n; k++ {
		switch r := rng.Intn(100); {
		case r < 55: // a reference file, often long, sometimes nested
			dir := "references"
			if rng.Intn(4) == 0 {
				dir += "/" + topics[rng.Intn(len(topics))]
			}
			p := fmt.Sprintf("%s/%s-%d.md", dir, topics[rng.Intn(len(topics))], k)
			size := logNormal(rng, 7000, 1.0, 400, 400_000)
			if rng.Intn(400) == 0 {
				size = 1_000_000
			}
			files = append(files, realFile{p, []byte(markdownDoc(rng, name, size, linkTarget(p, files)))})
			if rng.Intn(3) == 0 {
				mentioned = append(mentioned, p)
			} else {
				linked = append(linked, p)
			}
		case r < 72: // a Python script, importing the earlier ones
			mod := fmt.Sprintf("tool_%d", k)
			p := "scripts/" + mod + ".py"
			var b strings.Builder
			b.WriteString("#!/usr/bin/env python3\n\"\"\"Helper for " + name + ".\"\"\"\nimport json\nimport sys\n")
			for _, m := range pyMods {
				fmt.Fprintf(&b, "from %s import run as run_%s\n", m, m)
			}
			for l := logNormal(rng, 80, 0.8, 10, 2000); l > 0; l-- {
				fmt.Fprintf(&b, "    value_%d = json.loads(sys.argv[%d]) if len(sys.argv) > %d else None\n", l, l%3, l%3)
			}
			files = append(files, realFile{p, []byte(b.String())})
			pyMods = append(pyMods, mod)
		case r < 78: // JavaScript with a relative import of a library file
			lib := fmt.Sprintf("scripts/lib/util-%d.js", k)
			main := fmt.Sprintf("scripts/build-%d.js", k)
			files = append(files,
				realFile{lib, []byte(fmt.Sprintf("export function util%d(x) {\n  return x * %d;\n}\n", k, k))},
				realFile{main, []byte(fmt.Sprintf("import { util%d } from './lib/util-%d.js';\nconsole.log(util%d(2));\n", k, k, k))})
			mentioned = append(mentioned, main)
		case r < 88: // a template
			p := fmt.Sprintf("templates/report-%d.md", k)
			files = append(files, realFile{p, []byte(fmt.Sprintf("# Report: {{title}}\n\n| field | value |\n| --- | --- |\n| skill | %s |\n| owner | {{owner}} |\n\n## Findings\n\n{{findings}}\n", name))})
			linked = append(linked, p)
		case r < 96: // a data asset
			p := fmt.Sprintf("assets/data-%d.json", k)
			files = append(files, realFile{p, []byte(fmt.Sprintf("{\"skill\": %q, \"rows\": [%s]}\n", name, strings.Repeat("1, ", logNormal(rng, 200, 1.0, 1, 20000))+"0"))})
			linked = append(linked, p)
		default: // a binary asset (a font, an image)
			p := fmt.Sprintf("assets/font-%d.ttf", k)
			data := make([]byte, logNormal(rng, 30000, 0.8, 1000, 500_000))
			rng.Read(data)
			files = append(files, realFile{p, data})
			mentioned = append(mentioned, p)
		}
	}

	if len(pyMods) > 0 { // the last script imports all the others
		mentioned = append(mentioned, "scripts/"+pyMods[len(pyMods)-1]+".py")
	}

	// SKILL.md: median about 9 KB, tables, code, lists and the links.
	var b strings.Builder
	verb, obj, tool := verbs[rng.Intn(len(verbs))], objects[rng.Intn(len(objects))], tools[rng.Intn(len(tools))]
	fmt.Fprintf(&b, "---\nname: %s\ndescription: Use when you need to %s %s with %s; covers setup, the common failures and how to verify the result.\n", name, verb, obj, tool)
	if i%2 == 0 {
		fmt.Fprintf(&b, "license: MIT\nmetadata:\n  author: bench\n  version: \"1.%d\"\n", i%10)
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "# %s %s\n\n", strings.ToUpper(verb[:1])+verb[1:], obj)
	target := logNormal(rng, 9000, 0.7, 800, 120_000)
	for sec := 0; b.Len() < target; sec++ {
		writeSection(&b, rng, sec, tool)
	}
	if len(linked)+len(mentioned) > 0 {
		b.WriteString("\n## Resources\n\n")
		for k, p := range linked {
			if k%5 == 4 {
				fmt.Fprintf(&b, "- [%s][r%d]\n", p, k)
				continue
			}
			fmt.Fprintf(&b, "- [%s](%s) — %s\n", p[strings.LastIndexByte(p, '/')+1:], p, words[rng.Intn(len(words))])
		}
		for k, p := range mentioned {
			switch k % 3 {
			case 0:
				fmt.Fprintf(&b, "- Run `%s` when needed.\n", p)
			case 1:
				fmt.Fprintf(&b, "- See **%s** for the details.\n", p)
			default:
				fmt.Fprintf(&b, "- The entry point is %s:%d.\n", p, 1+rng.Intn(200))
			}
		}
		b.WriteString("\n")
		for k, p := range linked {
			if k%5 == 4 {
				fmt.Fprintf(&b, "[r%d]: %s\n", k, p)
			}
		}
	}
	if o.DanglingEvery > 0 && i%o.DanglingEvery == 0 {
		b.WriteString("- [missing notes](references/never-written.md)\n")
	}
	return b.String(), files
}

// linkTarget picks a sibling reference an earlier file can link (so some
// references reach others, as in real skills), relative to p's folder.
func linkTarget(p string, earlier []realFile) string {
	for k := len(earlier) - 1; k >= 0; k-- {
		q := earlier[k].path
		if strings.HasSuffix(q, ".md") && strings.HasPrefix(q, "references/") {
			pd, qd := p[:strings.LastIndexByte(p, '/')], q[:strings.LastIndexByte(q, '/')]
			if pd == qd {
				return q[len(qd)+1:]
			}
			if pd == "references" {
				return q[len("references/"):]
			}
			return "../" + q[len("references/"):]
		}
	}
	return ""
}

// writeSection writes one section of instructions: prose, a list, and
// now and then a table or a fenced code block.
func writeSection(b *strings.Builder, rng *rand.Rand, sec int, tool string) {
	fmt.Fprintf(b, "## Step %d: %s\n\n", sec+1, words[rng.Intn(len(words))])
	for p := rng.Intn(3) + 1; p > 0; p-- {
		sentence(b, rng, 20+rng.Intn(60))
		b.WriteString("\n\n")
	}
	for k := rng.Intn(6); k > 0; k-- {
		b.WriteString("- ")
		sentence(b, rng, 6+rng.Intn(14))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	if rng.Intn(3) == 0 {
		b.WriteString("| option | default | meaning |\n| --- | --- | --- |\n")
		for r := 3 + rng.Intn(15); r > 0; r-- {
			fmt.Fprintf(b, "| `--%s` | %d | ", words[rng.Intn(len(words))], rng.Intn(100))
			sentence(b, rng, 4+rng.Intn(8))
			b.WriteString(" |\n")
		}
		b.WriteByte('\n')
	}
	if rng.Intn(2) == 0 {
		fmt.Fprintf(b, "```bash\n")
		for l := 2 + rng.Intn(20); l > 0; l-- {
			fmt.Fprintf(b, "%s %s --%s=%d\n", tool, words[rng.Intn(len(words))], words[rng.Intn(len(words))], rng.Intn(1000))
		}
		b.WriteString("```\n\n")
	}
}

// markdownDoc writes a reference document of about size bytes that links
// sibling (when not empty) and its own headings.
func markdownDoc(rng *rand.Rand, name string, size int, sibling string) string {
	var b strings.Builder
	b.Grow(size + 512)
	fmt.Fprintf(&b, "# Reference for %s\n\n## Contents\n\n- [Overview](#overview)\n- [Details](#details)\n", name)
	if sibling != "" {
		fmt.Fprintf(&b, "- [Related](%s)\n", sibling)
	}
	b.WriteString("\n## Overview\n\n")
	for sec := 0; b.Len() < size; sec++ {
		writeSection(&b, rng, sec, "curl")
	}
	b.WriteString("## Details\n\nSee the overview.\n")
	return b.String()
}
