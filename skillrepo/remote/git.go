package remote

// The git binary as the shared remote's transport (docs/remote.md §2):
// fetches and leased pushes that never prompt, never force and never
// outlive their context (the engine runs them: gitstore's GitNetwork),
// and the failures they end in sorted into the few a person can fix
// (credentials, the host, a protected branch).

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// remoteGit runs the git binary for the shared remote.
type remoteGit struct {
	git    skillrepo.Transport
	remote string
}

func (r *Remote) remoteGit(remote string) (*remoteGit, error) {
	git, err := r.d.GitTransport()
	if err != nil {
		return nil, skillrepo.WithHint(err, "install git: skillrepo shares a library through the git binary's transport")
	}
	if _, err := r.d.URL(remote); err != nil {
		return nil, &Error{Op: "remote " + remote, Kind: FailMissing, Msg: fmt.Sprintf("no remote named %q in this repository", remote),
			Fix: fmt.Sprintf("add it with 'git remote add %s <url>', or set remote.name in %s", remote, config.Path)}
	}
	return &remoteGit{git: git, remote: remote}, nil
}

func (g *remoteGit) run(ctx context.Context, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	return g.git.Network(ctx, stdin, args...)
}

// trackingRef is where a fetch keeps the remote's branch.
func (g *remoteGit) trackingRef(branch string) string {
	return "refs/remotes/" + g.remote + "/" + branch
}

// fetch brings the remote's branches and rejection records into
// remote-tracking refs (pruning the ones the remote deleted).
func (g *remoteGit) fetch(ctx context.Context) error {
	args := append([]string{"fetch", "--quiet", "--no-tags", "--prune", "--no-write-fetch-head", g.remote}, remoteTrackingRefspecs(g.remote)...)
	if _, stderr, err := g.run(ctx, nil, args...); err != nil {
		return g.classify("fetch", err, stderr)
	}
	return nil
}

// leasedPush is the outcome of one ref's push.
type leasedPush struct {
	// OK: the remote now has the ref at the pushed commit.
	OK bool
	// Stale: the remote's ref was not where the lease expected it (someone
	// pushed first); Reason is git's word for any refusal.
	Stale  bool
	Reason string
	// Err is a refusal that is not a lost race (a hook, a protected
	// branch), sorted.
	Err error
}

// push sends commit to ref on the remote if, and only if, the remote's
// ref is at expect (zero: it must not exist). It is never forced: the
// caller has checked that commit contains expect, so a lease that holds
// makes the update a fast-forward; one that does not is refused by the
// remote, not overwritten. A refusal (a lost race) is a result; a
// failure to talk to the remote, or a hook's or a protected branch's no,
// is a *Error.
func (g *remoteGit) push(ctx context.Context, ref string, commit, expect skillrepo.Hash) (leasedPush, error) {
	outs, err := g.pushMany(ctx, []branchPush{{Ref: ref, Commit: commit, Expect: expect}})
	if err != nil {
		return leasedPush{}, err
	}
	out := outs[ref]
	if out.Err != nil {
		return out, out.Err
	}
	return out, nil
}

// branchPush is one ref of a leased push.
type branchPush struct {
	Ref            string
	Commit, Expect skillrepo.Hash
}

// pushBatch bounds the refs of one git push (its command line).
const pushBatch = 100

// pushMany pushes every update with its own lease, in as few git pushes
// as the batch allows (one connection each; not atomic: each ref stands
// on its own). The result names each ref's outcome, with Err set for a
// refusal that is not a lost race; the error is a failure to push at
// all (the network, credentials).
func (g *remoteGit) pushMany(ctx context.Context, ups []branchPush) (map[string]leasedPush, error) {
	res := make(map[string]leasedPush, len(ups))
	for start := 0; start < len(ups); start += pushBatch {
		batch := ups[start:min(start+pushBatch, len(ups))]
		args := []string{"push", "--porcelain", "--no-verify"}
		for _, u := range batch {
			lease := "--force-with-lease=" + u.Ref + ":"
			if !u.Expect.IsZero() {
				lease += u.Expect.String()
			}
			args = append(args, lease)
		}
		args = append(args, g.remote)
		for _, u := range batch {
			args = append(args, u.Commit.String()+":"+u.Ref)
		}
		out, stderr, err := g.run(ctx, nil, args...)
		reported := 0
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.SplitN(line, "\t", 3)
			if len(f) != 3 || len(f[0]) != 1 {
				continue
			}
			_, dst, _ := strings.Cut(f[1], ":")
			reason := strings.TrimSpace(f[2])
			reported++
			switch {
			case f[0] != "!":
				res[dst] = leasedPush{OK: true}
			case lostRace(reason):
				res[dst] = leasedPush{Stale: true, Reason: reason}
			default:
				// Refused for another reason: a hook, a protected branch.
				if m := remoteMessages(stderr); m != "" {
					reason += ": " + m
				}
				res[dst] = leasedPush{Reason: reason, Err: g.classify("push "+dst, errors.New(reason), []byte(reason))}
			}
		}
		if err != nil && reported == 0 {
			return nil, g.classify("push", err, stderr)
		}
		for _, u := range batch {
			if _, ok := res[u.Ref]; !ok {
				res[u.Ref] = leasedPush{Reason: "git said nothing about it", Err: fmt.Errorf("push %s: git said nothing about it: %s", u.Ref, strings.TrimSpace(string(stderr)))}
			}
		}
	}
	return res, nil
}

// deleteLeased deletes ref on the remote if it is still at expect.
func (g *remoteGit) deleteLeased(ctx context.Context, ref string, expect skillrepo.Hash) (leasedPush, error) {
	out, stderr, err := g.run(ctx, nil, "push", "--porcelain", "--no-verify", "--force-with-lease="+ref+":"+expect.String(), g.remote, ":"+ref)
	if strings.Contains(string(out), "[deleted]") {
		return leasedPush{OK: true}, nil
	}
	if strings.Contains(string(out), "!\t") {
		return leasedPush{Stale: true, Reason: strings.TrimSpace(string(out))}, nil
	}
	if err != nil {
		return leasedPush{}, g.classify("delete "+ref, err, stderr)
	}
	return leasedPush{OK: true}, nil
}

// lostRace reports a refusal that means the remote's ref moved since
// this clone looked: the lease did not hold, or another push updated the
// ref while ours was being received.
func lostRace(reason string) bool {
	for _, w := range []string{"stale info", "fetch first", "non-fast-forward", "failed to update ref", "cannot lock ref", "failed to lock"} {
		if strings.Contains(reason, w) {
			return true
		}
	}
	return false
}

// remoteMessages are the "remote: …" lines of a push's standard error:
// what a hook or the host said.
func remoteMessages(stderr []byte) string {
	var lines []string
	for _, line := range strings.Split(string(stderr), "\n") {
		if m, ok := strings.CutPrefix(line, "remote: "); ok && strings.TrimSpace(m) != "" {
			lines = append(lines, strings.TrimSpace(m))
		}
	}
	return strings.Join(lines, "; ")
}

// Kinds of remote failure, each with its fix.
const (
	FailAuth        = "auth"
	FailUnreachable = "unreachable"
	FailProtected   = "protected"
	FailMissing     = "missing"
	// FailUnsafe: the remote sent objects git's fsck refuses (a tree
	// with .git or ".."); nothing was fetched.
	FailUnsafe = "unsafe"
	FailOther  = "other"
)

// Error is a remote operation that failed, sorted into what a
// person can do about it. It matches ErrRemote.
type Error struct {
	Op, Kind, Msg, Fix string
}

// ErrRemote matches every *Error.
var ErrRemote = errors.New("remote failed")

func (e *Error) Error() string { return e.Op + ": " + e.Msg }

// Is makes errors.Is(err, ErrRemote) true.
func (e *Error) Is(target error) bool { return target == ErrRemote }

// Hint is the fix.
func (e *Error) Hint() string { return e.Fix }

// failure is the error as the state file keeps it.
func (e *Error) failure() *Failure {
	return &Failure{Op: e.Op, Kind: e.Kind, Message: e.Msg, Fix: e.Fix}
}

// classify sorts a failed git network command by what its standard error
// says (git's and the common hosts' own words).
func (g *remoteGit) classify(op string, err error, stderr []byte) *Error {
	return classifyRemote(g.remote, op, err, stderr)
}

func classifyRemote(remote, op string, err error, stderr []byte) *Error {
	msg := strings.TrimSpace(string(stderr))
	if msg == "" {
		msg = err.Error()
	}
	low := strings.ToLower(msg)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(low, w) {
				return true
			}
		}
		return false
	}
	e := &Error{Op: op, Kind: FailOther, Msg: lastLines(msg, 4)}
	switch {
	case has("fsck error", "hasdotgit", "hasdotdot", "gitmodulessymlink"):
		e.Kind = FailUnsafe
		e.Msg = remote + " sent objects git refuses (" + fsckProblem(msg) + "); nothing was fetched and no branch moved"
		e.Fix = "someone pushed a tree git's fsck refuses (a .git folder, \"..\", a .gitmodules symlink): remove it on " + remote + " with a new commit; 'git fsck --strict' in a clone of it names the object"
	case has("protected branch", "gh006", "gl-protected", "pre-receive hook declined", "protected ref", "you are not allowed to push code to protected branches"):
		e.Kind = FailProtected
		e.Fix = "the host refuses pushes to this branch (a protected branch): set remote.main: pull and remote.proposals: push, so agents' work travels as pull requests a person merges"
	case has("authentication failed", "could not read username", "could not read password", "terminal prompts disabled",
		"permission denied (publickey", "http 401", "http 403", "the requested url returned error: 401", "the requested url returned error: 403",
		"access denied", "invalid username or password", "repository not found", "host key verification failed"):
		e.Kind = FailAuth
		e.Fix = "the host did not accept this machine's credentials: check them with 'git ls-remote " + remote + "' in a terminal (a credential helper, an SSH key, or 'gh auth login' / 'glab auth login'); background syncs never prompt"
	case has("could not resolve host", "failed to connect", "connection refused", "connection timed out", "network is unreachable",
		"no route to host", "operation timed out", "could not connect", "unable to access", "gave up", "connection reset", "early eof", "unable to look up"):
		e.Kind = FailUnreachable
		e.Fix = "the host could not be reached: check the network and the remote's URL ('git remote -v'); the next session start tries again"
	case has("does not appear to be a git repository", "no such remote"):
		e.Kind = FailMissing
		e.Fix = "add the remote with 'git remote add " + remote + " <url>', or set remote.name in " + config.Path
	default:
		e.Fix = "run the same git command in a terminal to see the whole message ('git fetch' or 'git push')"
	}
	return e
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// fsckProblem is git's line naming the refused object and why ("object
// f71d…: hasDotgit: contains '.git'"), else the last line.
func fsckProblem(msg string) string {
	for _, line := range strings.Split(msg, "\n") {
		if i := strings.Index(line, "object "); i >= 0 && strings.Contains(line, ": ") {
			return strings.TrimSpace(line[i:])
		}
	}
	return lastLines(msg, 1)
}
