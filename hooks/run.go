package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/worker"
)

// Input is an agent hook's event JSON, as Claude Code and Codex send it
// on standard input (the fields skillrepo reads; the rest is ignored).
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
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
type StopJudge func(ctx context.Context, agent Agent, in *Input, lib *skillrepo.Library) (*StopDecision, error)

// RunOptions configure one run of an agent hook.
type RunOptions struct {
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
	// StopJudge, when set, is asked first on Stop.
	StopJudge StopJudge
	// Goals, when set, hears of session starts and typed prompts.
	Goals GoalLoop
}

// Report says what a hook did, for the hooks log.
type Report struct {
	Notes []string
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

// ParseEvent accepts an event name in any case, with or without dashes.
func ParseEvent(s string) (string, error) {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	for _, e := range []string{EventSessionStart, EventPostToolUse, EventUserPromptExpansion, EventUserPromptSubmit, EventStop, EventSessionEnd} {
		if strings.ToLower(e) == k {
			return e, nil
		}
	}
	return "", fmt.Errorf("unknown hook event %q: want SessionStart, PostToolUse, UserPromptExpansion, UserPromptSubmit, Stop or SessionEnd", s)
}

// RunAgentHook runs one agent hook: it reads the event JSON, does the
// event's work on the library and writes the agent's reply (if any) to
// Out. The caller logs a returned error and exits 0: a hook never breaks
// the agent. Inside a review (queue.EnvInReview set) it does nothing.
func RunAgentHook(ctx context.Context, opts RunOptions) (*Report, error) {
	rep := &Report{}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Getenv(queue.EnvInReview) != "" {
		rep.notef("inside a review (%s set): nothing to do", queue.EnvInReview)
		return rep, nil
	}
	event, err := ParseEvent(opts.Event)
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
	lib, err := skillrepo.Open(opts.Library, skillrepo.OpenOptions{Getenv: opts.Getenv, Now: opts.Now, LockTimeout: hookLockTimeout})
	if err != nil {
		return rep, err
	}
	defer lib.Close()
	h := &hookRun{opts: opts, lib: lib, in: &in, rep: rep, now: opts.Now().UTC()}
	switch event {
	case EventSessionStart:
		err = h.sessionStart(ctx)
	case EventPostToolUse:
		err = h.postToolUse()
	case EventUserPromptExpansion:
		err = h.expansion()
	case EventUserPromptSubmit:
		err = h.userPrompt()
	case EventStop:
		err = h.stop(ctx)
	case EventSessionEnd:
		err = h.sessionEnd()
	}
	return rep, err
}

type hookRun struct {
	opts RunOptions
	lib  *skillrepo.Library
	in   *Input
	rep  *Report
	now  time.Time
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

// sessionStart records outside edits, hands the agent its memory and
// asks it to re-read the skills when they changed since this session (or
// the last one) saw them, and queues a curator run when one is due.
//
// The sync scans the whole work tree (as git status does), which on a
// large library takes longer than an agent should wait at start-up, so
// it runs detached; the memory is read from the work tree's files, so an
// edit made outside skillrepo reaches the agent even before the sync has
// recorded it.
func (h *hookRun) sessionStart(ctx context.Context) error {
	h.touch()
	if h.opts.StartSync != nil {
		if err := h.opts.StartSync(h.lib); err != nil {
			h.rep.notef("start sync: %v", err)
		}
	} else if res, err := h.lib.Sync(ctx, skillrepo.SyncOptions{}); err != nil {
		h.rep.notef("sync skipped: %v", err)
	} else if !res.Commit.IsZero() {
		h.rep.notef("recorded outside edits of %s as %.12s", strings.Join(res.Skills, ", "), res.Commit)
	}
	var blocks []string
	limits := h.lib.MemoryLimits()
	for _, t := range []memory.Target{memory.Memory, memory.User} {
		p, err := h.lib.MemoryPath(t)
		if err != nil {
			h.rep.notef("memory: %v", err)
			continue
		}
		// Bounded: the file goes into the agent's context, which holds a
		// few thousand characters of it at most (limits[t]).
		data, err := boundedread.ReadFile(filepath.Join(h.lib.Root, filepath.FromSlash(p)), memoryFileLimit)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.rep.notef("memory: %v", err)
			continue
		}
		if b := memory.PromptBlock(memory.File{Target: t, Limit: limits[t], Content: string(data)}); b != "" {
			blocks = append(blocks, b)
		}
	}
	reload := false
	if tip, err := h.lib.MainTip(); err == nil {
		reload, err = seeTip(h.state().Hooks(), h.in.SessionID, tip.String(), h.now)
		if err != nil {
			h.rep.notef("skills seen: %v", err)
		}
	}
	h.curatorIfDue()
	if h.opts.Goals != nil && h.in.SessionID != "" {
		line, err := h.opts.Goals.SessionStarted(h.lib, h.in.SessionID)
		if err != nil {
			h.rep.notef("goal: %v", err)
		} else if line != "" {
			blocks = append(blocks, line)
		}
	}
	if len(blocks) == 0 && !reload {
		return nil
	}
	out := map[string]any{"hookEventName": EventSessionStart}
	if len(blocks) > 0 {
		out["additionalContext"] = strings.Join(blocks, "\n\n")
	}
	// Codex's SessionStart output schema has no reloadSkills (it rejects
	// unknown fields); it reads skills at the start of every turn anyway.
	if reload && h.opts.Agent == ClaudeCode {
		out["reloadSkills"] = true
	}
	return h.reply(map[string]any{"hookSpecificOutput": out})
}

// curatorIfDue checks the curator's schedule as the reference does at
// agent start: the first sight of a library seeds it; a due run is
// queued for the worker.
func (h *hookRun) curatorIfDue() {
	store := curator.NewStore(h.state().Curator())
	st, err := store.Load()
	if err != nil {
		h.rep.notef("curator: %v", err)
		return
	}
	d := curator.Due(st, curator.ScheduleOf(h.lib.Config.Curator), h.now)
	switch {
	case d.Seed:
		if _, err := store.Seed(h.now); err != nil {
			h.rep.notef("curator seed: %v", err)
		}
	case d.Due:
		e, merged, err := queue.New(h.state().Queue()).Enqueue(queue.Entry{Kind: queue.KindCurator, Agent: string(h.opts.Agent), Due: queue.Due{Reason: "curator due at session start"}})
		if err != nil {
			h.rep.notef("curator enqueue: %v", err)
			return
		}
		if !merged {
			h.rep.notef("queued curator run %s", e.ID)
		}
		h.ensureWorker()
	}
}

// seenFile remembers the main branch tip each session (and the last
// session) saw, to tell a session start that skills changed.
const seenFile = "hooks/seen.json"

type seenState struct {
	Version  int                  `json:"version"`
	Last     string               `json:"last"`
	Sessions map[string]seenEntry `json:"sessions"`
}

type seenEntry struct {
	Tip string    `json:"tip"`
	At  time.Time `json:"at"`
}

var seenMu sync.Mutex

// seeTip records that session saw tip and reports whether the skills
// changed since the session last saw them (or, for a new session, since
// the last session did). At most 200 sessions are remembered.
func seeTip(stateDir, session, tip string, now time.Time) (bool, error) {
	seenMu.Lock()
	defer seenMu.Unlock()
	p := filepath.Join(stateDir, filepath.FromSlash(seenFile))
	var st seenState
	if data, err := os.ReadFile(p); err == nil {
		_ = json.Unmarshal(data, &st) // a broken file starts over
	}
	if st.Sessions == nil {
		st.Sessions = map[string]seenEntry{}
	}
	prev := st.Last
	if e, ok := st.Sessions[session]; ok && session != "" {
		prev = e.Tip
	}
	changed := prev != "" && prev != tip
	if session != "" {
		st.Sessions[session] = seenEntry{Tip: tip, At: now}
	}
	st.Last, st.Version = tip, 1
	for len(st.Sessions) > 200 {
		oldest := ""
		for id, e := range st.Sessions {
			if oldest == "" || e.At.Before(st.Sessions[oldest].At) {
				oldest = id
			}
		}
		delete(st.Sessions, oldest)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return changed, err
	}
	return changed, writeState(p, data)
}

func writeState(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(p, data)
}

// postToolUse counts a skill use: Claude Code's Skill tool, or (Codex) a
// shell command that reads a SKILL.md of the library, counted as a view.
func (h *hookRun) postToolUse() error {
	h.touch()
	if h.opts.Agent == Codex || h.in.ToolName != "Skill" {
		return h.shellRead()
	}
	var ti struct {
		Skill string `json:"skill"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	if ti.Skill == "" {
		return errors.New("Skill tool call without tool_input.skill")
	}
	return h.count(ti.Skill, dedupeKey("tool-", h.in.ToolUseID), false)
}

// expansion counts a skill the user typed as /name (it bypasses the Skill
// tool).
func (h *hookRun) expansion() error {
	h.touch()
	if h.in.ExpansionType != "" && h.in.ExpansionType != "slash_command" {
		return nil
	}
	name := strings.TrimPrefix(h.in.CommandName, "/")
	if name == "" {
		return nil
	}
	key := ""
	if h.in.PromptID != "" {
		key = "prompt-" + h.in.SessionID + "-" + h.in.PromptID + "-" + name
	}
	return h.count(name, key, false)
}

// dedupeKey is prefix+id, or "" (count every delivery) without an id.
func dedupeKey(prefix, id string) string {
	if id == "" {
		return ""
	}
	return prefix + id
}

// skillName resolves an agent's skill reference to the library's skill:
// plugin prefixes ("plugin:name", "apps/web:deploy") are dropped.
func skillName(ref string) string {
	if i := strings.LastIndex(ref, ":"); i >= 0 {
		ref = ref[i+1:]
	}
	return strings.Trim(strings.TrimSpace(ref), "/")
}

// count records a skill's use (or view) once per key (empty: always).
// The dedupe key is kept in the skill's usage record and checked in the
// same locked write as the bump ([skillrepo.Library.RecordUse]), so a
// repeated or racing event counts once and a failed write counts nothing.
func (h *hookRun) count(ref, key string, view bool) error {
	kind := skillrepo.UseUse
	if view {
		kind = skillrepo.UseView
	}
	counted, err := h.lib.RecordUse(skillName(ref), kind, key)
	switch {
	case errors.Is(err, skillrepo.ErrNotFound):
		h.rep.notef("%s is not a skill of this library; not counted", ref)
		return nil
	case err != nil:
		return fmt.Errorf("count use of %s: %w", ref, err)
	case !counted:
		h.rep.notef("%s already counted for %s", ref, key)
	}
	return nil
}

// usesDir held one marker file per counted event before the key moved
// into the usage record; pruneMarkers clears what older versions left.
const usesDir = "hooks/uses"

// markerName is a file name for a state key (a session id may hold
// anything).
func markerName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// pruneMarkers removes use markers older than a week: an agent does not
// deliver an event again after that.
func pruneMarkers(stateDir string, now time.Time) {
	dir := filepath.Join(stateDir, filepath.FromSlash(usesDir))
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > 7*24*time.Hour {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

var skillPathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\s'"<>|;&()]*SKILL\.md`) })

// shellRead counts a view of every library skill whose SKILL.md a shell
// command names (Codex reads skills with cat, sed, head …).
func (h *hookRun) shellRead() error {
	var ti struct {
		Command json.RawMessage `json:"command"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	var cmd string
	var parts []string
	if json.Unmarshal(ti.Command, &cmd) != nil && json.Unmarshal(ti.Command, &parts) == nil {
		cmd = strings.Join(parts, " ")
	}
	if !strings.Contains(cmd, "SKILL.md") {
		return nil
	}
	root := h.lib.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	seen := map[string]bool{}
	for _, m := range skillPathRE().FindAllString(cmd, -1) {
		p := expandHome(m, h.opts.Getenv("HOME"))
		if !filepath.IsAbs(p) {
			p = filepath.Join(h.in.Cwd, p)
		}
		p = filepath.Clean(p)
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		if err := h.count(rel, dedupeKey("tool-", h.in.ToolUseID), true); err != nil {
			return err
		}
	}
	return nil
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// stop asks the Stop judge first, then advances the session's nudge
// counters over the transcript and queues a review when one is due. It
// prints only a judge's decision.
func (h *hookRun) stop(ctx context.Context) error {
	var decision *StopDecision
	if h.opts.StopJudge != nil {
		d, err := h.opts.StopJudge(ctx, h.opts.Agent, h.in, h.lib)
		if err != nil {
			h.rep.notef("stop judge failed, letting the agent stop: %v", err)
		} else {
			decision = d
		}
	}
	h.touch()
	err := h.nudge()
	if decision != nil {
		if perr := h.printDecision(decision); perr != nil {
			return perr
		}
		if decision.ReviewGoal != "" {
			due := queue.Due{Memory: true, Skills: true, Reason: "goal " + decision.ReviewGoal + " achieved"}
			if qerr := h.enqueueReview(due, decision.ReviewGoal); qerr != nil && err == nil {
				err = qerr
			}
		}
	}
	return err
}

// userPrompt tells the goal loop a person typed a prompt. A line it
// returns goes to the user; stdout of UserPromptSubmit is context for the
// model, so it is sent as a systemMessage.
func (h *hookRun) userPrompt() error {
	h.touch()
	if h.opts.Goals == nil || h.in.SessionID == "" {
		return nil
	}
	msg, err := h.opts.Goals.UserPrompt(h.lib, h.in.SessionID)
	if err != nil || msg == "" {
		return err
	}
	return h.reply(map[string]any{"systemMessage": msg})
}

func (h *hookRun) printDecision(d *StopDecision) error {
	switch {
	case d.Block && d.Reason != "" && d.Message != "":
		return h.reply(map[string]any{"decision": "block", "reason": d.Reason, "systemMessage": d.Message})
	case d.Block && d.Reason != "":
		return h.reply(map[string]any{"decision": "block", "reason": d.Reason})
	case d.Message != "" && d.Context == "":
		return h.reply(map[string]any{"systemMessage": d.Message})
	case d.Context != "" && h.opts.Agent == ClaudeCode:
		return h.reply(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": EventStop, "additionalContext": d.Context}})
	case d.Context != "":
		return h.reply(map[string]any{"systemMessage": d.Context})
	}
	return nil
}

// transcriptFormat is the format an agent's transcripts are in.
func (h *hookRun) transcriptFormat() review.Format {
	if h.opts.Agent == ClaudeCode {
		return review.FormatClaudeCode
	}
	return review.FormatAuto
}

// transcriptAbs makes the event's transcript path absolute (the worker
// runs elsewhere: the queue keeps an absolute path).
func (h *hookRun) transcriptAbs() string {
	p := expandHome(h.in.TranscriptPath, h.opts.Getenv("HOME"))
	if !filepath.IsAbs(p) && h.in.Cwd != "" {
		p = filepath.Join(h.in.Cwd, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	h.in.TranscriptPath = p
	return p
}

func (h *hookRun) readTranscript() (*review.Transcript, error) {
	if h.in.TranscriptPath == "" {
		return nil, nil
	}
	p := h.transcriptAbs()
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	tr, err := review.Read(f, p, h.transcriptFormat())
	if err != nil {
		return nil, err
	}
	// The transcript is written asynchronously and may not hold the
	// turn's last message yet; the hook input says how the turn ended.
	if !tr.Final && !tr.Interrupted && strings.TrimSpace(h.in.LastAssistantMessage) != "" {
		tr.Final = true
	}
	return tr, nil
}

func (h *hookRun) intervals() (review.Intervals, bool) {
	_, memErr := h.lib.MemoryPath(memory.Memory)
	iv := review.Intervals{Memory: *h.lib.Config.Review.MemoryInterval, Skill: *h.lib.Config.Review.SkillInterval}
	if memErr != nil {
		iv.Memory = 0
	}
	return iv, memErr == nil
}

func (h *hookRun) counters() review.CounterStore {
	return review.CounterStore{Dir: h.state().ReviewSessions()}
}

func (h *hookRun) nudge() error {
	if h.in.SessionID == "" {
		return errors.New("Stop event without session_id")
	}
	if h.in.TranscriptPath == "" {
		return nil
	}
	d, memoryOK, err := h.advance()
	if err != nil || !d.Due() {
		return err
	}
	reason := fmt.Sprintf("due at Stop: %d new turns, %d new model iterations", d.NewTurns, d.NewIterations)
	return h.enqueueReview(queue.Due{Memory: d.Memory && memoryOK, Skills: d.Skills, Reason: reason}, "")
}

// advance moves the session's nudge counters over what the transcript
// gained (the part after the mark for Claude Code, else the whole file,
// of which the counters skip what they saw) and saves them.
func (h *hookRun) advance() (review.Decision, bool, error) {
	iv, memoryOK := h.intervals()
	if h.transcriptFormat() == review.FormatClaudeCode {
		d, handled, err := h.checkIncremental(h.transcriptAbs(), iv)
		if err != nil || handled {
			return d, memoryOK, err
		}
	}
	tr, err := h.readTranscript()
	if err != nil || tr == nil {
		return review.Decision{}, memoryOK, err
	}
	d, err := h.counters().Check(h.in.SessionID, tr, iv, h.now, true)
	if err != nil {
		return d, memoryOK, err
	}
	if h.transcriptFormat() == review.FormatClaudeCode {
		h.markWhole(h.in.TranscriptPath)
	}
	return d, memoryOK, nil
}

func (h *hookRun) enqueueReview(due queue.Due, goalID string) error {
	format := string(h.transcriptFormat())
	e, merged, err := queue.New(h.state().Queue()).Enqueue(queue.Entry{Kind: queue.KindReview, Agent: string(h.opts.Agent), SessionID: h.in.SessionID,
		Transcript: h.in.TranscriptPath, Format: format, Due: due, GoalID: goalID})
	if err != nil {
		return err
	}
	if merged {
		h.rep.notef("merged into queued review %s (%s)", e.ID, due.Reason)
	} else {
		h.rep.notef("queued review %s (%s)", e.ID, due.Reason)
	}
	h.ensureWorker()
	return nil
}

// sessionEnd queues a final review of what the counters had not yet sent
// to a review, and makes sure a worker runs.
func (h *hookRun) sessionEnd() error {
	h.touch()
	if tip, err := h.lib.MainTip(); err == nil {
		if _, err := seeTip(h.state().Hooks(), h.in.SessionID, tip.String(), h.now); err != nil {
			h.rep.notef("skills seen: %v", err)
		}
	}
	pruneMarkers(h.state().Hooks(), h.now)
	err := h.finalReview()
	h.ensureWorker()
	return err
}

func (h *hookRun) finalReview() error {
	if h.in.SessionID == "" {
		return errors.New("SessionEnd event without session_id")
	}
	if h.in.TranscriptPath == "" || !worker.SettingsFrom(h.lib.Config.Raw, h.opts.Getenv).FinalReview {
		return nil
	}
	d, memoryOK, err := h.advance()
	if err != nil {
		return err
	}
	iv, _ := h.intervals()
	store := h.counters()
	unlock, err := store.Lock(h.in.SessionID)
	if err != nil {
		return err
	}
	defer unlock()
	c, err := store.Load(h.in.SessionID)
	if err != nil {
		return err
	}
	// What a due count just handed over (even when the last turn was cut
	// short: the session is over) and what the counters still hold.
	memoryDue := memoryOK && iv.Memory > 0 && (d.Memory || c.TurnsSinceMemory > 0)
	skillsDue := iv.Skill > 0 && (d.Skills || c.IterationsSinceSkill > 0)
	if !memoryDue && !skillsDue {
		return nil
	}
	reason := fmt.Sprintf("final review at SessionEnd (%s): %d turns and %d model iterations not yet reviewed", firstNonEmpty(h.in.Reason, "end"), c.TurnsSinceMemory, c.IterationsSinceSkill)
	// The counters hand what they held to the queue.
	c.TurnsSinceMemory, c.IterationsSinceSkill, c.UpdatedAt = 0, 0, h.now
	if err := store.Save(c); err != nil {
		return err
	}
	return h.enqueueReview(queue.Due{Memory: memoryDue, Skills: skillsDue, Final: true, Reason: reason}, "")
}

// ensureWorker starts a worker when work is queued and none runs.
func (h *hookRun) ensureWorker() {
	if h.opts.StartWorker == nil || worker.Running(h.state().Worker()) {
		return
	}
	entries, err := queue.New(h.state().Queue()).List()
	if err != nil {
		h.rep.notef("queue: %v", err)
		return
	}
	if queue.Counts(entries)[queue.Queued] == 0 {
		return
	}
	if err := h.opts.StartWorker(h.lib); err != nil {
		h.rep.notef("start worker: %v", err)
		return
	}
	h.rep.notef("started a worker")
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// LogPath is the hooks log of a library state directory.
func LogPath(stateDir string) string { return filepath.Join(stateDir, "logs", "hooks.log") }

// Log appends lines to the library's hooks log (rotated at 1 MiB, one old
// file kept). It finds the library from dir without opening it; with no
// library it does nothing and reports false.
func Log(dir string, now time.Time, agent Agent, event string, lines ...string) bool {
	state, ok := skillrepo.StateOf(dir)
	if !ok {
		return false
	}
	p := LogPath(state.Hooks())
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return false
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > 1<<20 {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, l := range lines {
		fmt.Fprintf(f, "%s %s %s %s\n", now.UTC().Format(time.RFC3339), agent, event, l)
	}
	return true
}

func writeFileAtomic(p string, data []byte) error {
	return atomicfile.Write(p, data, 0o644, true)
}
