package hermes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
)

// Hermes runs a shell hook only with the user's consent, given once per
// (event, command) and kept in shell-hooks-allowlist.json; a run without
// a terminal gets it from --accept-hooks, HERMES_ACCEPT_HOOKS or
// hooks_auto_accept (agent/shell_hooks.py).

// Approval is one consent of the allowlist (fields in key order: Hermes
// writes the file with sorted keys).
type Approval struct {
	ApprovedAt string  `json:"approved_at"`
	Command    string  `json:"command"`
	Event      string  `json:"event"`
	ScriptTime *string `json:"script_mtime_at_approval"`
}

// Allowlist is shell-hooks-allowlist.json; keys Hermes does not define
// are kept.
type Allowlist struct {
	Approvals []Approval
	other     map[string]json.RawMessage
}

// ReadAllowlist reads home's allowlist; a missing or unreadable one is
// empty, as Hermes reads it.
func ReadAllowlist(home string) Allowlist {
	raw, err := allowlistFile(home).Read()
	if err != nil {
		return Allowlist{}
	}
	var a Allowlist
	_ = json.Unmarshal(raw["approvals"], &a.Approvals)
	delete(raw, "approvals")
	a.other = raw
	return a
}

// Allowed reports whether (event, command) has the user's consent.
func (a Allowlist) Allowed(event, command string) bool {
	for _, e := range a.Approvals {
		if e.Event == event && e.Command == command {
			return true
		}
	}
	return false
}

// Consent is how Hermes will treat a hook it has no approval for.
type Consent string

// Consents.
const (
	// ConsentGiven: approved in the allowlist.
	ConsentGiven Consent = "given"
	// ConsentAutomatic: hooks_auto_accept (or HERMES_ACCEPT_HOOKS in this
	// environment) approves it at Hermes' next start.
	ConsentAutomatic Consent = "automatic"
	// ConsentPending: Hermes asks at its next interactive start, and a
	// run without a terminal skips the hook.
	ConsentPending Consent = "pending"
)

// ConsentFor says whether Hermes will run (event, command).
func ConsentFor(home string, cfg Config, getenv func(string) string, event, command string) Consent {
	if ReadAllowlist(home).Allowed(event, command) {
		return ConsentGiven
	}
	if cfg.HooksAutoAccept {
		return ConsentAutomatic
	}
	if getenv != nil {
		switch strings.ToLower(strings.TrimSpace(getenv("HERMES_ACCEPT_HOOKS"))) {
		case "1", "true", "yes", "on":
			return ConsentAutomatic
		}
	}
	return ConsentPending
}

// Approve records the user's consent to each (event, command) as Hermes'
// own prompt does: one entry each (replacing an older one of the pair),
// under the allowlist's lock, the file replaced atomically.
func Approve(home, userHome string, now time.Time, pairs [][2]string) error {
	f := allowlistFile(home)
	unlock, err := statefile.Lock(f.Path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	// A file Hermes cannot read either is kept aside, not written over; a
	// FIFO or a device in its place is refused.
	var corrupt *statefile.CorruptError
	if _, err := f.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.As(err, &corrupt) {
		return fmt.Errorf("hook approvals: %w", err)
	}
	a := ReadAllowlist(home)
	for _, p := range pairs {
		kept := a.Approvals[:0]
		for _, e := range a.Approvals {
			if e.Event != p[0] || e.Command != p[1] {
				kept = append(kept, e)
			}
		}
		a.Approvals = append(kept, Approval{Event: p[0], Command: p[1], ApprovedAt: isoZ(now), ScriptTime: scriptTime(p[1], userHome)})
	}
	out := map[string]any{"approvals": a.Approvals}
	for k, v := range a.other {
		out[k] = v
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return statefile.WriteFile(f.Path, b, 0o600, false)
}

func allowlistFile(home string) statefile.File[map[string]json.RawMessage] {
	return statefile.File[map[string]json.RawMessage]{Path: filepath.Join(home, AllowlistFile), Limit: maxFile}
}

// isoZ is Python's datetime.isoformat() of a UTC time with "Z" for the
// offset, as Hermes stamps approvals (the microseconds only when there
// are any).
func isoZ(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05") + "Z"
	}
	return t.Format("2006-01-02T15:04:05.000000") + "Z"
}

// scriptTime is the modification time of the command's script, as Hermes
// records it to notice a changed script (_command_script_path: a word
// ending in a script extension, else one with a "/" or a leading "~",
// else the first).
func scriptTime(command, userHome string) *string {
	words, err := Split(command)
	if err != nil || len(words) == 0 {
		return nil
	}
	prog := words[0]
	found := false
	for _, w := range words {
		for _, ext := range []string{".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua", ".js", ".mjs", ".cjs", ".ts"} {
			if strings.HasSuffix(strings.ToLower(w), ext) {
				prog, found = w, true
				break
			}
		}
		if found {
			break
		}
	}
	if !found {
		for _, w := range words {
			if strings.Contains(w, "/") || strings.HasPrefix(w, "~") {
				prog = w
				break
			}
		}
	}
	fi, err := os.Stat(ExpandUser(prog, userHome))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	s := isoZ(fi.ModTime())
	return &s
}
