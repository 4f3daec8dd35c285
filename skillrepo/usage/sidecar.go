package usage

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
	"maps"
	"slices"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
)

// File is the sidecar's name in the library root.
const File = ".usage.json"

// Lifecycle states.
const (
	StateActive   = "active"
	StateStale    = "stale"
	StateArchived = "archived"
)

// Record is one skill's record. Timestamps are kept as the strings
// the file holds (ISO 8601), so a rewrite changes nothing it did not mean
// to; use [ParseTime] to read them.
type Record struct {
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

var knownKeys = map[string]bool{
	"created_by": true, "use_count": true, "view_count": true, "patch_count": true,
	"patch_generation": true, "last_reused_patch_generation": true, "last_used_at": true,
	"last_viewed_at": true, "last_patched_at": true, "created_at": true, "state": true,
	"pinned": true, "archived_at": true,
}

// UnmarshalJSON reads known keys into fields and keeps the rest.
func (r *Record) UnmarshalJSON(b []byte) error {
	type plain Record
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	*r = Record(p)
	for k, v := range all {
		if !knownKeys[k] {
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
func (r Record) MarshalJSON() ([]byte, error) {
	type plain Record
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
func (r *Record) AgentCreated() bool {
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
func (r *Record) LastActivity() time.Time {
	var last time.Time
	for _, s := range []*string{r.LastUsedAt, r.LastViewedAt, r.LastPatchedAt} {
		if t, ok := ParseTime(s); ok && t.After(last) {
			last = t
		}
	}
	return last
}

// ParseTime parses an ISO 8601 timestamp as Python's isoformat writes
// it (with or without fraction and offset; naive means UTC).
func ParseTime(s *string) (time.Time, bool) {
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

// FormatTime writes t the way the reference does
// (datetime.isoformat() of an aware UTC time).
func FormatTime(t time.Time) *string {
	s := t.UTC().Format("2006-01-02T15:04:05.000000") + "+00:00"
	return &s
}

// NewRecord is the record of a skill first seen at now: active, created
// then.
func NewRecord(now time.Time) *Record {
	return &Record{CreatedAt: FormatTime(now), State: StateActive}
}

// Sidecar is a library's usage sidecar.
type Sidecar struct {
	path string
	now  func() time.Time
}

// NewSidecar is the sidecar at path (a library's root/[File]); now is
// the library's clock, which stamps what it records.
func NewSidecar(path string, now func() time.Time) *Sidecar {
	return &Sidecar{path: path, now: now}
}

// Path is the sidecar's file.
func (u *Sidecar) Path() string { return u.path }

// Load reads the sidecar without locking (writers replace it atomically).
// A missing file is empty; a corrupt one is empty too (and set aside by
// the next Update).
func (u *Sidecar) Load() (map[string]*Record, error) {
	return u.read(false)
}

func (u *Sidecar) read(setAside bool) (map[string]*Record, error) {
	raw, err := u.readRaw(setAside)
	if err != nil {
		return map[string]*Record{}, err
	}
	recs := make(map[string]*Record, len(raw))
	for name, v := range raw {
		var r Record
		if json.Unmarshal(v, &r) != nil {
			continue // a non-object value is dropped, as the reference does
		}
		recs[name] = &r
	}
	return recs, nil
}

// readRaw reads the sidecar's records undecoded; a corrupt sidecar is
// empty, and with setAside moved out of the way, so the write that
// follows neither fails on it nor loses it.
func (u *Sidecar) readRaw(setAside bool) (map[string]json.RawMessage, error) {
	// A regular file, bounded: the sidecar is written by agents too.
	f := statefile.File[map[string]json.RawMessage]{Path: u.path, Limit: MaxFile}
	read := f.Read
	if setAside {
		read = f.Load
	}
	raw, err := read()
	var ce *statefile.CorruptError
	if errors.Is(err, fs.ErrNotExist) || (errors.As(err, &ce) && (ce.SetAside != "" || !setAside)) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", File, err)
	}
	if raw == nil { // "null"
		raw = map[string]json.RawMessage{}
	}
	return raw, nil
}

// Update runs fn on the records under the sidecar lock and writes the
// result atomically when fn returns nil.
func (u *Sidecar) Update(fn func(recs map[string]*Record) error) error {
	return u.WithLock(func() error { return u.update(fn) })
}

// WithLock runs fn holding the sidecar's lock (.usage.json.lock, as the
// reference's _locked_update takes it).
func (u *Sidecar) WithLock(fn func() error) error {
	unlock, err := statefile.Lock(u.path + ".lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", File, err)
	}
	defer unlock()
	return fn()
}

func (u *Sidecar) update(fn func(recs map[string]*Record) error) error {
	recs, err := u.read(true)
	if err != nil {
		return err
	}
	if err := fn(recs); err != nil {
		return err
	}
	return u.writeBytes(recs)
}

// updateNamed is Update for an fn that reads and writes only the records
// of names (it may add or delete them). Only those are decoded and
// encoded again; every other record is written back as it was read. A
// counted use is then one record's work, not the whole library's: the
// PostToolUse hook on a 1,000-skill library spent most of its time
// decoding and encoding records it did not touch (bench/hooks).
//
// The result is the bytes Update would write for a sidecar this package
// wrote; a record another program wrote keeps its key order until
// something changes it, and a value that is not a record (which Update
// drops) stays until a whole-file Update.
func (u *Sidecar) updateNamed(names []string, fn func(recs map[string]*Record) error) error {
	return u.WithLock(func() error {
		raw, err := u.readRaw(true)
		if err != nil {
			return err
		}
		recs := make(map[string]*Record, len(names))
		for _, name := range names {
			v, ok := raw[name]
			if !ok {
				continue
			}
			var r Record
			if json.Unmarshal(v, &r) != nil {
				delete(raw, name) // as read drops it
				continue
			}
			recs[name] = &r
		}
		if err := fn(recs); err != nil {
			return err
		}
		for _, name := range names {
			if _, ok := recs[name]; !ok {
				delete(raw, name)
			}
		}
		for name, r := range recs {
			// Indented as a value of the top-level object, so the file
			// reads as json.MarshalIndent of the whole would write it.
			b, err := json.MarshalIndent(r, "  ", "  ")
			if err != nil {
				return fmt.Errorf("encode usage of %s: %w", name, err)
			}
			raw[name] = b
		}
		return u.writeRaw(raw)
	})
}

// writeRaw replaces the sidecar with records encoded already, each copied
// as it is under its key, keys sorted, as [Sidecar.Update] writes them.
// encoding/json would compact and indent every record again: most of a
// counted use's time on a big library.
func (u *Sidecar) writeRaw(raw map[string]json.RawMessage) error {
	names := slices.Sorted(maps.Keys(raw))
	size := 4
	for name, v := range raw {
		size += len(name) + len(v) + 10
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		key, err := json.Marshal(name)
		if err != nil {
			return fmt.Errorf("encode usage key %q: %w", name, err)
		}
		b = append(b, "\n  "...)
		b = append(b, key...)
		b = append(b, ": "...)
		b = append(b, raw[name]...)
	}
	if len(names) > 0 {
		b = append(b, '\n')
	}
	return u.writeFile(append(b, '}'))
}

// writeBytes replaces the sidecar with recs encoded with sorted keys and
// two-space indents.
func (u *Sidecar) writeBytes(recs map[string]*Record) error {
	b, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	return u.writeFile(b)
}

// writeFile replaces the sidecar with b and a newline. It is not
// fsynced: this is telemetry (the reference does not sync it either), and
// a power loss may cost the last bump, never the file.
func (u *Sidecar) writeFile(b []byte) error {
	return statefile.WriteFile(u.path, append(b, '\n'), 0o600, false)
}

func (u *Sidecar) record(recs map[string]*Record, name string) *Record {
	r, ok := recs[name]
	if !ok {
		r = NewRecord(u.now())
		recs[name] = r
	}
	return r
}

// BumpView counts a view of a skill as both a view and a use, as the
// reference's skill_view does.
func (u *Sidecar) BumpView(name string) error {
	_, err := u.Bump(name, true, false)
	return err
}

// BumpUse counts a use (a slash-command or preloaded skill).
func (u *Sidecar) BumpUse(name string) error {
	_, err := u.Bump(name, false, false)
	return err
}

// Bump counts a view (view true; also a use) or a use of a skill and
// returns a copy of its record afterwards. With dryRun the sidecar is read
// but not written.
func (u *Sidecar) Bump(name string, view, dryRun bool) (*Record, error) {
	var after Record
	bump := func(recs map[string]*Record) error {
		r := u.record(recs, name)
		countUse(r, view, FormatTime(u.now()))
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
	if err := u.updateNamed([]string{name}, bump); err != nil {
		return nil, err
	}
	return &after, nil
}

// countUse counts a use of r at now, and a view too when view is set (a
// view reuses the skill's current patch generation).
func countUse(r *Record, view bool, now *string) {
	r.UseCount++
	r.LastUsedAt = now
	if view {
		r.ViewCount++
		r.LastViewedAt = now
		if r.PatchGeneration > r.LastReusedPatchGeneration {
			r.LastReusedPatchGeneration = r.PatchGeneration
		}
	}
}

// useKeysKey is the record key keeping the last dedupe keys a use was
// counted for. It lives in the record itself so that the count and the
// key are written by one atomic rename; the reference keeps keys it does
// not know, and ignores them.
const useKeysKey = "skillrepo_use_keys"

// maxUseKeys bounds the keys kept per skill: a repeated hook event comes
// right after the first, so a short memory is enough.
const maxUseKeys = 32

// BumpOnce counts a view (view true; also a use) or a use of a skill
// unless key was already counted for it; counted says whether it counted.
// The check and the bump are one read-modify-write under the sidecar's
// lock. An empty key always counts.
func (u *Sidecar) BumpOnce(name string, view bool, key string) (counted bool, err error) {
	err = u.updateNamed([]string{name}, func(recs map[string]*Record) error {
		var keys []string
		if r, ok := recs[name]; ok && key != "" {
			if raw, ok := r.Extra[useKeysKey]; ok {
				_ = json.Unmarshal(raw, &keys) // a foreign value is replaced
			}
			if slices.Contains(keys, key) {
				return errCounted
			}
		}
		r := u.record(recs, name)
		countUse(r, view, FormatTime(u.now()))
		if key != "" {
			keys = append(keys, key)
			if len(keys) > maxUseKeys {
				keys = keys[len(keys)-maxUseKeys:]
			}
			raw, err := json.Marshal(keys)
			if err != nil {
				return err
			}
			if r.Extra == nil {
				r.Extra = map[string]json.RawMessage{}
			}
			r.Extra[useKeysKey] = raw
		}
		counted = true
		return nil
	})
	if errors.Is(err, errCounted) {
		return false, nil
	}
	return counted, err
}

// errCounted stops an Update whose use was already counted (nothing to
// write).
var errCounted = errors.New("already counted")

// BumpPatch counts a write to the skill.
func (u *Sidecar) BumpPatch(names ...string) error {
	return u.updateNamed(names, func(recs map[string]*Record) error {
		for _, name := range names {
			r := u.record(recs, name)
			r.PatchCount++
			r.PatchGeneration++
			r.LastPatchedAt = FormatTime(u.now())
		}
		return nil
	})
}

// RecordCreated resets a skill's record for a new skill; agent marks it
// created_by "agent".
func (u *Sidecar) RecordCreated(name string, agent bool) error {
	return u.updateNamed([]string{name}, func(recs map[string]*Record) error {
		r := NewRecord(u.now())
		if agent {
			a := "agent"
			r.CreatedBy = &a
		}
		recs[name] = r
		return nil
	})
}

// SetState records a lifecycle state (archived sets archived_at).
func (u *Sidecar) SetState(name, state string) error {
	return u.updateNamed([]string{name}, func(recs map[string]*Record) error {
		r := u.record(recs, name)
		r.State = state
		if state == StateArchived {
			r.ArchivedAt = FormatTime(u.now())
		} else if state == StateActive {
			r.ArchivedAt = nil
		}
		return nil
	})
}

// Forget removes a skill's record.
func (u *Sidecar) Forget(name string) error {
	return u.updateNamed([]string{name}, func(recs map[string]*Record) error {
		delete(recs, name)
		return nil
	})
}

// Change is what one landed write means for the sidecar.
type Change struct {
	Name   string `json:"name"`   // the key the record is written under
	Action string `json:"action"` // created, patched, archived, restored, forgotten, pinned, unpinned
	Agent  bool   `json:"agent,omitempty"`
	// Aliases are the skill's other keys: a forget drops them too, and a
	// state or pin is set on them too, so no half of a split record
	// contradicts the write.
	Aliases []string `json:"aliases,omitempty"`
}

// Sidecar actions of a Change.
const (
	Created   = "created"
	Patched   = "patched"
	Archived  = "archived"
	Restored  = "restored"
	Forgotten = "forgotten"
	Pinned    = "pinned"
	Unpinned  = "unpinned"
)

// Apply records changes in one locked read-modify-write, as the
// reference's record_created, bump_patch, set_state, set_pinned and forget
// do (docs/reference-behaviour.md §4.8, §5.4).
func (u *Sidecar) Apply(events []Change) error {
	if len(events) == 0 {
		return nil
	}
	var names []string
	for _, e := range events {
		names = append(append(names, e.Name), e.Aliases...)
	}
	return u.updateNamed(names, func(recs map[string]*Record) error {
		now := u.now()
		for _, e := range events {
			switch e.Action {
			case Created:
				r := NewRecord(now)
				if e.Agent {
					a := "agent"
					r.CreatedBy = &a
				}
				if old, ok := recs[e.Name]; ok {
					r.Pinned = old.Pinned // a pin is git's, not the record's, to reset
				}
				recs[e.Name] = r
			case Patched:
				r := u.record(recs, e.Name)
				r.PatchCount++
				r.PatchGeneration++
				r.LastPatchedAt = FormatTime(now)
			case Archived:
				for _, r := range u.aliasRecords(recs, e) {
					r.State, r.ArchivedAt = StateArchived, FormatTime(now)
				}
			case Restored:
				for _, r := range u.aliasRecords(recs, e) {
					r.State, r.ArchivedAt = StateActive, nil
				}
			case Forgotten:
				delete(recs, e.Name)
				for _, a := range e.Aliases {
					delete(recs, a)
				}
			case Pinned, Unpinned:
				for _, r := range u.aliasRecords(recs, e) {
					r.Pinned = e.Action == Pinned
				}
			}
		}
		return nil
	})
}

// aliasRecords are the records of e's skill: under its key (made when
// missing) and each alias present.
func (u *Sidecar) aliasRecords(recs map[string]*Record, e Change) []*Record {
	out := []*Record{u.record(recs, e.Name)}
	for _, a := range e.Aliases {
		if r, ok := recs[a]; ok && a != e.Name {
			out = append(out, r)
		}
	}
	return out
}

// MaxFile bounds the usage sidecar and its pending events (10,000
// skills' records are a few MB).
const MaxFile = 256 << 20

// A proposal's usage events wait in a pending file of the clone until the
// proposal is approved (they are applied) or rejected (dropped): the
// domain names the file.

// AddPending appends events to the pending file at path, under the
// sidecar's lock (the file is written whole and renamed into place).
func (u *Sidecar) AddPending(path string, events []Change) error {
	return u.WithLock(func() error {
		old, err := ReadPending(path)
		if err != nil {
			return err
		}
		return statefile.File[[]Change]{Path: path, Perm: 0o644}.Write(append(old, events...))
	})
}

// ReadPending reads a pending file; a missing one is no events, a torn or
// foreign one is set aside: telemetry, not worth failing for.
func ReadPending(path string) ([]Change, error) {
	events, err := statefile.File[[]Change]{Path: path, Limit: MaxFile}.Load()
	var ce *statefile.CorruptError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &ce) {
		return nil, nil
	}
	return events, err
}
