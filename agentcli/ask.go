package agentcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Ask puts one question to the session's model through the agent's
// program, with no tools (the goal judge), and returns the answer's text.
// An error is a failure to get an answer, never a judgement of it. The
// programs choose their own sampling; no temperature can be set.
func (p Program) Ask(ctx context.Context, system, user string) (string, error) {
	if err := p.Check(); err != nil {
		return "", err
	}
	var args []string
	prompt := user
	switch p.Agent {
	case ClaudeCode:
		args = claudeAskArgs(p.Model, system)
	case Codex:
		// Codex takes no system prompt on its command line; the
		// instructions lead the message.
		args = codexAskArgs(p.Model, p.Provider)
		prompt = system + "\n\n" + user
	case Gemini:
		dir, err := os.MkdirTemp(p.TempDir, "skillrepo-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		var env []string
		if args, env, p.Dir, err = geminiRun(dir, geminiDir(p.Env), "", nil, nil, p.Model, "", system); err != nil {
			return "", err
		}
		p.Env = append(slices.Clone(p.Env), env...)
	case OpenCode:
		cfg, err := opencodeConfig("", nil, nil, system)
		if err != nil {
			return "", err
		}
		args = opencodeArgs("", p.Model)
		p.Env = append(slices.Clone(p.Env), "OPENCODE_CONFIG_CONTENT="+string(cfg))
	case Copilot:
		args = copilotArgs(p.Model, nil)
		prompt = system + "\n\n" + user
	}
	out, err := p.run(ctx, args, prompt)
	if p.Agent == OpenCode {
		p.opencodeForget(ctx, out)
	}
	if err != nil {
		return "", err
	}
	var o modelcall.Outcome
	switch p.Agent {
	case ClaudeCode:
		o = parseClaude(out)
	case Gemini:
		o = parseGemini(out)
	case OpenCode:
		o = parseOpenCode(out)
	case Copilot:
		o = parseCopilot(out)
	default:
		o = parseCodex(out)
	}
	if o.Status == modelcall.StatusFailed {
		return "", errors.New(o.Reason)
	}
	if strings.TrimSpace(o.Final) == "" {
		return "", fmt.Errorf("%s gave an empty answer", ProgramName(p.Agent))
	}
	return o.Final, nil
}
