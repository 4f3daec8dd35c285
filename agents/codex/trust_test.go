package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// The hashes Codex 0.169.1 itself reported (app-server hooks/list,
// currentHash) for the five handlers `hooks install --codex` wrote; each,
// once recorded as trusted_hash, made its hook run in `codex exec`.
func TestCodexHookHashIsCodexs(t *testing.T) {
	const exe, lib = "'/work/scratch/setups/skillrepo'", "'/work/scratch/setups/h1/home/.agents/skills'"
	cmd := func(ev string) string { return exe + " hooks run codex " + ev + " --library " + lib }
	for _, tc := range []struct {
		h    hooks.InstalledHandler
		want string
	}{
		{hooks.InstalledHandler{Event: "SessionStart", Command: cmd("SessionStart"), Timeout: 10}, "sha256:7dfd510fd6834351ac6c7403ffed3596c23caec388d289e991aa594f3351066f"},
		{hooks.InstalledHandler{Event: "PostToolUse", Matcher: "Bash", HasMatcher: true, Command: cmd("PostToolUse"), Timeout: 5}, "sha256:926d26fedc8da8f3892c8fe88c838b490366be69b4fa0859c5405b431b224283"},
		{hooks.InstalledHandler{Event: "UserPromptSubmit", Command: cmd("UserPromptSubmit"), Timeout: 5}, "sha256:7036562f4521612e8aa17182a13842883b558225c4b20ad53c6020a76d1e1525"},
		{hooks.InstalledHandler{Event: "Stop", Command: cmd("Stop"), Timeout: 45}, "sha256:a5f38a109341b0db37c6246d5107fb74735a5e819cb6ca62d8e3775ec58ddcea"},
		// No timeout: SessionEnd's default is 1 s, not 600.
		{hooks.InstalledHandler{Event: "SessionEnd", Command: cmd("SessionEnd")}, "sha256:7ef562b7ae5a8c3abd91f5c50787a154abed4d1465296fd58e28912dd25c1579"},
	} {
		if got := HookHash(tc.h); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.h.Event, got, tc.want)
		}
	}
	// A Stop matcher is no part of the identity (Codex drops it).
	stop := hooks.InstalledHandler{Event: "Stop", Command: cmd("Stop"), Timeout: 45}
	withMatcher := stop
	withMatcher.Matcher, withMatcher.HasMatcher = "x", true
	if HookHash(stop) != HookHash(withMatcher) {
		t.Error("a Stop matcher changed the hash")
	}
}

func codexSetup(t *testing.T) (hooks.AgentOptions, *hooks.Installation) {
	t.Helper()
	opts := installOpts(t)
	opts.Homes.CodexHome = filepath.Join(opts.Homes.Home, "codex-home")
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	return opts, hooks.Inspect(Agent{}, agent.ScopeUser, opts.Homes, opts.Project)
}

func statuses(ts []HookTrust) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.Handler.Event+"="+string(t.Status))
	}
	return strings.Join(s, " ")
}

// Trust is read as Codex reads it and written for exactly our hooks: the
// rest of config.toml keeps its text, a hook another install trusted
// under the same key is retrusted (modified), a disabled one stays off.
func TestTrustCodexHooks(t *testing.T) {
	opts, in := codexSetup(t)
	if !strings.HasPrefix(in.Settings, opts.Homes.CodexHome) || len(in.Handlers) != 5 {
		t.Fatalf("installation %+v", in)
	}
	trust, err := Trust(in, opts.Homes)
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(trust); got != "SessionStart=untrusted PostToolUse=untrusted UserPromptSubmit=untrusted Stop=untrusted SessionEnd=untrusted" {
		t.Fatalf("before trust: %s", got)
	}
	cfgPath := ConfigPath(opts.Homes)
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o755); err != nil {
		t.Fatal(err)
	}
	key := func(i int) string { return trust[i].Key }
	cfg := `# my Codex settings
model = "o4"   # the usual

[projects."/work/app"]
trust_level = "trusted"

[hooks.state."` + key(3) + `"]
trusted_hash = "sha256:0000" # an old binary's
[hooks.state."` + key(4) + `"]
enabled = false

[hooks.state."/elsewhere/hooks.json:stop:0:0"]
trusted_hash = "sha256:1111"
`
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	trust, _ = Trust(in, opts.Homes)
	if got := statuses(trust); got != "SessionStart=untrusted PostToolUse=untrusted UserPromptSubmit=untrusted Stop=modified SessionEnd=disabled" {
		t.Fatalf("with the config: %s", got)
	}
	res, err := TrustHooks(opts.Homes, trust, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Trusted != 4 || !res.Changed {
		t.Errorf("result %+v", res)
	}
	data, _ := os.ReadFile(cfgPath)
	for _, kept := range []string{"# my Codex settings\nmodel = \"o4\"   # the usual\n", "[projects.\"/work/app\"]\ntrust_level = \"trusted\"\n",
		"[hooks.state.\"" + key(4) + "\"]\nenabled = false\n", "[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:1111\"\n"} {
		if !strings.Contains(string(data), kept) {
			t.Errorf("lost %q:\n%s", kept, data)
		}
	}
	var parsed map[string]any
	if err := toml.Unmarshal(data, &parsed); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	trust, _ = Trust(in, opts.Homes)
	if got := statuses(trust); got != "SessionStart=trusted PostToolUse=trusted UserPromptSubmit=trusted Stop=trusted SessionEnd=disabled" {
		t.Errorf("after trust: %s\n%s", got, data)
	}
	// Trusting again changes nothing.
	if res, err := TrustHooks(opts.Homes, trust, false); err != nil || res.Changed || res.Trusted != 0 {
		t.Errorf("again: %+v %v", res, err)
	}

	// A reinstall from another binary changes the commands: Codex will
	// not run them until they are trusted again.
	opts.Executable = "/opt/other/skillrepo"
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	trust, _ = Trust(hooks.Inspect(Agent{}, agent.ScopeUser, opts.Homes, opts.Project), opts.Homes)
	if got := statuses(trust); got != "SessionStart=modified PostToolUse=modified UserPromptSubmit=modified Stop=modified SessionEnd=disabled" {
		t.Errorf("after a reinstall: %s", got)
	}
}

// A trust table Codex's file writes some other way (inline) is not
// edited: the edit would not parse, and nothing is written.
func TestTrustCodexHooksRefusesWhatItCannotEdit(t *testing.T) {
	opts, in := codexSetup(t)
	trust, _ := Trust(in, opts.Homes)
	cfgPath := ConfigPath(opts.Homes)
	cfg := "[hooks.state]\n" + tomlQuote(trust[0].Key) + " = { trusted_hash = \"sha256:0\" }\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	trust, _ = Trust(in, opts.Homes)
	if _, err := TrustHooks(opts.Homes, trust, false); err == nil {
		t.Error("no error")
	}
	if data, _ := os.ReadFile(cfgPath); string(data) != cfg {
		t.Errorf("written:\n%s", data)
	}
}

// The user's hooks.json is named with CODEX_HOME's links resolved, as
// Codex names it.
func TestCodexTrustKeyResolvesCodexHome(t *testing.T) {
	opts := installOpts(t)
	real := filepath.Join(opts.Homes.Home, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(opts.Homes.Home, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	opts.Homes.CodexHome = link
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	trust, _ := Trust(hooks.Inspect(Agent{}, agent.ScopeUser, opts.Homes, opts.Project), opts.Homes)
	realResolved, _ := filepath.EvalSymlinks(real)
	if !strings.HasPrefix(trust[0].Key, filepath.Join(realResolved, "hooks.json")+":session_start:") {
		t.Errorf("key %s", trust[0].Key)
	}
}

// installOpts installs Codex's hooks at user scope in a home of the test's.
func installOpts(t *testing.T) hooks.AgentOptions {
	home := t.TempDir()
	return hooks.AgentOptions{Agent: Agent{}, Scope: agent.ScopeUser, Homes: agent.HomesFrom(home, nil), Project: t.TempDir(), Executable: "/usr/local/bin/skillrepo"}
}
