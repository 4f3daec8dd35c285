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
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
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
	return &Usage{path: filepath.Join(l.Root, UsageFile), now: l.repo.Now}
}

// Path is the sidecar's file.
func (u *Usage) Path() string { return u.path }

// Load reads the sidecar without locking (writers replace it atomically).
// A missing file is empty; a corrupt one is empty too (and set aside by
// the next Update).
func (u *Usage) Load() (map[string]*UsageRecord, error) {
	return u.read(false)
}

func (u *Usage) read(setAside bool) (map[string]*UsageRecord, error) {
	raw, err := u.readRaw(setAside)
	if err != nil {
		return map[string]*UsageRecord{}, err
	}
	recs := make(map[string]*UsageRecord, len(raw))
	for name, v := range raw {
		var r UsageRecord
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
func (u *Usage) readRaw(setAside bool) (map[string]json.RawMessage, error) {
	// A regular file, bounded: the sidecar is written by agents too.
	f := statefile.File[map[string]json.RawMessage]{Path: u.path, Limit: maxUsageFile}
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
		return nil, fmt.Errorf("read %s: %w", UsageFile, err)
	}
	if raw == nil { // "null"
		raw = map[string]json.RawMessage{}
	}
	return raw, nil
}

// Update runs fn on the records under the sidecar lock and writes the
// result atomically when fn returns nil.
func (u *Usage) Update(fn func(recs map[string]*UsageRecord) error) error {
	return u.withLock(func() error { return u.update(fn) })
}

// withLock runs fn holding the sidecar's lock (.usage.json.lock, as the
// reference's _locked_update takes it).
func (u *Usage) withLock(fn func() error) error {
	unlock, err := statefile.Lock(u.path + ".lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", UsageFile, err)
	}
	defer unlock()
	return fn()
}

func (u *Usage) update(fn func(recs map[string]*UsageRecord) error) error {
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
func (u *Usage) updateNamed(names []string, fn func(recs map[string]*UsageRecord) error) error {
	return u.withLock(func() error {
		raw, err := u.readRaw(true)
		if err != nil {
			return err
		}
		recs := make(map[string]*UsageRecord, len(names))
		for _, name := range names {
			v, ok := raw[name]
			if !ok {
				continue
			}
			var r UsageRecord
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
// as it is under its key, keys sorted, as [Usage.Update] writes them.
// encoding/json would compact and indent every record again: most of a
// counted use's time on a big library.
func (u *Usage) writeRaw(raw map[string]json.RawMessage) error {
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
func (u *Usage) writeBytes(recs map[string]*UsageRecord) error {
	b, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	return u.writeFile(b)
}

// writeFile replaces the sidecar with b and a newline. It is not
// fsynced: this is telemetry (the reference does not sync it either), and
// a power loss may cost the last bump, never the file.
func (u *Usage) writeFile(b []byte) error {
	return statefile.WriteFile(u.path, append(b, '\n'), 0o600, false)
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
	if err := u.updateNamed([]string{name}, bump); err != nil {
		return nil, err
	}
	return &after, nil
}

// UseKind is what an agent did with a skill, for Library.recordUse.
type UseKind string

// Use kinds.
const (
	// UseView: the agent loaded the skill (its SKILL.md): a view and a
	// use, as the reference's skill_view counts it.
	UseView UseKind = "view"
	// UseUse: the agent invoked the skill (a typed /name, a preloaded
	// skill): a use.
	UseUse UseKind = "use"
)

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
func (u *Usage) BumpOnce(name string, view bool, key string) (counted bool, err error) {
	err = u.updateNamed([]string{name}, func(recs map[string]*UsageRecord) error {
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

// recordUse counts an agent's use of a skill in the usage sidecar, once
// per dedupeKey (the agent's tool_use_id: a hook event delivered twice
// counts once; an empty key always counts). name is the skill's name or
// folder on the checked-out branch; the record is keyed by its frontmatter
// name, as the reference keys it. kind is [UseView] (loaded: a view and a
// use) or [UseUse] (invoked: a use). counted is false when the key was
// already counted. The check and the bump are one atomic write under the
// sidecar's lock (.usage.json.lock), so concurrent hooks neither lose nor
// double a use.
//
// Errors: ErrNotFound for an unknown or archived skill; ErrInvalid for an
// unknown kind; the sidecar's I/O errors.
func (l *Library) recordUse(name string, kind UseKind, dedupeKey string) (counted bool, err error) {
	if kind != UseView && kind != UseUse {
		return false, fmt.Errorf("use kind %q: want %q or %q: %w", kind, UseView, UseUse, skill.ErrInvalid)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		return false, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return false, err
	}
	if si.Archived {
		return false, fmt.Errorf("skill %s is archived: %w", si.Name, ErrNotFound)
	}
	return l.Usage().BumpOnce(snap.UsageKey(si), kind == UseView, dedupeKey)
}

// CountUse counts a view (kind [UseView]: also a use) or a use of a skill
// on main's tip, archived ones included, under the key the reference
// counts it by (its frontmatter name: [Snapshot.UsageKey]), and returns
// the skill's record afterwards with every alias merged — what Hermes and
// skillrepo both read as the skill's usage. With dryRun the sidecar is
// read, not written. It is the person's or tool's count; an agent's hook
// uses Library.recordUse, which counts a tool call once.
//
// Errors: ErrNotFound for an unknown skill; ErrInvalid for an unknown
// kind; the sidecar's I/O errors.
func (l *Library) CountUse(name string, kind UseKind, dryRun bool) (*UsageRecord, error) {
	if kind != UseView && kind != UseUse {
		return nil, fmt.Errorf("use kind %q: want %q or %q: %w", kind, UseView, UseUse, skill.ErrInvalid)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		return nil, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return nil, err
	}
	key := snap.UsageKey(si)
	after, err := l.Usage().Bump(key, kind == UseView, dryRun)
	if err != nil {
		return nil, err
	}
	if !dryRun {
		_ = l.UsageHistory().Append(HistoryEvent{Kind: historyKindOf(kind, false), Skill: si.Name})
	}
	recs, keys, err := l.UsageOf(snap)
	if err != nil {
		return nil, err
	}
	if dryRun {
		raw, err := l.Usage().Load()
		if err != nil {
			return nil, err
		}
		raw[key] = after
		recs = keys.Resolve(raw)
	}
	if r := recs[si.Name]; r != nil {
		return r, nil
	}
	return after, nil
}

// BumpPatch counts a write to the skill.
func (u *Usage) BumpPatch(names ...string) error {
	return u.updateNamed(names, func(recs map[string]*UsageRecord) error {
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
	return u.updateNamed([]string{name}, func(recs map[string]*UsageRecord) error {
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
	return u.updateNamed([]string{name}, func(recs map[string]*UsageRecord) error {
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
	return u.updateNamed([]string{name}, func(recs map[string]*UsageRecord) error {
		delete(recs, name)
		return nil
	})
}

// usageEvent is what one landed write means for the sidecar.
type usageEvent struct {
	Name   string `json:"name"`   // the key the record is written under
	Action string `json:"action"` // created, patched, archived, restored, forgotten, pinned, unpinned
	Agent  bool   `json:"agent,omitempty"`
	// Aliases are the skill's other keys: a forget drops them too, and a
	// state or pin is set on them too, so no half of a split record
	// contradicts the write.
	Aliases []string `json:"aliases,omitempty"`
}

// Sidecar actions of a usageEvent.
const (
	usageCreated   = "created"
	usagePatched   = "patched"
	usageArchived  = "archived"
	usageRestored  = "restored"
	usageForgotten = "forgotten"
	usagePinned    = "pinned"
	usageUnpinned  = "unpinned"
)

// apply records events in one locked read-modify-write, as the
// reference's record_created, bump_patch, set_state, set_pinned and forget
// do (docs/reference-behaviour.md §4.8, §5.4).
func (u *Usage) apply(events []usageEvent) error {
	if len(events) == 0 {
		return nil
	}
	var names []string
	for _, e := range events {
		names = append(append(names, e.Name), e.Aliases...)
	}
	return u.updateNamed(names, func(recs map[string]*UsageRecord) error {
		now := u.now()
		for _, e := range events {
			switch e.Action {
			case usageCreated:
				r := newUsageRecord(now)
				if e.Agent {
					a := "agent"
					r.CreatedBy = &a
				}
				if old, ok := recs[e.Name]; ok {
					r.Pinned = old.Pinned // a pin is git's, not the record's, to reset
				}
				recs[e.Name] = r
			case usagePatched:
				r := u.record(recs, e.Name)
				r.PatchCount++
				r.PatchGeneration++
				r.LastPatchedAt = FormatUsageTime(now)
			case usageArchived:
				for _, r := range u.aliasRecords(recs, e) {
					r.State, r.ArchivedAt = StateArchived, FormatUsageTime(now)
				}
			case usageRestored:
				for _, r := range u.aliasRecords(recs, e) {
					r.State, r.ArchivedAt = StateActive, nil
				}
			case usageForgotten:
				delete(recs, e.Name)
				for _, a := range e.Aliases {
					delete(recs, a)
				}
			case usagePinned, usageUnpinned:
				for _, r := range u.aliasRecords(recs, e) {
					r.Pinned = e.Action == usagePinned
				}
			}
		}
		return nil
	})
}

// aliasRecords are the records of e's skill: under its key (made when
// missing) and each alias present.
func (u *Usage) aliasRecords(recs map[string]*UsageRecord, e usageEvent) []*UsageRecord {
	out := []*UsageRecord{u.record(recs, e.Name)}
	for _, a := range e.Aliases {
		if r, ok := recs[a]; ok && a != e.Name {
			out = append(out, r)
		}
	}
	return out
}

// opsUsage is what a batch of operations means for the sidecar: a create
// resets the record (created_by "agent" for an autonomous origin, as only
// the reference's review and curator forks mark it); an autonomous delete
// is an archive; a person's delete forgets the record; anything else is a
// patch.
func opsUsage(ops []Op, prov Provenance) []usageEvent {
	var events []usageEvent
	patched := map[string]bool{}
	for _, op := range ops {
		switch op.Action {
		case ActionCreate:
			events = append(events, usageEvent{Name: op.Name, Action: usageCreated, Agent: prov.Autonomous()})
		case ActionDelete:
			if prov.Autonomous() {
				events = append(events, usageEvent{Name: op.Name, Action: usageArchived})
			} else {
				events = append(events, usageEvent{Name: op.Name, Action: usageForgotten})
			}
		default:
			// One patch per skill per batch: the batch is one write.
			if !patched[op.Name] {
				patched[op.Name] = true
				events = append(events, usageEvent{Name: op.Name, Action: usagePatched})
			}
		}
	}
	return events
}

// recordUsage updates the sidecar after a write landed. On the checked-out
// branch the events are recorded at once; on a proposal branch they wait
// in .git/skillrepo/usage/pending/<id>.json until the proposal is approved
// (then they are recorded) or rejected (then dropped), so a staged
// review's create is marked created_by "agent" when it reaches main and a
// rejected one leaves no trace. Telemetry is best effort, as in the
// reference: a failure here never fails the write that already committed.
func (l *Library) recordUsage(res *UpdateResult, events []usageEvent) {
	if res == nil || res.DryRun || len(res.Commits) == 0 || len(events) == 0 {
		return
	}
	events = l.keyEvents(res, events)
	if res.CheckedOut {
		_ = l.Usage().apply(events)
		return
	}
	if id, ok := strings.CutPrefix(res.Branch, ProposalBranchPrefix); ok && ValidateProposalID(id) == nil {
		_ = l.addPendingUsage(id, events)
	}
}

// keyEvents names each event's record by the key the reference reads (the
// skill's frontmatter name: usagekeys.go) and lists its aliases: events
// come named as the write was asked for (a folder, category/name, a
// frontmatter name). The skill is looked up after the write, or before it
// for one the write removed.
func (l *Library) keyEvents(res *UpdateResult, events []usageEvent) []usageEvent {
	var snaps []*Snapshot
	for _, h := range []Hash{res.New, res.Old} {
		if !h.IsZero() {
			if s, err := l.Snapshot(h.String()); err == nil {
				snaps = append(snaps, s)
			}
		}
	}
	recs, loadErr := l.Usage().Load()
	out := make([]usageEvent, len(events))
	for i, e := range events {
		out[i] = e
		for _, s := range snaps {
			si, err := s.FindSkill(e.Name)
			if err != nil {
				continue
			}
			key, aliases, err := s.usageKeyOf(si, recs)
			if err != nil {
				break
			}
			out[i].Name = key
			if loadErr == nil {
				for _, a := range aliases {
					if a != key {
						out[i].Aliases = append(out[i].Aliases, a)
					}
				}
			}
			break
		}
	}
	return out
}

func (l *Library) pendingUsagePath(id string) string {
	return filepath.Join(l.State().dir, "usage", "pending", id+".json")
}

// addPendingUsage appends events to a proposal's pending file, under the
// sidecar's lock (the file is written whole and renamed into place).
func (l *Library) addPendingUsage(id string, events []usageEvent) error {
	u := l.Usage()
	return u.withLock(func() error {
		old, err := readPendingUsage(l.pendingUsagePath(id))
		if err != nil {
			return err
		}
		return statefile.File[[]usageEvent]{Path: l.pendingUsagePath(id), Perm: 0o644}.Write(append(old, events...))
	})
}

// readPendingUsage reads a pending file; a torn or foreign one is set
// aside: telemetry, not worth failing for.
func readPendingUsage(path string) ([]usageEvent, error) {
	events, err := statefile.File[[]usageEvent]{Path: path, Limit: maxUsageFile}.Load()
	var ce *statefile.CorruptError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &ce) {
		return nil, nil
	}
	return events, err
}

// settlePendingUsage records (approved) or drops a proposal's pending
// events.
func (l *Library) settlePendingUsage(id string, approved bool) {
	path := l.pendingUsagePath(id)
	if approved {
		if events, err := readPendingUsage(path); err == nil && len(events) > 0 {
			if l.Usage().apply(events) != nil {
				return // keep them for the next try
			}
			l.appendWrites(events, Provenance{ReviewID: id})
		}
	}
	_ = os.Remove(path)
}

// maxUsageFile bounds the usage sidecar and its pending events (10,000
// skills' records are a few MB).
const maxUsageFile = 256 << 20
