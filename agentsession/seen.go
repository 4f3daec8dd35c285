package agentsession

import (
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// seenFile remembers the main branch tip each session (and the last
// session) saw, to tell a session start that skills changed.
const seenFile = "hooks/seen.json"

type seenState struct {
	Version  int                  `json:"version"`
	Last     string               `json:"last"`
	Sessions map[string]seenEntry `json:"sessions"`
}

type seenEntry struct {
	Tip string    `json:"tip"`
	At  time.Time `json:"at"`
}

var seenMu sync.Mutex

// seeTip records that session saw tip and reports whether the skills
// changed since the session last saw them (or, for a new session, since
// the last session did). At most 200 sessions are remembered.
func seeTip(stateDir, session, tip string, now time.Time) (bool, error) {
	seenMu.Lock()
	defer seenMu.Unlock()
	p := filepath.Join(stateDir, filepath.FromSlash(seenFile))
	var st seenState
	if data, err := boundedread.ReadFile(p, maxStateFile); err == nil {
		_ = json.Unmarshal(data, &st) // a broken file starts over
	}
	if st.Sessions == nil {
		st.Sessions = map[string]seenEntry{}
	}
	prev := st.Last
	if e, ok := st.Sessions[session]; ok && session != "" {
		prev = e.Tip
	}
	changed := prev != "" && prev != tip
	if session != "" {
		st.Sessions[session] = seenEntry{Tip: tip, At: now}
	}
	st.Last, st.Version = tip, 1
	for len(st.Sessions) > 200 {
		oldest := ""
		for id, e := range st.Sessions {
			if oldest == "" || e.At.Before(st.Sessions[oldest].At) {
				oldest = id
			}
		}
		delete(st.Sessions, oldest)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return changed, err
	}
	return changed, writeState(p, data)
}

// maxStateFile bounds the hooks' state files, read as regular files only:
// a FIFO would hang the hook, a link to /dev/zero fill the memory.
const maxStateFile = 4 << 20

// sessionSeen reports whether a session started before (its start was
// recorded by seeTip).
func sessionSeen(stateDir, session string) bool {
	if session == "" {
		return false
	}
	seenMu.Lock()
	defer seenMu.Unlock()
	var st seenState
	data, err := boundedread.ReadFile(filepath.Join(stateDir, filepath.FromSlash(seenFile)), maxStateFile)
	if err != nil || json.Unmarshal(data, &st) != nil {
		return false
	}
	_, ok := st.Sessions[session]
	return ok
}

// LastSessionStart is when the newest session this library saw started
// (its SessionStart hook ran), from the hooks' state folder stateDir;
// zero when none did.
func LastSessionStart(stateDir string) time.Time {
	seenMu.Lock()
	defer seenMu.Unlock()
	var st seenState
	data, err := boundedread.ReadFile(filepath.Join(stateDir, filepath.FromSlash(seenFile)), maxStateFile)
	if err != nil || json.Unmarshal(data, &st) != nil {
		return time.Time{}
	}
	var last time.Time
	for _, e := range st.Sessions {
		if e.At.After(last) {
			last = e.At
		}
	}
	return last
}
