// Package endpoint is the address of an OpenAI-compatible model server as
// a user gives it (--base-url, review.base_url, $OPENAI_BASE_URL), which
// may carry a query string (an Azure api-version, a proxy's key=…) or
// credentials (https://user:secret@proxy/v1). The OpenAI client appends
// its paths (/chat/completions) to a base string, which would put them
// after the query; so the base handed to the client is only scheme, host
// and path, and [Endpoint.Doer] adds the query and the credentials to every
// request. [Redact] and [RedactText] are the one place that hides
// credentials and query values from every message and log.
package endpoint

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Endpoint is a parsed base URL.
type Endpoint struct {
	base  url.URL // scheme, host and path only
	query url.Values
	user  *url.Userinfo
}

// Parse parses a base URL: http or https, with a host; a query and
// userinfo are kept apart for [Endpoint.Doer]; a fragment is refused.
// Errors never show the credentials or the query values.
func Parse(raw string) (*Endpoint, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// url.Parse quotes the whole input in its error: say what is
		// wrong without it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("base URL %s: %v", Redact(raw), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("base URL %s: the scheme must be http or https", Redact(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("base URL %s: no host", Redact(raw))
	}
	if u.Fragment != "" {
		return nil, fmt.Errorf("base URL %s: a fragment (#…) is never sent to a server; remove it", Redact(raw))
	}
	e := &Endpoint{query: u.Query(), user: u.User}
	e.base = url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimRight(u.Path, "/"), RawPath: strings.TrimRight(u.RawPath, "/")}
	return e, nil
}

// BaseURL is what the OpenAI client appends its paths to: scheme, host
// and path, without credentials, query or a trailing slash.
func (e *Endpoint) BaseURL() string { return e.base.String() }

// String is the endpoint as it may be shown: credentials and query
// values redacted.
func (e *Endpoint) String() string {
	u := e.base
	u.RawQuery = e.query.Encode()
	if e.user != nil {
		u.User = e.user
	}
	return Redact(u.String())
}

// Doer is the client interface the OpenAI library calls.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Doer wraps c (nil: a plain http.Client): every request gets the
// endpoint's query parameters (its own come first; a key it already has is
// left alone) and, when the URL had credentials and the request carries no
// API key, basic authentication from them. A transport error names the
// URL redacted.
func (e *Endpoint) Doer(c Doer) Doer {
	if c == nil {
		c = &http.Client{}
	}
	return &doer{e: e, next: c}
}

type doer struct {
	e    *Endpoint
	next Doer
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	if len(d.e.query) > 0 {
		q := req.URL.Query()
		for k, vs := range d.e.query {
			if _, ok := q[k]; !ok {
				q[k] = vs
			}
		}
		req.URL.RawQuery = q.Encode()
	}
	if d.e.user != nil {
		if a := strings.TrimSpace(req.Header.Get("Authorization")); a == "" || a == "Bearer" {
			pass, _ := d.e.user.Password()
			req.SetBasicAuth(d.e.user.Username(), pass)
		}
	}
	resp, err := d.next.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, &url.Error{Op: ue.Op, URL: Redact(ue.URL), Err: redactedError{ue.Err}}
		}
		return nil, redactedError{err}
	}
	return resp, nil
}

// redactedError hides URLs inside a wrapped error's text, keeping the
// error itself for errors.Is (a timeout stays a timeout).
type redactedError struct{ err error }

func (r redactedError) Error() string { return RedactText(r.err.Error()) }
func (r redactedError) Unwrap() error { return r.err }

// Redacted stands for a hidden credential or query value.
const Redacted = "REDACTED"

// Redact hides a URL's userinfo (user and password: a key is often put in
// either), every query value (keys stay, so a reader sees which parameter
// was set) and the fragment. Text that does not parse as a URL with a scheme is
// returned with anything that looks like userinfo or a query value hidden.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		return redactLoose(raw)
	}
	if u.User != nil {
		u.User = url.User(Redacted)
	}
	if u.RawQuery != "" {
		u.RawQuery = redactQuery(u.RawQuery)
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = Redacted, ""
	}
	return u.String()
}

// redactQuery keeps the keys of a raw query and hides its values, without
// re-encoding what it does not touch.
func redactQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if k, _, ok := strings.Cut(p, "="); ok {
			parts[i] = k + "=" + Redacted
		}
	}
	return strings.Join(parts, "&")
}

// The redaction patterns, compiled on first use (not in every command's
// start-up: they are only needed for an error to show).
var redactRE = sync.OnceValue(func() *redactPatterns {
	return &redactPatterns{
		urlInText:  regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`),
		looseUser:  regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://)?[^/@\s]+@`),
		looseQuery: regexp.MustCompile(`([?&][^=&#\s]+)=[^&#\s]*`),
		// authHeader: "Authorization: Basic dXNlcjpwYXNz", with or without a
		// scheme word, quoted or not.
		authHeader: regexp.MustCompile(`(?i)(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?)((?:basic|bearer|token|digest|negotiate)\s+)?[^\s"',;}]+`),
		bearer:     regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
		// keyValue: a credential's name, then = or :, then its value.
		keyValue: regexp.MustCompile(`(?i)(\b(?:api[_-]?key|apikey|x-api-key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?key|password|passwd|token|key)["']?\s*[:=]\s*["']?)([^\s"'&,;})\]]{4,})`),
		// keyShape: API keys that say what they are by their shape.
		keyShape: regexp.MustCompile(`\b(?:sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{35}|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{40,}|xox[abposr]-[0-9A-Za-z\-]{10,}|[rs]k_live_[A-Za-z0-9]{20,})`),
	}
})

type redactPatterns struct {
	urlInText, looseUser, looseQuery, authHeader, bearer, keyValue, keyShape *regexp.Regexp
}

func redactLoose(s string) string {
	s = redactRE().looseUser.ReplaceAllString(s, "${1}"+Redacted+"@")
	return redactRE().looseQuery.ReplaceAllString(s, "${1}="+Redacted)
}

// RedactText hides what a credential looks like inside s (an error
// message, a log line, a model server's error body echoed back): every
// URL's userinfo, query values and fragment; the value of an
// Authorization header, a bearer token; the value after a key=, token:,
// password= … ; and the well-known shapes of API keys. Names stay, so a
// reader sees which credential was there.
func RedactText(s string) string {
	s = redactRE().urlInText.ReplaceAllStringFunc(s, func(u string) string {
		// A URL quoted in a message may end in punctuation of the
		// sentence; keep it outside.
		trail := ""
		for strings.ContainsAny(u[len(u)-1:], ".,;:)]}") && len(u) > 1 {
			trail = u[len(u)-1:] + trail
			u = u[:len(u)-1]
		}
		return Redact(u) + trail
	})
	s = redactRE().authHeader.ReplaceAllString(s, "${1}${2}"+Redacted)
	s = redactRE().bearer.ReplaceAllString(s, "${1}"+Redacted)
	s = redactRE().keyValue.ReplaceAllStringFunc(s, func(m string) string {
		sub := redactRE().keyValue.FindStringSubmatch(m)
		// The sentence's punctuation after the value stays ("key=…: the
		// scheme must be …").
		val, trail := sub[2], ""
		for len(val) > 1 && strings.ContainsAny(val[len(val)-1:], ".:") {
			trail = val[len(val)-1:] + trail
			val = val[:len(val)-1]
		}
		if val == Redacted {
			return m // a URL's query value, hidden already
		}
		return sub[1] + Redacted + trail
	})
	return redactRE().keyShape.ReplaceAllString(s, Redacted)
}
