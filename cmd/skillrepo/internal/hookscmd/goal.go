package hookscmd

import (
	"cmp"
	"context"
	"fmt"
	"os"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/goals"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// The goal loop's place in the agent hooks (docs/agents.md, "Goals"):
// Stop asks the judge, SessionStart binds a goal set for the next
// session, UserPromptSubmit pauses a goal whose continuation the user
// interrupted.

func goalDir(lib *skillrepo.Library) string { return lib.State().Goals() }

// stopJudge is the Stop hook's judge. A session without a goal costs
// one stat; a judge that fails or cannot be reached means continue
// (goals.Evaluator fails open, bounded by the turn budget), and every
// failure is written to the hooks log.
func stopJudge(f *cmdutil.Factory) agentsession.StopJudge {
	return func(ctx context.Context, name agent.Name, in *agentsession.Input, lib *skillrepo.Library) (*agentsession.StopDecision, error) {
		if !(goals.Store{Dir: goalDir(lib)}).HasGoal(in.SessionID) {
			return nil, nil
		}
		ev, err := newGoalEvaluator(f, lib, string(name), in.Cwd, in.Model)
		if err != nil {
			return nil, err
		}
		var tasks []goals.Task
		for _, t := range in.BackgroundTasks {
			tasks = append(tasks, goals.Task{ID: t.ID, Type: t.Type, Status: t.Status, Description: t.Description, Command: t.Command})
		}
		out := ev.AfterTurn(ctx, goals.Turn{Session: in.SessionID, LastMessage: in.LastAssistantMessage, Background: tasks, StopHookActive: in.StopHookActive})
		if out.Err != nil {
			agentsession.Log(lib.Root, f.Now(), name, agent.EventStop, "goal: "+out.Err.Error())
		}
		if out.Judged && out.State != nil {
			_ = lib.UsageHistory().Append(usage.HistoryEvent{Kind: usage.HistoryGoal, Session: in.SessionID,
				Outcome: string(out.State.Status), Detail: out.State.LastVerdict + ": " + out.State.LastReason})
		}
		if out.Message == "" && out.Action != goals.Block {
			return nil, nil
		}
		d := &agentsession.StopDecision{Message: out.Message}
		if out.Action == goals.Block {
			d.Block, d.Reason = true, out.Prompt
		}
		if out.Judged && out.State != nil && out.State.Status == goals.Done {
			d.ReviewGoal = out.State.ID
		}
		return d, nil
	}
}

// goalHooks binds and pauses goals from the other hook events.
type goalHooks struct{ f *cmdutil.Factory }

func (g goalHooks) evaluator(lib *skillrepo.Library) *goals.Evaluator {
	return &goals.Evaluator{Store: goals.Store{Dir: goalDir(lib)}, Now: g.f.Now}
}

// SessionStarted gives the session the goal set for the next session,
// wakes a parked goal whose barrier has passed, and tells the agent of
// its standing goal.
func (g goalHooks) SessionStarted(lib *skillrepo.Library, session string) (string, error) {
	ev := g.evaluator(lib)
	if goals.ValidSession(session) != nil {
		return "", nil
	}
	if _, err := ev.Store.BindPending(session, g.f.Now()); err != nil {
		return "", err
	}
	active, err := ev.Wake(session)
	if err != nil || !active {
		return "", err
	}
	st, err := ev.Store.Load(session)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("This session has a standing goal (set with skillrepo goal; %d of %d turns used): %s\nAfter each turn a judge checks whether it is met.",
		st.TurnsUsed, st.MaxTurns, st.Goal), nil
}

// UserPrompt pauses a goal whose pending continuation the user's prompt
// interrupted, and says so.
func (g goalHooks) UserPrompt(lib *skillrepo.Library, session string) (string, error) {
	paused, err := g.evaluator(lib).UserPrompt(session)
	if err != nil || !paused {
		return "", err
	}
	return "⏸ Goal paused: you interrupted its continuation. Run `skillrepo goal resume` to pick it up again.", nil
}

// newGoalEvaluator builds the Stop hook's evaluator. The judge's backend
// is chosen as a review's is (agentcli.Choose, docs/agents.md "The model
// backend"): goals.model / goals.base_url, falling back to the review's
// settings and the environment, as an OpenAI-compatible endpoint (sent
// with temperature 0); else the agent's own program, asked with the
// session's model unless goals.model names another.
func newGoalEvaluator(f *cmdutil.Factory, lib *skillrepo.Library, agent, cwd, sessionModel string) (*goals.Evaluator, error) {
	cfg := lib.Config.Goals
	model := cmp.Or(cfg.Model, lib.Config.Review.Model, f.Getenv("SKILLREPO_MODEL"))
	baseURL := cmp.Or(cfg.BaseURL, lib.Config.Review.BaseURL, f.Getenv("OPENAI_BASE_URL"))
	judge := &goals.Judge{Model: model, BaseURL: baseURL, Timeout: cfg.Timeout()}
	program := agentcli.Running(agent)
	if program == "" {
		program = agentcli.Find(agent, f.Getenv("PATH"))
	}
	backend, err := agentcli.Choose(agentcli.Want{Setting: lib.Config.Review.Backend, Agent: agent, Model: model, BaseURL: baseURL,
		APIKey: f.Getenv("OPENAI_API_KEY") != "", Program: program})
	switch {
	case err != nil:
		// No backend: the judge says so when asked, and the goal goes on
		// as the reference's does when its judge is missing.
	case backend == agentcli.BackendAgent:
		judge.Asker = agentcli.Program{Agent: agent, Path: program, Env: os.Environ(), Dir: cwd,
			Model: cmp.Or(cfg.Model, sessionModel), Timeout: cfg.Timeout()}
	default:
		client, err := cmdutil.JudgeClient(f, baseURL)
		if err != nil {
			return nil, err
		}
		judge.Client = client
	}
	return &goals.Evaluator{
		Store: goals.Store{Dir: lib.State().Goals()},
		Judge: judge,
		Now:   f.Now,
	}, nil
}
