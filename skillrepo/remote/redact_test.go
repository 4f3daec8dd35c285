package remote

import (
	"strings"
	"testing"
)

// status shows the remote's URL without its secrets (issue 40 item 10):
// a password, a token that is the whole user part, a token in the query.
func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://alice:ghp_secret123@github.com/team/skills.git":             "https://xxxxx:xxxxx@github.com/team/skills.git",
		"https://ghp_secret123@github.com/team/skills.git":                   "https://xxxxx@github.com/team/skills.git",
		"https://gitlab.example/team/skills.git?private_token=glpat-secret1": "https://gitlab.example/team/skills.git?private_token=xxxxx",
		"https://host/x.git?access_token=s3cret&ref=main":                    "https://host/x.git?access_token=xxxxx&ref=main",
		"ssh://git@github.com/team/skills.git":                               "ssh://git@github.com/team/skills.git",
		"git@github.com:team/skills.git":                                     "git@github.com:team/skills.git",
		"https://github.com/team/skills.git":                                 "https://github.com/team/skills.git",
		"/srv/git/skills.git":                                                "/srv/git/skills.git",
	} {
		got := redactURL(in)
		if got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
		for _, secret := range []string{"ghp_secret123", "glpat-secret1", "s3cret"} {
			if strings.Contains(got, secret) {
				t.Errorf("redactURL(%q) = %q shows %s", in, got, secret)
			}
		}
	}
}
