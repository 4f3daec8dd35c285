package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// A write keys its usage event through usageKeyOf, which reads only the
// written skill when nothing else can change its key: for every skill of
// a Hermes library (categories, an archived skill, a folder whose
// frontmatter name differs, a folder name used twice) and usage records
// under every kind of alias, it must give what UsageKeys over the whole
// library gives.
func TestUsageKeyOfMatchesUsageKeys(t *testing.T) {
	_, l, _, _ := initHermesSkills(t)
	ctx := context.Background()
	snap, err := l.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	skills, err := snap.Skills()
	if err != nil {
		t.Fatal(err)
	}
	// A folder name used twice: an active skill named as an archived one.
	var twice string
	for _, si := range skills {
		if si.Archived {
			twice = si.Name
			break
		}
	}
	if twice == "" {
		t.Fatal("the fixture has no archived skill")
	}
	// skillrepo refuses to create it; an edit synced from the folder can,
	// and its frontmatter name differs, so the name's key is not the
	// folder name for either of them.
	content := "---\nname: " + twice + "-synced\ndescription: Use when a folder name is used twice.\n---\n\n# Twice\n"
	dir := filepath.Join(l.Root, "devops", twice)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Sync(ctx, SyncOptions{}); err != nil {
		t.Fatalf("sync %s beside its archived namesake: %v", twice, err)
	}
	if snap, err = l.Snapshot(""); err != nil {
		t.Fatal(err)
	}
	if skills, err = snap.Skills(); err != nil {
		t.Fatal(err)
	}
	keys, err := snap.UsageKeys(skills)
	if err != nil {
		t.Fatal(err)
	}
	every := map[string]*usage.Record{}
	names := map[string]*usage.Record{}
	for _, si := range skills {
		names[si.Name] = &usage.Record{}
		for _, a := range []string{si.Name, si.Dir, path2(si.Category, si.Name), colon(si.Category, si.Name), snap.usageKey(si)} {
			if a != "" {
				every[a] = &usage.Record{}
			}
		}
	}
	fast := 0
	for _, recs := range []map[string]*usage.Record{nil, names, every} {
		for _, si := range skills {
			key, aliases, err := snap.usageKeyOf(si, recs)
			if err != nil {
				t.Fatal(err)
			}
			if want, wantAliases := keys.Key(si.Name), keys.Aliases(recs, si.Name); key != want || !slices.Equal(aliases, wantAliases) {
				t.Errorf("%s with %d records: key %q aliases %q, want %q %q", si.Dir, len(recs), key, aliases, want, wantAliases)
			}
			if name, _ := snap.frontmatterName(si); (name == "" || name == si.Name) && snap.onlyFolderNamed(si.Name) && !hasQualifiedRecord(recs, si) {
				fast++
			}
		}
	}
	if fast == 0 || fast == 3*len(skills) {
		t.Errorf("%d of %d lookups took the short way: the table must have both kinds", fast, 3*len(skills))
	}
}
