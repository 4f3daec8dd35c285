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
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// The domain reads its settings through package config (the schema, the
// defaults and the parse) and keeps what needs the library: a broken
// config (docs/config.md, "A broken config") opens the library anyway,
// with every key that is right and the default for each one that is not,
// and warns (OpenOptions.Warn) with each problem's line, so reads go on;
// every write refuses with the same problems ([Library.ConfigProblem])
// until the file is fixed, so nothing is ever written under a setting the
// user did not mean.

// Rules are the write rules of the library's runtime (its config's
// runtime, else the one its path suggests).
func (l *Library) Rules() skill.Rules { return skill.RulesFor(l.Config.Runtime) }

// warnConfig reports each problem of a config that a library opened with
// anyway.
func warnConfig(e *config.Error, warn func(string)) {
	if warn == nil {
		warn = func(msg string) { fmt.Fprintln(os.Stderr, "warning: "+msg) }
	}
	for _, line := range strings.Split(e.Error(), "\n") {
		warn(line + " (the default is used; writes are refused until this is fixed)")
	}
}

// ConfigProblem is the *config.Error of the library's config, or nil when
// the file has no problem.
func (l *Library) ConfigProblem() error { return l.configErr }

// writable refuses a write while the config has problems: it would be
// made under a setting the user did not mean.
func (l *Library) writable() error {
	if l.configErr == nil {
		return nil
	}
	return fmt.Errorf("nothing was written: the library's config has problems:\n%w", l.configErr)
}

// Settings that arrive from a remote (docs/config.md, "Settings from a
// remote"): .skillrepo/config.yaml is shared, so whoever can push to the
// remote can change it — and some of its keys decide where a review's
// transcript and the person's API key are sent, or what an agent may do
// without a person. A remote change to one of those keys
// (config.SecurityKeys) is held: this
// clone goes on with the values it had (its confirmed values, recorded
// in the clone's state when the change came in) until the person
// accepts the change (`skillrepo config accept`); status and SessionStart
// say a change is held. The person's own edits of the file are never
// held: only a pull or remote sync records the confirmed values.

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

// applyHeld puts the confirmed values of held keys into l.Config and
// lists them in l.held.
func (l *Library) applyHeld() error {
	r, err := l.readHeld()
	if err != nil || r == nil {
		return err
	}
	now := l.Config.SecurityValues()
	for _, k := range config.SecurityKeys {
		confirmed, ok := r.Confirmed[k]
		if !ok || confirmed == now[k] {
			continue
		}
		v, ok := l.Config.Field(k)
		if !ok {
			continue
		}
		ptr := reflect.New(v.Type())
		if err := json.Unmarshal([]byte(confirmed), ptr.Interface()); err != nil {
			return fmt.Errorf("%s: %s: %w", l.heldPath(), k, err)
		}
		v.Set(ptr.Elem())
		l.held = append(l.held, config.Held{Key: k, Confirmed: confirmed, Incoming: now[k]})
	}
	return nil
}

// HeldSettings are the settings whose remote change waits for the
// person's `skillrepo config accept`; the library uses their confirmed
// values meanwhile.
func (l *Library) HeldSettings() []config.Held { return slices.Clone(l.held) }

// AcceptSettings confirms the config file's values: the held changes
// take effect from the next command.
func (l *Library) AcceptSettings() ([]config.Held, error) {
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
	mine := l.Config.SecurityValues()
	theirs, err := config.Parse(incoming, l.Root)
	if err == nil && maps.Equal(mine, theirs.SecurityValues()) {
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
	if h, _ := store.LookupPath(tree, config.Path); !h.IsZero() {
		if data, err = store.Blob(h); err != nil {
			return err
		}
	}
	return tx.l.holdIncomingSettings(data, from+" at "+to.String())
}
