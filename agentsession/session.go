package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// Input is an agent hook's event JSON, as Claude Code, Codex and Gemini
// CLI send it on standard input (the fields skillrepo reads; the rest is
// ignored). Hermes Agent's shell hooks send their own (hermes.go).
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// Model is the session's model where the agent says (Claude Code's
	// SessionStart, Codex's Stop and PostToolUse).
	Model string `json:"model"`
	// SessionStart: startup, resume, clear, compact; SessionEnd: reason.
	Source string `json:"source"`
	Reason string `json:"reason"`
	// PostToolUse.
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
	// UserPromptExpansion.
	ExpansionType string `json:"expansion_type"`
	CommandName   string `json:"command_name"`
	PromptID      string `json:"prompt_id"`
	// Stop.
	StopHookActive       bool             `json:"stop_hook_active"`
	LastAssistantMessage string           `json:"last_assistant_message"`
	BackgroundTasks      []BackgroundTask `json:"background_tasks"`
	// Gemini CLI's AfterAgent carries the turn's answer as
	// prompt_response (its Stop analogue).
	PromptResponse string `json:"prompt_response"`
	// Doctor marks the synthetic event `skillrepo doctor` sends through an
	// installed command: the hook finds and opens its library, answers
	// what it found, and does nothing else.
	Doctor bool `json:"skillrepo_doctor"`
}

// DoctorReply is what a hook answers a doctor's synthetic event with.
type DoctorReply struct {
	Agent   string `json:"agent"`
	Event   string `json:"event"`
	Library string `json:"library"`
}

// BackgroundTask is one of the agent's background jobs as Claude Code's
// Stop event lists them.
type BackgroundTask struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	Command     string `json:"command"`
}

// StopDecision is what a Stop judge returns: Block with Reason keeps the
// agent going (the reason becomes its next instruction); Context adds a
// note at the end of the turn. A nil decision lets the agent stop.
type StopDecision struct {
	Block   bool
	Reason  string
	Context string
	// Message is a line for the user (the agent's systemMessage).
	Message string
	// ReviewGoal, when set, is a goal this turn completed: the session's
	// transcript is queued for review with the goal's id in its trailers.
	ReviewGoal string
}

// GoalLoop is the standing-goal loop as the hooks see it: a session that
// starts takes the goal set for the next session, and a prompt the user
// types while a continuation is pending pauses the goal (the turn was
// interrupted). Each returns a line to show, or "".
type GoalLoop interface {
	SessionStarted(lib *skillrepo.Library, session string) (string, error)
	UserPrompt(lib *skillrepo.Library, session string) (string, error)
}

// StopJudge is consulted first on every Stop, before the nudge counters
// move (the goals loop plugs in here). An error lets the agent stop: a
// hook fails open.
type StopJudge func(ctx context.Context, name agent.Name, in *Input, lib *skillrepo.Library) (*StopDecision, error)

// Agent is what the hook runner needs to know of an agent beyond its
// events: how a tool call loads a skill, how its Stop is answered, where
// its transcripts are. Each agent's folder implements it
// (agents/<name>/session.go); the command hands in the registry's.
type Agent interface {
	Name() agent.Name
	// SkillTool reads a PostToolUse event's tool call: the skill a
	// skill-loading tool loaded, or shell when the call is a shell
	// command whose text may read a library's SKILL.md (counted as a
	// view); neither, a call that is not ours to count.
	SkillTool(tool string, input json.RawMessage) (skill string, shell bool, err error)
	// StopReply is the agent's answer to its Stop event: block (with the
	// reason as the next prompt), a message for the person, context for
	// the model; nil when there is nothing to say.
	StopReply(block bool, reason, message, context string) map[string]any
	// ReloadSkills says the agent's SessionStart output takes
	// reloadSkills (others reject an unknown field).
	ReloadSkills() bool
	// TranscriptFormat is the format of its session files.
	TranscriptFormat() review.Format
	// TranscriptRoots are the folders it keeps its session files in; a
	// "*" element stands for any one folder name.
	TranscriptRoots(h agent.Homes) []string
}

// Options configure one run of an agent hook.
type Options struct {
	Agent Agent
	// Event is the hook event (SessionStart, PostToolUse,
	// UserPromptExpansion, Stop, SessionEnd; case and dashes ignored).
	Event   string
	Library string
	In      io.Reader
	Out     io.Writer
	Getenv  func(string) string // nil: os.Getenv
	Now     func() time.Time    // nil: time.Now
	// StartWorker starts a detached worker on the library; nil starts
	// none (the queue keeps the work for the next worker).
	StartWorker func(lib *skillrepo.Library) error
	// StartSync starts a detached `skillrepo sync` of the library; nil
	// runs the sync inside the hook.
	StartSync func(lib *skillrepo.Library) error
	// StartRemote starts a detached sync with the shared remote at
	// session start (remote.go); nil starts none.
	StartRemote func(lib *skillrepo.Library) error
	// StopJudge, when set, is asked first on Stop.
	StopJudge StopJudge
	// Goals, when set, hears of session starts and typed prompts.
	Goals GoalLoop
}

// Report says what a hook did, for the hooks log.
type Report struct {
	Notes []string
	// Library is the library the hook worked on, when it found one.
	Library string
}

func (r *Report) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// maxInput bounds what a hook reads from standard input: PostToolUse
// carries the tool's whole response.
const maxInput = 16 << 20

// hookLockTimeout is how long a hook waits for the library lock (a sync
// at session start) before it gives up on that step: an agent must not
// wait for a review's write.
const hookLockTimeout = 500 * time.Millisecond

// inReview fills a hook's defaults (the process's environment and clock)
// and reports whether the hook runs inside a review (queue.EnvInReview),
// where it does nothing.
func inReview(getenv *func(string) string, now *func() time.Time, rep *Report) bool {
	if *getenv == nil {
		*getenv = os.Getenv
	}
	if *now == nil {
		*now = time.Now
	}
	if (*getenv)(queue.EnvInReview) != "" {
		rep.notef("inside a review (%s set): nothing to do", queue.EnvInReview)
		return true
	}
	return false
}

// Run runs one agent hook: it reads the event JSON, does the
// event's work on the library and writes the agent's reply (if any) to
// Out. The caller logs a returned error and exits 0: a hook never breaks
// the agent. Inside a review (queue.EnvInReview set) it does nothing.
func Run(ctx context.Context, opts Options) (*Report, error) {
	rep := &Report{}
	if inReview(&opts.Getenv, &opts.Now, rep) {
		return rep, nil
	}
	event, err := agent.ParseEvent(opts.Event)
	if err != nil {
		return rep, err
	}
	data, err := io.ReadAll(io.LimitReader(opts.In, maxInput+1))
	if err != nil {
		return rep, fmt.Errorf("read the %s event: %w", event, err)
	}
	if len(data) > maxInput {
		return rep, fmt.Errorf("the %s event is over %d bytes; ignored", event, maxInput)
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return rep, fmt.Errorf("the %s event is not JSON: %w", event, err)
	}
	// The ids become file names, trailers and an agent program's
	// arguments (a review forks the session by its id): an id that is
	// not one ends the event here.
	for _, id := range [][2]string{{"session_id", in.SessionID}, {"tool_use_id", in.ToolUseID}, {"prompt_id", in.PromptID}} {
		if err := agentid.Check("the "+event+" event's "+id[0], id[1]); err != nil {
			return rep, err
		}
	}
	library, err := resolveLibrary(opts.Library, in.Cwd)
	if err != nil {
		return rep, err
	}
	// Warnings (a config key with a problem: the event's reads go on
	// with its default, its writes refuse) go to the hooks log.
	warn := func(msg string) { rep.notef("warning: %s", msg) }
	lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: opts.Getenv, Now: opts.Now, LockTimeout: hookLockTimeout, Warn: warn})
	if err != nil {
		return rep, err
	}
	rep.Library = lib.Root
	defer lib.Close()
	if in.Doctor {
		err := json.NewEncoder(opts.Out).Encode(map[string]DoctorReply{"skillrepo_doctor": {Agent: string(opts.Agent.Name()), Event: event, Library: lib.Root}})
		return rep, err
	}
	if in.LastAssistantMessage == "" {
		in.LastAssistantMessage = in.PromptResponse
	}
	h := &hookRun{opts: opts, lib: lib, in: &in, rep: rep, now: opts.Now().UTC()}
	h.checkTranscript()
	switch event {
	case agent.EventSessionStart:
		err = h.sessionStart(ctx)
	case agent.EventPostToolUse:
		err = h.postToolUse()
	case agent.EventUserPromptExpansion:
		err = h.expansion()
	case agent.EventUserPromptSubmit:
		err = h.userPrompt()
	case agent.EventStop:
		err = h.stop(ctx)
	case agent.EventSessionEnd:
		err = h.sessionEnd()
	}
	return rep, err
}

// resolveLibrary finds the library of a hook. A relative --library is
// how a project's shared settings name the project's library (no path of
// one machine in a committed file): it is looked for from the session's
// folder (the event's cwd, else this process's) upwards, so a session
// started in a sub-folder of the project finds it too.
func resolveLibrary(library, cwd string) (string, error) {
	if library == "" || library == "." || filepath.IsAbs(library) {
		return library, nil
	}
	if cwd == "" || !filepath.IsAbs(cwd) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		cwd = wd
	}
	for dir := filepath.Clean(cwd); ; {
		if p := filepath.Join(dir, library); locate.IsLibrary(p) {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no skillrepo library %s in %s or a folder above it (run 'skillrepo init %s' in the project)", library, cwd, library)
		}
		dir = parent
	}
}

type hookRun struct {
	opts Options
	lib  *skillrepo.Library
	in   *Input
	rep  *Report
	now  time.Time
	// workerStarted: this hook started a worker already.
	workerStarted bool
}

func (h *hookRun) state() skillrepo.State { return h.lib.State() }

// memoryFileLimit bounds a memory file read at session start.
const memoryFileLimit = 1 << 20

func (h *hookRun) touch() {
	if err := queue.TouchActivity(h.state().Queue(), h.now); err != nil {
		h.rep.notef("activity: %v", err)
	}
}

func (h *hookRun) reply(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(h.opts.Out, string(b))
	return err
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}
