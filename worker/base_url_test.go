package worker

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/queue"
)

// A base URL with a query string reaches …/v1/chat/completions?key=… and
// the review lands (the path must not go after the query).
func TestBaseURLWithQuery(t *testing.T) {
	f := newFixture(t, createReply("pnpm-workflows"), fakemodel.Reply{Content: "Created."})
	f.env["OPENAI_BASE_URL"] = f.srv.BaseURL() + "?api-version=2024-10-01&key=s3cret"
	e := f.enqueue("s-1")
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done || got.Outcome == nil || !got.Outcome.Merged {
		t.Fatalf("entry = %+v\nlog:\n%s", got, f.log.String())
	}
	for _, r := range f.srv.Requests() {
		if r.Path != "/v1/chat/completions" || !strings.Contains(r.Query, "key=s3cret") {
			t.Errorf("request %s ? %s", r.Path, r.Query)
		}
	}
	if strings.Contains(f.log.String(), "s3cret") {
		t.Errorf("the log shows the key:\n%s", f.log.String())
	}
}

// A server that does not answer: the queue entry's reason and the log
// name the URL with its credentials and query values redacted.
func TestBaseURLSecretsRedacted(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	f.env["OPENAI_BASE_URL"] = "http://bob:s3cret@" + addr + "/v1?key=s3cret"
	f.env["SKILLREPO_MAX_ATTEMPTS"] = "1"
	e := f.enqueue("s-1")
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Failed || !strings.Contains(got.LastError, "key=REDACTED") {
		t.Fatalf("entry = %+v\nlog:\n%s", got, f.log.String())
	}
	for _, s := range []string{got.LastError, f.log.String()} {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "bob") {
			t.Errorf("a secret shows in %q", s)
		}
	}
}

// A model server that echoes credentials back in its error body (a
// Basic Authorization header, a key in a URL, a bare api_key=, a key of
// a known shape) leaves none of them in the queue entry or worker.log:
// error text is redacted where it enters our records.
func TestEchoedSecretsRedacted(t *testing.T) {
	echo := "denied: Authorization: Basic dXNlcjpzM2NyZXRwYXNz for https://gw.example.com/v1?key=s3cretkey1 (api_key=s3cretkey2, sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345)"
	f := newFixture(t, fakemodel.Reply{Status: 400, Error: echo, Times: -1})
	e := f.enqueue("s-1")
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Failed || !strings.Contains(got.LastError, "denied") {
		t.Fatalf("entry = %+v\nlog:\n%s", got, f.log.String())
	}
	raw, err := os.ReadFile(filepath.Join(f.store.Dir, e.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{string(raw), f.log.String()} {
		for _, secret := range []string{"dXNlcjpzM2NyZXRwYXNz", "s3cretkey1", "s3cretkey2", "AbCdEfGhIjKlMnOpQrStUvWxYz012345"} {
			if strings.Contains(where, secret) {
				t.Errorf("%s shows in %q", secret, where)
			}
		}
	}
}
