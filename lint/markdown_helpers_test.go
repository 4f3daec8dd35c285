package lint

import "github.com/yuin/goldmark/parser"

// scanMarkdown is scanMarkdownBytes of a string, as the tests write it.
func scanMarkdown(p parser.Parser, textIn string, firstLine int) []ref {
	return scanMarkdownUnits(p, textIn, firstLine, mdWindow)
}

// scanMarkdownUnits is scanMarkdown with parse units of window bytes (see
// mdunits.go).
func scanMarkdownUnits(p parser.Parser, textIn string, firstLine, window int) []ref {
	return scanMarkdownWith(mdScanOptions{p: p, window: window, plain: true}, []byte(textIn), firstLine)
}
