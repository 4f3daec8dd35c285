package skillrepo

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reflect"

	"github.com/skillrepo/skillrepo/overlap"
	"github.com/skillrepo/skillrepo/overlap/indexfile"
	"github.com/skillrepo/skillrepo/skillrepo/catalog"
)

// churn changes a library the ways a person and the engine do, each step
// a commit on main: skills created at every depth (also too deep, hidden,
// inside another skill and under .archive), patched, renamed, moved into
// a category, archived, deleted, a skill folder turned into a category
// and back, SKILL.md replaced by a folder; through the engine and through
// git; and now and then main reset to an older commit (git checkout of
// an older main). check runs after every step.
type churn struct {
	t     *testing.T
	l     *Library
	env   map[string]string
	rng   *rand.Rand
	n     int
	older []string
}

func newChurn(t *testing.T, seed int64) *churn {
	l, env := newTestLibrary(t)
	return &churn{t: t, l: l, env: env, rng: rand.New(rand.NewSource(seed))}
}

// skillText is a SKILL.md about one of a few topics, so skills overlap.
func (c *churn) skillText(name string) string {
	topics := []string{
		"retry flaky network calls with exponential backoff and jitter, cap the attempts, log each failure",
		"bisect a regression with git bisect run and a failing test script, then mark good and bad commits",
		"deploy the service with kubectl rollout, watch readiness probes, roll back on crash loops",
		"write release notes from merged pull requests grouped by label and breaking changes",
		"profile a slow Go program with pprof cpu profiles and flame graphs before optimising",
	}
	topic := topics[c.rng.Intn(len(topics))]
	words := strings.Fields(topic)
	c.rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	extra := fmt.Sprintf("term%d word%d", c.rng.Intn(50), c.rng.Intn(500))
	return fmt.Sprintf("---\nname: %s\ndescription: Use when you need to %s.\n---\n# %s\n\n1. %s.\n2. %s.\n", name, topic, name, strings.Join(words, " "), extra)
}

// skillDirs lists the folders holding SKILL.md in the work tree.
func (c *churn) skillDirs() []string {
	var out []string
	_ = filepath.WalkDir(c.l.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Name() == "SKILL.md" && !d.IsDir() {
			rel, _ := filepath.Rel(c.l.Root, filepath.Dir(p))
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func (c *churn) pick(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return dirs[c.rng.Intn(len(dirs))]
}

func (c *churn) write(rel, text string) {
	p := filepath.Join(c.l.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func (c *churn) move(from, to string) {
	if from == "" || to == from || strings.HasPrefix(to, from+"/") {
		return
	}
	if _, err := os.Stat(filepath.Join(c.l.Root, to)); err == nil {
		return
	}
	_ = os.MkdirAll(filepath.Dir(filepath.Join(c.l.Root, to)), 0o755)
	gitCmd(c.t, c.l, c.env, "mv", from, to)
}

// step makes one change and commits it.
func (c *churn) step() {
	c.n++
	ctx := context.Background()
	dirs := c.skillDirs()
	name := fmt.Sprintf("s%d", c.n)
	cats := []string{"", "devops/", "writing/", "a/b/", "a/b/c/", "a/b/c/d/", ".hidden/", ".archive/", ".archive/x/", "devops/.h/"}
	viaEngine := false
	switch op := c.rng.Intn(12); op {
	case 0, 1: // create by hand, anywhere
		c.write(cats[c.rng.Intn(len(cats))]+name+"/SKILL.md", c.skillText(name))
	case 2: // create through the engine
		cat := []string{"", "devops", "writing"}[c.rng.Intn(3)]
		if _, err := c.l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: name, Category: cat, Content: strp(c.skillText(name)), ForceNew: true, Reason: "test"}}}); err != nil {
			c.t.Logf("engine create %s: %v", name, err)
		}
		viaEngine = true
	case 3: // patch through the engine (a new SKILL.md, same name)
		if d := c.pick(dirs); d != "" && !strings.HasPrefix(d, ".") {
			_, err := c.l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionEdit, Name: d, Content: strp(c.skillText(path.Base(d)))}}})
			if err != nil {
				c.t.Logf("engine edit %s: %v", d, err)
			}
			viaEngine = true
		}
	case 4: // edit by hand
		if d := c.pick(dirs); d != "" {
			c.write(d+"/SKILL.md", c.skillText(path.Base(d)))
		}
	case 5: // rename
		if d := c.pick(dirs); d != "" {
			c.move(d, path.Join(path.Dir(d), name))
		}
	case 6: // into a category
		if d := c.pick(dirs); d != "" {
			c.move(d, cats[c.rng.Intn(len(cats))]+path.Base(d))
		}
	case 7: // archive
		if d := c.pick(dirs); d != "" && !strings.HasPrefix(d, ".archive/") {
			c.move(d, ".archive/"+path.Base(d)+"-"+name)
		}
	case 8: // delete
		if d := c.pick(dirs); d != "" {
			gitCmd(c.t, c.l, c.env, "rm", "-rq", d)
		}
	case 9: // a skill becomes a category: its SKILL.md goes into a child
		if d := c.pick(dirs); d != "" {
			c.move(d+"/SKILL.md", d+"/"+name+"/SKILL.md")
		}
	case 10: // a nested skill inside a skill, or SKILL.md as a folder
		if d := c.pick(dirs); d != "" {
			if c.rng.Intn(2) == 0 {
				c.write(d+"/"+name+"/SKILL.md", c.skillText(name))
			} else {
				gitCmd(c.t, c.l, c.env, "rm", "-q", d+"/SKILL.md")
				c.write(d+"/SKILL.md/inner.md", "not a skill\n")
			}
		}
	case 11: // main back to an older commit
		if len(c.older) > 0 {
			gitCmd(c.t, c.l, c.env, "reset", "-q", "--hard", c.older[c.rng.Intn(len(c.older))])
			return
		}
	}
	if !viaEngine {
		gitCmd(c.t, c.l, c.env, "add", "-A")
		gitCmd(c.t, c.l, c.env, "commit", "-q", "--allow-empty", "-m", "churn "+name)
	}
	c.older = append(c.older, strings.TrimSpace(gitCmd(c.t, c.l, c.env, "rev-parse", "HEAD")))
}

// TestSkillCatalogMatchesWalk checks the catalogue lists what the full
// walk lists, through random changes, a reset to an older main, fresh
// processes (a library opened anew reads the file) and a damaged file.
func TestSkillCatalogMatchesWalk(t *testing.T) {
	c := newChurn(t, 1)
	written := 0
	check := func(l *Library, what string) {
		t.Helper()
		snap, err := l.Snapshot("")
		if err != nil {
			t.Fatal(err)
		}
		want, err := discoverSkills(snap.store, snap.tree)
		if err != nil {
			t.Fatal(err)
		}
		got, err := snap.Skills()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s, step %d: catalogue lists\n%v\nthe walk\n%v", what, c.n, got, want)
		}
		// Looking a skill up by name gives what the walk gives.
		names := map[string]bool{"nothing-here": true}
		for _, si := range want {
			names[si.Name] = true
			names[strings.SplitN(si.Name, "-", 2)[0]] = true
			if b, err := snap.ReadFile(si.Dir + "/SKILL.md"); err == nil {
				names[catalog.DeclaredName(b)] = true
			}
		}
		for name := range names {
			if name == "" {
				continue
			}
			got, gerr := findSkill(l, snap.store, snap.tree, name)
			want, werr := findSkill(nil, snap.store, snap.tree, name)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Fatalf("%s, step %d: finding %q gives %v (%v), the walk %v (%v)", what, c.n, name, got, gerr, want, werr)
			}
		}
		// The skill a write changed, found from its paths, is what the
		// lookup finds (usage.go, writtenSkill).
		for _, si := range want {
			for _, paths := range [][]string{{si.Dir + "/SKILL.md"}, {si.Dir + "/references/x.md", "other/SKILL.md"}} {
				got, ok := snap.writtenSkill(si.Name, paths)
				if !ok {
					continue
				}
				if found, err := snap.FindSkill(si.Name); err != nil || found != got {
					t.Fatalf("%s, step %d: the written skill %q is %v, the lookup finds %v (%v)", what, c.n, si.Name, got, found, err)
				}
				written++
			}
		}
		for _, si := range want {
			n := 0
			for _, o := range want {
				if o.Name == si.Name {
					n++
				}
			}
			if snap.onlyFolderNamed(si.Name) != (n == 1) {
				t.Fatalf("%s, step %d: folder name %s counted wrong (%d skills have it)", what, c.n, si.Name, n)
			}
		}
	}
	for i := 0; i < 120; i++ {
		c.step()
		check(c.l, "same process")
		if i%7 == 0 {
			l, err := Open(c.l.Root, openOpts(c.env))
			if err != nil {
				t.Fatal(err)
			}
			check(l, "new process")
			l.repo.Close()
		}
	}
	if written == 0 {
		t.Fatal("no written skill was found from its paths: the comparison proves nothing")
	}
	// A damaged or foreign file is never trusted.
	p := c.l.catalogPath()
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"a flipped byte in the hashes": func(b []byte) []byte { b[len(catalog.Magic)+40] ^= 0xff; return b },
		"a flipped byte at the end":    func(b []byte) []byte { b[len(b)-5] ^= 0xff; return b },
		"garbage appended":             func(b []byte) []byte { return append(b, "garbage and more garbage"...) },
		"truncated":                    func(b []byte) []byte { return b[:len(b)/2] },
		"empty":                        func([]byte) []byte { return nil },
		"a delta from another tree": func(b []byte) []byte {
			payload := append(bytes.Repeat([]byte{7}, 40), 0, 0)
			b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
			b = append(b, payload...)
			return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(payload))
		},
	}
	for what, f := range damage {
		if err := os.WriteFile(p, f(slices.Clone(good)), 0o644); err != nil {
			t.Fatal(err)
		}
		c.step()
		l, err := Open(c.l.Root, openOpts(c.env))
		if err != nil {
			t.Fatal(err)
		}
		check(l, what)
		l.repo.Close()
		if !catalog.Readable(p) {
			t.Errorf("%s: the catalogue was not rewritten", what)
		}
	}
}

// fullDuplicates is the duplicate check as it was before the index was
// kept: every active skill read and indexed.
func fullDuplicates(t *testing.T, s *Snapshot, name, content string) []overlap.Match {
	t.Helper()
	all, err := s.Skills()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, si := range all {
		if !si.Archived {
			dirs = append(dirs, si.Dir)
		}
	}
	read, _ := overlap.ReadSkills(s.FS(), dirs)
	return overlap.NewIndex(read).Query(overlap.FromSKILLMD(name, "", []byte(content)), DuplicateThreshold)
}

// TestOverlapIndexMatchesFullComparison checks the kept overlap index
// gives the duplicate check's verdicts the full comparison gives, through
// random writes, renames, archives and resets of main to older commits,
// in the process that keeps it and in fresh ones, and that a damaged
// index file is rebuilt, never trusted.
func TestOverlapIndexMatchesFullComparison(t *testing.T) {
	c := newChurn(t, 2)
	session := &DuplicateIndex{}
	matched := 0
	check := func(l *Library, d *DuplicateIndex, what string) {
		t.Helper()
		snap, err := l.Snapshot("")
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4; k++ {
			name := fmt.Sprintf("q%d", k)
			text := c.skillText(name)
			want := fullDuplicates(t, snap, name, text)
			got, err := d.duplicates(snap, name, "", text)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				want = nil
			}
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, step %d: index says\n%v\nfull comparison\n%v", what, c.n, got, want)
			}
			matched += len(got)
		}
	}
	for i := 0; i < 100; i++ {
		c.step()
		check(c.l, session, "the session's index")
		if i%3 == 0 {
			l, err := Open(c.l.Root, openOpts(c.env))
			if err != nil {
				t.Fatal(err)
			}
			check(l, &DuplicateIndex{}, "new process")
			l.repo.Close()
		}
	}
	if matched == 0 {
		t.Fatal("no duplicate found: the comparison proves nothing")
	}
	p := c.l.overlapIndexPath()
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{3, len(indexfile.Magic) + 5, len(indexfile.Magic) + 25, len(good) / 2, len(good) - 2} {
		b := slices.Clone(good)
		b[at] ^= 0x41
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if at%2 == 0 {
			c.step() // stale and damaged
		}
		l, err := Open(c.l.Root, openOpts(c.env))
		if err != nil {
			t.Fatal(err)
		}
		check(l, &DuplicateIndex{}, fmt.Sprintf("byte %d flipped", at))
		l.repo.Close()
		if x := indexfile.Open(p, maxCacheFile); x == nil {
			t.Errorf("byte %d flipped: the index was not rebuilt", at)
		}
	}
}

// TestWrittenSkillLeavesSharedNamesToTheLookup: two skills with one folder
// name in two categories; the written one is not taken from the write's
// paths (the lookup decides which the name means), a name only one folder
// has is, and what is taken is what the lookup finds.
func TestWrittenSkillLeavesSharedNamesToTheLookup(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	// The engine refuses a second skill of one name: the person makes it.
	for _, cat := range []string{"devops", "writing"} {
		p := filepath.Join(l.Root, cat, "twin", "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: twin\ndescription: Use when twins.\n---\n# Twin\n\n1. Step.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCmd(t, l, env, "add", "-A")
	gitCmd(t, l, env, "commit", "-q", "-m", "twins")
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "single", Category: "writing", Content: strp("---\nname: single\ndescription: Use when alone.\n---\n# Single\n\n1. Step.\n"), ForceNew: true, Reason: "test"}}}); err != nil {
		t.Fatal(err)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	if si, ok := snap.writtenSkill("twin", []string{"writing/twin/SKILL.md"}); ok {
		t.Errorf("a folder name two skills share was taken from the paths: %v", si)
	}
	si, ok := snap.writtenSkill("single", []string{"writing/single/references/a.md"})
	found, err := snap.FindSkill("single")
	if !ok || err != nil || si != found || si.Dir != "writing/single" {
		t.Errorf("single: from the paths %v (%v), the lookup %v (%v)", si, ok, found, err)
	}
	for _, tt := range []struct{ name, path string }{
		{"single", "writing/other/SKILL.md"}, // not among the paths
		{"writing/single", "writing/single/SKILL.md"},
		{".archive", ".archive/single/SKILL.md"},
	} {
		if si, ok := snap.writtenSkill(tt.name, []string{tt.path}); ok {
			t.Errorf("%s from %s: taken (%v)", tt.name, tt.path, si)
		}
	}
}
