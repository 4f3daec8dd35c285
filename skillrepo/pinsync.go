package skillrepo

// One pin truth for two tools. skillrepo keeps pins in the tracked file
// .skillrepo/pins (they travel with the library); Hermes keeps them in the
// usage sidecar's "pinned" field (`hermes curator pin`), per clone.
// skillrepo mirrors its pins into the sidecar; this file reads Hermes'
// pins back. Both sides are compared with what they last agreed on
// (recorded per clone): a pin or unpin made in Hermes since then changes
// the effective pins — so `skillrepo skill delete` refuses a skill pinned
// in Hermes, and an unpin in Hermes is not undone by the file — and the
// next sync records it in the file as a commit. A change made on both
// sides since the agreement goes the file's way: it is history.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// pinsAgreed is what the pins file and the usage sidecar last agreed on.
type pinsAgreed struct {
	// File is the pins file's list at the agreement.
	File []string `json:"file"`
	// Usage are the sidecar's keys whose record said pinned.
	Usage []string `json:"usage"`
}

func (l *Library) pinsAgreedPath() string {
	return filepath.Join(l.repo.StateDir(), "pins-agreed.json")
}

func (l *Library) pinsAgreedFile() statefile.File[pinsAgreed] {
	return statefile.File[pinsAgreed]{Path: l.pinsAgreedPath(), Limit: maxStateFile, Perm: 0o644}
}

func (l *Library) readPinsAgreed() (*pinsAgreed, bool) {
	a, err := l.pinsAgreedFile().Read()
	return &a, err == nil
}

// recordPinsAgreed notes that the pins file says file and the sidecar
// agrees (best effort: without it the file is taken as agreed).
func (l *Library) recordPinsAgreed(file []string) {
	if recs, err := l.Usage().Load(); err == nil {
		_ = l.pinsAgreedFile().Write(pinsAgreed{File: append([]string{}, file...), Usage: usagePinnedKeys(recs)})
	}
}

func usagePinnedKeys(recs map[string]*usage.Record) []string {
	out := []string{}
	for k, r := range recs {
		if r.Pinned {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// effectivePins returns the pins of a pins file as both tools see them:
// file, changed by every pin or unpin Hermes made in the sidecar since the
// last agreement. snap names the skills usage keys belong to (nil: keys
// are taken as skill names). The second result says whether it differs
// from file.
func (l *Library) effectivePins(file []string, snap *Snapshot) ([]string, bool) {
	recs, err := l.Usage().Load()
	if err != nil {
		return file, false
	}
	now := usagePinnedKeys(recs)
	agreed, ok := l.readPinsAgreed()
	if !ok {
		// No agreement recorded (a library from before this, or a new
		// clone): the file is taken as what the sidecar agreed to.
		agreed = &pinsAgreed{File: file, Usage: nil}
		if slices.Equal(now, file) {
			return file, false
		}
	} else if slices.Equal(now, agreed.Usage) {
		return file, false // Hermes changed nothing
	}
	names := func(keys []string) map[string]bool {
		return namesOf(keys, snap)
	}
	usageNow := names(now)
	var usageThen map[string]bool
	if ok {
		usageThen = names(agreed.Usage)
	} else {
		usageThen = names(agreed.File)
	}
	fileNow, fileThen := setOfNames(file), setOfNames(agreed.File)
	eff := setOfNames(file)
	for n := range union(usageNow, usageThen) {
		if usageNow[n] != usageThen[n] && fileNow[n] == fileThen[n] {
			eff[n] = usageNow[n]
		}
	}
	out := []string{}
	for n, pinned := range eff {
		if pinned {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, !slices.Equal(out, file)
}

// namesOf maps usage keys to skill names through snap's usage keys.
func namesOf(keys []string, snap *Snapshot) map[string]bool {
	out := map[string]bool{}
	var uk *usage.Keys
	if snap != nil && len(keys) > 0 {
		if skills, err := snap.Skills(); err == nil {
			uk, _ = snap.UsageKeys(skills)
		}
	}
	for _, k := range keys {
		if uk != nil {
			if n, ok := uk.Skill(k); ok {
				out[n] = true
				continue
			}
		}
		out[k] = true
	}
	return out
}

func setOfNames(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func union(a, b map[string]bool) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// PinsReconciled says what Library.reconcilePins recorded.
type PinsReconciled struct {
	Commit   Hash
	Pinned   []string // pins Hermes made, now in the file
	Unpinned []string // unpins Hermes made, now out of it
}

// reconcilePins records in .skillrepo/pins, as one commit, the pins and
// unpins made in Hermes (the usage sidecar) since the two last agreed,
// and mirrors the file's pins into the sidecar. Nothing to record: a zero
// Commit. Sync runs it, so the agent hooks do.
func (l *Library) reconcilePins(ctx context.Context, dryRun bool) (*PinsReconciled, error) {
	out := &PinsReconciled{}
	var final []string
	res, err := l.update(ctx, updateOptions{DryRun: dryRun}, func(tx *writeTx) error {
		data, err := tx.gtx.ReadFile(PinsFile)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		file := parsePins(data)
		eff, changed := tx.effectivePins()
		final = eff
		if !changed {
			return nil
		}
		for _, n := range eff {
			if !slices.Contains(file, n) {
				out.Pinned = append(out.Pinned, n)
			}
		}
		for _, n := range file {
			if !slices.Contains(eff, n) {
				out.Unpinned = append(out.Unpinned, n)
			}
		}
		if err := tx.gtx.WriteFile(PinsFile, formatPins(eff), false); err != nil {
			return err
		}
		var parts []string
		if len(out.Pinned) > 0 {
			parts = append(parts, "pin "+strings.Join(out.Pinned, ", "))
		}
		if len(out.Unpinned) > 0 {
			parts = append(parts, "unpin "+strings.Join(out.Unpinned, ", "))
		}
		m := Message{Subject: "skill: " + strings.Join(parts, "; ") + " (as pinned in Hermes)"}
		m.Body = "Pinned or unpinned with `hermes curator pin|unpin`, which keeps pins in the usage sidecar; recorded so both tools keep one list."
		action := ActionPin
		if len(out.Pinned) == 0 {
			action = ActionUnpin
		}
		m.Add(TrailerAction, action)
		for _, n := range append(append([]string{}, out.Pinned...), out.Unpinned...) {
			m.Add(TrailerName, n)
		}
		Provenance{Origin: OriginUser, Agent: string(agent.Hermes)}.addTrailers(&m)
		_, err = tx.Commit(m)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("record Hermes' pins: %w", err)
	}
	out.Commit = lastCommit(res)
	if !dryRun && final != nil {
		l.mirrorPins(final)
	}
	return out, nil
}

// mirrorPins makes the sidecar's pinned fields say pins (under each
// skill's usage keys) and records the agreement.
func (l *Library) mirrorPins(pins []string) {
	snap, err := l.Snapshot("")
	if err != nil {
		return
	}
	skills, err := snap.Skills()
	if err != nil {
		return
	}
	keys, err := snap.UsageKeys(skills)
	if err != nil {
		return
	}
	pinned := setOfNames(pins)
	_ = l.Usage().Update(func(recs map[string]*usage.Record) error {
		for key, r := range recs {
			name, ok := keys.Skill(key)
			if !ok {
				name = key
			}
			r.Pinned = pinned[name]
		}
		for _, n := range pins {
			if len(keys.Aliases(recs, n)) == 0 {
				r := usage.NewRecord(l.now())
				r.Pinned = true
				recs[keys.Key(n)] = r
			}
		}
		return nil
	})
	l.recordPinsAgreed(pins)
}

// effectivePins is [Library.effectivePins] for the pins file as the
// transaction has it, with the skills of its base.
func (tx *writeTx) effectivePins() ([]string, bool) {
	data, _ := tx.gtx.ReadFile(PinsFile)
	var snap *Snapshot
	if base := tx.gtx.Base(); !base.IsZero() {
		snap, _ = tx.l.Snapshot(base.String())
	}
	return tx.l.effectivePins(parsePins(data), snap)
}
