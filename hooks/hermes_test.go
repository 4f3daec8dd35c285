package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/hermeshome"
)

// TestInstallHermes: the hooks go into the Hermes home's config.yaml next
// to the user's own hook and settings (kept, comments too); installing
// twice changes nothing; the consent is pending until given; uninstall
// takes out only skillrepo's entries.
func TestInstallHermes(t *testing.T) {
	home := hermeshome.Copy(t)
	cfgPath := filepath.Join(home, "config.yaml")
	os.WriteFile(cfgPath, append([]byte("# my Hermes settings\n"), must(os.ReadFile(cfgPath))...), 0o600)
	os.Chmod(cfgPath, 0o600)
	before := must(os.ReadFile(cfgPath))
	lib := filepath.Join(home, "skills")
	opts := HermesOptions{Home: home, Executable: "/opt/skill repo/bin/skillrepo", Library: lib}
	res, err := InstallHermes(opts)
	if err != nil || res.Unchanged {
		t.Fatalf("install: %+v %v", res, err)
	}
	after := string(must(os.ReadFile(cfgPath)))
	for _, want := range []string{"# my Hermes settings", "stale_after_days: 21", "command: ~/.hermes/agent-hooks/block-rm.sh", "matcher: skill_manage|memory"} {
		if !strings.Contains(after, want) {
			t.Errorf("config.yaml lost %q:\n%s", want, after)
		}
	}
	if fi, _ := os.Stat(cfgPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the user's 0600", fi.Mode().Perm())
	}
	// Hermes reads it: each event has our command, which splits into the
	// argv we mean (the executable's space kept).
	cfg, err := hermes.ReadConfig(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range HermesHandlers() {
		var found bool
		for _, spec := range cfg.Hooks[h.Event] {
			if isOurHermesCommand(spec.Command) {
				found = true
				argv, err := hermes.Split(spec.Command)
				if err != nil || argv[0] != "/opt/skill repo/bin/skillrepo" || argv[4] != h.Event || argv[6] != lib || spec.Matcher != h.Matcher || spec.Timeout != h.Timeout {
					t.Errorf("%s: %+v -> %q %v", h.Event, spec, argv, err)
				}
			}
		}
		if !found {
			t.Errorf("no %s hook", h.Event)
		}
	}
	if len(cfg.Hooks["pre_tool_call"]) != 1 {
		t.Errorf("the user's hook: %+v", cfg.Hooks["pre_tool_call"])
	}
	if res, err := InstallHermes(opts); err != nil || !res.Unchanged {
		t.Errorf("second install: %+v %v", res, err)
	}
	st, err := HermesStatus(home, func(string) string { return "" })
	if err != nil || len(st) != 4 {
		t.Fatalf("status: %+v %v", st, err)
	}
	for _, h := range st {
		if h.Consent != hermes.ConsentPending {
			t.Errorf("%s: consent %s before any was given", h.Event, h.Consent)
		}
	}
	if st, _ := HermesStatus(home, func(k string) string { return map[string]string{"HERMES_ACCEPT_HOOKS": "1"}[k] }); st[0].Consent != hermes.ConsentAutomatic {
		t.Errorf("with HERMES_ACCEPT_HOOKS=1: %s", st[0].Consent)
	}
	// --accept: the consent Hermes' prompt would record, the user's own
	// approval kept.
	opts.Accept, opts.Now = true, func() time.Time { return hermeshome.Now }
	if res, err := InstallHermes(opts); err != nil || !res.Accepted {
		t.Fatalf("install --accept: %+v %v", res, err)
	}
	al := hermes.ReadAllowlist(home)
	if len(al.Approvals) != 5 || !al.Allowed("pre_tool_call", "~/.hermes/agent-hooks/block-rm.sh") || !al.Allowed("post_tool_call", res.Commands["post_tool_call"]) {
		t.Errorf("allowlist: %+v", al.Approvals)
	}
	if st, _ := HermesStatus(home, func(string) string { return "" }); st[2].Consent != hermes.ConsentGiven {
		t.Errorf("after --accept: %+v", st)
	}
	// Uninstall: the user's file as it was, semantically.
	if _, err := UninstallHermes(opts); err != nil {
		t.Fatal(err)
	}
	var a, b any
	yaml.Unmarshal(before, &a)
	yaml.Unmarshal(must(os.ReadFile(cfgPath)), &b)
	if ya, yb := mustYAML(a), mustYAML(b); ya != yb {
		t.Errorf("after uninstall:\n%s\nwant\n%s", yb, ya)
	}
}

// TestInstallHermesRefusesMalformed: a config.yaml that is not a mapping,
// or whose hooks: is not one of lists, is refused; nothing is written.
func TestInstallHermesRefusesMalformed(t *testing.T) {
	for _, bad := range []string{"- a\n- b\n", "hooks: [1, 2]\n", "hooks:\n  post_tool_call: {command: x}\n"} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, "config.yaml"), []byte(bad), 0o644)
		if _, err := InstallHermes(HermesOptions{Home: home, Executable: "/x/skillrepo", Library: "/h/skills"}); err == nil || !strings.Contains(err.Error(), "malformed") {
			t.Errorf("%q: %v", bad, err)
		}
		if got := string(must(os.ReadFile(filepath.Join(home, "config.yaml")))); got != bad {
			t.Errorf("%q was rewritten: %q", bad, got)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustYAML(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
