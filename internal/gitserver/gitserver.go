// Package gitserver runs real git servers on 127.0.0.1 for tests: the git
// binary's smart-HTTP backend (git http-backend) behind Go's net/http/cgi,
// and git daemon in --inetd mode behind a Go listener, both serving bare
// repositories under one folder (docs/remote.md §8). Nothing is imitated:
// every request reaches the real git programs, so a push that a server
// would refuse is refused here too.
//
// It imports nothing of ours, so package skillrepo's own tests can use it.
package gitserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// T is what the servers need of a test: testing.TB has it, and a
// testscript command adapts to it.
type T interface {
	Helper()
	Cleanup(func())
	TempDir() string
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Server is a folder of bare repositories served over one protocol.
type Server struct {
	// Root holds the bare repositories.
	Root string
	// URL is the base URL; a repository's is URL + "/" + name.
	URL   string
	env   []string
	delay atomic.Int64
}

// SetDelay holds every later HTTP request d before git sees it (a slow
// host); 0 serves at once.
func (s *Server) SetDelay(d time.Duration) { s.delay.Store(int64(d)) }

// Options shape a server.
type Options struct {
	// User and Password, when set, are required as HTTP basic
	// credentials for every request (an HTTP server only); a request
	// without them gets 401, with wrong ones 403.
	User, Password string
	// Delay holds every request this long before git sees it: a slow
	// host.
	Delay time.Duration
}

// baseEnv is the environment of the git programs the server runs: no
// system or user config, a private HOME.
func baseEnv(root string) []string {
	return []string{
		"HOME=" + root,
		"XDG_CONFIG_HOME=" + filepath.Join(root, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"PATH=" + os.Getenv("PATH"),
	}
}

func gitPath(tb T) string {
	tb.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		tb.Skipf("git not on PATH")
	}
	return p
}

// HTTP starts git http-backend behind an httptest server on 127.0.0.1;
// it stops when the test ends. Pushes are allowed (http.receivepack is
// set in each repository Init makes).
func HTTP(tb T, opts Options) *Server {
	tb.Helper()
	git := gitPath(tb)
	root := tb.TempDir()
	env := baseEnv(root)
	backend := &cgi.Handler{
		Path: git,
		Args: []string{"http-backend"},
		Root: "/git",
		Env:  append([]string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}, env...),
	}
	var h http.Handler = backend
	if opts.User != "" {
		h = basicAuth(opts.User, opts.Password, backend)
	}
	s := &Server{Root: root, env: env}
	s.SetDelay(opts.Delay)
	next := h
	h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d := time.Duration(s.delay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
		next.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	s.URL = srv.URL + "/git"
	return s
}

func basicAuth(user, password string, next *cgi.Handler) http.Handler {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get("Authorization")
		switch {
		case got == "":
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
		case got != want:
			http.Error(w, "forbidden", http.StatusForbidden)
		default:
			// The backend accepts pushes from an authenticated user.
			h := *next
			h.Env = append(slices.Clone(next.Env), "REMOTE_USER="+user)
			h.ServeHTTP(w, r)
		}
	})
}

// Daemon starts a listener on 127.0.0.1 that runs `git daemon --inetd`
// for each connection (receive-pack enabled), serving git:// URLs; it
// stops when the test ends.
func Daemon(tb T) *Server {
	tb.Helper()
	git := gitPath(tb)
	root := tb.TempDir()
	env := baseEnv(root)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("%v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		cancel()
		ln.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				cmd := exec.CommandContext(ctx, git, "daemon", "--inetd", "--base-path="+root, "--export-all",
					"--enable=receive-pack", "--informative-errors", root)
				cmd.Env = env
				cmd.Stdin, cmd.Stdout = conn, conn
				cmd.WaitDelay = time.Second
				_ = cmd.Run()
			}()
		}
	}()
	return &Server{Root: root, URL: "git://" + ln.Addr().String(), env: env}
}

// Init makes an empty bare repository name (e.g. "skills.git") whose
// HEAD names main, with every ref update logged (core.logAllRefUpdates
// always: the server's reflog is how a test proves nothing was forced),
// and returns its URL.
func (s *Server) Init(tb T, name string) string {
	tb.Helper()
	dir := s.Dir(name)
	s.Git(tb, s.Root, "init", "-q", "--bare", "-b", "main", dir)
	s.Git(tb, dir, "config", "http.receivepack", "true")
	s.Git(tb, dir, "config", "core.logAllRefUpdates", "always")
	return s.URL + "/" + name
}

// Dir is the folder of repository name.
func (s *Server) Dir(name string) string { return filepath.Join(s.Root, name) }

// Git runs git in dir with the server's environment and returns its
// trimmed output; a failure fails the test.
func (s *Server) Git(tb T, dir string, args ...string) string {
	tb.Helper()
	out, err := s.GitErr(dir, args...)
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// GitErr runs git like [Server.Git], returning the output and error.
func (s *Server) GitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(s.env),
		"GIT_AUTHOR_NAME=Server Person", "GIT_AUTHOR_EMAIL=person@example.com",
		"GIT_COMMITTER_NAME=Server Person", "GIT_COMMITTER_EMAIL=person@example.com")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// Hook installs an executable hook script (e.g. "pre-receive") in
// repository name.
func (s *Server) Hook(tb T, name, hook, script string) {
	tb.Helper()
	p := filepath.Join(s.Dir(name), "hooks", hook)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		tb.Fatalf("%v", err)
	}
}

// RefUpdate is one entry of a ref's reflog on the server.
type RefUpdate struct {
	Ref, Old, New string
}

// Forced returns the updates of the server's reflogs (every ref that
// still exists) whose new value does not contain the old one: a forced
// push. Deletions are not logged by git (the reflog goes with the ref).
func (s *Server) Forced(tb T, name string) []RefUpdate {
	tb.Helper()
	dir := s.Dir(name)
	var forced []RefUpdate
	logs := filepath.Join(dir, "logs")
	err := filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ref, _ := filepath.Rel(logs, p)
		ref = filepath.ToSlash(ref)
		if ref == "HEAD" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || strings.Trim(f[0], "0") == "" || strings.Trim(f[1], "0") == "" {
				continue // a creation or an empty log
			}
			if _, err := s.GitErr(dir, "merge-base", "--is-ancestor", f[0], f[1]); err != nil {
				forced = append(forced, RefUpdate{Ref: ref, Old: f[0], New: f[1]})
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tb.Fatalf("%v", err)
	}
	return forced
}

// Updates returns every update of the server's reflog of ref, oldest
// first (creations included).
func (s *Server) Updates(tb T, name, ref string) []RefUpdate {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(s.Dir(name), "logs", filepath.FromSlash(ref)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		tb.Fatalf("%v", err)
	}
	var out []RefUpdate
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if f := strings.Fields(line); len(f) >= 2 {
			out = append(out, RefUpdate{Ref: ref, Old: f[0], New: f[1]})
		}
	}
	return out
}

// Fsck runs git fsck --strict in repository name.
func (s *Server) Fsck(tb T, name string) {
	tb.Helper()
	if out, err := s.GitErr(s.Dir(name), "fsck", "--strict", "--no-progress"); err != nil {
		tb.Errorf("server fsck --strict: %v\n%s", err, out)
	}
}

// Refs lists the server's refs of repository name under prefix.
func (s *Server) Refs(tb T, name, prefix string) map[string]string {
	tb.Helper()
	out := s.Git(tb, s.Dir(name), "for-each-ref", "--format=%(refname) %(objectname)", prefix)
	refs := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if ref, h, ok := strings.Cut(line, " "); ok {
			refs[ref] = h
		}
	}
	return refs
}
