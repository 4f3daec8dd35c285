package agentsession

import (
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
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

func seen(stateDir string) statefile.File[seenState] {
	// A broken file starts over: it only says whether to mention news.
	return statefile.File[seenState]{Path: filepath.Join(stateDir, filepath.FromSlash(seenFile)), Limit: maxStateFile, Perm: 0o644, Sync: true, Reset: true}
}

// seeTip records that session saw tip and reports whether the skills
// changed since the session last saw them (or, for a new session, since
// the last session did). At most 200 sessions are remembered.
func seeTip(stateDir, session, tip string, now time.Time) (changed bool, err error) {
	_, err = seen(stateDir).Update(func(st *seenState) error {
		if st.Sessions == nil {
			st.Sessions = map[string]seenEntry{}
		}
		prev := st.Last
		if e, ok := st.Sessions[session]; ok && session != "" {
			prev = e.Tip
		}
		changed = prev != "" && prev != tip
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
		return nil
	})
	return changed, err
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
	st, err := seen(stateDir).Read()
	_, ok := st.Sessions[session]
	return err == nil && ok
}

// LastSessionStart is when the newest session this library saw started
// (its SessionStart hook ran), from the hooks' state folder stateDir;
// zero when none did.
func LastSessionStart(stateDir string) time.Time {
	st, _ := seen(stateDir).Read()
	var last time.Time
	for _, e := range st.Sessions {
		if e.At.After(last) {
			last = e.At
		}
	}
	return last
}
