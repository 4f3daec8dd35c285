// Command genusage writes a Hermes-schema .usage.json for a library made by
// genrepo, so a curator run has work to do: every skill agent-created, and
// chosen counts of them idle long enough to be archived, idle long enough
// to go stale, or stale but viewed yesterday (reactivated); the rest were
// used an hour ago.
//
//	go run ./bench/genusage -lib /tmp/lib -now 2026-12-01T12:00:00Z -archive 500 -stale 400 -reactivate 100
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

type record struct {
	CreatedBy    string `json:"created_by"`
	UseCount     int    `json:"use_count"`
	ViewCount    int    `json:"view_count"`
	LastUsedAt   string `json:"last_used_at"`
	LastViewedAt string `json:"last_viewed_at,omitempty"`
	CreatedAt    string `json:"created_at"`
	State        string `json:"state"`
	Pinned       bool   `json:"pinned"`
}

func main() {
	lib := flag.String("lib", "", "library folder (genrepo output)")
	skills := flag.Int("skills", 10000, "number of skills (skill-00000 …)")
	nowFlag := flag.String("now", "2026-12-01T12:00:00Z", "the curator's --now")
	archive := flag.Int("archive", 500, "skills idle 40 days (archived)")
	stale := flag.Int("stale", 400, "skills idle 20 days (marked stale)")
	reactivate := flag.Int("reactivate", 100, "stale skills viewed yesterday (reactivated)")
	flag.Parse()
	now, err := time.Parse(time.RFC3339, *nowFlag)
	if *lib == "" || err != nil || *archive+*stale+*reactivate > *skills {
		flag.Usage()
		os.Exit(2)
	}
	iso := func(d time.Duration) string { return now.Add(-d).UTC().Format("2006-01-02T15:04:05.000000") + "+00:00" }
	day := 24 * time.Hour
	recs := make(map[string]record, *skills)
	// Spread each group over the library (every k-th skill) so the moves
	// touch many categories, as real idle skills would.
	for i := 0; i < *skills; i++ {
		r := record{CreatedBy: "agent", UseCount: 3, ViewCount: 2, LastUsedAt: iso(time.Hour), CreatedAt: iso(400 * day), State: "active"}
		switch k := i % 10; {
		case k == 0 && i/10 < *archive:
			r.LastUsedAt = iso(40 * day)
		case k == 1 && i/10 < *stale:
			r.LastUsedAt = iso(20 * day)
		case k == 2 && i/10 < *reactivate:
			r.LastUsedAt, r.LastViewedAt, r.State = iso(25*day), iso(day), "stale"
		}
		recs[fmt.Sprintf("skill-%05d", i)] = r
	}
	b, err := json.MarshalIndent(recs, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(*lib, ".usage.json"), append(b, '\n'), 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genusage:", err)
		os.Exit(1)
	}
}
