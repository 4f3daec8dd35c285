package proposals

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

var keys = Keys{Origin: "Skill-Origin", ReviewID: "Review-Id", RejectedBy: "Rejected-By", Reason: "Reason"}

// A library the git binary made: main with a skill, proposal p-1 editing
// it (one commit with an origin trailer), proposal p-2 whose edit main
// also made differently (a conflict), and proposal p-3 merged into main by
// git (approved).
func testRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	dir := t.TempDir()
	env := testenv.Env(t.TempDir())
	n := 0
	git := func(args ...string) {
		t.Helper()
		n++
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		date := "@" + strconv.Itoa(testenv.Epoch+n) + " +0000"
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", name)
	}
	git("init", "-q", "-b", "main")
	write("pdf/SKILL.md", "---\nname: pdf\ndescription: d\n---\none\ntwo\n")
	git("commit", "-qm", "add pdf")
	git("branch", "proposals/p-1")
	git("branch", "proposals/p-2")
	git("branch", "proposals/p-3")
	git("switch", "-q", "proposals/p-1")
	write("pdf/notes.md", "a\nb\n")
	git("commit", "-qm", "pdf notes\n\nSkill-Origin: review")
	git("switch", "-q", "proposals/p-2")
	write("pdf/SKILL.md", "---\nname: pdf\ndescription: d\n---\nONE\ntwo\n")
	git("commit", "-qm", "pdf: one")
	git("switch", "-q", "proposals/p-3")
	write("README.md", "r\n")
	git("commit", "-qm", "readme")
	git("switch", "-q", "main")
	write("pdf/SKILL.md", "---\nname: pdf\ndescription: d\n---\nuno\ntwo\n")
	git("commit", "-qm", "pdf: uno")
	git("merge", "-q", "--no-edit", "proposals/p-3")
	repo, err := gitstore.Open(dir, gitstore.Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

func TestListReadsStateFilesAndMerge(t *testing.T) {
	r, err := NewReader(testRepo(t), "main", keys, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := r.List(Query{CheckMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range list {
		got = append(got, p.ID+":"+string(p.State))
	}
	// Oldest first, by their commits' times; p-3's tip is in main.
	if want := "p-1:open p-2:open p-3:approved"; strings.Join(got, " ") != want {
		t.Fatalf("List = %v, want %s", got, want)
	}
	p1, p2 := list[0], list[1]
	if p1.Origin != "review" || len(p1.Files) != 1 || p1.Files[0].Path != "pdf/notes.md" || p1.Files[0].Status != "added" || p1.Added != 2 {
		t.Errorf("p-1 = origin %q files %+v added %d, want review, pdf/notes.md added, 2 lines", p1.Origin, p1.Files, p1.Added)
	}
	if len(p1.Skills) != 1 || p1.Skills[0] != "pdf" || !p1.Mergeable() {
		t.Errorf("p-1 skills %v mergeable %v, want [pdf] and mergeable", p1.Skills, p1.Mergeable())
	}
	if !p2.Checked || len(p2.Conflicts) != 1 || p2.Conflicts[0].Path != "pdf/SKILL.md" {
		t.Errorf("p-2 conflicts = %+v, want one on pdf/SKILL.md", p2.Conflicts)
	}
	diffs, err := r.Diff(p2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || !strings.Contains(string(diffs[0].Hunks), "-one\n+ONE") || diffs[0].Added != 1 || diffs[0].Deleted != 1 {
		t.Errorf("Diff(p-2) = %+v, want pdf/SKILL.md one -> ONE", diffs)
	}
}

// memo counts what the reader keeps and hands back.
type memo struct {
	kept map[Key]*Proposal
	hits int
}

func (m *memo) Proposal(k Key) (*Proposal, bool) {
	p, ok := m.kept[k]
	if ok {
		m.hits++
		cp := *p
		return &cp, true
	}
	return nil, false
}

func (m *memo) KeepProposal(k Key, p *Proposal) { m.kept[k] = p }

func TestReaderCache(t *testing.T) {
	repo := testRepo(t)
	m := &memo{kept: map[Key]*Proposal{}}
	for i := range 2 {
		r, err := NewReader(repo, "main", keys, m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.List(Query{}); err != nil {
			t.Fatal(err)
		}
		if want := i * 3; m.hits != want || len(m.kept) != 3 {
			t.Errorf("listing %d: %d hits, %d kept; want %d hits, 3 kept", i+1, m.hits, len(m.kept), want)
		}
	}
}

func TestValidateID(t *testing.T) {
	for id, ok := range map[string]bool{"p-20261130-0a1b2c": true, "": false, ".x": false, "-x": false, "a..b": false, "x.lock": false, "a/b": false, strings.Repeat("a", 101): false} {
		if err := ValidateID(id); (err == nil) != ok {
			t.Errorf("ValidateID(%q) = %v, want ok %v", id, err, ok)
		}
	}
}
