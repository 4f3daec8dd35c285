package skillrepo

// The usage sidecar .usage.json keeps per-skill telemetry (views, uses,
// patches, lifecycle state) out of git: it changes on every view and would
// flood history (docs/reference-behaviour.md §11). Its schema is the reference system's
// (docs/reference-behaviour.md §5.1) so an existing ~/.hermes/skills/.usage.json is read and
// kept: unknown keys survive a rewrite. Every read-modify-write holds an
// flock on .usage.json.lock and replaces the file atomically; a corrupt
// file is set aside as .usage.json.corrupt-<time> and treated as empty.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gofrs/flock"
)

// UsageFile is the sidecar's name in the library root.
const UsageFile = ".usage.json"

// Lifecycle states.
const (
	StateActive   = "active"
	StateStale    = "stale"
	StateArchived = "archived"
)

// UsageRecord is one skill's record. Timestamps are kept as the strings
// the file holds (ISO 8601), so a rewrite changes nothing it did not mean
// to; use [ParseUsageTime] to read them.
type UsageRecord struct {
	// Fields are in key order, so a record without extra keys marshals
	// sorted (as the reference's json.dump(sort_keys=True) writes) in one
	// pass.
	ArchivedAt                *string `json:"archived_at"`
	CreatedAt                 *string `json:"created_at"`
	CreatedBy                 *string `json:"created_by"`
	LastPatchedAt             *string `json:"last_patched_at"`
	LastReusedPatchGeneration int     `json:"last_reused_patch_generation"`
	LastUsedAt                *string `json:"last_used_at"`
	LastViewedAt              *string `json:"last_viewed_at"`
	PatchCount                int     `json:"patch_count"`
	PatchGeneration           int     `json:"patch_generation"`
	Pinned                    bool    `json:"pinned"`
	State                     string  `json:"state"`
	UseCount                  int     `json:"use_count"`
	ViewCount                 int     `json:"view_count"`

	// Extra holds keys this version does not know (sync, agent_created,
	// newer fields), written back unchanged.
	Extra map[string]json.RawMessage `json:"-"`
}

var knownUsageKeys = map[string]bool{
	"created_by": true, "use_count": true, "view_count": true, "patch_count": true,
	"patch_generation": true, "last_reused_patch_generation": true, "last_used_at": true,
	"last_viewed_at": true, "last_patched_at": true, "created_at": true, "state": true,
	"pinned": true, "archived_at": true,
}

// UnmarshalJSON reads known keys into fields and keeps the rest.
func (r *UsageRecord) UnmarshalJSON(b []byte) error {
	type plain UsageRecord
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	*r = UsageRecord(p)
	for k, v := range all {
		if !knownUsageKeys[k] {
			if r.Extra == nil {
				r.Extra = map[string]json.RawMessage{}
			}
			r.Extra[k] = v
		}
	}
	if r.State == "" {
		r.State = StateActive
	}
	return nil
}

// MarshalJSON writes every key sorted, extras included.
func (r UsageRecord) MarshalJSON() ([]byte, error) {
	type plain UsageRecord
	b, err := json.Marshal(plain(r))
	if err != nil || len(r.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range r.Extra {
		m[k] = v
	}
	return json.Marshal(m) // maps marshal with sorted keys
}

// AgentCreated reports the reference's curator-managed flag in the record
// (created_by "agent", or the legacy agent_created: true).
func (r *UsageRecord) AgentCreated() bool {
	if r.CreatedBy != nil && *r.CreatedBy == "agent" {
		return true
	}
	if v, ok := r.Extra["agent_created"]; ok && string(v) == "true" {
		return true
	}
	return false
}

// LastActivity is the latest of last used, viewed and patched (zero when
// none); created_at is deliberately not activity.
func (r *UsageRecord) LastActivity() time.Time {
	var last time.Time
	for _, s := range []*string{r.LastUsedAt, r.LastViewedAt, r.LastPatchedAt} {
		if t, ok := ParseUsageTime(s); ok && t.After(last) {
			last = t
		}
	}
	return last
}

// ParseUsageTime parses an ISO 8601 timestamp as Python's isoformat writes
// it (with or without fraction and offset; naive means UTC).
func ParseUsageTime(s *string) (time.Time, bool) {
	if s == nil || *s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, *s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// FormatUsageTime writes t the way the reference does
// (datetime.isoformat() of an aware UTC time).
func FormatUsageTime(t time.Time) *string {
	s := t.UTC().Format("2006-01-02T15:04:05.000000") + "+00:00"
	return &s
}

func newUsageRecord(now time.Time) *UsageRecord {
	return &UsageRecord{CreatedAt: FormatUsageTime(now), State: StateActive}
}

// Usage is the library's usage sidecar.
type Usage struct {
	path string
	now  func() time.Time
}

// Usage returns the library's sidecar.
func (l *Library) Usage() *Usage {
	return &Usage{path: filepath.Join(l.Root, UsageFile), now: l.Now}
}

// Path is the sidecar's file.
func (u *Usage) Path() string { return u.path }

// Load reads the sidecar without locking (writers replace it atomically).
// A missing file is empty; a corrupt one is empty too (and set aside by
// the next Update).
func (u *Usage) Load() (map[string]*UsageRecord, error) {
	recs, _, err := u.read()
	return recs, err
}

func (u *Usage) read() (recs map[string]*UsageRecord, corrupt bool, err error) {
	b, err := os.ReadFile(u.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*UsageRecord{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", UsageFile, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return map[string]*UsageRecord{}, true, nil
	}
	recs = make(map[string]*UsageRecord, len(raw))
	for name, v := range raw {
		var r UsageRecord
		if json.Unmarshal(v, &r) != nil {
			continue // a non-object value is dropped, as the reference does
		}
		recs[name] = &r
	}
	return recs, false, nil
}

// Update runs fn on the records under the sidecar lock and writes the
// result atomically when fn returns nil.
func (u *Usage) Update(fn func(recs map[string]*UsageRecord) error) error {
	lock := flock.New(u.path + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("lock %s: %w", UsageFile, err)
	}
	defer lock.Unlock()
	recs, corrupt, err := u.read()
	if err != nil {
		return err
	}
	if corrupt {
		aside := fmt.Sprintf("%s.corrupt-%s", u.path, u.now().UTC().Format("20060102T150405"))
		if err := os.Rename(u.path, aside); err != nil {
			return fmt.Errorf("set aside corrupt %s: %w", UsageFile, err)
		}
	}
	if err := fn(recs); err != nil {
		return err
	}
	return u.write(recs)
}

func (u *Usage) write(recs map[string]*UsageRecord) error {
	b, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(u.path), UsageFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", UsageFile, err)
	}
	tmp := f.Name()
	// Replaced by rename, never torn; not fsynced: this is telemetry (the
	// reference does not sync it either), and a power loss may cost the
	// last bump, never the file.
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Chmod(0o600)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, u.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", UsageFile, err)
	}
	return nil
}

func (u *Usage) record(recs map[string]*UsageRecord, name string) *UsageRecord {
	r, ok := recs[name]
	if !ok {
		r = newUsageRecord(u.now())
		recs[name] = r
	}
	return r
}

// BumpView counts a view of a skill as both a view and a use, as the
// reference's skill_view does.
func (u *Usage) BumpView(name string) error {
	_, err := u.Bump(name, true, false)
	return err
}

// BumpUse counts a use (a slash-command or preloaded skill).
func (u *Usage) BumpUse(name string) error {
	_, err := u.Bump(name, false, false)
	return err
}

// Bump counts a view (view true; also a use) or a use of a skill and
// returns a copy of its record afterwards. With dryRun the sidecar is read
// but not written.
func (u *Usage) Bump(name string, view, dryRun bool) (*UsageRecord, error) {
	var after UsageRecord
	bump := func(recs map[string]*UsageRecord) error {
		r := u.record(recs, name)
		now := FormatUsageTime(u.now())
		r.UseCount++
		r.LastUsedAt = now
		if view {
			r.ViewCount++
			r.LastViewedAt = now
			if r.PatchGeneration > r.LastReusedPatchGeneration {
				r.LastReusedPatchGeneration = r.PatchGeneration
			}
		}
		after = *r
		return nil
	}
	if dryRun {
		recs, err := u.Load()
		if err != nil {
			return nil, err
		}
		if err := bump(recs); err != nil {
			return nil, err
		}
		return &after, nil
	}
	if err := u.Update(bump); err != nil {
		return nil, err
	}
	return &after, nil
}

// BumpPatch counts a write to the skill.
func (u *Usage) BumpPatch(names ...string) error {
	return u.Update(func(recs map[string]*UsageRecord) error {
		for _, name := range names {
			r := u.record(recs, name)
			r.PatchCount++
			r.PatchGeneration++
			r.LastPatchedAt = FormatUsageTime(u.now())
		}
		return nil
	})
}

// RecordCreated resets a skill's record for a new skill; agent marks it
// created_by "agent".
func (u *Usage) RecordCreated(name string, agent bool) error {
	return u.Update(func(recs map[string]*UsageRecord) error {
		r := newUsageRecord(u.now())
		if agent {
			a := "agent"
			r.CreatedBy = &a
		}
		recs[name] = r
		return nil
	})
}

// SetState records a lifecycle state (archived sets archived_at).
func (u *Usage) SetState(name, state string) error {
	return u.Update(func(recs map[string]*UsageRecord) error {
		r := u.record(recs, name)
		r.State = state
		if state == StateArchived {
			r.ArchivedAt = FormatUsageTime(u.now())
		} else if state == StateActive {
			r.ArchivedAt = nil
		}
		return nil
	})
}

// Forget removes a skill's record.
func (u *Usage) Forget(name string) error {
	return u.Update(func(recs map[string]*UsageRecord) error {
		delete(recs, name)
		return nil
	})
}

// recordUsage updates the sidecar after a batch landed on the checked-out
// branch. Telemetry is best effort, as in the reference: a failure here
// never fails the write that already committed.
func (l *Library) recordUsage(res *UpdateResult, opts ApplyOptions) {
	if res == nil || !res.CheckedOut || len(res.Commits) == 0 {
		return
	}
	u := l.Usage()
	var patched []string
	for _, op := range opts.Ops {
		switch op.Action {
		case ActionCreate:
			_ = u.RecordCreated(op.Name, opts.Provenance.Autonomous())
		case ActionDelete:
			if opts.Provenance.Autonomous() {
				_ = u.SetState(op.Name, StateArchived)
			} else {
				_ = u.Forget(op.Name)
			}
		default:
			patched = append(patched, op.Name)
		}
	}
	if len(patched) > 0 {
		sort.Strings(patched)
		_ = u.BumpPatch(patched...)
	}
}
