package gitstore

// Loose objects are kept bounded the way git keeps them (docs/git-format.md §6):
// every write adds loose objects (a flat library's root tree alone is
// 380 KB per write), and nothing else would ever pack them. After a write,
// when the loose objects are estimated to pass 6,700 objects (git's
// gc.auto default, or the user's if higher) or 64 MiB, `git gc` is started
// in the background, detached, as git commit starts `git gc --auto`. The estimate reads one fan-out folder (objects/17,
// a 256th of the objects), as git's own does: one readdir per write.
//
// The git binary does the work: go-git's repack of a 10,000-skill library
// takes 8 s and 400 MB (git: 0.2 s). Without git on PATH nothing runs.
// git gc honours gc.auto=0 (the user's opt-out, which the size rule
// respects too), takes its own gc.pid lock, and leaves fresh unreachable
// objects alone, so a write running beside it loses nothing; a reader
// whose pack list went stale reopens it (readObject).

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// maintenancePolicy says when a write starts git gc.
type maintenancePolicy struct {
	looseObjects int   // estimated loose objects (git's gc.auto default)
	looseBytes   int64 // estimated bytes of loose objects
	// start runs the command; nil starts it detached without waiting.
	start func(cmd *exec.Cmd) error
}

var defaultMaintenance = maintenancePolicy{looseObjects: 6700, looseBytes: 64 << 20}

// looseEstimate estimates the number of loose objects from objects/17,
// and their total size unless the number alone passes countBound (sizes
// cost a stat per file; size is then -1).
func (l *Repo) looseEstimate(countBound int) (count int, size int64) {
	entries, err := os.ReadDir(filepath.Join(l.GitDir, "objects", "17"))
	if err != nil {
		return 0, 0
	}
	var objects []os.DirEntry
	for _, e := range entries {
		if len(e.Name()) == 38 && !e.IsDir() { // not temp files and strays
			objects = append(objects, e)
		}
	}
	if count = len(objects) * 256; count > countBound {
		return count, -1
	}
	for _, e := range objects {
		if fi, err := e.Info(); err == nil {
			size += fi.Size()
		}
	}
	return count, size * 256
}

// maintain starts git gc in the background when the loose objects passed
// the policy's bounds. It never fails a write: maintenance is best effort.
func (l *Repo) maintain() {
	p := l.maintenance
	count, size := l.looseEstimate(p.looseObjects)
	if count <= p.looseObjects && size <= p.looseBytes {
		return
	}
	// Past a bound (rare): the user's gc.auto has the last word. 0 turns
	// both rules off; a higher value raises the count rule. (A lower one
	// is left to git's own gc --auto: reading git's configuration on
	// every write would cost more than this check.)
	if threshold, set := l.gcAuto(); set {
		if threshold <= 0 {
			return
		}
		if count <= threshold {
			if size < 0 {
				_, size = l.looseEstimate(math.MaxInt)
			}
			if size <= p.looseBytes {
				return
			}
		}
	}
	gitPath, err := exec.LookPath("git")
	if err != nil || l.gcRunning() {
		return
	}
	// Not --auto: git's estimate needs more than threshold/256 objects in
	// objects/17 and knows no size rule, so it would often decline. A
	// full gc repacks a 10,000-skill library in a fraction of a second,
	// and runs once per thousands of objects or 64 MiB.
	cmd := exec.Command(gitPath, "gc", "--quiet")
	cmd.Dir = l.Root
	cmd.Env = l.GitEnv()
	if p.start != nil {
		p.start(cmd)
		return
	}
	detach(cmd)
	if cmd.Start() == nil {
		go cmd.Wait() // reap it if this process outlives it
	}
}

// gcRunning reports a git gc under way: git keeps gc.pid while it runs
// and treats one older than 12 hours as stale.
func (l *Repo) gcRunning() bool {
	fi, err := os.Stat(filepath.Join(l.GitDir, "gc.pid"))
	return err == nil && time.Since(fi.ModTime()) < 12*time.Hour
}

// gcAuto returns gc.auto and whether it is set, from every config file
// git reads and git -c, as the write that just ran read them (convert.go).
func (l *Repo) gcAuto() (int, bool) {
	c := l.converter().cfg
	return c.gcAuto, c.gcAutoSet
}

// GitEnv is the environment for the git binary: the process's, with the
// library's own view of the variables that locate git's configuration
// (tests and hooks open libraries with an environment of their own), and
// the repository named explicitly. Variables that point git at another
// repository, index or object store (a hook inherits GIT_DIR and
// GIT_INDEX_FILE from the git that runs it) are dropped, and GIT_DIR and
// GIT_WORK_TREE are set to this one, so every git subprocess works on
// this repository whatever the caller's environment says.
func (l *Repo) GitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !relocatesGit[k] {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_SSH_COMMAND"} {
		if v := l.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return append(env, "GIT_DIR="+l.GitDir, "GIT_WORK_TREE="+l.Root)
}

// relocatesGit are the variables that make git work on another repository,
// index, object store or ref namespace than the one in its folder.
var relocatesGit = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
	"GIT_COMMON_DIR": true, "GIT_NAMESPACE": true, "GIT_PREFIX": true,
	"GIT_SHALLOW_FILE": true, "GIT_GRAFT_FILE": true, "GIT_REPLACE_REF_BASE": true,
	"GIT_QUARANTINE_PATH": true, "GIT_INTERNAL_SUPER_PREFIX": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
}
