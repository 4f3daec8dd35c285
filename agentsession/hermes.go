package agentsession

// Hermes Agent's shell hooks (hooks.HermesHandlers; docs/hermes.md §6).
// Hermes writes skills and memory itself, counts their use itself and
// runs its own background review; so its hooks make every write it does
// a commit with the right origin and session, and nothing more: no use
// is counted twice, and no review is queued (Hermes reviews; skillrepo
// records, approves, lints, blames).
//
// Hermes' stdin is {hook_event_name, tool_name, tool_input, session_id,
// cwd, extra}, extra holding the event's other arguments. The review
// fork shares its parent's session id; the one thing telling its writes
// apart is the turn they run in: each turn's first model call
// (pre_llm_call) carries the turn's user message, and the review's is
// Hermes' harness prompt — so that hook remembers, per session, whose
// turn it is, and post_tool_call reads it.

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
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// hermesReviewMarker ends the user message of Hermes' background review
// turn (agent/background_review.py, 0.19.0).
const hermesReviewMarker = "You can only call memory and skill management tools."

// hermesInput is the event as Hermes' shell-hook bridge writes it.
type hermesInput struct {
	Event     string          `json:"hook_event_name"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	SessionID string          `json:"session_id"`
	Cwd       string          `json:"cwd"`
	Extra     struct {
		UserMessage string `json:"user_message"`
		Platform    string `json:"platform"`
		Status      string `json:"status"`
		Result      any    `json:"result"`
		Completed   bool   `json:"completed"`
		Interrupted bool   `json:"interrupted"`
	} `json:"extra"`
	Doctor bool `json:"skillrepo_doctor"`
}

// HermesOptions are a Hermes hook's inputs.
type HermesOptions struct {
	Event   string
	Library string
	In      io.Reader
	Out     io.Writer
	Getenv  func(string) string
	Now     func() time.Time
	// Hermes is the hermes program that exports a session's transcript
	// ("" = $HERMES_BIN, else hermes on PATH).
	Hermes string
}

// hermesLockTimeout: a Hermes hook waits this long for the library lock.
// A write Hermes made must become a commit; Hermes gives the hook a
// minute, and a write that still waits is recorded by the next sync.
const hermesLockTimeout = 10 * time.Second

// Turn kinds remembered per session.
const (
	turnForeground = "foreground"
	turnReview     = "review"
	turnCurator    = "curator"
)

// RunHermes runs one Hermes hook event. Errors say what went wrong; the
// command logs them and exits 0, so Hermes never breaks on a hook.
func RunHermes(ctx context.Context, opts HermesOptions) (*Report, error) {
	rep := &Report{}
	if inReview(&opts.Getenv, &opts.Now, rep) {
		return rep, nil
	}
	data, err := io.ReadAll(io.LimitReader(opts.In, maxInput+1))
	if err != nil {
		return rep, fmt.Errorf("read the %s event: %w", opts.Event, err)
	}
	if len(data) > maxInput {
		return rep, fmt.Errorf("the %s event is over %d bytes; ignored", opts.Event, maxInput)
	}
	var in hermesInput
	if err := json.Unmarshal(data, &in); err != nil {
		return rep, fmt.Errorf("the %s event is not JSON: %w", opts.Event, err)
	}
	// The session id names a file and is an argument of `hermes
	// sessions export`.
	if err := agentid.Check("the "+opts.Event+" event's session_id", in.SessionID); err != nil {
		return rep, err
	}
	library, err := resolveLibrary(opts.Library, in.Cwd)
	if err != nil {
		return rep, err
	}
	warn := func(msg string) { rep.notef("warning: %s", msg) }
	lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: opts.Getenv, Now: opts.Now, LockTimeout: hermesLockTimeout, Warn: warn})
	if err != nil {
		return rep, err
	}
	defer lib.Close()
	rep.Library = lib.Root
	if in.Doctor {
		return rep, json.NewEncoder(opts.Out).Encode(map[string]DoctorReply{"skillrepo_doctor": {Agent: string(agent.Hermes), Event: opts.Event, Library: lib.Root}})
	}
	h := &hermesRun{opts: opts, lib: lib, in: &in, rep: rep}
	switch opts.Event {
	case agent.HermesSessionStart:
		h.setTurn(turnForeground)
		return rep, h.sync(skillrepo.SyncOptions{})
	case agent.HermesPreLLMCall:
		kind := turnForeground
		switch {
		case in.Extra.Platform == "curator":
			kind = turnCurator
		case strings.Contains(in.Extra.UserMessage, hermesReviewMarker):
			kind = turnReview
		}
		h.setTurn(kind)
		return rep, nil
	case agent.HermesPostToolCall:
		return rep, h.toolCall()
	case agent.HermesSessionFinalize:
		return rep, h.exportTranscript(ctx)
	}
	return rep, fmt.Errorf("unknown Hermes event %q: want %s, %s, %s or %s", opts.Event,
		agent.HermesSessionStart, agent.HermesPreLLMCall, agent.HermesPostToolCall, agent.HermesSessionFinalize)
}

type hermesRun struct {
	opts HermesOptions
	lib  *skillrepo.Library
	in   *hermesInput
	rep  *Report
}

// HermesDir is where the Hermes hooks keep their per-clone state: each
// session's turn, and the exported transcripts.
func HermesDir(state skillrepo.State) string {
	return filepath.Join(state.Hooks(), string(agent.Hermes))
}

// turnState is a Hermes session's turn file.
type turnState struct {
	SessionID string `json:"session_id"`
	Turn      string `json:"turn"`
	At        string `json:"at"`
}

func (h *hermesRun) turnStore() statefile.File[turnState] {
	return turnStore(HermesDir(h.lib.State()), h.in.SessionID)
}

// turnStore is the turn file of a session, in dir (HermesDir).
func turnStore(dir, session string) statefile.File[turnState] {
	sum := sha256.Sum256([]byte(session))
	p := filepath.Join(dir, "sessions", hex.EncodeToString(sum[:8])+".json")
	return statefile.File[turnState]{Path: p, Limit: maxStateFile, Perm: 0o644, Sync: true}
}

func (h *hermesRun) setTurn(kind string) {
	if h.in.SessionID == "" {
		return
	}
	t := turnState{SessionID: h.in.SessionID, Turn: kind, At: h.opts.Now().UTC().Format(time.RFC3339)}
	if err := h.turnStore().Write(t); err != nil {
		h.rep.notef("remember the turn: %v", err)
	}
}

// turn is the session's turn: a missing, unknown or broken one is the
// person's turn (foreground), the origin that claims least.
func (h *hermesRun) turn() string { return turnOf(h.turnStore()) }

func turnOf(f statefile.File[turnState]) string {
	t, err := f.Read()
	if err != nil {
		return turnForeground
	}
	switch t.Turn {
	case turnReview, turnCurator:
		return t.Turn
	}
	return turnForeground
}

// toolCall records a skill_manage or memory call that wrote: the files
// Hermes changed become one commit with the turn's origin and the
// session.
func (h *hermesRun) toolCall() error {
	in := h.in
	if in.ToolName != "skill_manage" && in.ToolName != "memory" {
		return nil
	}
	if in.Extra.Status != "" && in.Extra.Status != "ok" {
		h.rep.notef("%s did not run (%s): nothing to record", in.ToolName, in.Extra.Status)
		return nil
	}
	if !resultSucceeded(in.Extra.Result) {
		h.rep.notef("%s refused the call: nothing to record", in.ToolName)
		return nil
	}
	origin := map[string]string{turnForeground: skillrepo.OriginForeground, turnReview: skillrepo.OriginBackgroundReview, turnCurator: skillrepo.OriginCurator}[h.turn()]
	var args struct {
		Action string `json:"action"`
		Name   string `json:"name"`
		Target string `json:"target"`
	}
	_ = json.Unmarshal(in.ToolInput, &args)
	what := strings.TrimSpace(args.Action + " " + args.Name)
	if in.ToolName == "memory" {
		what = strings.TrimSpace(args.Action + " " + cmpOr(args.Target, "memory"))
	}
	msg := fmt.Sprintf("hermes: %s %s", in.ToolName, what)
	return h.sync(skillrepo.SyncOptions{Origin: origin, SessionID: in.SessionID, Message: msg})
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// resultSucceeded reads a tool result: a JSON object whose success is
// not false (a staged write wrote no file; sync then finds nothing).
func resultSucceeded(r any) bool {
	s, ok := r.(string)
	if !ok {
		return r != nil
	}
	var v map[string]any
	if json.Unmarshal([]byte(s), &v) != nil {
		return true // not JSON: let sync see what changed
	}
	ok2, has := v["success"].(bool)
	return !has || ok2
}

func (h *hermesRun) sync(opts skillrepo.SyncOptions) error {
	res, err := h.lib.Sync(context.Background(), opts)
	if err != nil {
		return fmt.Errorf("record Hermes' writes: %w", err)
	}
	if res.HermesCurator != nil {
		h.rep.notef("recorded Hermes' curator run %d as %.12s", res.HermesCurator.Number, res.HermesCurator.Commit)
	}
	if res.Pins != nil && !res.Pins.Commit.IsZero() {
		h.rep.notef("recorded Hermes' pins as %.12s", res.Pins.Commit)
	}
	if !res.Commit.IsZero() {
		h.rep.notef("recorded %s (%s) as %.12s", strings.Join(res.Skills, ", "), res.Origin, res.Commit)
	}
	if !res.MemoryCommit.IsZero() {
		h.rep.notef("recorded %s (%s) as %.12s", strings.Join(res.Memory, ", "), cmpOr(opts.Origin, "user"), res.MemoryCommit)
	}
	return nil
}

// hermesExportTimeout bounds the transcript export (Hermes gives the hook
// 30 seconds at the session's end).
const hermesExportTimeout = 25 * time.Second

// TranscriptPath is where a Hermes session's transcript is exported.
func TranscriptPath(state skillrepo.State, session string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, session)
	return filepath.Join(HermesDir(state), "transcripts", name+".jsonl")
}

// exportTranscript writes the session's transcript in Claude Code's JSONL
// (hermes sessions export --format trace, redacted), where `skillrepo
// review` reads it.
func (h *hermesRun) exportTranscript(ctx context.Context) error {
	if h.in.SessionID == "" {
		return errors.New("no session_id: no transcript to export")
	}
	prog := cmpOr(h.opts.Hermes, h.opts.Getenv("HERMES_BIN"))
	if prog == "" {
		p, err := exec.LookPath("hermes")
		if err != nil {
			return fmt.Errorf("export the transcript: no hermes program on PATH (set HERMES_BIN): %w", err)
		}
		prog = p
	}
	dst := TranscriptPath(h.lib.State(), h.in.SessionID)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".tmp"
	ctx, cancel := context.WithTimeout(ctx, hermesExportTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "sessions", "export", tmp, "--session-id="+h.in.SessionID, "--format", "trace")
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("hermes sessions export: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if fi, err := os.Stat(tmp); errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Size() == 0) {
		os.Remove(tmp)
		h.rep.notef("hermes exported no transcript for %s: %s", h.in.SessionID, strings.TrimSpace(string(out)))
		return nil
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	h.rep.notef("exported the transcript of %s to %s (skillrepo review %s --format claude-code)", h.in.SessionID, dst, dst)
	return nil
}
