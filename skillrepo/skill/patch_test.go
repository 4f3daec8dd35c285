package skill

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestReplaceMatchesReference runs the reference's own outcomes: every
// case of testdata/hermes-0.19.0-patch-matching.json was run through the
// reference's patch matching, and Replace must give the same strategy,
// count and bytes, or refuse for the same reason.
func TestReplaceMatchesReference(t *testing.T) {
	data, err := os.ReadFile("testdata/hermes-0.19.0-patch-matching.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reference string
		Cases     []struct {
			Content    string `json:"content"`
			Old        string `json:"old"`
			New        string `json:"new"`
			ReplaceAll bool   `json:"replace_all"`
			Want       struct {
				Outcome string  `json:"outcome"`
				Count   int     `json:"count"`
				Result  *string `json:"result"`
			} `json:"want"`
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.Reference, "hermes-agent 0.19.0") || len(doc.Cases) < 200 {
		t.Fatalf("testdata names %q with %d cases", doc.Reference, len(doc.Cases))
	}
	seen := map[string]int{}
	for i, c := range doc.Cases {
		seen[c.Want.Outcome]++
		got, n, st, err := Replace(c.Content, c.Old, c.New, c.ReplaceAll)
		if c.Want.Result != nil {
			if err != nil || got != *c.Want.Result || n != c.Want.Count || string(st) != c.Want.Outcome {
				t.Errorf("case %d (%s): got %q n=%d %s err=%v\nwant %q n=%d\nold %q new %q all=%v content %q",
					i, c.Want.Outcome, got, n, st, err, *c.Want.Result, c.Want.Count, c.Old, c.New, c.ReplaceAll, c.Content)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInvalid) || errorKind(err) != c.Want.Outcome {
			t.Errorf("case %d: err = %v (kind %q); want %s\nold %q new %q content %q", i, err, errorKind(err), c.Want.Outcome, c.Old, c.New, c.Content)
		}
	}
	for _, o := range []string{"exact", "line_trimmed", "whitespace_normalized", "escape_normalized", "unicode_normalized", "block_anchor", "context_aware", "multiple", "no_match", "escape_drift"} {
		if seen[o] == 0 {
			t.Errorf("no case with outcome %s", o)
		}
	}
}

func errorKind(err error) string {
	if err == nil {
		return ""
	}
	switch m := err.Error(); {
	case strings.HasPrefix(m, "found ") && strings.Contains(m, " matches"):
		return "multiple"
	case strings.HasPrefix(m, errNoMatch):
		return "no_match"
	case strings.Contains(m, "identical"):
		return "identical"
	case strings.HasPrefix(m, "old_string is required"):
		return "empty"
	case strings.HasPrefix(m, "escape drift"):
		return "escape_drift"
	}
	return "other: " + err.Error()
}

// TestReplaceReference pins the rules the strategies carry beyond finding
// the text, each checked against the reference by hand.
func TestReplaceReference(t *testing.T) {
	tests := []struct {
		name, content, old, new string
		want                    string
		strategy                MatchStrategy
	}{
		{"a fuzzy match is re-indented to the file",
			"def f():\n    a = 1\n    return a\n", "  a = 1\n  return a", "  a = 2\n  return a",
			"def f():\n    a = 2\n    return a\n", MatchLineTrimmed},
		{"CRLF is read as LF and written as LF",
			"a\r\nb\r\nc\r\n", "b", "B", "a\nB\nc\n", MatchExact},
		{"a lone CR is a newline too",
			"a\rb\r", "a\nb", "x", "x\n", MatchExact},
		{"typographic characters are kept where the edit does not touch them",
			"Prefer \u201cplain words\u201d \u2014 always.\n", `Prefer "plain words" -- always.`, `Prefer "plain words" -- every time.`,
			"Prefer \u201cplain words\u201d \u2014 every time.\n", MatchUnicodeNormalized},
		{"written-out newlines match real ones",
			"# T\n\n1. one\n", `# T\n\n1. one`, "# T\n\n1. uno", "# T\n\n1. uno\n", MatchEscapeNormalized},
		{"written-out tabs become tabs where the file has tabs",
			"build:\n\tgo build\n", "build:\n  go build", "build:\n\\tgo build -v", "build:\n\tgo build -v\n", MatchLineTrimmed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, st, err := Replace(tt.content, tt.old, tt.new, false)
			if err != nil || got != tt.want || st != tt.strategy {
				t.Errorf("got %q %s %v; want %q %s", got, st, err, tt.want, tt.strategy)
			}
		})
	}
	if _, _, _, err := Replace("x = 'a'\n", `x  = \'a\'`, `x = \'b\'`, false); err == nil || !strings.HasPrefix(err.Error(), "escape drift") {
		t.Errorf("escape drift: err = %v", err)
	}
	if _, _, _, err := Replace("# Title\nRun the tests.\n", "Run the testz now", "x", false); err == nil || !strings.Contains(err.Error(), "Did you mean") || !strings.Contains(err.Error(), "   2| Run the tests.") {
		t.Errorf("no match hint: err = %v", err)
	}
}
