package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Line endings against the real git binary: for each combination of
// core.autocrlf, core.eol, attributes and blob content, git sets up and
// checks out the repository; then
//   - what we hash for a work-tree file is what git add stores (every
//     work-tree variant, against the blob in the index),
//   - what we would write for the blob is what git checkout wrote,
//   - a write through the engine after the file's stat data went stale
//     (so it is compared by content) is not refused as dirty, leaves git
//     status and git diff clean and fsck happy, and writes the file git
//     checkout writes for the new blob.

var eolContents = map[string]string{
	"lf":     "line one\nline two\n",
	"crlf":   "line one\r\nline two\r\n",
	"mixed":  "line one\r\nline two\n",
	"nul":    "bin\x00ary\r\nline two\n",
	"lonecr": "a\rb\r\nline two\n",
}

func TestCompatLineEndings(t *testing.T) {
	autocrlfs := []string{"", "false", "true", "input"}
	eols := []string{"", "crlf"}
	attrs := []string{"", "* text", "* text=auto", "* -text", "* binary", "* text eol=crlf", "* text=auto eol=crlf", "* eol=lf", "* eol=crlf", "* crlf", "* text=auto eol=lf"}
	for _, ac := range autocrlfs {
		for _, eol := range eols {
			for _, at := range attrs {
				ac, eol, at := ac, eol, at
				name := fmt.Sprintf("autocrlf=%s/eol=%s/attr=%s", ac, eol, strings.ReplaceAll(at, " ", "_"))
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					lineEndingCase(t, ac, eol, at)
				})
			}
		}
	}
}

// eolBlobs are the blobs of each case, one file each.
var eolBlobs = []string{"lf", "crlf", "mixed", "nul"}

// eolRepo makes a repository on main with config set, .gitattributes
// holding attr (when not empty) and the files b-<name>.txt holding
// exactly the named blobs (stored without conversion), all checked out
// by git.
func eolRepo(t *testing.T, autocrlf, eol, attr string, blobs map[string]string) (*Repo, map[string]string) {
	t.Helper()
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	gitIn(t, "", env, false, "init", "-q", "-b", "main", dir)
	if autocrlf != "" {
		gitIn(t, dir, env, false, "config", "core.autocrlf", autocrlf)
	}
	if eol != "" {
		gitIn(t, dir, env, false, "config", "core.eol", eol)
	}
	gitIn(t, dir, env, false, "config", "core.safecrlf", "false")
	if attr != "" {
		if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte(attr+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, env, false, "add", ".gitattributes")
	}
	for p, blob := range blobs {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(blob), 0o644); err != nil {
			t.Fatal(err)
		}
		h := strings.TrimSpace(gitIn(t, dir, env, false, "hash-object", "-w", "--no-filters", p))
		gitIn(t, dir, env, false, "update-index", "--add", "--cacheinfo", "100644,"+h+","+p)
		os.Remove(filepath.Join(dir, p))
	}
	gitIn(t, dir, env, false, "commit", "-q", "-m", "init")
	// The work tree as git checkout writes it.
	gitIn(t, dir, env, false, "checkout", "--", ".")
	return openTestRepo(t, dir, env), env
}

func lineEndingCase(t *testing.T, autocrlf, eol, attr string) {
	blobs := map[string]string{}
	var files []string
	for _, b := range eolBlobs {
		blobs["b-"+b+".txt"] = eolContents[b]
		files = append(files, "b-"+b+".txt")
	}
	l, env := eolRepo(t, autocrlf, eol, attr, blobs)
	full := func(p string) string { return filepath.Join(l.Root, p) }
	for _, p := range files {
		checkedOut, err := os.ReadFile(full(p))
		if err != nil {
			t.Fatal(err)
		}
		// Smudge: what we would write is what git wrote.
		if got := l.smudgeFor(p, []byte(blobs[p])); string(got) != string(checkedOut) {
			t.Errorf("%s: smudge %q = %q, git checkout wrote %q", p, blobs[p], got, checkedOut)
		}
	}
	// Clean: every work-tree variant hashes as git add stores it, with
	// each committed blob in the index.
	for _, wname := range []string{"lf", "crlf", "mixed", "nul", "lonecr"} {
		ours := map[string]string{}
		for _, p := range files {
			if err := os.WriteFile(full(p), []byte(eolContents[wname]), 0o644); err != nil {
				t.Fatal(err)
			}
			idx, idxTime, err := l.ReadIndex()
			if err != nil {
				t.Fatal(err)
			}
			h, _, err := l.worktreeHash(idx, idxTime, p, false)
			if err != nil {
				t.Fatal(err)
			}
			ours[p] = h.String()
		}
		gitIn(t, l.Root, env, false, "add", "--", ".")
		for _, line := range strings.Split(strings.TrimSpace(gitIn(t, l.Root, env, false, "ls-files", "-s", "--", "b-*.txt")), "\n") {
			f := strings.Fields(line)
			if ours[f[3]] != f[1] {
				t.Errorf("%s holding %s: we hash %s, git add stores %s", f[3], wname, ours[f[3]], f[1])
			}
		}
		gitIn(t, l.Root, env, false, "reset", "-q")
	}
	// Back to git's checkout, with stale stat data: the files are
	// compared by content (a person's editor, a copy, a restore).
	gitIn(t, l.Root, env, false, "checkout", "--", ".")
	old := time.Now().Add(-time.Hour)
	for _, p := range files {
		if err := os.Chtimes(full(p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	// git status compares by content too now that the stat data is
	// stale; without the optional index refresh it leaves the stat data
	// stale for us. Asked before the stat data went stale, git would trust
	// it for a file checked out more than a second before the index was
	// written, and call clean what a content comparison calls modified.
	modified := map[string]bool{}
	for _, line := range strings.Split(gitCmd(t, l, env, "--no-optional-locks", "status", "--porcelain"), "\n") {
		if line != "" {
			modified[strings.TrimSpace(line[2:])] = true
		}
	}
	var edits []edit
	for _, p := range files {
		if !modified[p] {
			edits = append(edits, edit{p, "two", "2"})
		}
	}
	// A file git sees as modified (a blob git would normalise) is dirty
	// to us too: the write is refused.
	for p := range modified {
		before := captureState(t, l, env)
		var de *DirtyError
		if _, err := patchFiles(l, edit{p, "two", "2"}); !errors.As(err, &de) {
			t.Errorf("%s: git status says modified; our patch: %v, want a DirtyError", p, err)
		}
		assertUnchanged(t, l, env, before)
	}
	if len(edits) == 0 {
		return
	}
	if _, err := patchFiles(l, edits...); err != nil {
		t.Fatalf("patch: %v", err)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); len(strings.Split(strings.TrimSpace(st), "\n")) != len(modified) && st != "" {
		t.Errorf("git status after the patch:\n%s", st)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
	for _, e := range edits {
		p := e.path
		if d := gitIn(t, l.Root, env, true, "diff", "--exit-code", "--", p); d != "" {
			t.Errorf("git diff %s:\n%s", p, d)
		}
		ours, err := os.ReadFile(full(p))
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(full(p))
		gitIn(t, l.Root, env, false, "checkout", "--", p)
		theirs, _ := os.ReadFile(full(p))
		if string(ours) != string(theirs) {
			t.Errorf("%s: after the patch the work tree holds %q, git checkout writes %q", p, ours, theirs)
		}
		want := strings.Replace(blobs[p], "two", "2", 1)
		if got, err := readFileAt(l, "main", p); err != nil || string(got) != want {
			t.Errorf("%s: committed blob %q (%v), want %q", p, got, err, want)
		}
	}
}

// A .gitattributes written by the same write governs the files written
// with it, as in git checkout.
func TestCompatAttributesWrittenFirst(t *testing.T) {
	l, env := eolRepo(t, "", "", "", map[string]string{"x.txt": "x\n"})
	_, err := l.Update(t.Context(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		if err := tx.WriteFile(".gitattributes", []byte("*.txt text eol=crlf\n"), false); err != nil {
			return err
		}
		// "+" sorts before ".gitattributes": the order is not the paths'.
		for _, p := range []string{"a/b.txt", "+notes.txt"} {
			if err := tx.WriteFile(p, []byte("one\ntwo\n"), false); err != nil {
				return err
			}
		}
		_, err := tx.Commit("attrs")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/b.txt", "+notes.txt"} {
		got, _ := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if string(got) != "one\r\ntwo\r\n" {
			t.Errorf("%s = %q, want CRLF", p, got)
		}
	}
	assertConsistent(t, l, env)
}

// fakeLFSClean is git-lfs's clean filter in shell: the pointer of its
// input (so git status agrees the checked-out content is the pointer).
const fakeLFSClean = `sh -c 'tmp=$(mktemp); cat >"$tmp"; printf "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n" "$(sha256sum <"$tmp" | cut -d" " -f1)" "$(wc -c <"$tmp" | tr -d " ")"; rm -f "$tmp"'`

func lfsPointer(content string) string {
	sum := sha256.Sum256([]byte(content))
	return fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", hex.EncodeToString(sum[:]), len(content))
}

// Filtered paths: a write to a path whose filter driver is configured is
// refused with nothing changed; a filter attribute without a driver is
// no filter (git ignores it too); the checked-out content of an LFS
// pointer is not an edit.
func TestCompatFilterRefused(t *testing.T) {
	const content = "PNG\x00 big binary"
	for _, tc := range []struct {
		name, attr string
		config     [][2]string
		refuse     string // substring of the hint, "" = the write succeeds
	}{
		{"lfs", "*.bin filter=lfs diff=lfs merge=lfs -text", [][2]string{{"filter.lfs.clean", fakeLFSClean}, {"filter.lfs.smudge", "cat"}, {"filter.lfs.required", "true"}}, "git lfs"},
		{"lfs-smudge-only", "*.bin filter=lfs", [][2]string{{"filter.lfs.smudge", "cat"}}, "git lfs"},
		{"custom", "*.bin filter=crypt", [][2]string{{"filter.crypt.clean", "cat"}, {"filter.crypt.smudge", "cat"}}, "filter.crypt"},
		{"ident", "*.bin ident", nil, "git add"},
		{"encoding", "*.bin working-tree-encoding=UTF-16", nil, "git add"},
		{"no-driver", "*.bin filter=lfs", nil, ""},
		{"utf8", "*.bin working-tree-encoding=UTF-8", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, env := eolRepo(t, "", "", tc.attr, map[string]string{"x.txt": "x\n"})
			for _, kv := range tc.config {
				gitCmd(t, l, env, "config", kv[0], kv[1])
			}
			// The blob is an LFS pointer; the work tree holds the content
			// git-lfs would have checked out.
			ptr := lfsPointer(content)
			full := filepath.Join(l.Root, "a.bin")
			os.WriteFile(full, []byte(ptr), 0o644)
			h := strings.TrimSpace(gitCmd(t, l, env, "hash-object", "-w", "--no-filters", "a.bin"))
			gitCmd(t, l, env, "update-index", "--add", "--cacheinfo", "100644,"+h+",a.bin")
			gitCmd(t, l, env, "commit", "-q", "-m", "pointer")
			os.WriteFile(full, []byte(content), 0o644)
			if tc.name == "lfs" {
				idx, idxTime, err := l.ReadIndex()
				if err != nil {
					t.Fatal(err)
				}
				if got, _, err := l.worktreeHash(idx, idxTime, "a.bin", false); err != nil || got.String() != h {
					t.Errorf("the LFS content hashes as %s (%v), want the pointer %s", got, err, h)
				}
			} else {
				os.WriteFile(full, []byte(ptr), 0o644)
			}
			before := captureState(t, l, env)
			_, err := writeFile(l, "main", "a.bin", "new content\n")
			if tc.refuse == "" {
				if err != nil {
					t.Fatalf("write: %v", err)
				}
				assertConsistent(t, l, env)
				return
			}
			var se *StateError
			if !errors.As(err, &se) || !errors.Is(err, ErrConflict) {
				t.Fatalf("write: %v, want a StateError", err)
			}
			if !strings.Contains(se.Error(), "a.bin") || !strings.Contains(se.Hint(), tc.refuse) {
				t.Errorf("message %q / hint %q: want the path and %q", se.Error(), se.Hint(), tc.refuse)
			}
			assertUnchanged(t, l, env, before)
			// Other branches too: a pointer is never replaced by content.
			if _, err := l.Update(t.Context(), UpdateOptions{Branch: "side", From: "main"}, func(tx *Tx) error {
				if err := tx.WriteFile("a.bin", []byte("content"), false); err != nil {
					return err
				}
				_, err := tx.Commit("side")
				return err
			}); !errors.As(err, &se) {
				t.Errorf("write on another branch: %v, want a StateError", err)
			}
			// Paths without the attribute are written as usual.
			if _, err := writeFile(l, "main", "other.txt", "fine\n"); err != nil {
				t.Fatalf("write other.txt: %v", err)
			}
		})
	}
}

// The attribute lookup: precedence, macros and patterns, against git
// check-attr.
func TestCompatCheckAttr(t *testing.T) {
	l, env := eolRepo(t, "", "", "[attr]mytext text eol=crlf\n*.md mytext\n*.bin binary\ndocs/ -text\n/top.txt eol=lf\n**/deep/*.txt text=auto\n\"quoted name.txt\" text\n*.c text\n*.c -text\nbad line with !in valid\n", map[string]string{"x.txt": "x\n"})
	files := map[string]string{
		"docs/.gitattributes":     "*.md -text\n*.txt eol=crlf\n[attr]ignored text\n",
		".git/info/attributes":    "x.bin text\n",
		"docs/sub/.gitattributes": "b.md !eol\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(l.Root, p)), 0o755)
		os.WriteFile(filepath.Join(l.Root, p), []byte(c), 0o644)
	}
	paths := []string{"a.md", "docs/a.md", "docs/sub/b.md", "x.bin", "y.bin", "top.txt", "sub/top.txt", "a/deep/c.txt", "deep/c.txt", "a/b/deep/x/c.txt", "quoted name.txt", "docs/n.txt", "m.c", "bad"}
	c := l.converter()
	for _, p := range paths {
		out := gitIn(t, l.Root, env, false, "check-attr", "text", "eol", "--", p)
		got := c.attrs.lookup(p, "text", "eol")
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			parts := strings.SplitN(line, ": ", 3)
			if len(parts) != 3 || strings.HasPrefix(line, "warning") {
				continue // git's warning about the invalid line
			}
			want := parts[2]
			v, ok := got[parts[1]]
			var have string
			switch {
			case !ok:
				have = "unspecified"
			case v.kind == attrTrue:
				have = "set"
			case v.kind == attrFalse:
				have = "unset"
			default:
				have = v.value
			}
			if have != want {
				t.Errorf("%s %s: we say %s, git check-attr %s", p, parts[1], have, want)
			}
		}
	}
}

// Content handed to a write (skill write-file --content-file, an agent's
// file) is stored as git add would store it as a work-tree file: CRLFs
// cleaned under core.autocrlf=true, "* text" or "* text=auto", kept under
// "-text"; the blob is what 'git hash-object --path' computes, and git
// status is clean after the write.
func TestWriteFileCleansAsGitAdd(t *testing.T) {
	for _, tc := range []struct{ autocrlf, attr string }{
		{"true", ""}, {"", "* text"}, {"", "* text=auto"}, {"input", ""}, {"", "* -text"}, {"", ""},
	} {
		name := fmt.Sprintf("autocrlf=%s/attr=%s", tc.autocrlf, strings.ReplaceAll(tc.attr, " ", "_"))
		t.Run(name, func(t *testing.T) {
			l, env := eolRepo(t, tc.autocrlf, "", tc.attr, map[string]string{"old.txt": "x\n"})
			content := "line one\r\nline two\r\n"
			p := "notes/new.txt"
			if _, err := writeFile(l, "main", p, content); err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSpace(gitStdin(t, l.Root, env, content, "hash-object", "--stdin", "--path="+p))
			got := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main:"+p))
			if got != want {
				t.Errorf("stored blob %s, git add stores %s", got, want)
			}
			if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
				t.Errorf("git status after the write:\n%s", st)
			}
		})
	}
}
