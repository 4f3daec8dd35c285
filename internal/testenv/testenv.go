// Package testenv is the hermetic git environment every test shares: a
// private HOME, no system config, fixed identities and dates (so commit
// hashes are stable). It imports nothing of ours, so package skillrepo's
// own tests can use it too.
package testenv

import "path/filepath"

// Epoch is the fixed time of every commit a test library makes.
const Epoch = 1764500000

// Env is the environment for the library and the git binary, with home
// as HOME.
func Env(home string) map[string]string {
	return map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test Author",
		"GIT_AUTHOR_EMAIL":    "author@example.com",
		"GIT_COMMITTER_NAME":  "Test Committer",
		"GIT_COMMITTER_EMAIL": "committer@example.com",
		"GIT_AUTHOR_DATE":     "@1764500000 +0000",
		"GIT_COMMITTER_DATE":  "@1764500000 +0000",
	}
}
