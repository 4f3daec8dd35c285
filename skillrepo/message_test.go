package skillrepo

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestParseTrailersMatchesGit(t *testing.T) {
	tests := []struct {
		name string
		msg  string
	}{
		{"ours", Message{Subject: "skill: patch x", Body: "why", Trailers: []Trailer{{"Skill-Action", "patch"}, {"Skill-Name", "x"}}}.String()},
		{"subject only", "Fix: x\n"},
		{"subject then trailer-looking line", "Subject\nKey: v\n"},
		{"prose and one trailer", "S\n\nsome prose\nmore prose\nthird line\nKey: v\n"},
		{"signed-off 25%", "S\n\nprose one\nprose two\nprose three\nSigned-off-by: A <a@x>\n"},
		{"continuation", "S\n\nKey: a\n  b\nOther: c\n"},
		{"patch divider", "S\n\nKey: v\n---\nnot: trailer\n"},
		{"space in key", "S\n\nBad Key: v\n"},
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("git", "interpret-trailers", "--parse", "--no-divider")
			if strings.Contains(tt.msg, "\n---\n") {
				cmd = exec.Command("git", "interpret-trailers", "--parse")
			}
			cmd.Stdin = strings.NewReader(tt.msg)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			var want []Trailer
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if k, v, ok := strings.Cut(line, ": "); ok {
					want = append(want, Trailer{k, v})
				}
			}
			got := ParseTrailers(tt.msg)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ParseTrailers = %q, git says %q", got, want)
			}
		})
	}
}

func TestMessageFoldsValues(t *testing.T) {
	m := Message{Subject: "a\nb", Trailers: []Trailer{{"K", "multi\nline  value"}, {"Empty", " "}}}
	if got := m.String(); got != "a b\n\nK: multi line value\n" {
		t.Errorf("String = %q", got)
	}
}
