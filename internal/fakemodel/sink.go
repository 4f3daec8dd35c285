package fakemodel

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Sink is a proxy on 127.0.0.1 that forwards nothing: every request it
// gets (a CONNECT for HTTPS, a plain proxied GET) is recorded and refused
// with 403. An agent program started with HTTPS_PROXY and HTTP_PROXY
// pointing at it cannot reach the internet, and the record shows whether
// it tried: an end-to-end run asserts it stayed empty.
type Sink struct {
	srv *httptest.Server
	log io.Writer

	mu   sync.Mutex
	hits []string
}

// StartSink starts a sink; log, if not nil, receives a line per attempt.
func StartSink(log io.Writer) *Sink {
	s := &Sink{log: log}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit := r.Method + " " + r.Host
		if r.Method != http.MethodConnect {
			hit = r.Method + " " + r.URL.String()
		}
		s.mu.Lock()
		s.hits = append(s.hits, hit)
		if s.log != nil {
			fmt.Fprintln(s.log, hit)
		}
		s.mu.Unlock()
		http.Error(w, "skillrepo test sink: no traffic leaves this machine", http.StatusForbidden)
	}))
	return s
}

// URL is the proxy address to put in HTTPS_PROXY.
func (s *Sink) URL() string { return s.srv.URL }

// Hits are the attempts so far.
func (s *Sink) Hits() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hits...)
}

// Close stops the sink.
func (s *Sink) Close() { s.srv.Close() }
