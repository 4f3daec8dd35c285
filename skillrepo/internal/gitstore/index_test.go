package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// indexRepo is a plain git repository (not a library) for index tests.
type indexRepo struct {
	t   *testing.T
	dir string
	env map[string]string
}

func newIndexRepo(t *testing.T) *indexRepo {
	t.Helper()
	r := &indexRepo{t: t, dir: t.TempDir(), env: testEnv(t)}
	r.git("init", "-q", "-b", "main")
	for _, f := range []string{"a.txt", "dir/b.txt", "dir/sub/c.txt", "dir-x.txt", "z.txt"} {
		r.write(f, "content of "+f+"\n")
	}
	r.git("add", ".")
	r.git("commit", "-q", "-m", "start")
	return r
}

func (r *indexRepo) git(args ...string) string {
	r.t.Helper()
	return gitIn(r.t, r.dir, r.env, false, args...)
}

func (r *indexRepo) write(p, content string) {
	r.t.Helper()
	full := filepath.Join(r.dir, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *indexRepo) indexFile() string { return filepath.Join(r.dir, ".git", "index") }

func (r *indexRepo) read() (*Index, []byte) {
	r.t.Helper()
	b, err := os.ReadFile(r.indexFile())
	if err != nil {
		r.t.Fatal(err)
	}
	idx, err := decodeIndex(append([]byte(nil), b...))
	if err != nil {
		r.t.Fatalf("decode: %v", err)
	}
	return idx, b
}

// entryBytes is the entries section of an index file in the version 2/3
// layout: what our encoder must reproduce byte for byte.
func entryBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	idx, err := decodeIndex(append([]byte(nil), b...))
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.offs) == 0 {
		return nil
	}
	last := int(idx.offs[len(idx.offs)-1])
	end, _ := idx.entryEnd(last)
	return idx.raw[12:end]
}

func (r *indexRepo) HashObject(p string) plumbing.Hash {
	return plumbing.NewHash(strings.TrimSpace(r.git("hash-object", "-w", p)))
}

// Written without edits, an index keeps every entry git wrote, with its
// stat data and flags (git ls-files --debug shows them), in every version
// git writes.
func TestIndexRoundTripMatchesGit(t *testing.T) {
	cases := []struct {
		name  string
		setup func(r *indexRepo)
	}{
		{"v2 with cache tree", func(r *indexRepo) { r.git("update-index", "--index-version", "2") }},
		{"v3 skip-worktree", func(r *indexRepo) {
			r.git("update-index", "--index-version", "3")
			r.git("update-index", "--skip-worktree", "dir/b.txt")
		}},
		{"v4", func(r *indexRepo) { r.git("update-index", "--index-version", "4") }},
		{"v4 skip-worktree", func(r *indexRepo) {
			r.git("update-index", "--index-version", "4")
			r.git("update-index", "--skip-worktree", "dir/sub/c.txt")
		}},
		{"untracked cache", func(r *indexRepo) {
			r.git("update-index", "--untracked-cache")
			r.git("status", "--porcelain")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newIndexRepo(t)
			c.setup(r)
			before := r.git("ls-files", "--stage", "--debug")
			beforeV := r.git("ls-files", "-v")
			idx, orig := r.read()
			out := idx.encode()
			if err := os.WriteFile(r.indexFile(), out, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := r.git("ls-files", "--stage", "--debug"); got != before {
				t.Errorf("entries changed:\nbefore\n%s\nafter\n%s", before, got)
			}
			if got := r.git("ls-files", "-v"); got != beforeV {
				t.Errorf("flags changed:\nbefore\n%s\nafter\n%s", beforeV, got)
			}
			v := binary.BigEndian.Uint32(orig[4:])
			if got := binary.BigEndian.Uint32(out[4:]); got != v {
				t.Errorf("a version %d index was written back as version %d", v, got)
			}
			if got, want := entryBytes(t, out), entryBytes(t, orig); string(got) != string(want) {
				t.Error("entries not copied byte for byte")
			}
			// Version 4 names are compressed exactly as git compresses
			// them: what we wrote is git's file up to its extensions.
			if v == 4 && !bytes.HasPrefix(orig, out[:len(out)-20]) {
				t.Error("the version 4 entries differ from git's")
			}
			if st := r.git("status", "--porcelain"); st != "" {
				t.Errorf("status not clean after rewrite:\n%s", st)
			}
		})
	}
}

// Edits are spliced in at their sorted places: a changed entry, a new one
// between existing ones, a removed one, and a conflicted path resolved to
// one stage-0 entry. git then sees exactly those changes staged and none
// in the work tree.
func TestIndexSplice(t *testing.T) {
	for _, version := range []string{"2", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			r := newIndexRepo(t)
			r.git("update-index", "--index-version", version)
			// A conflicted path: stages 1-3 for dir/sub/c.txt.
			base, ours, theirs := r.HashObject("a.txt"), r.HashObject("z.txt"), r.HashObject("dir-x.txt")
			r.git("update-index", "--force-remove", "dir/sub/c.txt")
			info := "100644 " + base.String() + " 1\tdir/sub/c.txt\n100644 " + ours.String() + " 2\tdir/sub/c.txt\n100644 " + theirs.String() + " 3\tdir/sub/c.txt\n"
			gitStdin(t, r.dir, r.env, info, "update-index", "--index-info")
			untouched := map[string]string{}
			for _, line := range strings.SplitAfter(r.git("ls-files", "--stage", "--debug", "a.txt", "dir-x.txt"), "\n") {
				untouched[line] = line
			}

			r.write("dir/b.txt", "changed\n")
			r.write("dir/a-new.txt", "new\n")
			r.write("dir/sub/c.txt", "resolved\n")
			if err := os.Remove(filepath.Join(r.dir, "z.txt")); err != nil {
				t.Fatal(err)
			}
			idx, _ := r.read()
			for _, p := range []string{"dir/b.txt", "dir/a-new.txt", "dir/sub/c.txt"} {
				fi, err := os.Lstat(filepath.Join(r.dir, p))
				if err != nil {
					t.Fatal(err)
				}
				idx.set(newIndexEntry(p, r.HashObject(p), filemode.Regular, fi))
			}
			idx.remove("z.txt")
			if err := os.WriteFile(r.indexFile(), idx.encode(), 0o644); err != nil {
				t.Fatal(err)
			}

			if got := r.git("diff", "--name-status"); got != "" {
				t.Errorf("work tree differs from the index:\n%s", got)
			}
			if got := binary.BigEndian.Uint32(idx.encode()[4:]); strconv.Itoa(int(got)) != version {
				t.Errorf("the version %s index was written as version %d", version, got)
			}
			want := "A\tdir/a-new.txt\nM\tdir/b.txt\nM\tdir/sub/c.txt\nD\tz.txt\n"
			if got := r.git("diff", "--cached", "--name-status"); got != want {
				t.Errorf("staged changes:\n%s\nwant\n%s", got, want)
			}
			if got := r.git("ls-files", "--stage"); strings.Count(got, "dir/sub/c.txt") != 1 || !strings.Contains(got, " 0\tdir/sub/c.txt") {
				t.Errorf("conflict stages not replaced:\n%s", got)
			}
			for _, line := range strings.SplitAfter(r.git("ls-files", "--stage", "--debug", "a.txt", "dir-x.txt"), "\n") {
				if untouched[line] != line {
					t.Errorf("untouched entry changed: %q", line)
				}
			}
			// What we wrote reads back through our own lookup.
			idx2, _ := r.read()
			if e, ok := idx2.lookup("dir/a-new.txt"); !ok || e.Hash != r.HashObject("dir/a-new.txt") {
				t.Errorf("lookup of the new entry: %v %v", e, ok)
			}
			if _, ok := idx2.lookup("z.txt"); ok {
				t.Error("removed entry still found")
			}
		})
	}
}

// A lookup sees the command's own edits before the entries read.
func TestIndexLookupSeesEdits(t *testing.T) {
	r := newIndexRepo(t)
	idx, _ := r.read()
	cached := idx.clone()
	if _, ok := idx.lookup("dir/b.txt"); !ok {
		t.Fatal("dir/b.txt not found")
	}
	idx.remove("dir/b.txt")
	if _, ok := idx.lookup("dir/b.txt"); ok {
		t.Error("removed path still found")
	}
	idx.set(&indexEntry{Name: "new.txt", Mode: uint32(filemode.Regular)})
	if _, ok := idx.lookup("new.txt"); !ok {
		t.Error("new path not found")
	}
	if _, ok := cached.lookup("dir/b.txt"); !ok {
		t.Error("an edit leaked into a clone")
	}
	var names []string
	idx.EachName("", func(n []byte) { names = append(names, string(n)) })
	if got := strings.Join(names, ","); got != "a.txt,dir-x.txt,dir/sub/c.txt,z.txt,new.txt" {
		t.Errorf("names = %s", got)
	}
	// Under a prefix: the run of entries that start with it, and the
	// edits that do.
	idx.set(&indexEntry{Name: "dir/sub/d.txt", Mode: uint32(filemode.Regular)})
	for prefix, want := range map[string]string{
		"dir/": "dir/sub/c.txt,dir/sub/d.txt",
		"dir":  "dir-x.txt,dir/sub/c.txt,dir/sub/d.txt",
		"z":    "z.txt",
		"zz":   "",
		"a.tx": "a.txt",
	} {
		names = nil
		idx.EachName(prefix, func(n []byte) { names = append(names, string(n)) })
		if got := strings.Join(names, ","); got != want {
			t.Errorf("names under %q = %s, want %s", prefix, got, want)
		}
	}
}

// Damaged index files are errors, never panics or wrong entries.
func TestIndexCorrupt(t *testing.T) {
	r := newIndexRepo(t)
	r.git("update-index", "--index-version", "2")
	_, good := r.read()
	resum := func(b []byte) []byte {
		sum := sha1.Sum(b[:len(b)-20])
		copy(b[len(b)-20:], sum[:])
		return b
	}
	cases := map[string]func(b []byte) []byte{
		"truncated": func(b []byte) []byte { return resum(append(b[:100:100], make([]byte, 20)...)) },
		"short":     func(b []byte) []byte { return b[:20] },
		"bad signature": func(b []byte) []byte {
			b[0] = 'X'
			return resum(b)
		},
		"too many entries": func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[8:], 1<<30)
			return resum(b)
		},
		"name length": func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[12+60:], 0x0ffe)
			return resum(b)
		},
		"entries out of order": func(b []byte) []byte {
			// The first entry is a.txt (8-byte padded to 72 bytes): name it zz.txt.
			copy(b[12+62:], "zz")
			return resum(b)
		},
		"last entry out of order": func(b []byte) []byte {
			// The last entry is z.txt: name it a.txt, which sorts first.
			i := bytes.LastIndex(b, []byte("z.txt\x00"))
			copy(b[i:], "a")
			return resum(b)
		},
		"version 5": func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[4:], 5)
			return resum(b)
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := decodeIndex(damage(append([]byte(nil), good...))); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// The scan that reads an index checks its order and notes whether any
// entry has a conflict stage, so checkOrder and unmerged need not read it
// again: a clean index and one git left conflicted by a merge are each
// described right, and a conflict's stages out of order are refused.
func TestIndexScanFacts(t *testing.T) {
	r := newIndexRepo(t)
	idx, _ := r.read()
	if !idx.ordered || !idx.noStages || idx.unmerged() != nil {
		t.Fatalf("clean index: ordered %v, noStages %v, unmerged %v", idx.ordered, idx.noStages, idx.unmerged())
	}
	r.git("checkout", "-q", "-b", "other")
	r.write("a.txt", "theirs\n")
	r.git("commit", "-q", "-am", "theirs")
	r.git("checkout", "-q", "main")
	r.write("a.txt", "ours\n")
	r.git("commit", "-q", "-am", "ours")
	gitIn(t, r.dir, r.env, true, "merge", "-q", "other") // fails: a conflict
	idx, raw := r.read()
	if !idx.ordered || idx.noStages {
		t.Fatalf("conflicted index: ordered %v, noStages %v", idx.ordered, idx.noStages)
	}
	if got := idx.unmerged(); len(got) != 1 || got[0] != "a.txt" {
		t.Fatalf("unmerged = %q, want [a.txt]", got)
	}
	// a.txt's stages 1, 2, 3 are the first three entries: make the first
	// stage 3 (3, 2, 3 is out of order).
	b := append([]byte(nil), raw...)
	binary.BigEndian.PutUint16(b[12+60:], binary.BigEndian.Uint16(b[12+60:])|indexFlagStage)
	sum := sha1.Sum(b[:len(b)-20])
	copy(b[len(b)-20:], sum[:])
	if _, err := decodeIndex(b); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("stages out of order: %v, want an order error", err)
	}
}

// A split index's .git/index alone is not the index: decodeIndex refuses
// it, decodeIndexFile returns its link extension (the repository merges
// it with the shared index: splitindex_test.go).
func TestIndexSplitNeedsShared(t *testing.T) {
	r := newIndexRepo(t)
	r.git("update-index", "--split-index")
	b, err := os.ReadFile(r.indexFile())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeIndex(b); err == nil {
		t.Error("decodeIndex accepted a split index on its own")
	}
	if _, link, err := decodeIndexFile(b); err != nil || len(link) < 20 {
		t.Errorf("decodeIndexFile: link %d bytes, err %v", len(link), err)
	}
}

// Whatever decodes can be looked up, re-encoded and decoded again with the
// same names; nothing panics.
func FuzzDecodeIndex(f *testing.F) {
	dir := f.TempDir()
	for _, v := range []string{"2", "3", "4"} {
		cmd := exec.Command("sh", "-c", "git init -q r"+v+" && cd r"+v+" && mkdir -p d && echo a > a && echo b > d/b && git add . && git update-index --index-version "+v)
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			continue // no git: the fuzzer still runs on its own inputs
		}
		if b, err := os.ReadFile(filepath.Join(dir, "r"+v, ".git", "index")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		idx, err := decodeIndex(b)
		if err != nil {
			return
		}
		var names []string
		idx.EachName("", func(n []byte) { names = append(names, string(n)) })
		for _, n := range names {
			idx.lookup(n)
		}
		idx.set(&indexEntry{Name: "fuzz/new"})
		again, err := decodeIndex(idx.encode())
		if err != nil {
			t.Fatalf("re-encoded index does not decode: %v", err)
		}
		if _, ok := again.lookup("fuzz/new"); !ok {
			t.Error("edit lost")
		}
	})
}

// The splice (untouched entries copied as whole ranges, edits at their
// binary-searched places) writes exactly the entries git writes for the
// same change, byte for byte, in the middle and at both ends.
func TestIndexSpliceMatchesGitBytes(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			r := newIndexRepo(t)
			// Old files: no entry is racily clean, so git smudges none.
			old := time.Now().Add(-time.Hour)
			for _, f := range []string{"a.txt", "dir/b.txt", "dir/sub/c.txt", "dir-x.txt", "z.txt"} {
				os.Chtimes(filepath.Join(r.dir, f), old, old)
			}
			r.git("update-index", "--refresh")
			r.git("update-index", "--index-version", version)
			if version == "3" {
				r.git("update-index", "--skip-worktree", "dir/b.txt")
			}
			blob := r.HashObject("a.txt")
			idx, _ := r.read()
			for _, p := range []string{"0first.txt", "dir/new.txt", "zz-last.txt"} {
				idx.set(&indexEntry{Name: p, Hash: blob, Mode: uint32(filemode.Regular)})
			}
			idx.remove("dir-x.txt")
			ours := idx.encode()
			for _, p := range []string{"0first.txt", "dir/new.txt", "zz-last.txt"} {
				r.git("update-index", "--add", "--cacheinfo", "100644,"+blob.String()+","+p)
			}
			r.git("update-index", "--force-remove", "dir-x.txt")
			_, theirs := r.read()
			if !bytes.Equal(entryBytes(t, ours), entryBytes(t, theirs)) {
				t.Errorf("entries differ from git's:\nours\n%q\ngit\n%q", entryBytes(t, ours), entryBytes(t, theirs))
			}
			if version == "4" && !bytes.HasPrefix(theirs, ours[:len(ours)-20]) {
				t.Error("the version 4 file differs from git's before its extensions")
			}
		})
	}
}
