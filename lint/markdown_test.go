package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// refString renders a reference for comparison: kind, target, position,
// and "code" for a mention in a code block.
func refString(r ref) string {
	kinds := map[refKind]string{refDefinition: "def", refLink: "link", refImage: "image", refHTML: "html", refMention: "mention"}
	s := fmt.Sprintf("%s %s %d:%d", kinds[r.Kind], r.Target, r.Line, r.Col)
	if r.InFence {
		s += " code"
	}
	return s
}

func refStrings(refs []ref) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, refString(r))
	}
	return out
}

// TestScanMarkdown pins what counts as a link and where each target is:
// the cases where CommonMark (goldmark) and a line scanner disagree, and
// positions that goldmark does not give directly.
func TestScanMarkdown(t *testing.T) {
	md := newMarkdownParser()
	tests := []struct {
		name  string
		text  string
		first int // the text's first line in its file; 0 means 1
		want  []string
	}{
		{"inline link, image and HTML on one line",
			"See [a *b*](references/a.md) and ![i `c]`](x.png \"t\") <img src=\"y.png\">\n", 0,
			[]string{"link references/a.md 1:13", "image x.png 1:44", "html y.png 1:65"}},
		{"characters, not bytes, in columns", "é ü [ö](références/ö.md)\n", 0, []string{"link références/ö.md 1:9"}},
		{"first line offset", "[a](b.md)\n", 5, []string{"link b.md 5:5"}},
		{"target equal to the link text", "[references/a.md](references/a.md)\n", 0, []string{"link references/a.md 1:19", "mention references/a.md 1:2"}},
		{"image inside a link", "[![a](b.md)](b.md)\n", 0, []string{"image b.md 1:7", "link b.md 1:14"}},
		{"destination on the next line", "[a](\n  next.md)\n", 0, []string{"link next.md 2:3"}},
		{"angle brackets", "[a](<my file.md>)\n", 0, []string{"link my file.md 1:6"}},
		{"escaped brackets are text", "\\[a\\](b.md) and [c\\]](d.md)\n", 0, []string{"link d.md 1:23"}},
		{"code span", "`[a](b.md)` and `references/c.md`\n", 0, []string{"mention references/c.md 1:18"}},
		{"fenced code", "```\n[a](b.md) scripts/x.sh\n```\n", 0, []string{"mention scripts/x.sh 2:11 code"}},
		{"fence in a list item, indented four", "1.  step\n\n    ```\n    [a](b.md) scripts/x.sh\n    ```\n", 0, []string{"mention scripts/x.sh 4:15 code"}},
		{"indented code", "text\n\n    [a](b.md) scripts/x.sh\n", 0, []string{"mention scripts/x.sh 3:15 code"}},
		{"reference definition and use", "Use [api] and [x][api].\n\n[api]: references/api.md \"t\"\n", 0, []string{"def references/api.md 3:8"}},
		{"definition in a block quote over two lines", "> [q]:\n>   z.md 't'\n", 0, []string{"def z.md 2:5"}},
		{"definition label with an escaped bracket", "[a\\]b.md]: b.md\n", 0, []string{"def b.md 1:12"}},
		{"unused definition still names a file", "[old]: gone.md\n", 0, []string{"def gone.md 1:8"}},
		{"footnotes are not definitions, their text is Markdown", "Text[^1].\n\n[^1]: see [e](f.md)\n[^2]: note\n", 0, []string{"link f.md 3:15"}},
		{"HTML comment", "a <!-- [c](d.md) references/x.md --> b\n<!--\n[e](f.md)\n-->\n", 0, []string{}},
		{"HTML block: Markdown inside is HTML, tags are read", "<div>\n[a](b.md) <img src='c.png'>\n<!-- <img src=\"d.png\"> -->\n</div>\n", 0, []string{"html c.png 2:21"}},
		{"autolinks and URLs are not files", "<https://x.y/scripts/a.sh> [u](https://x.y/a.md)\n", 0, []string{"link https://x.y/a.md 1:32"}},
		{"template placeholders; an ellipsis leaves a folder", "references/<topic>.md templates/{n}.md scripts/...\n", 0, []string{"mention scripts/ 1:40"}},
		{"CRLF", "a\r\n[b](c.md)\r\n", 0, []string{"link c.md 2:5"}},
		{"empty destination", "[a]() [b](<>)\n", 0, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := max(tt.first, 1)
			got := refStrings(scanMarkdown(md, tt.text, first))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("scan(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestUnitsAreExact checks that parsing in units finds what one parse of
// the whole text finds, on every Markdown file of the corpora in testdata and
// with windows far smaller than the real one, so that cuts fall inside
// fenced code, lists and HTML blocks.
func TestUnitsAreExact(t *testing.T) {
	md := newMarkdownParser()
	root := testdataDir(t, "corpora")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isMarkdown(p) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d Markdown files in %s", len(files), root)
	}
	cuts := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		whole := strings.Join(refStrings(scanMarkdownUnits(md, text, 1, len(text)+1)), "\n")
		for _, window := range []int{mdWindow, 4 << 10} {
			if len(text) > window {
				cuts++
			}
			got := strings.Join(refStrings(scanMarkdownUnits(md, text, 1, window)), "\n")
			if got != whole {
				t.Errorf("%s, window %d: units differ from one parse\n%s", f, window, lineDiff(whole, got))
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no file was long enough to be cut")
	}
}

// TestCheapParserIsExact checks that the parser skills are read with
// (no emphasis parser, plain paragraphs left unparsed) finds exactly the
// references goldmark's full CommonMark parser finds, on every Markdown
// file of the corpora and on crafted cases.
func TestCheapParserIsExact(t *testing.T) {
	full := parser.NewParser(
		parser.WithBlockParsers(append(parser.DefaultBlockParsers(), util.Prioritized(extension.NewFootnoteBlockParser(), 999))...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(), util.Prioritized(extension.NewFootnoteParser(), 101))...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
	cheap := newMarkdownParser()
	texts := map[string]string{
		"emphasis around links": "*[a](b.md)* **[c](d.md)** _x [e](f.md)_ *a [b* c](g.md)\n",
		"setext over plain":     "Title scripts/a.py\n---\n[a](b.md)\n\nOther\n===\n",
		"plain then definition": "plain text\n\n[x]: y.md\n",
		"lazy continuation":     "> quote scripts/q.py\ncontinued [l](m.md)\n",
		"tight list":            "- plain references/a.md\n- [l](b.md)\n  text\n",
	}
	root := testdataDir(t, "corpora")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isMarkdown(p) {
			b, err := os.ReadFile(p)
			if err == nil {
				texts[p] = string(b)
			}
		}
		return nil
	})
	for name, text := range plainScannerCases() {
		texts[name] = text
	}
	for name, text := range texts {
		for _, window := range []int{mdWindow, 4 << 10} {
			want := refStrings(scanMarkdownWith(mdScanOptions{p: full, window: window}, []byte(text), 1))
			got := refStrings(scanMarkdownWith(mdScanOptions{p: cheap, window: window, plain: true}, []byte(text), 1))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, window %d: cheap parser and plain scanner found\n%q\nfull parser\n%q", name, window, got, want)
			}
		}
	}
}

// plainScannerCases are texts where blanking a block the plain scanner
// takes for linkless would change what goldmark sees, if it were wrong:
// verbatim blocks open across a clean-looking line, containers that an
// indented line would continue, indented code after headings and empty
// list items, and text cut into units.
func plainScannerCases() map[string]string {
	return map[string]string{
		"fence open across a blank line":    "```\ncode\n\nplain scripts/a.py\n\nmore\n```\n[a](b.md)\n",
		"comment open across a blank line":  "<!--\n\nplain scripts/a.py -->\n[a](b.md)\n\ntext\n",
		"script block across a blank line":  "<script>\n\nplain </script> scripts/s.js\n[a](b.md)\n",
		"fence in a list item":              "- ```\n  code\n\nplain scripts/a.py\n\n    [a](b.md)\n",
		"list continued after plain text":   "- [a](b.md)\n\nplain scripts/a.py\n\n  more scripts/b.py\n\n    code scripts/c.py\n",
		"indented code after plain text":    "plain\n\n    code scripts/a.py [a](b.md)\n",
		"indented code after a heading":     "# Title\n    code scripts/a.py\n\n[a](b.md)\n",
		"indented code after an empty item": "-\n      code scripts/a.py\n\n[a](b.md)\n",
		"code four past a marker":           "-     code scripts/a.py\n\n[a](b.md)\n",
		"code after a setext heading":       "Title\n===\n    code scripts/a.py\n\n[a](b.md)\n",
		"lazy continuation is text":         "para\n    more scripts/a.py\n\n[a](b.md)\n",
		"fence then text without a blank":   "```sh\nrun scripts/a.sh\n```\nText scripts/b.py\n    [a](b.md)\n",
		"tilde fence with backticks":        "~~~ a`b\n[x](y.md) scripts/a.sh\n~~~\n\n[a](b.md)\n",
		"unclosed fence":                    "text\n\n```\n[x](y.md) scripts/a.sh\n\nplain\n",
		"block quote":                       "> quote scripts/a.py\n>     code scripts/b.py\n\n[a](b.md)\n",
		"form feed is not blank":            "para\n\f\n    code scripts/a.py\n\n[a](b.md)\n",
		"vertical tab is blank to goldmark": "para\n\v\n    code scripts/a.py\n\n[a](b.md)\n",
		"lone carriage return":              "para\rmore\r\n\r\n    code\r[a](b.md)\n",
		"CRLF":                              "# T\r\n\r\nplain scripts/a.py\r\n\r\n[a](b.md)\r\n",
		"tabs":                              "-\tx\n\t\tcode scripts/a.py\n\n\tscripts/b.py\n\n[a](b.md)\n",
		"definition used across plain":      "[x]: a.md\n\nplain scripts/a.py\n\n[y][x](z.md) [x](q.md)\n",
		"long plain run then link": strings.Repeat("plain scripts/a.py text\n\n", 400) + "[a](b.md)\n" +
			strings.Repeat("- item references/r.md\n", 300) + "\n```\n" + strings.Repeat("code [x](y.md)\n", 300) + "```\n[c](d.md)\n",
	}
}
