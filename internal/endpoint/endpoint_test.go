package endpoint

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		raw, base, shown, err string
	}{
		{"https://api.example.com/v1", "https://api.example.com/v1", "https://api.example.com/v1", ""},
		{"https://api.example.com/v1/", "https://api.example.com/v1", "https://api.example.com/v1", ""},
		{"https://gw.example.com/openai/v1?api-version=2024-10-01&key=s3cret", "https://gw.example.com/openai/v1", "https://gw.example.com/openai/v1?api-version=REDACTED&key=REDACTED", ""},
		{"http://bob:s3cret@proxy:8080/v1", "http://proxy:8080/v1", "http://REDACTED@proxy:8080/v1", ""},
		{"ftp://host/v1?key=s3cret", "", "", "base URL ftp://host/v1?key=REDACTED: the scheme must be http or https"},
		{"https:///v1?key=s3cret", "", "", "no host"},
		{"https://h/v1#key=s3cret", "", "", "a fragment"},
		{"https://bob:s3cret@h:port/v1", "", "", "invalid port"},
		{"localhost:8000/v1", "", "", "the scheme must be http or https"},
	} {
		e, err := Parse(tt.raw)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %v, want an error with %q", tt.raw, err, tt.err)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("Parse(%q) error shows the secret: %v", tt.raw, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.raw, err)
			continue
		}
		if e.BaseURL() != tt.base || e.String() != tt.shown {
			t.Errorf("Parse(%q): base %q shown %q; want %q %q", tt.raw, e.BaseURL(), e.String(), tt.base, tt.shown)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://h/v1":               "https://h/v1",
		"https://u:p@h/v1?key=abc&x": "https://REDACTED@h/v1?key=REDACTED&x",
		"https://sk-123@h/v1":        "https://REDACTED@h/v1",
		"http://h/v1/chat/completions?key=abc&api-version=1": "http://h/v1/chat/completions?key=REDACTED&api-version=REDACTED",
		"not a url ?key=abc": "not a url ?key=REDACTED",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	msg := `Post "https://bob:pw@gw.example.com/v1/chat/completions?key=abc": dial tcp: lookup gw.example.com: no such host (see https://h/x?token=t).`
	want := `Post "https://REDACTED@gw.example.com/v1/chat/completions?key=REDACTED": dial tcp: lookup gw.example.com: no such host (see https://h/x?token=REDACTED).`
	if got := RedactText(msg); got != want {
		t.Errorf("RedactText:\n got %s\nwant %s", got, want)
	}
	// The punctuation that ends a URL or a value is the sentence's: kept.
	for in, want := range map[string]string{
		"base URL ftp://bob:s3cret@host/v1?key=s3cret: the scheme must be http": "base URL ftp://REDACTED@host/v1?key=REDACTED: the scheme must be http",
		"server said token=abcdef. Retry":                                       "server said token=REDACTED. Retry",
		"password: hunter22":                                                    "password: REDACTED",
	} {
		if got := RedactText(in); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestClientAgainstFakeModel: the real OpenAI client through the Doer
// reaches …/v1/chat/completions with the base's query and credentials,
// never a path after the query.
func TestClientAgainstFakeModel(t *testing.T) {
	s, err := fakemodel.ParseScript([]byte(`[{"content": "hi"}, {"content": "again"}]`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.Start(s, nil)
	defer srv.Close()
	u, _ := url.Parse(srv.BaseURL())
	u.User = url.UserPassword("bob", "s3cret")
	u.RawQuery = "api-version=2024-10-01&key=k3y"
	e, err := Parse(u.String())
	if err != nil {
		t.Fatal(err)
	}
	call := func(apiKey string) {
		t.Helper()
		cfg := openai.DefaultConfig(apiKey)
		cfg.BaseURL, cfg.HTTPClient = e.BaseURL(), e.Doer(nil)
		_, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
			Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "x"}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	call("")         // no API key: the URL's credentials authenticate
	call("sk-token") // an API key wins over them
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		q, _ := url.ParseQuery(r.Query)
		if r.Path != "/v1/chat/completions" || q.Get("key") != "k3y" || q.Get("api-version") != "2024-10-01" {
			t.Errorf("request %s ? %s", r.Path, r.Query)
		}
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("bob:s3cret"))
	if reqs[0].Authorization != basic || reqs[1].Authorization != "Bearer sk-token" {
		t.Errorf("authorization = %q, %q", reqs[0].Authorization, reqs[1].Authorization)
	}
}

// TestTransportErrorRedacted: a server that does not answer gives an
// error naming the URL without its secrets, still a net.Error.
func TestTransportErrorRedacted(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	e, err := Parse("http://bob:s3cret@" + addr + "/v1?key=k3y")
	if err != nil {
		t.Fatal(err)
	}
	cfg := openai.DefaultConfig("")
	cfg.BaseURL, cfg.HTTPClient = e.BaseURL(), e.Doer(&http.Client{Timeout: 5 * time.Second})
	_, err = openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "x"}},
	})
	if err == nil {
		t.Fatal("no error from a closed port")
	}
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "k3y") || strings.Contains(err.Error(), "bob") {
		t.Fatalf("error shows a secret: %v", err)
	}
	if !strings.Contains(err.Error(), "key=REDACTED") || !strings.Contains(err.Error(), "/v1/chat/completions") {
		t.Errorf("error = %v", err)
	}
	var ne net.Error
	if !errors.As(err, &ne) {
		t.Errorf("the network error is lost: %T", err)
	}
}
