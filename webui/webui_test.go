package webui

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

const host = "127.0.0.1:8123"

// evilSkill carries a script, an event handler and javascript: links: a
// page showing it must run none of them.
const evilSkill = "---\nname: evil-notes\ndescription: Use when testing hostile content.\n---\n# Evil\n\n" +
	"<script>document.title='pwned'</script>\n\n<img src=x onerror=\"document.title='pwned'\">\n\n" +
	"[click me](javascript:document.title='pwned') and <a href=\"javascript:alert(1)\">raw</a>\n"

type fixture struct {
	t   *testing.T
	lib *skillrepo.Library
	env map[string]string
	srv *Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	lib, env := testlib.ExampleLibrary(t)
	now := func() time.Time { return time.Unix(testlib.Epoch, 0).UTC().Add(time.Hour) }
	srv, err := New(Options{Root: lib.Root, Getenv: func(k string) string { return env[k] }, Now: now, By: "Ada <ada@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, lib: lib, env: env, srv: srv}
	content := evilSkill
	testlib.Seed(t, lib, skillrepo.Op{Action: skillrepo.ActionCreate, Name: "evil-notes", Content: &content})
	f.propose("r-1", "find the **first** error", "find the **first** error line")
	return f
}

// propose stages a review's patch of ci-debugging as proposal id.
func (f *fixture) propose(id, old, nu string) {
	f.t.Helper()
	prov := skillrepo.Provenance{Origin: skillrepo.OriginUser, ReviewID: id, SessionID: "sess-" + id, Model: "model-x"}
	testlib.Write(f.t, f.lib, skillrepo.Writer{Branch: skillrepo.ProposalBranch(id), From: f.lib.MainBranch(), Provenance: prov, Force: true},
		skillrepo.Op{Action: skillrepo.ActionPatch, Name: "ci-debugging", OldString: &old, NewString: &nu})
}

// do sends a request through the whole server (the security rules
// included); mod changes it before it is sent.
func (f *fixture) do(method, target string, form url.Values, mod func(*http.Request)) *httptest.ResponseRecorder {
	f.t.Helper()
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	r.Host = host
	r.Header.Set("Origin", "http://"+host)
	r.AddCookie(&http.Cookie{Name: CookieName, Value: f.srv.Token()})
	if mod != nil {
		mod(r)
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, r)
	return w
}

func (f *fixture) get(target string) *httptest.ResponseRecorder { return f.do("GET", target, nil, nil) }

func (f *fixture) post(target string, form url.Values, mod func(*http.Request)) *httptest.ResponseRecorder {
	if form == nil {
		form = url.Values{}
	}
	if !form.Has("csrf") {
		form.Set("csrf", f.srv.csrf)
	}
	return f.do("POST", target, form, mod)
}

func (f *fixture) tip() string {
	f.t.Helper()
	h, err := f.lib.BranchTip(f.lib.MainBranch())
	if err != nil {
		f.t.Fatal(err)
	}
	return h.String()
}

func (f *fixture) proposalIDs(rejected bool) string {
	f.t.Helper()
	ps, err := f.lib.Proposals().List(skillrepo.ProposalQuery{Rejected: rejected})
	if err != nil {
		f.t.Fatal(err)
	}
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, ",")
}

// TestPages: every page answers with what it is for.
func TestPages(t *testing.T) {
	f := newFixture(t)
	if _, err := f.lib.CountUse("ci-debugging", skillrepo.UseView, false); err != nil {
		t.Fatal(err)
	}
	commit := f.tip()
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/", []string{`id="counts"`, "<td>user</td>", `href="/proposals/r-1"`, "merges cleanly", "Learned in the last day", "evil-notes"}},
		{"/proposals", []string{`id="open"`, "r-1", "ci-debugging", "merges cleanly"}},
		{"/proposals/r-1", []string{"sess-r-1", "model-x", `id="lint"`, "no new lint errors", "merges cleanly", `class="diff split"`, "error line", `name="csrf"`, `value="Ada &lt;ada@example.com&gt;"`}},
		{"/proposals/r-1?view=unified", []string{`class="diff unified"`, "error line"}},
		{"/skills", []string{`id="skills"`, "ci-debugging", "evil-notes", "of 5 skills"}},
		{"/skills?q=evil", []string{"evil-notes", "1 of 5 skills"}},
		{"/skill/ci-debugging", []string{`id="frontmatter"`, "<h1>", `id="timeline"`, `class="chart"`, `id="files"`, `<code>references/common-failures.md</code> <a href="/blame/ci-debugging?file=references%2fcommon-failures.md">`, "view"}},
		{"/blame/ci-debugging", []string{`id="blame"`, "Debugging a failing CI job"}},
		{"/blame/ci-debugging?file=SKILL.md", []string{`id="blame"`}},
		{"/blame/ci-debugging?file=references%2fcommon-failures.md", []string{`id="blame"`, "common-failures.md"}},
		{"/commit/" + commit + "/evil-notes", []string{"evil-notes/SKILL.md", `id="trailers"`}},
		{"/usage", []string{`id="library-chart"`, "<svg", `id="trends"`, "ci-debugging"}},
		{"/curator", []string{"no curator run yet"}},
		{"/static/style.css", []string{".diff"}},
		{"/static/app.js", []string{"/version"}},
	} {
		w := f.get(tc.path)
		if w.Code != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", tc.path, w.Code, w.Body)
			continue
		}
		for _, s := range tc.want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("GET %s: no %q in\n%s", tc.path, s, w.Body)
			}
		}
	}
	for _, p := range []string{"/proposals/nope", "/skill/nope", "/blame/nope", "/commit/" + strings.Repeat("0", 40) + "/ci-debugging", "/proposals/..%2f..%2fetc"} {
		if w := f.get(p); w.Code != http.StatusNotFound && w.Code != http.StatusBadRequest {
			t.Errorf("GET %s: %d, want 404 or 400", p, w.Code)
		}
	}
}

// TestVersionFollowsTheLibrary: the version the page polls changes when
// main moves, and not otherwise.
func TestVersionFollowsTheLibrary(t *testing.T) {
	f := newFixture(t)
	v1, v2 := f.get("/version").Body.String(), f.get("/version").Body.String()
	if v1 == "" || v1 != v2 {
		t.Fatalf("version unstable: %q %q", v1, v2)
	}
	if w := f.post("/proposals/r-1/approve", url.Values{"by": {"Ada <ada@example.com>"}}, nil); w.Code != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", w.Code, w.Body)
	}
	if v3 := f.get("/version").Body.String(); v3 == v1 {
		t.Error("version did not change after an approval")
	}
}

// TestApproveAndReject: approve merges with Approved-By the person named;
// reject records the reason, and the proposal is listed as rejected.
func TestApproveAndReject(t *testing.T) {
	f := newFixture(t)
	f.propose("r-2", "Open the failing job", "Open the failed job")
	w := f.post("/proposals/r-1/approve", url.Values{"by": {"Ada <ada@example.com>"}}, nil)
	if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), "approved") {
		t.Fatalf("approve: %d %s %s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if got := testlib.Trailer(t, f.lib.Root, f.env, "HEAD", "Approved-By"); got != "Ada <ada@example.com>" {
		t.Errorf("Approved-By = %q", got)
	}
	if parents := testlib.Git(t, f.lib.Root, f.env, "rev-list", "--parents", "-1", "HEAD"); len(strings.Fields(parents)) != 3 {
		t.Errorf("HEAD is not a merge: %s", parents)
	}
	w = f.post("/proposals/r-2/reject", url.Values{"reason": {"the job is not failed"}, "by": {"Ada <ada@example.com>"}}, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("reject: %d %s", w.Code, w.Body)
	}
	if got := f.proposalIDs(true); got != "r-2" {
		t.Errorf("rejected = %q", got)
	}
	if page := f.get("/proposals").Body.String(); !strings.Contains(page, "the job is not failed") {
		t.Errorf("rejected reason not listed:\n%s", page)
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestWritesNeedWhatTheCLINeeds: an approval without the person, a
// rejection without a reason, an unknown proposal and an unknown curator
// run are refused with nothing written.
func TestWritesNeedWhatTheCLINeeds(t *testing.T) {
	f := newFixture(t)
	before := f.tip()
	for _, tc := range []struct {
		path string
		form url.Values
		code int
		want string
	}{
		{"/proposals/r-1/approve", url.Values{"by": {"  "}}, http.StatusBadRequest, "say who approves"},
		{"/proposals/r-1/reject", url.Values{"reason": {""}}, http.StatusBadRequest, "give a reason"},
		{"/proposals/nope/approve", url.Values{"by": {"Ada"}}, http.StatusNotFound, "not found"},
		{"/curator/20990101-000000/rollback", nil, http.StatusNotFound, "not found"},
	} {
		w := f.post(tc.path, tc.form, nil)
		if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("POST %s: %d, want %d with %q\n%s", tc.path, w.Code, tc.code, tc.want, w.Body)
		}
	}
	if f.tip() != before || f.proposalIDs(false) != "r-1" || f.proposalIDs(true) != "" {
		t.Errorf("a refused write changed the library: tip %s→%s, open %q, rejected %q", before, f.tip(), f.proposalIDs(false), f.proposalIDs(true))
	}
}

// TestSecurityRefusals: each rule refuses its request with 403 and
// nothing written — a foreign Host (DNS rebinding), no token, a wrong
// token, a POST from another origin or with no Origin, a POST without or
// with a stale CSRF token.
func TestSecurityRefusals(t *testing.T) {
	f := newFixture(t)
	before := f.tip()
	approve := url.Values{"by": {"Mallory"}}
	for _, tc := range []struct {
		name   string
		method string
		form   url.Values
		mod    func(*http.Request)
		want   string
	}{
		{"foreign host GET", "GET", nil, func(r *http.Request) { r.Host = "evil.example:8123" }, "not this computer"},
		{"foreign host POST", "POST", approve, func(r *http.Request) {
			r.Host = "evil.example:8123"
			r.Header.Set("Origin", "http://evil.example:8123")
		}, "not this computer"},
		{"rebinding to a LAN address", "POST", approve, func(r *http.Request) { r.Host = "192.168.1.9:8123"; r.Header.Set("Origin", "http://192.168.1.9:8123") }, "not this computer"},
		{"no token GET", "GET", nil, func(r *http.Request) { r.Header.Del("Cookie") }, "no access token"},
		{"no token POST", "POST", approve, func(r *http.Request) { r.Header.Del("Cookie") }, "no access token"},
		{"wrong token cookie", "POST", approve, func(r *http.Request) {
			r.Header.Del("Cookie")
			r.AddCookie(&http.Cookie{Name: CookieName, Value: "guess"})
		}, "no access token"},
		{"cross-origin POST", "POST", approve, func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, "another origin"},
		{"POST without Origin", "POST", approve, func(r *http.Request) { r.Header.Del("Origin") }, "another origin"},
		{"CSRF token missing", "POST", url.Values{"by": {"Mallory"}, "csrf": {""}}, nil, "CSRF"},
		{"CSRF token stale", "POST", url.Values{"by": {"Mallory"}, "csrf": {"0123"}}, nil, "CSRF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w *httptest.ResponseRecorder
			if tc.method == "GET" {
				w = f.do("GET", "/proposals/r-1", nil, tc.mod)
			} else {
				w = f.post("/proposals/r-1/approve", tc.form, tc.mod)
			}
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), tc.want) {
				t.Errorf("%d %q, want 403 with %q", w.Code, w.Body, tc.want)
			}
			if strings.Contains(w.Body.String(), "sess-r-1") {
				t.Error("the refused request saw the page")
			}
		})
	}
	// A wrong token in the URL is refused too, and sets no cookie.
	w := f.do("GET", "/?token=guess", nil, func(r *http.Request) { r.Header.Del("Cookie") })
	if w.Code != http.StatusForbidden || w.Header().Get("Set-Cookie") != "" {
		t.Errorf("wrong URL token: %d, cookie %q", w.Code, w.Header().Get("Set-Cookie"))
	}
	if f.tip() != before || f.proposalIDs(false) != "r-1" || f.proposalIDs(true) != "" {
		t.Errorf("a refused request changed the library")
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestTokenMovesToACookie: the printed URL's token is set as an HttpOnly,
// SameSite=Strict cookie and dropped from the address.
func TestTokenMovesToACookie(t *testing.T) {
	f := newFixture(t)
	w := f.do("GET", "/skills?q=ci&token="+f.srv.Token(), nil, func(r *http.Request) { r.Header.Del("Cookie") })
	if w.Code != http.StatusSeeOther {
		t.Fatalf("%d", w.Code)
	}
	if loc := w.Header().Get("Location"); loc != "/skills?q=ci" {
		t.Errorf("Location = %q", loc)
	}
	c := w.Result().Cookies()
	if len(c) != 1 || c[0].Value != f.srv.Token() || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Errorf("cookie = %+v", c)
	}
	for _, h := range []string{"localhost:1", "[::1]:2", "127.0.0.1"} {
		if !loopbackHost(h) {
			t.Errorf("%s refused", h)
		}
	}
	for _, h := range []string{"localhost.evil.example", "127.0.0.1.nip.io:80", "0.0.0.0:1", "[::ffff:10.0.0.1]:3", ""} {
		if loopbackHost(h) {
			t.Errorf("%s accepted", h)
		}
	}
}

// TestUntrustedSkillContent: a SKILL.md with a script, an event handler
// and javascript: links renders none of them live, and every page
// carries a CSP that allows no inline script.
func TestUntrustedSkillContent(t *testing.T) {
	f := newFixture(t)
	w := f.get("/skill/evil-notes")
	body := w.Body.String()
	_, content, _ := strings.Cut(body, `id="skill-body"`)
	for _, bad := range []string{"<script>document", "onerror=", `href="javascript:`, "<img src=x"} {
		if strings.Contains(content, bad) {
			t.Errorf("rendered %q:\n%s", bad, content)
		}
	}
	if !strings.Contains(content, "<h1>Evil</h1>") || !strings.Contains(content, "click me") {
		t.Errorf("the safe content is missing:\n%s", content)
	}
	csp := w.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP = %q", csp)
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, " onclick=") {
		t.Errorf("a page carries inline script")
	}
	// The blame and commit pages show the same text escaped.
	if b := f.get("/blame/evil-notes").Body.String(); strings.Contains(b, "<script>document") || !strings.Contains(b, "&lt;script&gt;") {
		t.Errorf("blame shows the script unescaped")
	}
}

// TestListenLoopbackOnly: the listener is on 127.0.0.1.
func TestListenLoopbackOnly(t *testing.T) {
	ln, err := Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if !strings.HasPrefix(ln.Addr().String(), "127.0.0.1:") {
		t.Errorf("listening on %s", ln.Addr())
	}
	if _, err := Listen(70000); err == nil {
		t.Error("port 70000 accepted")
	}
}

// The server keeps proposal summaries and ownership between requests
// (skillrepo.Memo): each page still shows the library as it is after
// main or a proposal moves, by the domain's writes or the git binary's.
func TestPagesFollowMovedTips(t *testing.T) {
	f := newFixture(t)
	patch := func(w skillrepo.Writer, old, nu string) {
		testlib.Write(t, f.lib, w, skillrepo.Op{Action: skillrepo.ActionPatch, Name: "ci-debugging", OldString: &old, NewString: &nu})
	}
	steps := []struct {
		name  string
		write func()
		want  string // in both the overview and the proposal list
		list  string // in the proposal list only
	}{
		{"as proposed", func() {}, "merges cleanly", "1 files +1 −1"},
		{"main changes the proposal's line", func() { patch(skillrepo.Writer{}, "find the **first** error", "find the **earliest** error") },
			"conflicts (1)", "1 files +1 −1"},
		{"git moves main back", func() { testlib.Git(t, f.lib.Root, f.env, "update-ref", "refs/heads/main", "main^") },
			"merges cleanly", "1 files +1 −1"},
		{"the proposal grows", func() { f.propose("r-1", "watch the job to the end", "watch the job until it is green") },
			"merges cleanly", "1 files +2 −2"},
		{"git moves the proposal back", func() {
			testlib.Git(t, f.lib.Root, f.env, "update-ref", "refs/heads/proposals/r-1", "proposals/r-1^")
		}, "merges cleanly", "1 files +1 −1"},
	}
	for _, st := range steps {
		st.write()
		for _, page := range []string{"/", "/proposals"} {
			body := f.get(page).Body.String()
			if !strings.Contains(body, st.want) || page == "/proposals" && !strings.Contains(body, st.list) {
				t.Fatalf("%s: %s does not show %q / %q:\n%s", st.name, page, st.want, st.list, body)
			}
		}
	}
}
