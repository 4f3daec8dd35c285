// Package secrets finds likely credentials in text, so the write policy
// can refuse a write that carries one (docs/architecture.md §2.1): what a
// match looks like and the words of the refusal, with no git and no
// library.
package secrets

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// A write that carries a likely secret is refused before it reaches a
// commit: history is forever, and skills are shared through remotes. The
// patterns are the well-known shapes of credentials; to keep the false
// positives of documentation low, a key must look random (letters and
// digits mixed), and the documented example keys ("…EXAMPLE") pass.

type secretPattern struct {
	kind   string
	re     *regexp.Regexp
	random bool // the match must mix upper, lower and digits
}

// secretPatterns are compiled on first use: every skillrepo command
// loads this package, few scan for secrets.
var secretPatterns = sync.OnceValue(func() []secretPattern {
	return []secretPattern{
		// PEM's labels are upper case, but a key pasted in lower case is
		// still a key.
		{kind: "private key block", re: regexp.MustCompile(`(?i)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)},
		{kind: "AWS access key id", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
		{kind: "AWS secret access key", re: regexp.MustCompile(`(?i)aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}`)},
		{kind: "Google API key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
		{kind: "GCP service-account key", re: regexp.MustCompile(`"private_key_id"\s*:\s*"[0-9a-f]{40}"`)},
		{kind: "OpenAI API key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}`), random: true},
		{kind: "Anthropic API key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{32,}`), random: true},
		{kind: "GitHub token", re: regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{40,}`), random: true},
		{kind: "Slack token", re: regexp.MustCompile(`\bxox[abposr]-[0-9]+-[A-Za-z0-9\-]{8,}`)},
		{kind: "Slack webhook URL", re: regexp.MustCompile(`https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}`)},
		{kind: "Stripe secret key", re: regexp.MustCompile(`\b[rs]k_live_[A-Za-z0-9]{20,}`)},
	}
})

// Finding is a likely secret in a text.
type Finding struct {
	Kind string
	Line int
}

// Find returns the likely secrets in text, at most one per kind.
func Find(text string) []Finding {
	return Added("", text)
}

// Added returns the likely secrets of after that before does not
// hold (the same text, anywhere), at most one per kind: what a write adds
// to a file, where a secret the file held already is history's, not the
// write's.
func Added(before, after string) []Finding {
	var out []Finding
	for _, p := range secretPatterns() {
		for _, loc := range p.re.FindAllStringIndex(after, -1) {
			m := after[loc[0]:loc[1]]
			if strings.Contains(m, "EXAMPLE") || (p.random && !looksRandom(m)) {
				continue
			}
			if before != "" && strings.Contains(before, m) {
				continue
			}
			out = append(out, Finding{Kind: p.kind, Line: strings.Count(after[:loc[0]], "\n") + 1})
			break
		}
	}
	return out
}

// looksRandom tells a generated key from a readable placeholder such as
// "sk-your-openai-key-goes-here-xxxxxxxxx": keys mix upper case, lower case
// and digits.
func looksRandom(s string) bool {
	var upper, lower, digit bool
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return upper && lower && digit
}

// RefusalWords are in every [Refusal], so a warning already given can be
// recognised.
const RefusalWords = "looks like it contains a secret"

// Refusal is the message refusing a write that carries secrets:
// where names what carried them ("the content of create 'x'").
func Refusal(where string, found []Finding) string {
	parts := make([]string, len(found))
	for i, f := range found {
		parts[i] = fmt.Sprintf("%s on line %d", f.Kind, f.Line)
	}
	return fmt.Sprintf("refused: %s "+RefusalWords+" (%s). Secrets must never be written into skills or memory: redact it (write a placeholder such as <API_KEY> or the name of the environment variable that holds it) and retry.",
		where, strings.Join(parts, ", "))
}
