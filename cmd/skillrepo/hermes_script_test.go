package main

import (
	"bytes"
	"context"
	"encoding/json"
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
