package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillrepo/skillrepo/internal/procgroup"
)

// The git binary's transport, beside go-git's (transport.go): where git
// is on PATH, push and pull list, push and fetch through it, since
// go-git's push takes seconds per commit (docs/git-format.md §9). Each
// command runs in the work tree with the repository's environment
// (GitEnv); the path of the git binary is the caller's (it looked it up).

// GitBinary is the git binary on PATH, the one the git-binary transport
// runs (an error wrapping exec.ErrNotFound when there is none): the
// domain asks here, and runs no program itself.
func GitBinary() (string, error) { return exec.LookPath("git") }

// GitCommand runs the git binary at git in the work tree.
func (l *Repo) GitCommand(ctx context.Context, git string, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, git, args...)
	procgroup.Set(cmd)
	cmd.Dir = l.Root
	cmd.Env = l.GitEnv()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// GitRemoteRefs lists remote's refs that match patterns (git ls-remote).
func (l *Repo) GitRemoteRefs(ctx context.Context, git, remote string, patterns ...string) (map[string]plumbing.Hash, error) {
	out, stderr, err := l.GitCommand(ctx, git, append([]string{"ls-remote", remote}, patterns...)...)
	if err != nil {
		return nil, fmt.Errorf("git ls-remote %s: %v: %s", remote, err, strings.TrimSpace(string(stderr)))
	}
	refs := map[string]plumbing.Hash{}
	for _, line := range strings.Split(string(out), "\n") {
		h, name, ok := strings.Cut(line, "\t")
		if ok && IsHash(h) {
			refs[name] = NewHash(h)
		}
	}
	return refs, nil
}

// GitPush pushes updates to remote in one git push (never forced; a
// delete is leased: refused if the remote ref moved from Old). rejected
// names each update's ref with git's reason for refusing it ("" when it
// was pushed); the error is a push that reported no ref at all.
func (l *Repo) GitPush(ctx context.Context, git, remote string, updates []PushUpdate, atomic, dryRun bool) (rejected map[string]string, err error) {
	args := []string{"push", "--porcelain", "--no-verify"}
	if atomic {
		args = append(args, "--atomic")
	}
	if dryRun {
		args = append(args, "--dry-run")
	}
	var specs []string
	for _, u := range updates {
		if u.New.IsZero() {
			args = append(args, "--force-with-lease="+u.Ref+":"+u.Old.String())
			specs = append(specs, ":"+u.Ref)
			continue
		}
		specs = append(specs, u.New.String()+":"+u.Ref)
	}
	args = append(args, remote)
	args = append(args, specs...)
	out, stderr, err := l.GitCommand(ctx, git, args...)
	// git push exits 1 when any ref was rejected; porcelain lines say which.
	status := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || len(f[0]) != 1 {
			continue
		}
		_, dst, _ := strings.Cut(f[1], ":")
		if f[0] == "!" {
			status[dst] = strings.TrimSpace(f[2])
		} else {
			status[dst] = ""
		}
	}
	if err != nil && len(status) == 0 {
		return nil, fmt.Errorf("git push %s: %v: %s", remote, err, strings.TrimSpace(string(stderr)))
	}
	rejected = make(map[string]string, len(updates))
	for _, u := range updates {
		reason, reported := status[u.Ref]
		if !reported && err != nil {
			reason = "not pushed: " + strings.TrimSpace(string(stderr))
		}
		rejected[u.Ref] = reason
	}
	return rejected, nil
}

// GitFetch fetches refspecs from remote (no tags, pruning), with git
// checking every object it receives as its fsck does.
func (l *Repo) GitFetch(ctx context.Context, git, remote string, refspecs []string) error {
	args := append([]string{"-c", "fetch.fsckObjects=true", "fetch", "--quiet", "--no-tags", "--prune", remote}, refspecs...)
	if _, stderr, err := l.GitCommand(ctx, git, args...); err != nil {
		return fmt.Errorf("git fetch %s: %v: %s", remote, err, strings.TrimSpace(string(stderr)))
	}
	return nil
}

// GitBare runs the git binary at git on the bare repository at dir (a
// remote on this machine: a push that created main there sets its HEAD),
// with the repository's environment less what would point git at this
// repository, and returns its trimmed standard output.
func (l *Repo) GitBare(ctx context.Context, git, dir string, args ...string) (string, error) {
	var env []string
	for _, kv := range l.GitEnv() {
		if k, _, _ := strings.Cut(kv, "="); !relocatesGit[k] {
			env = append(env, kv)
		}
	}
	cmd := exec.CommandContext(ctx, git, append([]string{"--git-dir", dir}, args...)...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// networkGitEnv is added to every network git command (GitNetwork): it never waits for a person (no terminal prompt, no askpass
// window), gives up on a stalled connection, and does not start git's
// housekeeping behind the engine's back.
var networkGitEnv = []string{
	"GIT_TERMINAL_PROMPT=0",
	"GIT_ASKPASS=true",
	"SSH_ASKPASS=true",
	"GIT_HTTP_LOW_SPEED_LIMIT=1000",
	"GIT_HTTP_LOW_SPEED_TIME=20",
}

// networkGitConfig keeps a fetch from running gc or maintenance (the
// engine keeps its own objects bounded, docs/git-format.md).
//
// fetch.fsckObjects has git check every object a remote sends as its fsck
// does, before any is stored: a tree holding .git (in any spelling), "..",
// a .gitmodules symlink is refused with nothing written (docs/remote.md
// §10). A message a person judges harmless can be let through in the
// clone with `git config fetch.fsck.<id> ignore`.
var networkGitConfig = []string{"-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "fetch.writeCommitGraph=false", "-c", "fetch.fsckObjects=true"}

// GitNetwork runs a network git command of the shared remote (fetch,
// push, ls-remote) with networkGitConfig and networkGitEnv, stdin (nil:
// none) on its standard input. A time limit ends git's helpers too
// (git-remote-http would keep the pipes open and the caller waiting past
// its limit), and so does a kill of this process.
func (l *Repo) GitNetwork(ctx context.Context, git string, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, git, append(append([]string{}, networkGitConfig...), args...)...)
	procgroup.SetReaped(cmd)
	cmd.Dir = l.Root
	cmd.Env = append(l.GitEnv(), networkGitEnv...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil && err != nil {
		err = fmt.Errorf("%w (gave up: %v)", err, ctx.Err())
	}
	return out.Bytes(), errOut.Bytes(), err
}
