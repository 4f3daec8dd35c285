package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/statefile"
)

// A project's agent settings (.claude/settings.json and
// settings.local.json, .codex/hooks.json and config.toml,
// .gemini/settings.json, .mcp.json) come with the project's files: a
// clone of someone else's repository holds whatever commands they wrote.
// The agents run them only once the person trusts the project (Claude
// Code's trust dialog, Codex's project trust and per-hook trusted_hash,
// Gemini CLI's trusted folders); skillrepo runs them (doctor, status)
// only once the person trusts that very content: the file's path and
// the SHA-256 of its bytes, recorded by `skillrepo doctor --trust` or by
// `skillrepo hooks install` / `mcp install`, which wrote the commands
// (docs/agents.md, "Trust"). A file that changed since is untrusted
// again.

// trustFileName is the record, in the user's skillrepo folder.
const trustFileName = "trusted-projects.json"

// maxTrustFile bounds the record.
const maxTrustFile = 4 << 20

type trustRecord struct {
	Version int `json:"version"`
	// Files maps a settings file's absolute path to "sha256:<hex>" of the
	// content trusted.
	Files map[string]string `json:"files"`
}

// TrustFile is where the record lives: ~/.config/skillrepo.
func TrustFile(homes agent.Homes) string {
	return filepath.Join(homes.Home, ".config", "skillrepo", trustFileName)
}

func trustFile(homes agent.Homes) statefile.File[trustRecord] {
	return statefile.File[trustRecord]{Path: TrustFile(homes), Limit: maxTrustFile, Version: 1, Perm: 0o600, Sync: true}
}

func contentHash(path string) (string, error) {
	data, err := boundedread.ReadFile(path, maxTrustFile)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// ProjectFileTrusted reports whether the person trusted path with the
// content it has now.
func ProjectFileTrusted(homes agent.Homes, path string) bool {
	rec, err := trustFile(homes).Read()
	want, ok := rec.Files[path]
	if err != nil || !ok {
		return false
	}
	have, err := contentHash(path)
	return err == nil && have == want
}

// TrustProjectFiles records the content paths have now as trusted.
func TrustProjectFiles(homes agent.Homes, paths ...string) error {
	if err := os.MkdirAll(filepath.Dir(TrustFile(homes)), 0o700); err != nil {
		return err
	}
	_, err := trustFile(homes).Update(func(rec *trustRecord) error {
		if rec.Files == nil {
			rec.Version, rec.Files = 1, map[string]string{}
		}
		for _, p := range paths {
			h, err := contentHash(p)
			if err != nil {
				return fmt.Errorf("trust %s: %w", p, err)
			}
			rec.Files[p] = h
		}
		return nil
	})
	return err
}
