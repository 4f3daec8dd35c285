package remote

// Pull requests through the host's own program (docs/remote.md §4): gh
// for GitHub, glab for GitLab. skillrepo speaks to no host's API itself:
// it runs the program the person already uses, only when it is installed
// and `<program> auth status` passes, never prompting, and bounded in
// time. The title and body come from the proposal.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// pullRequestTimeout bounds each call of gh or glab.
const pullRequestTimeout = 60 * time.Second

// maxPullRequestBody is kept under the hosts' limits (GitHub: 65,536
// characters).
const maxPullRequestBody = 60000

// pullRequest is the text of a proposal's pull request.
type pullRequest struct {
	Title, Body string
	// Head is the proposal's branch, Base the branch it merges into.
	Head, Base string
}

// openPullRequest opens proposal id's pull request with host's program.
// note says why none was opened when that is not an error (not installed,
// not logged in).
func (r *Remote) openPullRequest(ctx context.Context, g *remoteGit, id string, host config.RemotePullRequest, opts PublishOptions) (prURL, note string, err error) {
	prog := string(host)
	exe, err := r.lookPath(prog)
	if err != nil {
		return "", fmt.Sprintf("%s is not installed: no pull request opened (open one on the host for branch %s)", prog, skillrepo.ProposalBranch(id)), nil
	}
	remoteURL, err := r.d.URL(g.remote)
	if err != nil {
		return "", "", err
	}
	hostname, repoPath := splitRemoteURL(remoteURL)
	env := r.programEnv()
	env = append(env, "GH_PROMPT_DISABLED=1", "NO_PROMPT=1", "GLAB_NO_PROMPT=1", "NO_COLOR=1", "GH_NO_UPDATE_NOTIFIER=1", "GLAB_CHECK_UPDATE=false")
	run := func(stdin []byte, args ...string) (string, string, error) {
		cctx, cancel := context.WithTimeout(ctx, pullRequestTimeout)
		defer cancel()
		cmd := exec.CommandContext(cctx, exe, args...)
		cmd.Dir = r.lib.Root
		cmd.Env = env
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	auth := []string{"auth", "status"}
	if hostname != "" {
		auth = append(auth, "--hostname", hostname)
	}
	if _, stderr, err := run(nil, auth...); err != nil {
		return "", fmt.Sprintf("%s is not logged in to %s ('%s %s' failed: %s): no pull request opened; run '%s auth login'",
			prog, cmp.Or(hostname, "the host"), prog, strings.Join(auth, " "), lastLines(strings.TrimSpace(stderr), 2), prog), nil
	}
	pr, err := r.pullRequestText(id, opts.Summary)
	if err != nil {
		return "", "", err
	}
	if pr.Base, err = r.pullRequestBase(ctx, g); err != nil {
		return "", "", err
	}
	var args []string
	var stdin []byte
	switch host {
	case config.PullRequestGH:
		args = []string{"pr", "create", "--head", pr.Head, "--base", pr.Base, "--title", pr.Title, "--body-file", "-"}
		if hostname != "" && repoPath != "" {
			args = append(args, "--repo", hostname+"/"+repoPath)
		}
		stdin = []byte(pr.Body)
	case config.PullRequestGLab:
		args = []string{"mr", "create", "--source-branch", pr.Head, "--target-branch", pr.Base, "--title", pr.Title, "--description", pr.Body, "--yes", "--repo", withoutCredentials(remoteURL)}
	default:
		return "", "", fmt.Errorf("remote.pull_request: unknown host program %q", host)
	}
	stdout, stderr, err := run(stdin, args...)
	if u := lastURL(stdout); err == nil && u != "" {
		return u, "", nil
	}
	if u := lastURL(stderr); strings.Contains(strings.ToLower(stderr), "already exists") && u != "" {
		return u, "", nil // opened before, by us or by hand
	}
	if err == nil {
		err = errors.New("it printed no URL")
	}
	return "", "", &Error{Op: "pull request " + id, Kind: FailOther,
		Msg: fmt.Sprintf("%s %s %s: %v: %s", prog, args[0], args[1], err, lastLines(strings.TrimSpace(stderr), 3)),
		Fix: fmt.Sprintf("open it by hand for branch %s, or run 'skillrepo proposal publish %s' again", pr.Head, id)}
}

// lookPath finds a program on the library's PATH (its Getenv's, which
// is the process's unless the library was opened with another).
func (r *Remote) lookPath(prog string) (string, error) {
	for _, dir := range filepath.SplitList(r.d.Getenv("PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", prog, exec.ErrNotFound)
}

// programEnv is the environment of a program the library runs for the
// person (gh, glab): the process's, with what the library was opened
// with for the variables those programs read their login from.
func (r *Remote) programEnv() []string {
	env := os.Environ()
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "GH_CONFIG_DIR", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "GLAB_CONFIG_DIR", "GITLAB_TOKEN", "GITLAB_HOST"} {
		if v := r.d.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// lastURL is the last http(s) URL in out.
func lastURL(out string) string {
	fields := strings.Fields(out)
	for i := len(fields) - 1; i >= 0; i-- {
		f := strings.TrimRight(fields[i], ".,;)")
		if strings.HasPrefix(f, "https://") || strings.HasPrefix(f, "http://") {
			return f
		}
	}
	return ""
}

// splitRemoteURL returns the host and the repository path (without
// .git) of a remote URL: https://host/owner/repo.git,
// ssh://git@host:22/owner/repo.git or git@host:owner/repo.git.
func splitRemoteURL(raw string) (host, repo string) {
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil {
			return "", ""
		}
		host = u.Hostname()
		if u.Scheme == "http" || u.Scheme == "https" {
			host = u.Host
		}
		repo = strings.Trim(u.Path, "/")
	} else if at := strings.Index(raw, ":"); at > 0 && !strings.Contains(raw[:at], "/") {
		host = raw[:at]
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
		repo = strings.Trim(raw[at+1:], "/")
	} else {
		return "", "" // a path: no host
	}
	return host, strings.TrimSuffix(repo, ".git")
}

// pullRequestBase is the branch a pull request merges into: the
// library's main; for a library in a folder of a project, the project's
// default branch on the remote (its HEAD), which is what the project's
// pull requests target.
func (r *Remote) pullRequestBase(ctx context.Context, g *remoteGit) (string, error) {
	if r.d.Folder() == "" {
		return r.lib.MainBranch(), nil
	}
	out, _, err := g.run(ctx, nil, "ls-remote", "--symref", g.remote, "HEAD")
	if err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if rest, ok := strings.CutPrefix(line, "ref: refs/heads/"); ok {
				if b, _, ok := strings.Cut(rest, "\t"); ok {
					return b, nil
				}
			}
		}
	}
	return r.lib.MainBranch(), nil
}

// pullRequestText is the title and body of proposal id's pull request:
// the summary (a review's, or the commit subjects), the skills touched,
// the diff stats, the lint verdict, the provenance trailers, and the
// command that approves it locally.
func (r *Remote) pullRequestText(id, summary string) (*pullRequest, error) {
	p, err := r.lib.Proposals().Get(id)
	if err != nil {
		return nil, err
	}
	pr := &pullRequest{Head: skillrepo.ProposalBranch(id), Base: r.lib.MainBranch()}
	subjects := make([]string, 0, len(p.Commits))
	for i := len(p.Commits) - 1; i >= 0; i-- {
		subjects = append(subjects, p.Commits[i].Subject)
	}
	summary = strings.TrimSpace(summary)
	first := summary
	if first == "" && len(subjects) > 0 {
		first = subjects[0]
		if len(subjects) > 1 {
			first += fmt.Sprintf(" (+%d more)", len(subjects)-1)
		}
	}
	first, _, _ = strings.Cut(first, "\n")
	pr.Title = clip("skillrepo: "+cmp.Or(first, "proposal "+id), 120)

	var b strings.Builder
	if summary != "" {
		b.WriteString(summary + "\n\n")
	}
	fmt.Fprintf(&b, "Proposal `%s`", id)
	if p.Origin != "" {
		fmt.Fprintf(&b, " by %s", p.Origin)
	}
	if p.ReviewID != "" {
		fmt.Fprintf(&b, " (review `%s`)", p.ReviewID)
	}
	b.WriteString(".\n\n")
	if len(subjects) > 0 {
		b.WriteString("Commits:\n")
		for _, s := range subjects {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
	if len(p.Skills) > 0 {
		b.WriteString("**Skills touched:** `" + strings.Join(p.Skills, "`, `") + "`\n\n")
	}
	fmt.Fprintf(&b, "**Diff:** %d file(s), +%d −%d\n\n", len(p.Files), p.Added, p.Deleted)
	if len(p.Files) > 0 {
		b.WriteString("| file | change | + | − |\n| --- | --- | ---: | ---: |\n")
		for i, f := range p.Files {
			if i == 50 {
				fmt.Fprintf(&b, "| … %d more | | | |\n", len(p.Files)-50)
				break
			}
			fmt.Fprintf(&b, "| `%s` | %s | %d | %d |\n", f.Path, f.Status, f.Added, f.Deleted)
		}
		b.WriteString("\n")
	}
	b.WriteString("**Lint:** " + r.d.LintVerdict(p) + "\n\n")
	switch {
	case !p.Checked:
	case p.Applied:
		b.WriteString("**Merge:** main already has these changes.\n\n")
	case p.Mergeable():
		b.WriteString("**Merge:** merges into " + r.lib.MainBranch() + " cleanly.\n\n")
	default:
		paths := make([]string, len(p.Conflicts))
		for i, c := range p.Conflicts {
			paths[i] = "`" + c.Path + "`"
		}
		b.WriteString("**Merge:** conflicts with " + r.lib.MainBranch() + " in " + strings.Join(paths, ", ") + ".\n\n")
	}
	if ts := provenanceTrailers(p); len(ts) > 0 {
		b.WriteString("Provenance (commit trailers):\n\n```\n")
		for _, t := range ts {
			b.WriteString(t.Key + ": " + t.Value + "\n")
		}
		b.WriteString("```\n\n")
	}
	approve := "skillrepo proposal approve " + id
	if r.d.Folder() != "" {
		approve = "skillrepo -C " + r.d.Folder() + " proposal approve " + id
	}
	fmt.Fprintf(&b, "Approve here (merge, squash or rebase: skillrepo recognises each), or locally with:\n\n```\n%s\n```\n", approve)
	pr.Body = clip(b.String(), maxPullRequestBody)
	return pr, nil
}

// provenanceTrailers are the distinct trailers of the proposal's commits,
// oldest first.
func provenanceTrailers(p *skillrepo.Proposal) []skillrepo.Trailer {
	var out []skillrepo.Trailer
	seen := map[skillrepo.Trailer]bool{}
	for i := len(p.Commits) - 1; i >= 0; i-- {
		for _, t := range p.Commits[i].Trailers {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	if len(out) > 40 {
		out = out[:40]
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
