package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/hermeshome"
)

// hermesHookCmd is the testscript command
//
//	hermeshook HOME EVENT PAYLOAD
//
// which fires EVENT as Hermes 0.19.0's shell-hook bridge does: for each
// hook of hooks.EVENT in HOME/config.yaml whose matcher (a regular
// expression the tool name must match whole, for tool events) fits, the
// command with ~ expanded, split by shlex, run without a shell, with the
// payload (hermeshome.Payload(PAYLOAD), Hermes' own serialisation) on
// standard input, within the hook's timeout. Its output goes to the
// script's stdout and stderr; a hook that fails fails the command.
func hermesHookCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: hermeshook HOME EVENT PAYLOAD")
	}
	home, event := ts.MkAbs(args[0]), args[1]
	payload, err := hermeshome.Payload(args[2])
	ts.Check(err)
	cfg, err := hermes.ReadConfig(home)
	ts.Check(err)
	var in struct {
		ToolName string `json:"tool_name"`
	}
	ts.Check(json.Unmarshal(payload, &in))
	userHome := ts.Getenv("HOME")
	var env []string
	for _, k := range []string{"HOME", "PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "SKILLREPO_LOCK_TIMEOUT", "HERMES_BIN"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr bytes.Buffer
	for _, spec := range cfg.Hooks[event] {
		if (event == "pre_tool_call" || event == "post_tool_call") && spec.Matcher != "" {
			re, err := regexp.Compile(`^(?:` + spec.Matcher + `)$`)
			if err != nil || !re.MatchString(in.ToolName) {
				continue
			}
		}
		argv, err := hermes.Split(hermes.ExpandUser(spec.Command, userHome))
		ts.Check(err)
		if strings.Contains(spec.Command, "agent-hooks/block-rm.sh") {
			continue // the user's own hook: not ours to run here
		}
		timeout := time.Duration(spec.Timeout) * time.Second
		if timeout <= 0 {
			timeout = 60 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Env, cmd.Dir = env, filepath.Join(ts.Getenv("WORK"))
		err = cmd.Run()
		cancel()
		if err != nil {
			ts.Fatalf("hook %s (%q): %v\n%s", event, argv, err, stderr.String())
		}
	}
	ts.Logf("hermeshook %s %s", event, args[2])
	_, _ = ts.Stdout().Write(stdout.Bytes())
	_, _ = ts.Stderr().Write(stderr.Bytes())
}

// hermesPinCmd is the testscript command
//
//	hermespin SKILLS NAME true|false
//
// which pins or unpins NAME in SKILLS/.usage.json as Hermes 0.19.0's
// `hermes curator pin`/`unpin` does (skill_usage.set_pinned): the file
// read whole, the record's "pinned" set (a missing record made as
// Hermes' _empty_record), and the map written back with sorted keys and
// a two-space indent.
func hermesPinCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 || (args[2] != "true" && args[2] != "false") {
		ts.Fatalf("usage: hermespin SKILLS NAME true|false")
	}
	p := filepath.Join(ts.MkAbs(args[0]), ".usage.json")
	recs := map[string]map[string]any{}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(p)), &recs))
	if recs[args[1]] == nil {
		recs[args[1]] = map[string]any{"created_by": nil, "use_count": 0, "view_count": 0, "last_used_at": nil,
			"last_viewed_at": nil, "patch_count": 0, "last_patched_at": nil, "created_at": "2026-11-30T12:00:00.000000+00:00",
			"state": "active", "pinned": false, "archived_at": nil}
	}
	recs[args[1]]["pinned"] = args[2] == "true"
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	ts.Check(enc.Encode(recs))
	ts.Check(os.WriteFile(p, bytes.TrimSuffix(out.Bytes(), []byte("\n")), 0o644))
}
