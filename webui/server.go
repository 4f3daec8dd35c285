// Package webui is `skillrepo ui`: a local web page over one library —
// what the agent learned, why, from which session and model, how much
// each skill is used over time — with approve and reject through the
// domain's write policy (docs/ui.md).
//
// It is a browser-facing server, so it is an attack surface: it listens
// on loopback only, every request needs the token printed at start (kept
// in a cookie after the first visit), a Host header that is not loopback
// is refused (DNS rebinding), every POST needs the same origin and the
// CSRF token, and every page carries a Content-Security-Policy with no
// inline script. Skill content is untrusted: SKILL.md is rendered with raw
// HTML off and dangerous link schemes dropped.
package webui

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Options configure a [Server].
type Options struct {
	// Root is the library's folder (found as status finds it).
	Root   string
	Getenv func(string) string
	Now    func() time.Time
	// By is the person the approve form is filled with ("Name <email>");
	// the person may change it, never leave it empty.
	By string
	// Token is the access token (empty: a random one).
	Token string
}

// Server is the web UI of one library. Its handlers open the library per
// request (a Library is not for several goroutines), read-only for pages.
type Server struct {
	opts  Options
	token string
	csrf  string
	tmpl  map[string]*template.Template
	mux   *http.ServeMux
	// writeMu keeps one write at a time from this server; the domain's
	// lock keeps it from racing other processes.
	writeMu sync.Mutex
	// memo keeps what one request's library computed for the next
	// (ownership, proposal summaries), keyed by the commits it came from.
	memo *skillrepo.Memo
}

// CookieName is the cookie that keeps the access token.
const CookieName = "skillrepo_ui"

// New builds the server.
func New(opts Options) (*Server, error) {
	if opts.Root == "" {
		return nil, errors.New("webui: no library folder")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, token: opts.Token, csrf: randomHex(), memo: skillrepo.NewMemo()}
	if s.token == "" {
		s.token = randomHex()
	}
	var err error
	if s.tmpl, err = parseTemplates(); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

func randomHex() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// Token is the access token the printed URL carries.
func (s *Server) Token() string { return s.token }

// URL is the address to open for a listener's address: the token rides
// in the query once and moves into a cookie.
func (s *Server) URL(addr net.Addr) string {
	return "http://" + addr.String() + "/?token=" + s.token
}

// Listen listens on loopback only (127.0.0.1; port 0 picks one).
func Listen(port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("port %d: want 0–65535", port)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	return ln, nil
}

// Serve serves on ln until ctx ends, then shuts down.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
		return nil
	}
}

// ServeHTTP applies the security rules, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make a form POST's Origin "null"
	h.Set("Cache-Control", "no-store")
	if !loopbackHost(r.Host) {
		s.refuse(w, http.StatusForbidden, "refused: the Host header "+quoteHost(r.Host)+" is not this computer (loopback only)")
		return
	}
	if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
		if !equal(tok, s.token) {
			s.refuse(w, http.StatusForbidden, "refused: wrong token; open the URL skillrepo ui printed")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: CookieName, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q := r.URL.Query()
		q.Del("token")
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(CookieName)
	if err != nil || !equal(c.Value, s.token) {
		s.refuse(w, http.StatusForbidden, "refused: no access token; open the URL skillrepo ui printed (it carries ?token=…)")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if origin := r.Header.Get("Origin"); origin != "http://"+r.Host {
			s.refuse(w, http.StatusForbidden, "refused: a write from another origin ("+quoteHost(origin)+")")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			s.refuse(w, http.StatusBadRequest, "refused: unreadable form: "+err.Error())
			return
		}
		if !equal(r.PostForm.Get("csrf"), s.csrf) {
			s.refuse(w, http.StatusForbidden, "refused: the form's CSRF token is missing or stale; reload the page")
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// loopbackHost reports a Host header naming this computer: localhost,
// 127.0.0.0/8 or ::1, with any port. A DNS-rebinding page reaches us
// under its own name and is refused.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func quoteHost(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// refuse answers a refused request with a plain page.
func (s *Server) refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg)
}

// open opens the library for one request. A page skips the recovery of
// an interrupted write (it takes the lock; the next write does it) but
// keeps the history and owners caches it builds, so the next page reads
// them instead of walking the history again.
func (s *Server) open(forPage bool) (*skillrepo.Library, error) {
	return skillrepo.Open(s.opts.Root, skillrepo.OpenOptions{Getenv: s.opts.Getenv, Now: s.opts.Now, SkipRecovery: forPage, Warn: func(string) {}, Memo: s.memo})
}

// static is the embedded style sheet and script.
func staticFS() fs.FS {
	sub, _ := fs.Sub(assets, "static")
	return sub
}
