package skillrepo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
)

// Settings that arrive from a remote (docs/config.md, "Settings from a
// remote"): .skillrepo/config.yaml is shared, so whoever can push to the
// remote can change it — and some of its keys decide where a review's
// transcript and the person's API key are sent, or what an agent may do
// without a person. A remote change to one of those keys is held: this
// clone goes on with the values it had (its confirmed values, recorded
// in the clone's state when the change came in) until the person
// accepts the change (`skillrepo config accept`); status and SessionStart
// say a change is held. The person's own edits of the file are never
// held: only a pull or remote sync records the confirmed values.

// SecurityKeys are the config keys a remote change to is held.
var SecurityKeys = []string{
	"review.base_url", "review.model", "review.backend", "review.write_approval",
	"curator.base_url", "curator.model", "curator.write_approval",
	"goals.base_url", "goals.model",
	"memory.dir", "protected",
	"remote.name", "remote.main", "remote.proposals", "remote.pull_request",
}

// HeldSetting is a key whose remote change waits for the person.
type HeldSetting struct {
	Key string `json:"key"`
	// Confirmed is the value in use (JSON); Incoming the file's.
	Confirmed string `json:"confirmed"`
	Incoming  string `json:"incoming"`
}

// heldRecord is the clone's record of its confirmed values.
type heldRecord struct {
	Version   int               `json:"version"`
	Confirmed map[string]string `json:"confirmed"`
	// From says which remote commit brought the change.
	From string    `json:"from"`
	At   time.Time `json:"at"`
}

func (l *Library) heldPath() string { return filepath.Join(l.repo.StateDir(), "config-confirmed.json") }

func (l *Library) heldFile() statefile.File[heldRecord] {
	return statefile.File[heldRecord]{Path: l.heldPath(), Limit: 1 << 20, Version: 1, Perm: 0o644, Sync: true}
}

func (l *Library) readHeld() (*heldRecord, error) {
	r, err := l.heldFile().Read()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return &r, err
}

// configValue finds a key's field in cfg by its yaml path.
func configValue(cfg *Config, key string) (reflect.Value, bool) {
	v := reflect.ValueOf(cfg).Elem()
	for part := range strings.SplitSeq(key, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		found := false
		for i := 0; i < v.NumField(); i++ {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
			if name == part {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return reflect.Value{}, false
		}
	}
	return v, true
}

// securityValues are cfg's values of SecurityKeys, as JSON.
func securityValues(cfg Config) map[string]string {
	out := map[string]string{}
	for _, k := range SecurityKeys {
		if v, ok := configValue(&cfg, k); ok {
			b, _ := json.Marshal(v.Interface())
			out[k] = string(b)
		}
	}
	return out
}

// applyHeld puts the confirmed values of held keys into l.Config and
// lists them in l.held.
func (l *Library) applyHeld() error {
	r, err := l.readHeld()
	if err != nil || r == nil {
		return err
	}
	now := securityValues(l.Config)
	for _, k := range SecurityKeys {
		confirmed, ok := r.Confirmed[k]
		if !ok || confirmed == now[k] {
			continue
		}
		v, ok := configValue(&l.Config, k)
		if !ok {
			continue
		}
		ptr := reflect.New(v.Type())
		if err := json.Unmarshal([]byte(confirmed), ptr.Interface()); err != nil {
			return fmt.Errorf("%s: %s: %w", l.heldPath(), k, err)
		}
		v.Set(ptr.Elem())
		l.held = append(l.held, HeldSetting{Key: k, Confirmed: confirmed, Incoming: now[k]})
	}
	return nil
}

// HeldSettings are the settings whose remote change waits for the
// person's `skillrepo config accept`; the library uses their confirmed
// values meanwhile.
func (l *Library) HeldSettings() []HeldSetting { return slices.Clone(l.held) }

// heldFrom says which remote commit brought the held change ("" none).
func (l *Library) heldFrom() string {
	if r, err := l.readHeld(); err == nil && r != nil && len(l.held) > 0 {
		return r.From
	}
	return ""
}

// AcceptSettings confirms the config file's values: the held changes
// take effect from the next command.
func (l *Library) AcceptSettings() ([]HeldSetting, error) {
	held := l.HeldSettings()
	if err := os.Remove(l.heldPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return held, nil
}

// holdIncomingSettings is called before a remote's commit becomes main:
// when its config changes a security key (or is broken), this clone's
// values in use are recorded as confirmed — unless a record is there
// already, which keeps the older confirmed values.
func (l *Library) holdIncomingSettings(incoming []byte, from string) error {
	if len(l.held) > 0 {
		return nil // a change is held already: its confirmed values stay
	}
	mine := securityValues(l.Config)
	theirs, err := ParseConfig(incoming, l.Root)
	if err == nil && maps.Equal(mine, securityValues(theirs)) {
		// Nothing to hold; a record left by a sync whose update did not
		// land holds nothing either.
		if err := os.Remove(l.heldPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return l.heldFile().Write(heldRecord{Version: 1, Confirmed: mine, From: from, At: l.now().UTC()})
}

// holdIncoming reads the config a remote's commit to brings and holds
// its security changes (holdIncomingSettings).
func (tx *writeTx) holdIncoming(to Hash, from string) error {
	store := tx.gtx.Store()
	tree, _, err := store.CommitInfo(to)
	if err != nil {
		return err
	}
	var data []byte
	if h, _ := store.LookupPath(tree, ConfigPath); !h.IsZero() {
		if data, err = store.Blob(h); err != nil {
			return err
		}
	}
	return tx.l.holdIncomingSettings(data, from+" at "+to.String())
}
