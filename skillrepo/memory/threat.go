package memory

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// ErrThreat is the kind of a write refused by the injection scan.
var ErrThreat = errors.New("content matches a threat pattern")

// maxScanChars bounds the text the scan reads, as the reference's does:
// an injected payload sits near the start of what was written.
const maxScanChars = 65_536

// threatPatterns are the reference's injection and exfiltration patterns
// at the scope it applies to memory writes (all of them: classic
// injection, role hijack, promptware, exfiltration, persistence, secrets;
// docs/reference-behaviour.md §7.7), in its order, with its IDs, written
// as the reference writes them (Python's regular expressions, compiled by
// pyRegexp). They come from Hermes Agent (MIT licence, copied in
// testdata/hermes-LICENSE); a pattern differing from the reference's would
// let through what Hermes refuses, or refuse what it keeps.
//
// They compile on the first scan, not at start-up: every command links
// this package, and compiling them (Unicode classes, long repeats) cost
// more CPU than a whole skill patch.
var threatPatterns = sync.OnceValue(func() []threatPattern { return compileThreats(threatSources) })

var threatSources = [][2]string{
	{`ignore\s+(?:\w+\s+){0,8}(previous|all|above|prior)\s+(?:\w+\s+){0,8}instructions`, "prompt_injection"},
	{`system\s+prompt\s+override`, "sys_prompt_override"},
	{`disregard\s+(?:\w+\s+){0,8}(your|all|any)\s+(?:\w+\s+){0,8}(instructions|rules|guidelines)`, "disregard_rules"},
	{`act\s+as\s+(if|though)\s+(?:\w+\s+){0,8}you\s+(?:\w+\s+){0,8}(have\s+no|don\'t\s+have)\s+(?:\w+\s+){0,8}(restrictions|limits|rules)`, "bypass_restrictions"},
	{`<!--[^>]{0,512}(?:ignore|override|system|secret|hidden)[^>]{0,512}-->`, "html_comment_injection"},
	{`<\s*div\s+style\s*=\s*["\'][^>]{0,2048}display\s*:\s*none`, "hidden_div"},
	{`translate\s+[^\n]{0,512}\s+into\s+[^\n]{0,512}\s+and\s+(execute|run|eval)`, "translate_execute"},
	{`do\s+not\s+(?:\w+\s+){0,8}tell\s+(?:\w+\s+){0,8}the\s+user`, "deception_hide"},
	{`you\s+are\s+(?:\w+\s+){0,8}now\s+(?:a|an|the)\s+`, "role_hijack"},
	{`pretend\s+(?:\w+\s+){0,8}(you\s+are|to\s+be)\s+`, "role_pretend"},
	{`output\s+(?:\w+\s+){0,8}(system|initial)\s+prompt`, "leak_system_prompt"},
	{`(respond|answer|reply)\s+without\s+(?:\w+\s+){0,8}(restrictions|limitations|filters|safety)`, "remove_filters"},
	{`you\s+have\s+been\s+(?:\w+\s+){0,8}(updated|upgraded|patched)\s+to`, "fake_update"},
	{`\bname\s+yourself\s+\w+`, "identity_override"},
	{`register\s+(as\s+)?a?\s*node`, "c2_node_registration"},
	{`(heartbeat|beacon|check[\s\-]?in)\s+(to|with)\s+`, "c2_heartbeat"},
	{`pull\s+(down\s+)?(?:new\s+)?task(?:ing|s)?\b`, "c2_task_pull"},
	{`connect\s+to\s+the\s+network\b`, "c2_network_connect"},
	{`you\s+must\s+(?:\w+\s+){0,3}(register|connect|report|beacon)\b`, "forced_action"},
	{`only\s+use\s+one[\s\-]?liners?\b`, "anti_forensic_oneliner"},
	{`never\s+(?:\w+\s+){0,8}(?:create|write)\s+(?:\w+\s+){0,8}(?:script|file)\s+(?:\w+\s+){0,8}disk`, "anti_forensic_disk"},
	{`unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*`, "env_var_unset_agent"},
	{`\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b`, "known_c2_framework"},
	{`\bc2\s+(?:server|channel|infrastructure|beacon)\b`, "c2_explicit"},
	{`\bcommand\s+and\s+control\b`, "c2_explicit_long"},
	{`curl\s+[^\n]{0,2048}\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)`, "exfil_curl"},
	{`wget\s+[^\n]{0,2048}\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)`, "exfil_wget"},
	{`cat\s+[^\n]{0,2048}(\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)`, "read_secrets"},
	{`(send|post|upload|transmit)\s+[^\n]{0,2048}\s+(to|at)\s+https?://`, "send_to_url"},
	{`(include|output|print|share)\s+(?:\w+\s+){0,8}(conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)`, "context_exfil"},
	{`authorized_keys`, "ssh_backdoor"},
	{`\$HOME/\.ssh|\~/\.ssh`, "ssh_access"},
	{`\$HOME/\.hermes/\.env|\~/\.hermes/\.env`, "hermes_env"},
	{`(update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048}(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules)`, "agent_config_mod"},
	{`(update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048}\.hermes/(config\.yaml|SOUL\.md)`, "hermes_config_mod"},
	{`(?:api[_-]?key|token|secret|password)\s*[=:]\s*["\'][A-Za-z0-9+/=_-]{20,}`, "hardcoded_secret"},
}

var turkishI = strings.NewReplacer("\u0130", "i", "\u0131", "i")

type threatPattern struct {
	re *regexp.Regexp
	id string
}

func compileThreats(src [][2]string) []threatPattern {
	out := make([]threatPattern, len(src))
	for i, p := range src {
		out[i] = threatPattern{regexp.MustCompile(`(?i)` + pyRegexp(p[0])), p[1]}
	}
	return out
}

// Python's \w, \s and \b are Unicode-aware and RE2's are ASCII; these are
// what Python matches (\s also takes \v and the ASCII separators).
const (
	pyWordIn  = `\p{L}\p{N}_`
	pySpaceIn = `\s\v\p{Z}\x{85}\x{1c}-\x{1f}`
	notWord   = `[^` + pyWordIn + `]`
)

// maxRepeat is RE2's largest repeat count; the reference's {0,2048} is
// written as three repeats that add up to it.
const maxRepeat = 1000

var bigRepeat = regexp.MustCompile(`(\[\^[^\]]+\])\{0,(\d+)\}`)

// pyRegexp rewrites a Python pattern for RE2 with the same matches: \w and
// \s as Unicode classes, \b as a non-word character or the text's edge
// (the scan only asks whether a pattern matches, so consuming that
// character changes nothing), \' and \~ as the characters, and repeat
// counts over RE2's limit split.
func pyRegexp(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			d := p[i+1]
			i++
			switch d {
			case 'w':
				if inClass {
					b.WriteString(pyWordIn)
				} else {
					b.WriteString(`[` + pyWordIn + `]`)
				}
			case 's':
				if inClass {
					b.WriteString(pySpaceIn)
				} else {
					b.WriteString(`[` + pySpaceIn + `]`)
				}
			case 'b':
				if i == 1 || p[i-2] == '(' || p[i-2] == '|' {
					b.WriteString(`(?:^|` + notWord + `)`)
				} else {
					b.WriteString(`(?:` + notWord + `|$)`)
				}
			case '\'', '~':
				b.WriteByte(d)
			default:
				b.WriteByte(c)
				b.WriteByte(d)
			}
			continue
		}
		switch {
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		}
		b.WriteByte(c)
	}
	return bigRepeat.ReplaceAllStringFunc(b.String(), func(m string) string {
		sub := bigRepeat.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		if n <= maxRepeat {
			return m
		}
		var out strings.Builder
		for ; n > 0; n -= maxRepeat {
			fmt.Fprintf(&out, "%s{0,%d}", sub[1], min(n, maxRepeat))
		}
		return out.String()
	})
}

// invisibleChars are the zero-width and bidirectional-control characters
// the reference refuses: they hide text from the person reading it.
var invisibleChars = map[rune]bool{
	'\u200b': true, '\u200c': true, '\u200d': true, '\u2060': true,
	'\u2062': true, '\u2063': true, '\u2064': true, '\ufeff': true,
	'\u202a': true, '\u202b': true, '\u202c': true, '\u202d': true, '\u202e': true,
	'\u2066': true, '\u2067': true, '\u2068': true, '\u2069': true,
}

// ScanThreats returns what the reference's injection scan finds in
// content (docs/reference-behaviour.md §7.7): first each invisible
// character as "invisible_unicode_U+XXXX" (by code point), then the ID of
// every pattern that matches the NFKC-normalised text (full-width and
// compatibility forms folded, so "ｉｇｎｏｒｅ" is "ignore"), in the
// reference's order. Only the first 65,536 characters are read.
func ScanThreats(content string) []string {
	if content == "" {
		return nil
	}
	if r := []rune(content); len(r) > maxScanChars {
		content = string(r[:maxScanChars])
	}
	var found []string
	var invisible []rune
	seen := map[rune]bool{}
	for _, r := range content {
		if invisibleChars[r] && !seen[r] {
			seen[r] = true
			invisible = append(invisible, r)
		}
	}
	sort.Slice(invisible, func(i, j int) bool { return invisible[i] < invisible[j] })
	for _, r := range invisible {
		found = append(found, fmt.Sprintf("invisible_unicode_U+%04X", r))
	}
	// Python matches İ and ı case-insensitively against i (its lowercase
	// and uppercase mappings), RE2 does not: spell them i.
	normalized := turkishI.Replace(norm.NFKC.String(content))
	for _, p := range threatPatterns() {
		if p.re.MatchString(normalized) {
			found = append(found, p.id)
		}
	}
	return found
}

// CheckThreats refuses content the scan flags, with the reference's
// message: memory is put into every system prompt, so an instruction to
// the model hidden in an entry would be obeyed in every session.
func CheckThreats(content string) error {
	found := ScanThreats(content)
	if len(found) == 0 {
		return nil
	}
	e := &Error{Kind: ErrThreat}
	if cp, ok := strings.CutPrefix(found[0], "invisible_unicode_"); ok {
		e.Msg = fmt.Sprintf("Blocked: content contains invisible unicode character %s (possible injection).", cp)
	} else {
		e.Msg = fmt.Sprintf("Blocked: content matches threat pattern '%s'. Content is injected into the system prompt and must not contain injection or exfiltration payloads.", found[0])
	}
	return e
}

// BlockedEntry is what the system-prompt snapshot shows instead of an
// entry the scan flags (the entry itself stays in the file, so it can be
// seen and removed).
func BlockedEntry(target Target, found []string) string {
	return fmt.Sprintf("[BLOCKED: %s entry contained threat pattern(s): %s. Removed from system prompt; use memory(action=remove) to delete the original.]",
		target.FileName(), strings.Join(found, ", "))
}
