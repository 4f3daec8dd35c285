package webui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Environment of the browser test.
const (
	// envChromium names the browser (default: chromium on PATH, then
	// /usr/bin/chromium).
	envChromium = "SKILLREPO_CHROMIUM"
	// envScreenshots is the folder the page screenshots are kept in
	// (default: the test's temp folder, removed after it).
	envScreenshots = "SKILLREPO_UI_SCREENSHOTS"
)

func findChromium() string {
	if p := os.Getenv(envChromium); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser drives the page in a real headless Chromium: overview →
// proposal → the diff → approve (main gets the merge with Approved-By);
// reject with a reason (the proposal is listed rejected); a skill whose
// SKILL.md carries a script payload renders without running it. Each
// page's screenshot is kept ($SKILLREPO_UI_SCREENSHOTS, else the test's
// temp folder).
func TestBrowser(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		t.Skip("SKIP: no chromium on PATH or at /usr/bin/chromium (apt-get install chromium, or set " + envChromium + "); the real-browser test of skillrepo ui did not run")
	}
	if testing.Short() {
		t.Skip("SKIP: -short: the real-browser test starts Chromium")
	}
	f := newFixture(t)
	f.propose("r-2", "Open the failing job", "Open the failed job")
	shots := os.Getenv(envScreenshots)
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ln, err := Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	sctx, stop := context.WithCancel(ctx)
	go func() { served <- f.srv.Serve(sctx, ln) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	base := "http://" + ln.Addr().String()

	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	defer bcancel()

	shot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			buf, err := chromedp.FullScreenshot(100)(ctx, tg)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644)
		})
	}
	text := func(sel string, into *string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
			*into, err = chromedp.Text(chromedp.CSS(sel))(ctx, tg)
			return err
		})
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	// The browser starts on a context with no deadline (a deadline on
	// the first run would bound the browser's life); each step then has
	// its own, and a failed step says what the page showed.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) bool {
		t.Helper()
		sctx, scancel := context.WithTimeout(bctx, 45*time.Second)
		defer scancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			var url, body string
			_ = chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
				url, _ = chromedp.Evaluate[string](`location.href`)(ctx, tg)
				body, err = chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`)(ctx, tg)
				return err
			}), shot(name+"-failed"))
			t.Errorf("%s: %v\nat %s the page shows:\n%s", name, err, url, body)
			return false
		}
		return true
	}

	// Overview, through the printed URL (its token becomes a cookie).
	var overview string
	if !step("overview",
		chromedp.Navigate(f.srv.URL(ln.Addr())),
		chromedp.WaitVisible(css("#proposals")),
		text("main", &overview),
		shot("overview"),
	) {
		return
	}
	if !strings.Contains(overview, "r-1") || !strings.Contains(overview, "merges cleanly") {
		t.Fatalf("overview shows:\n%s", overview)
	}

	// The proposal, its diff, approve.
	var diff, unified string
	if !step("proposal",
		chromedp.Click(css(`a[href="/proposals/r-1"]`)),
		chromedp.WaitVisible(css("table.diff.split")),
		text("table.diff.split", &diff),
		shot("proposal"),
		chromedp.Click(css(`a[href="?view=unified"]`)),
		chromedp.WaitVisible(css("table.diff.unified")),
		text("table.diff.unified", &unified),
		shot("proposal-unified"),
		chromedp.SetValue(css("#by"), "Ada Lovelace <ada@example.com>"),
		chromedp.Click(css("#approve")),
		chromedp.WaitVisible(css("#flash")),
		shot("approved"),
	) {
		return
	}
	if !strings.Contains(diff, "find the **first** error line") || !strings.Contains(unified, "+1. Open the failing job's log and find the **first** error line") {
		t.Errorf("diff shows:\n%s\nunified:\n%s", diff, unified)
	}
	if got := testlib.Trailer(t, f.lib.Root, f.env, f.lib.MainBranch(), "Approved-By"); got != "Ada Lovelace <ada@example.com>" {
		t.Errorf("main's Approved-By = %q", got)
	}

	// Reject the other one with a reason.
	if !step("reject",
		chromedp.Navigate(base+"/proposals/r-2"),
		chromedp.WaitVisible(css("#reason")),
		chromedp.SendKeys(css("#reason"), "the job did not fail"),
		chromedp.Click(css("#reject")),
		chromedp.WaitVisible(css("#rejected")),
		shot("proposals"),
	) {
		return
	}
	// What `proposal list --rejected` lists.
	rejected, err := f.lib.Proposals().List(skillrepo.ProposalQuery{Rejected: true})
	if err != nil || len(rejected) != 1 || rejected[0].ID != "r-2" || rejected[0].Rejection.Reason != "the job did not fail" {
		t.Errorf("rejected proposals: %+v, %v", rejected, err)
	}

	// A skill whose body carries a script payload runs nothing.
	var title string
	var live int
	if !step("evil skill",
		chromedp.Navigate(base+"/skill/evil-notes"),
		chromedp.WaitVisible(css("#skill-body")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
			live, err = chromedp.Evaluate[int](`document.querySelectorAll('#skill-body script, #skill-body [onerror], #skill-body a[href^="javascript:"]').length`)(ctx, tg)
			if err == nil {
				title, err = chromedp.Title()(ctx, tg)
			}
			return err
		}),
		shot("skill-evil"),
	) {
		return
	}
	if live != 0 || strings.Contains(title, "pwned") {
		t.Errorf("the payload is live: %d elements, title %q", live, title)
	}

	// The other pages, for the record.
	for _, p := range []struct{ path, ready, name string }{
		{"/skills", "#skills", "skills"},
		{"/skill/ci-debugging", "#timeline", "skill"},
		{"/blame/ci-debugging", "#blame", "blame"},
		{"/usage", "#library-chart", "usage"},
		{"/curator", "main", "curator"},
	} {
		step(p.name, chromedp.Navigate(base+p.path), chromedp.WaitVisible(css(p.ready)), shot(p.name))
	}
	t.Logf("screenshots in %s", shots)
	testlib.GitClean(t, f.lib.Root, f.env)
}
