package skillrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// RemoteHEAD says what a push did about the remote's HEAD, the branch a
// clone checks out. A fresh bare repository's HEAD names its default
// branch (often master) whether or not that branch exists; git push never
// changes it, so after pushing only main, clones come out empty ("remote
// HEAD refers to nonexistent ref"). git push -u users expect the branch
// they pushed to be the one a clone gets.
type RemoteHEAD struct {
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
// branch it lacks, HEAD is pointed at main (what git clone --bare of our
// library would have, and what a hosting site does for the first branch
// pushed). A remote that is a work tree keeps its HEAD: it is someone's
// checkout. For a server, where no push can set HEAD, the result says how.
func (l *Library) settleRemoteHEAD(ctx context.Context, remote string, tr remoteTransport) *RemoteHEAD {
	main := branchRef(l.MainBranch())
	dir, ok := l.localRemoteDir(remote)
	if !ok {
		// A server: most (GitHub, GitLab, Gitea) make the first branch
		// pushed the default; a bare repository over ssh does not. Its
		// ls-remote shows HEAD only when HEAD resolves.
		if g, ok := tr.(*gitCLI); ok {
			out, _, err := g.run(ctx, "ls-remote", "--symref", remote, "HEAD")
			if err == nil && strings.TrimSpace(string(out)) == "" {
				return &RemoteHEAD{Hint: fmt.Sprintf("%s's HEAD names no existing branch, so a clone checks out nothing: make %s its default branch (on a hosting site, in the repository's settings; in a bare repository, run 'git symbolic-ref HEAD %s' there)", remote, l.MainBranch(), main)}
			}
		}
		return nil
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		return nil
	}
	cfg, err := r.Config()
	if err != nil || !cfg.Core.IsBare {
		return nil
	}
	head, err := r.Storer.Reference(plumbing.HEAD)
	if err != nil || head.Type() != plumbing.SymbolicReference {
		return nil // detached or unreadable: someone set it on purpose
	}
	if _, err := r.Storer.Reference(head.Target()); err == nil {
		return nil // HEAD names a branch that exists: leave it
	}
	if _, err := r.Storer.Reference(plumbing.ReferenceName(main)); err != nil {
		return nil
	}
	was := strings.TrimPrefix(head.Target().String(), "refs/heads/")
	if err := setBareHEAD(ctx, l, dir, main); err != nil {
		return &RemoteHEAD{Was: was, Hint: fmt.Sprintf("%s's HEAD names %s, which does not exist; setting it failed (%v): run 'git --git-dir %s symbolic-ref HEAD %s'", remote, was, err, dir, main)}
	}
	return &RemoteHEAD{Set: true, Was: was}
}

// setBareHEAD points a bare repository's HEAD at ref: with the git binary
// when there is one (its lock and its rules), else through go-git (no git
// runs beside it then).
func setBareHEAD(ctx context.Context, l *Library, dir, ref string) error {
	if p, err := exec.LookPath("git"); err == nil {
		cmd := exec.CommandContext(ctx, p, "--git-dir", dir, "symbolic-ref", "-m", "skillrepo: push set HEAD to the pushed main branch", "HEAD", ref)
		// Our own repository's variables must not redirect git.
		cmd.Env = withoutRepoEnv(l.gitEnv())
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		return err
	}
	return r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(ref)))
}

func withoutRepoEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// localRemoteDir is the directory of a remote given as a path or a
// file:// URL (relative paths are relative to the library, as git reads
// them).
func (l *Library) localRemoteDir(remote string) (string, bool) {
	r, err := l.repo.Remote(remote)
	if err != nil || len(r.Config().URLs) == 0 {
		return "", false
	}
	u := r.Config().URLs[0]
	switch {
	case strings.HasPrefix(u, "file://"):
		u = strings.TrimPrefix(u, "file://")
	case strings.Contains(u, "://"):
		return "", false
	default:
		// scp-like host:path is a server; a path with a colon before
		// its first slash is taken the same way git takes it.
		if i := strings.Index(u, ":"); i >= 0 && (strings.Index(u, "/") < 0 || i < strings.Index(u, "/")) && !filepath.IsAbs(u) {
			return "", false
		}
	}
	if !filepath.IsAbs(u) {
		u = filepath.Join(l.Root, u)
	}
	if fi, err := os.Stat(u); err != nil || !fi.IsDir() {
		return "", false
	}
	return u, true
}
