package catalog

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// A library made by the git binary: a flat skill, one in a category, an
// archived one, a hidden folder and a folder that is no skill.
func testTree(t *testing.T) (dir string, git func(...string) string, open func() (*gitstore.Store, gitstore.Hash)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	dir = t.TempDir()
	env := testenv.Env(t.TempDir())
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for p, body := range map[string]string{
		"flat/SKILL.md":              "---\nname: flat\n---\n",
		"devops/docker/SKILL.md":     "---\nname: docker-tips\n---\n",
		".archive/old/SKILL.md":      "---\nname: old\n---\n",
		".hidden/secret/SKILL.md":    "---\nname: secret\n---\n",
		"notes/readme.md":            "not a skill\n",
		"devops/docker/references/x": "a reference\n",
	} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "skills")
	open = func() (*gitstore.Store, gitstore.Hash) {
		repo, err := gitstore.Open(dir, gitstore.Options{Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { repo.Close() })
		store := repo.NewStore(true)
		tree, _, err := store.CommitInfo(gitstore.NewHash(git("rev-parse", "HEAD")))
		if err != nil {
			t.Fatal(err)
		}
		return store, tree
	}
	return dir, git, open
}

// The walk finds active skills (flat and in categories) before archived
// ones and nothing in hidden folders; the catalogue lists the same, saves
// itself, and after a commit lists the new tree from its file, moved by
// the folders that differ.
func TestDiscoverAndCache(t *testing.T) {
	dir, git, open := testTree(t)
	store, tree := open()
	want := []SkillInfo{
		{Name: "docker", Dir: "devops/docker", Category: "devops"},
		{Name: "flat", Dir: "flat"},
		{Name: "old", Dir: ".archive/old", Archived: true},
	}
	got, err := Discover(store, tree)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Discover = %+v, %v\nwant %+v", got, err, want)
	}
	path := filepath.Join(t.TempDir(), "skills.bin")
	var k Cache
	at := At{Store: store, Tree: tree, Path: path, Persist: true}
	if got, err := k.Skills(at); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Cache.Skills = %+v, %v", got, err)
	}
	if !Readable(path) {
		t.Fatal("the catalogue was not saved")
	}
	if n, err := k.FolderNameCount(at, "docker"); err != nil || n != 1 {
		t.Errorf("FolderNameCount(docker) = %d, %v", n, err)
	}
	if ds, err := k.Declaring(at, "docker-tips"); err != nil || len(ds) != 1 || ds[0].Dir != "devops/docker" {
		t.Errorf("Declaring(docker-tips) = %+v, %v", ds, err)
	}

	// A new skill, committed: a new cache reads the file and moves it.
	if err := os.MkdirAll(filepath.Join(dir, "devops", "k8s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "devops", "k8s", "SKILL.md"), []byte("---\nname: k8s\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-qm", "k8s")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	store2, tree2 := open()
	var k2 Cache
	got, err = k2.Skills(At{Store: store2, Tree: tree2, Path: path, Persist: true})
	want = append([]SkillInfo{{Name: "k8s", Dir: "devops/k8s", Category: "devops"}}, want...)
	want[0], want[1] = want[1], want[0] // devops/docker sorts before devops/k8s
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a commit: %+v, %v\nwant %+v", got, err, want)
	}
	after, err := os.ReadFile(path)
	if err != nil || len(after) <= len(before) || string(after[:len(before)]) != string(before) || !Readable(path) {
		t.Errorf("the move was not appended to the file as a delta (%d bytes, was %d)", len(after), len(before))
	}
	if k2.SurelyNoneNamed(At{Store: store2, Tree: tree2, Path: path, Persist: true}, "k8s") {
		t.Error("SurelyNoneNamed(k8s) for a skill that is there")
	}
}
