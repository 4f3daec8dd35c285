package curator

import (
	"path/filepath"
	"slices"
	"testing"
)

// runsProgram is an agent whose program is prog, run unattended with -p.
type runsProgram string

func (p runsProgram) RunsUnattended(words []string) bool {
	for i, w := range words {
		if filepath.Base(w) == string(p) {
			return slices.Contains(words[i+1:], "-p")
		}
	}
	return false
}

// A crontab's jobs: comments, blank lines and variables are no jobs; a
// line is an agent's job when one of its commands (split at ;, &&, ||,
// |, &) runs the agent unattended, and its words (lower case, a
// sentence's dot dropped, a category/folder word and its parts) are what
// may name a skill.
func TestCrontabJobs(t *testing.T) {
	text := "# nightly jobs\n" +
		"\n" +
		"SHELL=/bin/bash\n" +
		"PATH=/usr/local/bin:/usr/bin\n" +
		"0 7 * * * cd ~/src && agent -p \"Run the Nightly-Report skill.\"\n" +
		"0 8 * * * agent --resume weekly\n" +
		"0 9 * * * backup.sh; agent -p '/ops/deploy-check'\n" +
		"@daily FOO=1 /usr/local/bin/agent -p \"use release-notes\"|tee log\n"
	jobs := crontabJobs([]Unattended{runsProgram("agent")}, []byte(text))
	var lines []string
	for _, j := range jobs {
		lines = append(lines, j.text)
	}
	want := []string{
		"0 7 * * * cd ~/src && agent -p \"Run the Nightly-Report skill.\"",
		"0 9 * * * backup.sh; agent -p '/ops/deploy-check'",
		"@daily FOO=1 /usr/local/bin/agent -p \"use release-notes\"|tee log",
	}
	if !slices.Equal(lines, want) {
		t.Fatalf("jobs %q\nwant %q", lines, want)
	}
	for i, ref := range []string{"nightly-report", "deploy-check", "release-notes"} {
		if !slices.Contains(jobs[i].refs, ref) {
			t.Errorf("%q: words %q lack %q", jobs[i].text, jobs[i].refs, ref)
		}
	}
	if !slices.Contains(jobs[1].refs, "ops/deploy-check") || !slices.Contains(jobs[1].refs, "ops") {
		t.Errorf("a category/folder word and its parts: %q", jobs[1].refs)
	}
	if got := crontabJobs(nil, []byte(text)); got != nil {
		t.Errorf("no agents, yet jobs %+v", got)
	}
}
