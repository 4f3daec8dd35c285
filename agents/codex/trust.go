package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Codex runs a hook from hooks.json only once the person trusted it: the
// TUI's /hooks ("Hooks need review") records, in the user's config.toml,
//
//	[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// and `codex exec` skips an untrusted or changed hook without a word. The
// hash is Codex's (codex-rs hooks discovery, config fingerprint): SHA-256
// of the compact, key-sorted JSON of the handler's normalised identity
// {"event_name": <snake_case event>, "matcher": <matcher, for events that
// take one>, "hooks": [{"type": "command", "command", "timeout": <seconds;
// 600 when unset, 1 for SessionEnd>, "async", "statusMessage"?}]}. The key
// names the hooks.json path as Codex opened it: $CODEX_HOME with its
// symbolic links resolved for the user's file, the project folder as the
// session's for a project's. Both were checked against Codex 0.169.1 (a
// hook trusted this way runs in `codex exec`; docs/agents.md).

// configLimit bounds the read of config.toml: kilobytes, and one that is
// not (or a FIFO) is refused rather than loaded.
const configLimit = 16 << 20

// TrustStatus is Codex's verdict on one hook.
type TrustStatus string

// Codex's verdicts: trusted (it runs), untrusted (never reviewed),
// modified (reviewed, then changed: a new binary path or library changes
// the command), disabled (turned off in /hooks).
const (
	Trusted   TrustStatus = "trusted"
	Untrusted TrustStatus = "untrusted"
	Modified  TrustStatus = "modified"
	Disabled  TrustStatus = "disabled"
)

// HookTrust is one of our handlers as Codex judges it.
type HookTrust struct {
	Handler hooks.InstalledHandler
	// Key is its [hooks.state] key; Hash the trusted_hash that trusts it
	// as it is now.
	Key, Hash string
	Status    TrustStatus
}

// codexEventLabel is Codex's snake_case name of an event (its trust keys
// and hashes use it).
func codexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexMatcherEvents are the events whose matcher is part of a hook's
// identity; Codex drops the matcher of the others (UserPromptSubmit,
// Stop) before hashing.
var codexMatcherEvents = map[string]bool{
	"PreToolUse": true, "PermissionRequest": true, "PostToolUse": true, "PreCompact": true, "PostCompact": true,
	"SessionStart": true, "SessionEnd": true, "SubagentStart": true, "SubagentStop": true,
}

// Codex's timeouts in seconds: the default, and SessionEnd's own default
// and cap (a session's end waits at most that long for its hooks).
const (
	codexDefaultTimeout    = 600
	codexSessionEndDefault = 1
	codexSessionEndMax     = 3
)

// HookHash is the trusted_hash Codex computes for a handler.
func HookHash(h hooks.InstalledHandler) string {
	timeout := h.Timeout
	switch {
	case h.Event == agent.EventSessionEnd && timeout <= 0:
		timeout = codexSessionEndDefault
	case h.Event == agent.EventSessionEnd:
		timeout = min(timeout, codexSessionEndMax)
	case timeout <= 0:
		timeout = codexDefaultTimeout
	}
	hook := map[string]any{"type": "command", "command": h.Command, "timeout": timeout, "async": h.Async}
	if h.StatusMessage != nil {
		hook["statusMessage"] = *h.StatusMessage
	}
	id := map[string]any{"event_name": codexEventLabel(h.Event), "hooks": []any{hook}}
	if h.HasMatcher && codexMatcherEvents[h.Event] {
		id["matcher"] = h.Matcher
	}
	// encoding/json sorts map keys, as Codex's canonical form does; HTML
	// characters stay as they are, as serde_json writes them.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(id)
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ConfigPath is the user's config.toml, where Codex keeps trust.
func ConfigPath(homes agent.Homes) string { return filepath.Join(homes.CodexHome, "config.toml") }

// codexKeySource is the hooks.json path as Codex names it in trust keys.
func codexKeySource(in *hooks.Installation) string {
	if in.Scope == agent.ScopeUser || in.Scope == "" {
		dir := filepath.Dir(in.Settings)
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		return filepath.Join(dir, filepath.Base(in.Settings))
	}
	return in.Settings
}

// codexState is one [hooks.state] entry.
type codexState struct {
	TrustedHash string `toml:"trusted_hash"`
	Enabled     *bool  `toml:"enabled"`
}

func readCodexConfig(path string) ([]byte, map[string]any, error) {
	data, err := boundedread.ReadFile(path, configLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, map[string]any{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var cfg map[string]any
	if err := toml.Unmarshal(data, &cfg); err != nil {
		return nil, nil, fmt.Errorf("%s is not valid TOML: %w", path, err)
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	return data, cfg, nil
}

func codexStates(cfg map[string]any) map[string]codexState {
	out := map[string]codexState{}
	hooks, _ := cfg["hooks"].(map[string]any)
	states, _ := hooks["state"].(map[string]any)
	for k, v := range states {
		m, _ := v.(map[string]any)
		var s codexState
		s.TrustedHash, _ = m["trusted_hash"].(string)
		if e, ok := m["enabled"].(bool); ok {
			s.Enabled = &e
		}
		out[k] = s
	}
	return out
}

// Trust judges each of our handlers of a Codex installation as Codex
// would, from the trust recorded in the user's config.toml.
func Trust(in *hooks.Installation, homes agent.Homes) ([]HookTrust, error) {
	return trustAt(codexKeySource(in), in.Handlers, homes)
}

// trustAt judges handlers whose trust keys start with source (a
// hooks.json path, or a plugin's "<id>:hooks/hooks.json").
func trustAt(source string, handlers []hooks.InstalledHandler, homes agent.Homes) ([]HookTrust, error) {
	_, cfg, err := readCodexConfig(ConfigPath(homes))
	if err != nil {
		return nil, err
	}
	states := codexStates(cfg)
	var out []HookTrust
	for _, h := range handlers {
		t := HookTrust{Handler: h, Key: fmt.Sprintf("%s:%s:%d:%d", source, codexEventLabel(h.Event), h.Group, h.Index), Hash: HookHash(h)}
		st, ok := states[t.Key]
		switch {
		case ok && st.Enabled != nil && !*st.Enabled:
			t.Status = Disabled
		case !ok || st.TrustedHash == "":
			t.Status = Untrusted
		case st.TrustedHash == t.Hash:
			t.Status = Trusted
		default:
			t.Status = Modified
		}
		out = append(out, t)
	}
	return out, nil
}

// TrustResult is what TrustHooks did.
type TrustResult struct {
	Config  string
	Content []byte
	Changed bool
	// Trusted counts the hooks whose trust was written.
	Trusted int
}

// TrustHooks records in the user's config.toml the trust of exactly
// the given hooks (ours), as Codex's /hooks does when the person accepts
// them: each key's trusted_hash is set to its hook's current hash.
// Everything else in the file keeps its text (comments too); the result
// must parse and differ from the file only in those trusted_hash values,
// or nothing is written. A disabled hook stays disabled.
func TrustHooks(homes agent.Homes, hooks []HookTrust, dryRun bool) (*TrustResult, error) {
	path := ConfigPath(homes)
	res := &TrustResult{Config: path}
	data, before, err := readCodexConfig(path)
	if err != nil {
		return nil, err
	}
	out := string(data)
	want := map[string]string{}
	for _, h := range hooks {
		if h.Status == Trusted || h.Status == Disabled {
			continue
		}
		want[h.Key] = h.Hash
		if out, err = setTrustedHash(out, h.Key, h.Hash); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		res.Trusted++
	}
	if res.Trusted == 0 {
		res.Content = data
		return res, nil
	}
	var after map[string]any
	if err := toml.Unmarshal([]byte(out), &after); err != nil {
		return nil, fmt.Errorf("%s: the edit would not parse (%v); nothing written", path, err)
	}
	got := codexStates(after)
	for k, h := range want {
		if got[k].TrustedHash != h {
			return nil, fmt.Errorf("%s: the edit would not record the trust of %s; trust the hooks in Codex's /hooks instead", path, k)
		}
	}
	if !reflect.DeepEqual(withoutTrust(after, want), withoutTrust(before, want)) {
		return nil, fmt.Errorf("%s: the edit would change more than the hooks' trust; trust them in Codex's /hooks instead", path)
	}
	res.Content, res.Changed = []byte(out), out != string(data)
	if !res.Changed || dryRun {
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := atomicfile.Write(path, res.Content, perm, true); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return res, nil
}

// withoutTrust is a parsed config without the trusted_hash of keys (and
// without the tables only they made), for comparing before and after.
func withoutTrust(cfg map[string]any, keys map[string]string) map[string]any {
	data, _ := toml.Marshal(cfg)
	var c map[string]any
	_ = toml.Unmarshal(data, &c)
	hooks, _ := c["hooks"].(map[string]any)
	states, _ := hooks["state"].(map[string]any)
	for k := range keys {
		if st, ok := states[k].(map[string]any); ok {
			delete(st, "trusted_hash")
			if len(st) == 0 {
				delete(states, k)
			}
		}
	}
	if states != nil && len(states) == 0 {
		delete(hooks, "state")
	}
	if hooks != nil && len(hooks) == 0 {
		delete(c, "hooks")
	}
	return c
}

// tomlHeaderLine matches a table header and captures its key path.
// (compiled on first use, not in every command's start-up)
var tomlHeaderLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?\s*([^\[\]]*?)\s*\]\]?\s*(#.*)?$`) })

// stateHeader is the key of a [hooks.state."<key>"] header, or "".
func stateHeader(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "hooks")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if rest, ok = strings.CutPrefix(rest, "."); !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if rest, ok = strings.CutPrefix(rest, "state"); !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if rest, ok = strings.CutPrefix(rest, "."); !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(rest, `"`):
		k, err := strconv.Unquote(rest)
		return k, err == nil
	case strings.HasPrefix(rest, `'`) && strings.HasSuffix(rest, `'`) && len(rest) >= 2:
		return rest[1 : len(rest)-1], true
	}
	return "", false
}

var trustedHashLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*trusted_hash\s*=`) })

// setTrustedHash sets trusted_hash in the [hooks.state."<key>"] table:
// the line is replaced, or added under the table's header, or the table
// is added at the end of the file.
func setTrustedHash(text, key, hash string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	line := "trusted_hash = " + tomlQuote(hash) + "\n"
	for i := 0; i < len(lines); i++ {
		m := tomlHeaderLine().FindStringSubmatch(strings.TrimRight(lines[i], "\r\n"))
		if m == nil {
			continue
		}
		k, ok := stateHeader(m[1])
		if !ok || k != key {
			continue
		}
		j := i + 1
		for ; j < len(lines) && tomlHeaderLine().FindStringSubmatch(strings.TrimRight(lines[j], "\r\n")) == nil; j++ {
			if trustedHashLine().MatchString(lines[j]) {
				lines[j] = line
				return strings.Join(lines, ""), nil
			}
		}
		lines = append(lines[:i+1], append([]string{line}, lines[i+1:]...)...)
		return strings.Join(lines, ""), nil
	}
	if text != "" {
		text = strings.TrimRight(text, "\n") + "\n\n"
	}
	return text + "[hooks.state." + tomlQuote(key) + "]\n" + line, nil
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
