package doctor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Hermes Agent runs a shell hook from the hooks: section of
// $HERMES_HOME/config.yaml (else ~/.hermes/config.yaml) without a shell:
// shlex.split(os.path.expanduser(command)), the event JSON on standard
// input, and only once the user consented to that (event, command) pair
// (shell-hooks-allowlist.json, hooks_auto_accept, HERMES_ACCEPT_HOOKS or
// --accept-hooks); a run without a terminal and without consent skips
// the hook. Its reviews are its own (docs/hermes.md §6), so there is no
// model to check. CheckHermes is agents/hermes's Checker: it stays here,
// beside the hook runner it shares with every agent's checks.
// hermesHomeFor is the Hermes home the checks look at.
func hermesHomeFor(env *Env) string {
	if h := env.getenv("HERMES_HOME"); h != "" {
		return h
	}
	if env.Homes.Home == "" {
		return ""
	}
	return filepath.Join(env.Homes.Home, ".hermes")
}

// CheckHermes checks Hermes Agent's shell hooks.
func CheckHermes(ctx context.Context, env *Env) []Finding {
	if env.Scope != "" && env.Scope != agent.ScopeUser {
		return nil // Hermes has one config.yaml, the user's
	}
	home := hermesHomeFor(env)
	if home == "" {
		return nil
	}
	path := filepath.Join(home, hermes.ConfigFile)
	f := func(check string, level Level, msg, fix string) Finding {
		return Finding{Agent: string(agent.Hermes), Scope: string(agent.ScopeUser), Part: "hooks", Check: check, Level: level, Message: msg, Fix: fix, Path: path}
	}
	reinstall := InstallCommand(agent.Hermes, "")
	st, err := hooks.HermesStatus(home, env.getenv)
	if err != nil {
		data, _ := boundedread.ReadFile(path, maxSettingsFile)
		if !bytes.Contains(data, []byte("hooks run hermes")) {
			return nil
		}
		return []Finding{f("settings", Problem, fmt.Sprintf("%s cannot be read: %v; Hermes reads no hooks from it", path, err), "fix the file, then run: "+reinstall)}
	}
	if len(st) == 0 {
		return nil
	}
	cfg, _ := hermes.ReadConfig(home)
	var out []Finding

	var missing []string
	for _, h := range hooks.HermesHandlers() {
		if !slices.ContainsFunc(st, func(s hooks.HermesHook) bool { return s.Event == h.Event }) {
			missing = append(missing, h.Event)
		}
	}
	if len(missing) > 0 {
		out = append(out, f("settings", Warning, fmt.Sprintf("%s lacks skillrepo's hooks for %s", path, strings.Join(missing, ", ")), reinstall))
	}

	var pending, automatic []string
	for _, h := range st {
		switch h.Consent {
		case hermes.ConsentPending:
			pending = append(pending, h.Event)
		case hermes.ConsentAutomatic:
			automatic = append(automatic, h.Event)
		}
	}
	switch {
	case len(pending) > 0:
		out = append(out, f("consent", Problem, fmt.Sprintf("Hermes has no consent to run the hooks for %s: it asks at its next interactive start, and a run without a terminal (a gateway, a cron job) skips them", strings.Join(pending, ", ")),
			reinstall+" --accept (or run hermes once in a terminal and accept, or hermes --accept-hooks)"))
	case len(automatic) > 0:
		out = append(out, f("consent", OK, "Hermes consents to the hooks itself (hooks_auto_accept or HERMES_ACCEPT_HOOKS)", ""))
	default:
		out = append(out, f("consent", OK, "Hermes' allowlist has your consent to every hook", ""))
	}

	runs := newHookRuns()
	for _, h := range st {
		reply, err := runHermesHook(ctx, env, h, timeoutOf(cfg, h))
		runs.add(h.Event, reply, err)
	}
	for _, msg := range runs.order {
		out = append(out, f("run", Problem, fmt.Sprintf("Hermes hook command (%s) fails as Hermes runs it: %s", strings.Join(runs.failed[msg], ", "), msg), fixFor(msg, reinstall)))
	}
	if len(runs.libs) > 1 {
		out = append(out, f("library", Problem, fmt.Sprintf("the hooks in %s act on different libraries: %s", path, strings.Join(sortedKeys(runs.libs), ", ")), reinstall))
	}
	if len(runs.order) > 0 || len(runs.libs) != 1 {
		return out
	}
	var lib string
	for l := range runs.libs {
		lib = l
	}
	out = append(out, f("run", OK, fmt.Sprintf("%d hook commands run as Hermes runs them and reach the library %s", len(st), lib), ""))
	if skills := filepath.Join(home, "skills"); !samePath(lib, skills) {
		out = append(out, f("library", Warning, fmt.Sprintf("the hooks serve %s, not Hermes' skills folder %s: Hermes' writes there are not recorded", lib, skills), reinstall+" --library "+skills))
	}
	out = append(out, hermesCuratorCheck(env, cfg, lib, f)...)
	if cmp.Or(env.getenv("HERMES_BIN"), lookPath("hermes", env.getenv("PATH"))) == "" {
		out = append(out, f("transcripts", Warning, "no hermes program on PATH: the session-end hook cannot export transcripts for skillrepo review (Hermes' PATH may differ)", "set HERMES_BIN to the hermes program in the environment Hermes runs in"))
	}
	out = append(out, f("model", OK, "reviews are Hermes' own background review; skillrepo records them (docs/hermes.md §6)", ""))
	return out
}

// hermesCuratorCheck warns when both curators would run on the library.
func hermesCuratorCheck(env *Env, cfg hermes.Config, library string, f func(string, Level, string, string) Finding) []Finding {
	lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: env.getenv})
	if err != nil {
		return []Finding{f("library", Problem, fmt.Sprintf("the library %s does not open: %v", library, err), "skillrepo -C "+library+" status")}
	}
	owner, enabled := lib.Config.Curator.Owner, lib.Config.Curator.Enabled
	lib.Close()
	if owner != config.CuratorOwnerHermes && enabled && cfg.Curator.Enabled {
		return []Finding{f("curator", Warning, "two curators run on this library: Hermes' (curator.enabled in config.yaml) and skillrepo's (curator.owner: skillrepo)",
			"set curator.owner: hermes in "+filepath.Join(library, ".skillrepo", "config.yaml")+", or curator.enabled: false in Hermes' config.yaml")}
	}
	return nil
}

// timeoutOf is the hook's time budget in Hermes (its default 60 s) capped
// for the doctor.
func timeoutOf(cfg hermes.Config, h hooks.HermesHook) time.Duration {
	secs := 60
	for _, spec := range cfg.Hooks[h.Event] {
		if spec.Command == h.Command && spec.Timeout >= 1 {
			secs = min(spec.Timeout, 300)
		}
	}
	return min(time.Duration(secs)*time.Second, 10*time.Second)
}

// runHermesHook runs one hook exactly as Hermes does: the command
// expanded (~) and shlex-split, run without a shell, the event on
// standard input; it must exit 0 and answer the doctor.
func runHermesHook(ctx context.Context, env *Env, h hooks.HermesHook, budget time.Duration) (*replyBody, error) {
	argv, err := hermes.Split(hermes.ExpandUser(h.Command, env.Homes.Home))
	if err != nil {
		return nil, fmt.Errorf("the command %q cannot be split into arguments as Hermes splits it: %v", h.Command, err)
	}
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	prog := argv[0]
	if !strings.Contains(prog, "/") {
		prog = lookPath(prog, env.getenv("PATH"))
	} else {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(env.Project, prog) // Hermes runs it from its own folder
		}
		if _, err := os.Stat(prog); err != nil {
			prog = ""
		}
	}
	if prog == "" {
		return nil, fmt.Errorf("%s: not found (Hermes: command not found)", argv[0])
	}
	cmd := exec.CommandContext(ctx, prog, argv[1:]...)
	cmd.Dir = env.Project
	cmd.Env = agentEnviron()
	event, _ := json.Marshal(map[string]any{"hook_event_name": h.Event, "tool_name": nil, "tool_input": nil,
		"session_id": doctorSession, "cwd": env.Project, "extra": map[string]any{}, "skillrepo_doctor": true})
	return askHook(ctx, cmd, event, budget)
}

// lookPath finds a program in a PATH value ("" when it is not there).
func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
