package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// HEAD says what a push did about the remote's HEAD, the branch a
// clone checks out. A fresh bare repository's HEAD names its default
// branch (often master) whether or not that branch exists; git push never
// changes it, so after pushing only main, clones come out empty ("remote
// HEAD refers to nonexistent ref"). git push -u users expect the branch
// they pushed to be the one a clone gets.
type HEAD struct {
	// Set: the remote is a bare repository on this machine whose HEAD
	// named a branch it does not have; it now names main.
	Set bool `json:"set,omitempty"`
	// Was is the branch HEAD named before (Set), or names now (Hint).
	Was string `json:"was,omitempty"`
	// Hint says how to set it when skillrepo cannot (a server).
	Hint string `json:"hint,omitempty"`
}

// settleRemoteHEAD runs after a push that created main on the remote. For
// a bare repository given by a path (or file:// URL) whose HEAD names a
// branch it lacks, HEAD is pointed at main (what a hosting site does for
// the first branch pushed). A remote that is a work tree keeps its HEAD:
// it is someone's checkout. For a server, where no push can set HEAD, the
// result says how.
func (r *Remote) settleRemoteHEAD(ctx context.Context, remote string, tr transport) *HEAD {
	main := branchRef(r.lib.MainBranch())
	dir, ok := r.localRemoteDir(remote)
	if !ok {
		// A server: most hosting sites make the first branch pushed the
		// default; a bare repository over ssh does not. ls-remote shows
		// HEAD only when HEAD resolves.
		if g, ok := tr.(skillrepo.Transport); ok && g.Name() == "git" {
			out, _, err := g.Command(ctx, "ls-remote", "--symref", remote, "HEAD")
			if err == nil && strings.TrimSpace(string(out)) == "" {
				return &HEAD{Hint: fmt.Sprintf("%s's HEAD names no existing branch, so a clone checks out nothing: make %s its default branch (on a hosting site, in the repository's settings; in a bare repository, run 'git symbolic-ref HEAD %s' there)", remote, r.lib.MainBranch(), main)}
			}
		}
		return nil
	}
	b := bareRepo{dir: dir}
	if g, err := r.d.GitTransport(); err == nil {
		b.git = &g
	}
	if !b.isBare(ctx) {
		return nil
	}
	head, ok := b.head(ctx)
	if !ok || b.hasRef(ctx, head) || !b.hasRef(ctx, main) {
		return nil // detached, named a branch it has, or main did not land
	}
	was := strings.TrimPrefix(head, "refs/heads/")
	if err := b.setHead(ctx, main); err != nil {
		return &HEAD{Was: was, Hint: fmt.Sprintf("%s's HEAD names %s, which does not exist; setting it failed (%v): run 'git --git-dir %s symbolic-ref HEAD %s'", remote, was, err, dir, main)}
	}
	return &HEAD{Set: true, Was: was}
}

// bareRepo reads and sets a local bare repository's HEAD: with the git
// binary when there is one (its locks, any ref storage), else through the
// files of the classic layout (no git runs beside us then).
type bareRepo struct {
	dir string
	git *skillrepo.Transport // nil: git is not on PATH
}

func (b bareRepo) run(ctx context.Context, args ...string) (string, error) {
	return b.git.Bare(ctx, b.dir, args...)
}

func (b bareRepo) isBare(ctx context.Context) bool {
	if b.git != nil {
		out, err := b.run(ctx, "rev-parse", "--is-bare-repository")
		return err == nil && out == "true"
	}
	f, err := os.Open(filepath.Join(b.dir, "config"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.ReplaceAll(sc.Text(), " ", ""), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "bare") {
			return strings.EqualFold(strings.TrimSpace(v), "true")
		}
	}
	return false
}

// maxBareFile bounds what is read of a bare remote's HEAD and
// packed-refs: the remote is a folder anyone may have written.
const maxBareFile = 64 << 20

// head is the ref HEAD names; ok is false when HEAD is detached.
func (b bareRepo) head(ctx context.Context) (string, bool) {
	if b.git != nil {
		out, err := b.run(ctx, "symbolic-ref", "-q", "HEAD")
		return out, err == nil && out != ""
	}
	data, err := boundedread.ReadFile(filepath.Join(b.dir, "HEAD"), maxBareFile)
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: ")
	return ref, err == nil && ok
}

func (b bareRepo) hasRef(ctx context.Context, ref string) bool {
	if b.git != nil {
		_, err := b.run(ctx, "rev-parse", "-q", "--verify", ref+"^{commit}")
		return err == nil
	}
	if _, err := os.Stat(filepath.Join(b.dir, filepath.FromSlash(ref))); err == nil {
		return true
	}
	packed, err := boundedread.ReadFile(filepath.Join(b.dir, "packed-refs"), maxBareFile)
	return err == nil && bytes.Contains(packed, []byte(" "+ref+"\n"))
}

func (b bareRepo) setHead(ctx context.Context, ref string) error {
	if b.git != nil {
		_, err := b.run(ctx, "symbolic-ref", "-m", "skillrepo: push set HEAD to the pushed main branch", "HEAD", ref)
		return err
	}
	// git's protocol: create HEAD.lock exclusively (someone else's lock
	// is never touched), write, rename over HEAD.
	lock := filepath.Join(b.dir, "HEAD.lock")
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: another git process is changing HEAD", lock)
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString("ref: " + ref + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lock, filepath.Join(b.dir, "HEAD"))
	}
	if err != nil {
		os.Remove(lock)
	}
	return err
}

// localRemoteDir is the directory of a remote given as a path or a
// file:// URL (relative paths are relative to the library, as git reads
// them).
func (r *Remote) localRemoteDir(remote string) (string, bool) {
	u, err := r.d.URL(remote)
	if err != nil {
		return "", false
	}
	switch {
	case strings.HasPrefix(u, "file://"):
		u = strings.TrimPrefix(u, "file://")
	case strings.Contains(u, "://"):
		return "", false
	default:
		// scp-like host:path is a server, as git takes it: a colon
		// before the first slash.
		if i, j := strings.Index(u, ":"), strings.Index(u, "/"); i >= 0 && (j < 0 || i < j) && !filepath.IsAbs(u) {
			return "", false
		}
	}
	if !filepath.IsAbs(u) {
		u = filepath.Join(r.lib.Root, u)
	}
	if fi, err := os.Stat(u); err != nil || !fi.IsDir() {
		return "", false
	}
	return u, true
}
