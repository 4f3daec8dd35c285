package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/gitserver"
)

// The fleet (docs/remote.md §8): clones of one library on a real git
// server, each with four concurrent writers, while a person approves on
// the server side with plain git. go test runs a short fleet; the e2e
// script (scripts/remote-e2e.sh) runs 8 clones for two minutes against
// lighttpd or apache2 through these flags.
var (
	fleetClones   = flag.Int("fleet.clones", 3, "clones of the fleet test")
	fleetDuration = flag.Duration("fleet.duration", 5*time.Second, "how long the fleet's writers write")
	fleetURL      = flag.String("fleet.url", "", "URL of an empty bare repository on a real server for the fleet (default: git http-backend behind net/http/cgi in the test)")
	fleetDir      = flag.String("fleet.dir", "", "the folder of the -fleet.url repository (its reflog and fsck are checked)")
)

// fleetWrite is one write a writer made (its command exited 0).
type fleetWrite struct {
	clone  int
	kind   string // proposal (review, write approval on), review (off), person
	commit string
}

type fleetLog struct {
	mu     sync.Mutex
	writes []fleetWrite
	errs   map[string]int // failed commands by kind, for the log
	// squashed are proposal tips the person squash-merged on the host.
	squashed []string
	merged   int
}

func (l *fleetLog) add(w fleetWrite) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, w)
}

func (l *fleetLog) failed(kind string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs[kind]++
}

// randomWords is text no other write has: the write policy's duplicate
// check compares new skills with the rest, and fleet skills must not
// look alike.
func randomWords(n int) string {
	b := make([]byte, 4*n)
	_, _ = rand.Read(b)
	words := make([]string, n)
	for i := range words {
		words[i] = "w" + hex.EncodeToString(b[4*i:4*i+4])
	}
	return strings.Join(words, " ")
}

func skillText(name string) string {
	return "---\nname: " + name + "\ndescription: Use when " + randomWords(6) + ".\n---\n# " + name + "\n\n" + randomWords(30) + "\n"
}

// TestFleet: every write of every clone ends on the remote's main or in a
// published proposal (or in a proposal the person squashed into main),
// nothing is forced on the server, every repository passes git fsck
// --strict, and one SessionStart brings every clone to the remote's main.
func TestFleet(t *testing.T) {
	if testing.Short() && *fleetURL == "" {
		t.Skip("the fleet runs processes for seconds")
	}
	url, bare := *fleetURL, *fleetDir
	var srv *gitserver.Server
	if url == "" {
		srv = gitserver.HTTP(t, gitserver.Options{})
		url, bare = srv.Init(t, "skills.git"), srv.Dir("skills.git")
	} else if bare == "" {
		t.Fatal("-fleet.url needs -fleet.dir")
	}
	tm := newTeam(t, url, bare, *fleetClones, func(tm *team, dir string) {
		// A skill every clone's agents and people patch: the same line,
		// so concurrent patches conflict and travel as proposals.
		// No background sync yet: newTeam pushes next.
		env := tm.env
		tm.env = append(slices.Clone(env), "SKILLREPO_WORKER=off")
		defer func() { tm.env = env }()
		cmd := []string{"skill", "create", "fleet-shared", "--content-file", "-", "--origin", "background-review", "--review-id", "r-setup"}
		if out, errOut, err := tm.exec(dir, "---\nname: fleet-shared\ndescription: Use when the fleet shares a line.\n---\n# Shared\n\ntoken: start\n", "skillrepo", cmd...); err != nil {
			t.Fatalf("create fleet-shared: %v\n%s%s", err, out, errOut)
		}
	})
	log := &fleetLog{errs: map[string]int{}}
	deadline := time.Now().Add(*fleetDuration)
	var wg sync.WaitGroup
	for i, dir := range tm.clone {
		for _, w := range []func(){
			func() { fleetProposer(tm, log, i, dir, deadline) },
			func() { fleetReviewer(tm, log, i, dir, deadline) },
			func() { fleetPerson(tm, log, i, dir, deadline) },
			func() { fleetBumper(tm, log, dir, deadline) },
		} {
			wg.Add(1)
			go func() { defer wg.Done(); w() }()
		}
	}
	person := filepath.Join(t.TempDir(), "host-person")
	tm.run(t, filepath.Dir(person), "git", "clone", "-q", url, person)
	wg.Add(1)
	go func() { defer wg.Done(); hostApprover(tm, log, person, deadline) }()
	wg.Wait()
	t.Logf("fleet: %d clones, %d writes (%s), failed commands %v; the host person merged %d and squashed %d",
		len(tm.clone), len(log.writes), countKinds(log.writes), log.errs, log.merged, len(log.squashed))
	if log.merged == 0 || len(log.squashed) == 0 {
		t.Errorf("the host person approved too little to check (merged %d, squashed %d)", log.merged, len(log.squashed))
	}
	tm.quiet(t, 4*time.Minute)

	// Every clone's main is on the remote's main; every proposal an
	// agent staged is published (at its tip), merged or squashed.
	for _, dir := range tm.clone {
		m := tm.rev(t, dir, "main")
		if _, _, err := tm.exec(bare, "", "git", "merge-base", "--is-ancestor", m, "main"); err != nil {
			t.Errorf("%s: main %s is not on the remote's main (%v)\n%s", filepath.Base(dir), m, err, remoteLog(dir))
		}
	}
	remoteRefs := refsOf(t, tm, bare)
	diverged := 0
	for ref := range remoteRefs {
		if strings.HasPrefix(ref, "refs/heads/proposals/diverged-") {
			diverged++
		}
	}
	t.Logf("remote: %d branches, %d of them proposals a conflict or lost races left (diverged-*); main has %s commits",
		len(remoteRefs), diverged, tm.run(t, bare, "git", "rev-list", "--count", "main"))
	reachable := reachableFrom(t, tm, bare, append(slices.Collect(mapValues(remoteRefs)), log.squashed...))
	for _, dir := range tm.clone {
		for ref, tip := range refsOf(t, tm, dir) {
			if !strings.HasPrefix(ref, "refs/heads/proposals/") {
				continue
			}
			if remoteRefs[ref] != tip && !reachable[tip] {
				t.Errorf("%s: %s at %.12s is neither published nor merged (remote: %.12s)\n%s", filepath.Base(dir), ref, tip, remoteRefs[ref], remoteLog(dir))
			}
		}
	}
	lost := 0
	for _, w := range log.writes {
		if !reachable[w.commit] {
			lost++
			if lost <= 10 {
				t.Errorf("clone-%d's %s write %.12s is on no remote branch (nor in a squashed proposal)", w.clone, w.kind, w.commit)
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d writes are not on the remote", lost, len(log.writes))
	}
	checkServer(t, tm, srv, bare)
	for _, dir := range tm.clone {
		if out, errOut, err := tm.exec(dir, "", "git", "fsck", "--strict", "--no-progress"); err != nil {
			t.Errorf("%s: git fsck --strict: %v\n%s%s", filepath.Base(dir), err, out, errOut)
		}
	}

	// One SessionStart per clone: every clone converges on the remote's
	// main, with a clean work tree, and the remote's main does not move.
	want := tm.remoteMain(t)
	for _, dir := range tm.clone {
		tm.sessionStart(t, dir)
	}
	tm.quiet(t, 4*time.Minute)
	if got := tm.remoteMain(t); got != want {
		t.Errorf("the remote's main moved during the SessionStarts: %.12s -> %.12s (a clone had unpushed work)", want, got)
		want = got
	}
	for _, dir := range tm.clone {
		if got := tm.rev(t, dir, "main"); got != want {
			t.Errorf("%s: main %.12s after one SessionStart, the remote's is %.12s\n%s", filepath.Base(dir), got, want, remoteLog(dir))
		}
		if st := tm.run(t, dir, "git", "status", "--porcelain"); st != "" {
			t.Errorf("%s: git status:\n%s", filepath.Base(dir), st)
		}
	}
}

func countKinds(ws []fleetWrite) string {
	n := map[string]int{}
	for _, w := range ws {
		n[w.kind]++
	}
	return fmt.Sprintf("%d proposals, %d review writes to main, %d a person's", n["proposal"], n["review"], n["person"])
}

func remoteLog(dir string) string {
	data, _ := os.ReadFile(filepath.Join(dir, ".git", "skillrepo", "logs", "remote.log"))
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	return "remote.log (end):\n" + string(data)
}

// writeJSON runs a write with --json and returns its commit.
func writeJSON(tm *team, dir, stdin string, args ...string) (string, error) {
	out, errOut, err := tm.exec(dir, stdin, "skillrepo", append(args, "--json")...)
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, errOut)
	}
	var res struct {
		Commit string `json:"commit"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Commit == "" {
		return "", fmt.Errorf("no commit in %q: %v", out, err)
	}
	return res.Commit, nil
}

func pause() { time.Sleep(time.Duration(50+randInt(200)) * time.Millisecond) }

func randInt(n int) int {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return (int(b[0])<<8 | int(b[1])) % n
}

// fleetProposer is a review with write approval on: each write is a new
// proposal, which the clone's background sync publishes.
func fleetProposer(tm *team, log *fleetLog, clone int, dir string, deadline time.Time) {
	for n := 0; time.Now().Before(deadline); n++ {
		id := fmt.Sprintf("r-c%d-p%d", clone, n)
		name := fmt.Sprintf("fleet-c%d-p%d", clone, n)
		c, err := writeJSON(tm, dir, skillText(name), "skill", "create", name, "--content-file", "-",
			"--origin", "background-review", "--review-id", id, "--proposal", id)
		if err != nil {
			log.failed("proposal")
		} else {
			log.add(fleetWrite{clone, "proposal", c})
		}
		pause()
	}
}

// fleetReviewer is a review with write approval off: its writes land on
// main; every third patches the shared line.
func fleetReviewer(tm *team, log *fleetLog, clone int, dir string, deadline time.Time) {
	for n := 0; time.Now().Before(deadline); n++ {
		id := fmt.Sprintf("r-c%d-m%d", clone, n)
		var c string
		var err error
		if n%3 == 2 {
			c, err = patchShared(tm, dir, fmt.Sprintf("c%d-m%d", clone, n), "--origin", "background-review", "--review-id", id)
		} else {
			name := fmt.Sprintf("fleet-c%d-m%d", clone, n)
			c, err = writeJSON(tm, dir, skillText(name), "skill", "create", name, "--content-file", "-", "--origin", "background-review", "--review-id", id)
		}
		if err != nil {
			log.failed("review")
		} else {
			log.add(fleetWrite{clone, "review", c})
		}
		pause()
	}
}

// fleetPerson is a person writing through skillrepo on main; every
// fourth write patches the shared line.
func fleetPerson(tm *team, log *fleetLog, clone int, dir string, deadline time.Time) {
	for n := 0; time.Now().Before(deadline); n++ {
		var c string
		var err error
		if n%4 == 3 {
			c, err = patchShared(tm, dir, fmt.Sprintf("c%d-u%d", clone, n))
		} else {
			name := fmt.Sprintf("person-c%d-%d", clone, n)
			c, err = writeJSON(tm, dir, skillText(name), "skill", "create", name, "--content-file", "-")
		}
		if err != nil {
			log.failed("person")
		} else {
			log.add(fleetWrite{clone, "person", c})
		}
		pause()
	}
}

// patchShared replaces the shared skill's token line, as read from the
// clone's work tree.
func patchShared(tm *team, dir, token string, extra ...string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "fleet-shared", "SKILL.md"))
	if err != nil {
		return "", err
	}
	var line string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "token: ") {
			line = l
		}
	}
	if line == "" {
		return "", fmt.Errorf("no token line")
	}
	return writeJSON(tm, dir, "", append([]string{"skill", "patch", "fleet-shared", "--old", line, "--new", "token: " + token}, extra...)...)
}

// fleetBumper counts uses, as an agent's PostToolUse does.
func fleetBumper(tm *team, log *fleetLog, dir string, deadline time.Time) {
	for time.Now().Before(deadline) {
		if _, _, err := tm.exec(dir, "", "skillrepo", "usage", "bump", "ci-debugging", "--use"); err != nil {
			log.failed("usage")
		}
		pause()
	}
}

// hostApprover is a person approving on the host with plain git:
// alternately a merge commit and a squash of a published proposal,
// pushed with the branch's deletion (leased, atomic).
func hostApprover(tm *team, log *fleetLog, dir string, deadline time.Time) {
	git := func(args ...string) (string, error) {
		start := time.Now()
		out, errOut, err := tm.exec(dir, "", "git", args...)
		if os.Getenv("FLEET_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "host person: git %s: %s %v\n", args[0], time.Since(start).Round(time.Millisecond), err)
		}
		if err != nil {
			log.failed("host " + args[0])
			if os.Getenv("FLEET_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "host person: git %s: %v: %s%s\n", strings.Join(args, " "), err, out, errOut)
			}
			return "", fmt.Errorf("%v: %s", err, errOut)
		}
		return strings.TrimSpace(out), nil
	}
	// Until the writers stop, and then until it has merged one and
	// squashed one (a loaded machine may leave it no window before), at
	// most two minutes more.
	hardStop := deadline.Add(2 * time.Minute)
	for n := 0; time.Now().Before(deadline) || (time.Now().Before(hardStop) && (log.merged == 0 || len(log.squashed) == 0)); n++ {
		if _, err := git("fetch", "-q", "--prune", "origin"); err != nil {
			continue
		}
		if _, err := git("reset", "-q", "--hard", "origin/main"); err != nil {
			continue
		}
		out, _ := git("for-each-ref", "--format=%(refname:lstrip=3) %(objectname)", "refs/remotes/origin/proposals/")
		var picks []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "proposals/r-") {
				picks = append(picks, line)
			}
		}
		if len(picks) == 0 {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		branch, tip, _ := strings.Cut(picks[randInt(len(picks))], " ")
		squash := log.merged >= len(log.squashed) // alternate, a squash first
		if squash {
			if _, err := git("merge", "-q", "--squash", "origin/"+branch); err != nil {
				git("reset", "-q", "--hard", "origin/main")
				continue
			}
			if _, err := git("commit", "-q", "-m", "Squashed pull request "+branch); err != nil {
				git("reset", "-q", "--hard", "origin/main")
				continue
			}
		} else if _, err := git("merge", "-q", "--no-ff", "-m", "Merge pull request "+branch, "origin/"+branch); err != nil {
			git("merge", "--abort")
			continue
		}
		// A busy main: when another push wins, bring it in (git pull, as
		// a person does) and push again.
		pushed := false
		for try := 0; try < 30 && !pushed; try++ {
			if _, err := git("push", "-q", "--atomic", "--force-with-lease=refs/heads/"+branch+":"+tip, "origin", "main", ":refs/heads/"+branch); err == nil {
				pushed = true
				break
			}
			if _, err := git("fetch", "-q", "origin", "main"); err != nil {
				break
			}
			if _, err := git("merge", "-q", "--no-edit", "FETCH_HEAD"); err != nil {
				git("merge", "--abort")
				break
			}
		}
		if !pushed {
			continue
		}
		log.mu.Lock()
		if squash {
			log.squashed = append(log.squashed, tip)
		} else {
			log.merged++
		}
		log.mu.Unlock()
	}
}

func refsOf(t *testing.T, tm *team, dir string) map[string]string {
	t.Helper()
	out := tm.run(t, dir, "git", "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")
	refs := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if ref, h, ok := strings.Cut(line, " "); ok {
			refs[ref] = h
		}
	}
	return refs
}

func mapValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// reachableFrom is every commit reachable from tips in the repository
// at dir.
func reachableFrom(t *testing.T, tm *team, dir string, tips []string) map[string]bool {
	t.Helper()
	out, errOut, err := tm.exec(dir, strings.Join(tips, "\n")+"\n", "git", "rev-list", "--stdin")
	if err != nil {
		t.Fatalf("git rev-list: %v\n%s", err, errOut)
	}
	set := map[string]bool{}
	for _, h := range strings.Fields(out) {
		set[h] = true
	}
	return set
}

// checkServer: nothing was forced (every reflog entry of the server's
// refs is a fast-forward) and git fsck --strict passes there.
func checkServer(t *testing.T, tm *team, srv *gitserver.Server, bare string) {
	t.Helper()
	if srv != nil {
		if f := srv.Forced(t, "skills.git"); len(f) > 0 {
			t.Errorf("forced updates on the server: %+v", f)
		}
	} else {
		logs := filepath.Join(bare, "logs", "refs")
		n := 0
		_ = filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				f := strings.Fields(line)
				if len(f) < 2 || strings.Trim(f[0], "0") == "" || strings.Trim(f[1], "0") == "" {
					continue
				}
				n++
				if _, _, err := tm.exec(bare, "", "git", "merge-base", "--is-ancestor", f[0], f[1]); err != nil {
					t.Errorf("forced update of %s on the server: %.12s -> %.12s", p, f[0], f[1])
				}
			}
			return nil
		})
		if n == 0 {
			t.Errorf("the server's reflog (%s) is empty: set core.logAllRefUpdates=always there", logs)
		}
	}
	if out, errOut, err := tm.exec(bare, "", "git", "fsck", "--strict", "--no-progress"); err != nil {
		t.Errorf("server: git fsck --strict: %v\n%s%s", err, out, errOut)
	}
}
