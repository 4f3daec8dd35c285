package merge

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// file is a test file: its content and whether it is executable or a
// symbolic link (then content is the target).
type file struct {
	content string
	exec    bool
	link    bool
}

func f(content string) file { return file{content: content} }

const skillA = "---\nname: a\ndescription: A\n---\n# A\n\n1. one\n2. two\n3. three\n4. four\n5. five\n"

// gitRepo is a real repository holding the three sides of a tree merge as
// the branches main (base, then ours) and theirs.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := gitCmd(r.t, r.dir, args...)
	cmd.Env = append(cmd.Env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// commit replaces the work tree with files and commits it.
func (r *gitRepo) commit(files map[string]file) {
	r.t.Helper()
	r.git("rm", "-rq", "--ignore-unmatch", ".")
	for p, fl := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		var err error
		switch {
		case fl.link:
			err = os.Symlink(fl.content, full)
		case fl.exec:
			err = os.WriteFile(full, []byte(fl.content), 0o755)
		default:
			err = os.WriteFile(full, []byte(fl.content), 0o644)
		}
		if err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", "c")
}

// tree reads a commit's tree with ls-tree.
func (r *gitRepo) tree(rev string) Tree {
	r.t.Helper()
	t := Tree{}
	for _, rec := range strings.Split(r.git("ls-tree", "-r", "-z", rev), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, _ := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		mode, err := strconv.ParseUint(fields[0], 8, 32)
		if err != nil {
			r.t.Fatal(err)
		}
		t[p] = Entry{ID: fields[2], Mode: Mode(mode)}
	}
	return t
}

// ReadBlob reads from the object store with cat-file.
func (r *gitRepo) ReadBlob(id string) ([]byte, error) {
	cmd := gitCmd(r.t, r.dir, "cat-file", "blob", id)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cat-file %s: %w", id, err)
	}
	return out, nil
}

// mergeTree is git's own answer: the merged tree, or the conflicted paths.
func (r *gitRepo) mergeTree() (tree Tree, conflicted []string) {
	r.t.Helper()
	cmd := gitCmd(r.t, r.dir, "merge-tree", "--write-tree", "--name-only", "--no-messages", "main", "theirs")
	out, err := cmd.Output()
	var exit *exec.ExitError
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	switch {
	case err == nil:
		return r.tree(lines[0]), nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return nil, lines[1:]
	default:
		r.t.Fatalf("git merge-tree: %v", err)
		return nil, nil
	}
}

func blobID(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// apply returns ours with the changes applied, content hashed as git would.
func apply(ours Tree, changes []Change) Tree {
	out := Tree{}
	for p, e := range ours {
		out[p] = e
	}
	for _, c := range changes {
		switch {
		case c.Deleted:
			delete(out, c.Path)
		case c.Entry.ID == "":
			out[c.Path] = Entry{ID: blobID(c.Content), Mode: c.Entry.Mode}
		default:
			out[c.Path] = c.Entry
		}
	}
	return out
}

// prune drops the paths equal in all three trees.
func prune(base, ours, theirs Tree) (Tree, Tree, Tree) {
	b, o, t := Tree{}, Tree{}, Tree{}
	for _, tr := range []Tree{base, ours, theirs} {
		for p := range tr {
			eb, inB := base[p]
			eo, inO := ours[p]
			et, inT := theirs[p]
			if inB && inO && inT && eb == eo && eb == et {
				continue
			}
			if inB {
				b[p] = eb
			}
			if inO {
				o[p] = eo
			}
			if inT {
				t[p] = et
			}
		}
	}
	return b, o, t
}

func TestMergeTrees(t *testing.T) {
	skillB := strings.Replace(skillA, "name: a", "name: b", 1)
	tests := []struct {
		name               string
		base, ours, theirs map[string]file
		conflicts          map[string]Reason
		// gitPaths is what git merge-tree lists as conflicted when it
		// differs from the keys of conflicts (git moves one side of a
		// file/directory or type clash to "path~branch").
		gitPaths []string
	}{
		{
			name:   "disjoint files",
			base:   map[string]file{"a/SKILL.md": f(skillA), "b/SKILL.md": f(skillB)},
			ours:   map[string]file{"a/SKILL.md": f(skillA + "ours\n"), "b/SKILL.md": f(skillB)},
			theirs: map[string]file{"a/SKILL.md": f(skillA), "b/SKILL.md": f(skillB + "theirs\n")},
		},
		{
			name:   "same file, disjoint hunks",
			base:   map[string]file{"a/SKILL.md": f(skillA)},
			ours:   map[string]file{"a/SKILL.md": f(strings.Replace(skillA, "1. one", "1. ONE", 1))},
			theirs: map[string]file{"a/SKILL.md": f(strings.Replace(skillA, "5. five", "5. FIVE", 1))},
		},
		{
			name:      "same file, overlapping hunks",
			base:      map[string]file{"a/SKILL.md": f(skillA)},
			ours:      map[string]file{"a/SKILL.md": f(strings.Replace(skillA, "3. three", "3. drei", 1))},
			theirs:    map[string]file{"a/SKILL.md": f(strings.Replace(skillA, "3. three", "3. trois", 1))},
			conflicts: map[string]Reason{"a/SKILL.md": ReasonContent},
		},
		{
			name:   "identical changes",
			base:   map[string]file{"a/SKILL.md": f(skillA)},
			ours:   map[string]file{"a/SKILL.md": f(skillA + "x\n"), "n/SKILL.md": f(skillB)},
			theirs: map[string]file{"a/SKILL.md": f(skillA + "x\n"), "n/SKILL.md": f(skillB)},
		},
		{
			name:      "ours deletes, theirs modifies",
			base:      map[string]file{"a/SKILL.md": f(skillA), "b/SKILL.md": f(skillB)},
			ours:      map[string]file{"b/SKILL.md": f(skillB)},
			theirs:    map[string]file{"a/SKILL.md": f(skillA + "more\n"), "b/SKILL.md": f(skillB)},
			conflicts: map[string]Reason{"a/SKILL.md": ReasonDeleteModify},
		},
		{
			name:      "ours modifies, theirs deletes",
			base:      map[string]file{"a/SKILL.md": f(skillA), "b/SKILL.md": f(skillB)},
			ours:      map[string]file{"a/SKILL.md": f(skillA + "more\n"), "b/SKILL.md": f(skillB)},
			theirs:    map[string]file{"b/SKILL.md": f(skillB)},
			conflicts: map[string]Reason{"a/SKILL.md": ReasonModifyDelete},
		},
		{
			name:   "both delete, theirs deletes a whole skill",
			base:   map[string]file{"a/SKILL.md": f(skillA), "b/SKILL.md": f(skillB), "b/references/r.md": f("ref\n")},
			ours:   map[string]file{"b/SKILL.md": f(skillB + "ours\n"), "b/references/r.md": f("ref\n")},
			theirs: map[string]file{"b/SKILL.md": f(skillB + "ours\n")},
		},
		{
			name:      "add/add different",
			base:      map[string]file{"a/SKILL.md": f(skillA)},
			ours:      map[string]file{"a/SKILL.md": f(skillA), "n/SKILL.md": f(skillB + "ours\n")},
			theirs:    map[string]file{"a/SKILL.md": f(skillA), "n/SKILL.md": f(skillB + "theirs\n")},
			conflicts: map[string]Reason{"n/SKILL.md": ReasonAddAdd},
		},
		{
			name:   "mode change on one side, content on the other",
			base:   map[string]file{"a/scripts/run.sh": f("#!/bin/sh\necho 1\necho 2\necho 3\n")},
			ours:   map[string]file{"a/scripts/run.sh": f("#!/bin/sh\necho one\necho 2\necho 3\n")},
			theirs: map[string]file{"a/scripts/run.sh": {content: "#!/bin/sh\necho 1\necho 2\necho 3\n", exec: true}},
		},
		{
			name:   "mode change and content on one side, content on the other",
			base:   map[string]file{"a/scripts/run.sh": f("#!/bin/sh\necho 1\necho 2\necho 3\n")},
			ours:   map[string]file{"a/scripts/run.sh": f("#!/bin/sh\necho one\necho 2\necho 3\n")},
			theirs: map[string]file{"a/scripts/run.sh": {content: "#!/bin/sh\necho 1\necho 2\necho three\n", exec: true}},
		},
		{
			name:      "binary changed on both sides",
			base:      map[string]file{"a/assets/x.bin": f("\x00\x01\x02\n")},
			ours:      map[string]file{"a/assets/x.bin": f("\x00\x01\x03\n")},
			theirs:    map[string]file{"a/assets/x.bin": f("\x00\x01\x04\n")},
			conflicts: map[string]Reason{"a/assets/x.bin": ReasonBinary},
		},
		{
			name:   "binary changed on one side",
			base:   map[string]file{"a/assets/x.bin": f("\x00\x01\x02\n"), "a/SKILL.md": f(skillA)},
			ours:   map[string]file{"a/assets/x.bin": f("\x00\x01\x02\n"), "a/SKILL.md": f(skillA + "x\n")},
			theirs: map[string]file{"a/assets/x.bin": f("\x00\x01\x04\n"), "a/SKILL.md": f(skillA)},
		},
		{
			name:      "file on one side, directory on the other",
			base:      map[string]file{"a/SKILL.md": f(skillA)},
			ours:      map[string]file{"a/SKILL.md": f(skillA), "a/notes": f("a file\n")},
			theirs:    map[string]file{"a/SKILL.md": f(skillA), "a/notes/n.md": f("in a dir\n")},
			conflicts: map[string]Reason{"a/notes": ReasonFileDirectory},
			gitPaths:  []string{"a/notes~main"},
		},
		{
			name:      "theirs turns a directory into a file, ours adds inside it",
			base:      map[string]file{"a/SKILL.md": f(skillA), "a/notes/n.md": f("n\n")},
			ours:      map[string]file{"a/SKILL.md": f(skillA), "a/notes/n.md": f("n\n"), "a/notes/m.md": f("m\n")},
			theirs:    map[string]file{"a/SKILL.md": f(skillA), "a/notes": f("now a file\n")},
			conflicts: map[string]Reason{"a/notes": ReasonFileDirectory},
			gitPaths:  []string{"a/notes~theirs"},
		},
		{
			name:      "added with the same content and different modes",
			base:      map[string]file{"a/SKILL.md": f(skillA)},
			ours:      map[string]file{"a/SKILL.md": f(skillA), "a/scripts/s.sh": f("echo\n")},
			theirs:    map[string]file{"a/SKILL.md": f(skillA), "a/scripts/s.sh": {content: "echo\n", exec: true}},
			conflicts: map[string]Reason{"a/scripts/s.sh": ReasonType},
		},
		{
			name:      "symbolic link against a content edit",
			base:      map[string]file{"a/references/r.md": f("one\ntwo\n")},
			ours:      map[string]file{"a/references/r.md": {content: "../../b/r.md", link: true}},
			theirs:    map[string]file{"a/references/r.md": f("one\ntwo\nthree\n")},
			conflicts: map[string]Reason{"a/references/r.md": ReasonType},
			gitPaths:  []string{"a/references/r.md", "a/references/r.md~theirs"},
		},
		{
			name:   "theirs adds a skill with support files",
			base:   map[string]file{"a/SKILL.md": f(skillA)},
			ours:   map[string]file{"a/SKILL.md": f(skillA + "x\n")},
			theirs: map[string]file{"a/SKILL.md": f(skillA), "cat/n/SKILL.md": f(skillB), "cat/n/scripts/s.sh": {content: "echo\n", exec: true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newGitRepo(t)
			r.commit(tt.base)
			r.git("branch", "theirs")
			r.commit(tt.ours)
			r.git("checkout", "-q", "theirs")
			r.commit(tt.theirs)
			r.git("checkout", "-q", "main")
			base, ours, theirs := r.tree("main~1"), r.tree("main"), r.tree("theirs")
			labels := Labels{Ours: "main", Base: "base", Theirs: "theirs"}

			got, err := MergeTrees(base, ours, theirs, r, labels)
			if err != nil {
				t.Fatal(err)
			}
			gotReasons := map[string]Reason{}
			for _, c := range got.Conflicts {
				gotReasons[c.Path] = c.Reason
				if c.Detail == "" {
					t.Errorf("%s: no detail", c.Path)
				}
			}
			if len(tt.conflicts) == 0 {
				tt.conflicts = map[string]Reason{}
			}
			if !reflect.DeepEqual(gotReasons, tt.conflicts) {
				t.Errorf("conflicts = %v, want %v", gotReasons, tt.conflicts)
			}
			if !got.Clean() && got.Changes != nil {
				t.Errorf("changes returned with conflicts: %+v", got)
			}

			// The same merge over pruned trees.
			pb, po, pt := prune(base, ours, theirs)
			pruned, err := MergeTrees(pb, po, pt, r, labels)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pruned, got) {
				t.Errorf("pruned trees merge differently:\n%+v\n%+v", pruned, got)
			}

			// git's own merge.
			gitTree, gitConflicted := r.mergeTree()
			if got.Clean() {
				if gitTree == nil {
					t.Fatalf("git reports conflicts %v, we merged cleanly", gitConflicted)
				}
				if merged := apply(ours, got.Changes); !reflect.DeepEqual(merged, gitTree) {
					t.Errorf("merged tree differs from git merge-tree\n got %v\n git %v", merged, gitTree)
				}
				return
			}
			want := tt.gitPaths
			if want == nil {
				for p := range tt.conflicts {
					want = append(want, p)
				}
			}
			slices.Sort(want)
			slices.Sort(gitConflicted)
			if !slices.Equal(gitConflicted, want) {
				t.Errorf("git merge-tree conflicted paths %v, want %v", gitConflicted, want)
			}
		})
	}
}

// TestMergeTreesTextConflictCarriesMarkers checks that a content conflict
// carries the diff3 text with the labels.
func TestMergeTreesTextConflictCarriesMarkers(t *testing.T) {
	blobs := mapBlobs{"b": "x\n", "o": "y\n", "t": "z\n"}
	got, err := MergeTrees(
		Tree{"s/SKILL.md": {ID: "b", Mode: ModeRegular}},
		Tree{"s/SKILL.md": {ID: "o", Mode: ModeRegular}},
		Tree{"s/SKILL.md": {ID: "t", Mode: ModeRegular}},
		blobs, Labels{Ours: "main", Base: "base", Theirs: "proposals/p1"})
	if err != nil {
		t.Fatal(err)
	}
	want := "<<<<<<< main\ny\n||||||| base\nx\n=======\nz\n>>>>>>> proposals/p1\n"
	if len(got.Conflicts) != 1 || string(got.Conflicts[0].Text) != want {
		t.Fatalf("conflicts = %+v, want one with text %q", got.Conflicts, want)
	}
}

func TestMergeTreesReadError(t *testing.T) {
	_, err := MergeTrees(
		Tree{"s/SKILL.md": {ID: "b", Mode: ModeRegular}},
		Tree{"s/SKILL.md": {ID: "o", Mode: ModeRegular}},
		Tree{"s/SKILL.md": {ID: "missing", Mode: ModeRegular}},
		mapBlobs{"b": "x\n", "o": "y\n"}, DefaultLabels)
	if err == nil || !strings.Contains(err.Error(), "s/SKILL.md") {
		t.Fatalf("err = %v, want a read error naming the path", err)
	}
}

type mapBlobs map[string]string

func (m mapBlobs) ReadBlob(id string) ([]byte, error) {
	s, ok := m[id]
	if !ok {
		return nil, fmt.Errorf("blob %s not found", id)
	}
	return []byte(s), nil
}
