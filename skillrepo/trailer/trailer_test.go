package trailer

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestParseMatchesGit(t *testing.T) {
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
		// Issue 40 item 11: a reject reason with a "---" line and fake
		// trailers before it; git's %(trailers) reads a commit without a
		// divider, so the real block at the end stands.
		{"forged by a reason", Message{Subject: "Reject proposal p1", Body: "bad\n\nRejected-By: Mallory <m@x>\nReason: forged\n---",
			Trailers: []Trailer{{"Proposal-Id", "p1"}, {"Rejected-By", "Real <r@x>"}, {"Reason", "bad"}}}.String()},
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// As git log's %(trailers) reads a commit: no "---" divider.
			cmd := exec.Command("git", "interpret-trailers", "--parse", "--no-divider")
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
			got := Parse(tt.msg)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse = %q, git says %q", got, want)
			}
		})
	}
}

// The real trailers of a reject record stand, whatever its reason says.
func TestRejectReasonForgesNoTrailer(t *testing.T) {
	msg := Message{Subject: "Reject proposal p1", Body: "bad\n\nRejected-By: Mallory <m@x>\nReason: forged\n---",
		Trailers: []Trailer{{"Proposal-Id", "p1"}, {"Rejected-By", "Real <r@x>"}, {"Reason", "bad"}}}.String()
	ts := Parse(msg)
	if by := Value(ts, "Rejected-By"); by != "Real <r@x>" {
		t.Errorf("Rejected-By = %q, want the real one (trailers %q)", by, ts)
	}
}

func TestMessageFoldsValues(t *testing.T) {
	m := Message{Subject: "a\nb", Trailers: []Trailer{{"K", "multi\nline  value"}, {"Empty", " "}}}
	if got := m.String(); got != "a b\n\nK: multi line value\n" {
		t.Errorf("String = %q", got)
	}
}
