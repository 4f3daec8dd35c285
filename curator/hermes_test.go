package curator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/hermeshome"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// hermesLibrary imports the skills folder of a Hermes home (internal/
// hermeshome) after edit has changed its usage records.
func hermesLibrary(t *testing.T, edit func(recs map[string]map[string]any)) (*skillrepo.Library, string) {
	t.Helper()
	home := hermeshome.Copy(t)
	env := testlib.Env(t.TempDir())
	env["HOME"] = filepath.Dir(home)
	if edit != nil {
		p := filepath.Join(home, "skills", ".usage.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var recs map[string]map[string]any
		if err := json.Unmarshal(b, &recs); err != nil {
			t.Fatal(err)
		}
		edit(recs)
		b, _ = json.MarshalIndent(recs, "", "  ")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return hermeshome.Now }}
	dir := filepath.Join(home, "skills")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return lib, home
}

// TestHermesSplitRecordIsNotIdle: a curator-managed skill whose record is
// split — the review created git-bisect through skill_manage (keyed by
// the folder), Hermes counted its uses under the frontmatter name
// git-bisect-regressions — is as recently used as its newest half, so no
// run archives it. Read under the folder alone, its anchor would be its
// creation 121 days ago.
func TestHermesSplitRecordIsNotIdle(t *testing.T) {
	lib, _ := hermesLibrary(t, func(recs map[string]map[string]any) {
		recs["git-bisect"]["created_by"] = "agent"
		recs["git-bisect"]["created_at"] = "2026-08-01T09:00:00.000000+00:00"
		recs["git-bisect"]["last_patched_at"] = nil
		recs["git-bisect"]["patch_count"] = 0
	})
	c := &Curator{Lib: lib, Now: func() time.Time { return hermeshome.Now }}
	out, err := c.Preview(context.Background(), RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range out.Run.Transitions {
		if ch.Name == "git-bisect" {
			t.Errorf("the curator would %s git-bisect (anchor %s): its uses under git-bisect-regressions were not read", ch.Action, ch.Anchor)
		}
	}
	// The same run without the frontmatter-name half: git-bisect is idle
	// and curator-managed, so it goes (the test above is not vacuous).
	lib2, _ := hermesLibrary(t, func(recs map[string]map[string]any) {
		recs["git-bisect"]["created_by"] = "agent"
		recs["git-bisect"]["created_at"] = "2026-08-01T09:00:00.000000+00:00"
		recs["git-bisect"]["last_patched_at"] = nil
		recs["git-bisect"]["patch_count"] = 0
		delete(recs, "git-bisect-regressions")
	})
	c2 := &Curator{Lib: lib2, Now: func() time.Time { return hermeshome.Now }}
	out2, err := c2.Preview(context.Background(), RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	archived := false
	for _, ch := range out2.Run.Transitions {
		archived = archived || (ch.Name == "git-bisect" && ch.Action == ActionArchive)
	}
	if !archived {
		t.Errorf("without its uses git-bisect is not archived: %+v", out2.Run.Transitions)
	}
}
