// Package goalcmd is `skillrepo goal` (set, show, list, pause, resume,
// clear: per verb an options struct, a NewCmd… that only parses flags
// and arguments into it, handed a runF in tests, and a run function;
// docs/architecture.md §6). The goal loop's place in the agent hooks is
// hookscmd's (goal.go there).
package goalcmd

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/goals"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// NewCmdGoal is the goal command group.
func NewCmdGoal(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "goal <command>",
		Short: "Keep the agent working until a judge says a standing goal is met",
		Long: `A standing goal keeps an agent (Claude Code, Codex, Gemini CLI) working: after
every turn the Stop hook (Gemini CLI's AfterAgent) asks a judge model whether
the goal is met; if not, the agent is sent a continuation prompt, up to a turn
budget. A judge that fails (an error, a timeout, no answer) means continue,
within that budget; only a failure of skillrepo's own (the goal's state
unreadable) lets the agent stop. Install the hooks with
'skillrepo hooks install --claude-code' (or --codex, --gemini); the judge is goals.model in .skillrepo/config.yaml, else the
review's model.

Set a goal before starting the agent: the next session that starts in this
library takes it. Goal state lives in .git/skillrepo/goals/.`,
	}
	cmd.AddCommand(NewCmdSet(f, nil), NewCmdShow(f, nil), NewCmdList(f, nil),
		NewCmdStatus(f, "pause", nil), NewCmdStatus(f, "resume", nil), NewCmdStatus(f, "clear", nil))
	return cmd
}

func goalStore(f *cmdutil.Factory) (goals.Store, *skillrepo.Library, error) {
	lib, err := f.Library()
	if err != nil {
		return goals.Store{}, nil, err
	}
	return goals.Store{Dir: lib.State().Goals()}, lib, nil
}

// SetOptions is what `goal set` was asked.
type SetOptions struct {
	Factory  *cmdutil.Factory
	Text     string
	Session  string
	MaxTurns int
	Contract string
	Subgoals []string
	DryRun   bool
}

// NewCmdSet is `goal set`; runF, when not nil, runs instead of setRun.
func NewCmdSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "set <goal> [--session <id>] [--max-turns <n>] [--contract <file>]",
		Short: "Set a standing goal for the next (or a given) agent session",
		Long: `Set a standing goal. Without --session it waits for the next agent session
that starts in this library (its SessionStart hook takes it); with --session
it applies to that session at once, replacing any goal it had.

--contract names a YAML (or JSON) file with outcome, verification,
constraints, boundaries and stop_when: the judge then needs evidence that the
verification holds. --subgoal adds a criterion that must also hold.`,
		Example: `  skillrepo goal set "all tests in ./pkg pass and the PR description is written"
  skillrepo goal set "migrate the API" --max-turns 40 --contract contract.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Text = args[0]
			if opts.MaxTurns < 0 {
				return cmdutil.UsageErrorf("--max-turns must be positive")
			}
			if opts.Session != "" {
				if err := goals.ValidSession(opts.Session); err != nil {
					return cmdutil.UsageErrorf("--session: %v", err)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return setRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Session, "session", "", "the agent session `id` (default: the next session to start)")
	fl.IntVar(&opts.MaxTurns, "max-turns", 0, "turn `budget` (default goals.max_turns, else 20)")
	fl.StringVar(&opts.Contract, "contract", "", "YAML `file` with outcome, verification, constraints, boundaries, stop_when")
	fl.StringArrayVar(&opts.Subgoals, "subgoal", nil, "a further `criterion` that must hold (repeatable)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the goal that would be set, changing nothing")
	return cmd
}

func setRun(opts *SetOptions) error {
	f := opts.Factory
	store, lib, err := goalStore(f)
	if err != nil {
		return err
	}
	maxTurns := opts.MaxTurns
	if maxTurns == 0 {
		maxTurns = lib.Config.Goals.MaxTurns
	}
	st, err := goals.NewState(opts.Text, maxTurns, f.Now())
	if err != nil {
		return cmdutil.UsageErrorf("%v", err)
	}
	st.Session = opts.Session
	st.Subgoals = opts.Subgoals
	if opts.Contract != "" {
		c, err := readContract(opts.Contract)
		if err != nil {
			return err
		}
		st.Contract = c
	}
	if opts.DryRun {
		if f.JSON {
			return cmdutil.PrintJSON(f.IO.Out, st)
		}
		fmt.Fprintf(f.IO.ErrOut, "would set goal %s for %s (budget %s): %s\n", st.ID, sessionLabel(st.Session), cmdutil.NounCount(st.MaxTurns, "turn"), st.Goal)
		return nil
	}
	unlock, err := store.Lock(lockName(st.Session))
	if err != nil {
		return err
	}
	defer unlock()
	if err := store.Save(st); err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, st)
	}
	fmt.Fprintf(f.IO.ErrOut, "%s goal set for %s (budget %s)\n", f.IO.Green("✓"), sessionLabel(st.Session), cmdutil.NounCount(st.MaxTurns, "turn"))
	if st.Session == "" {
		fmt.Fprintln(f.IO.ErrOut, "hint: start the agent in this library; its SessionStart hook takes the goal ('skillrepo hooks install --claude-code' or --codex)")
	}
	return nil
}

func lockName(session string) string {
	if session == "" {
		return "next"
	}
	return session
}

func sessionLabel(session string) string {
	if session == "" {
		return "the next session"
	}
	return "session " + session
}

// readContract reads a small YAML/JSON contract file, refusing anything
// that is not a regular file or is too large to be one.
func readContract(path string) (*goals.Contract, error) {
	// A contract is a page of YAML; a FIFO or a device is refused
	// without blocking and nothing past the limit is read.
	const limit = 64 << 10
	data, err := boundedread.ReadFile(path, limit)
	if err != nil {
		var big *boundedread.TooLargeError
		var odd *boundedread.NotRegularError
		if errors.As(err, &big) || errors.As(err, &odd) {
			return nil, cmdutil.UsageErrorf("--contract: %v", err)
		}
		return nil, fmt.Errorf("--contract: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c goals.Contract
	if err := dec.Decode(&c); err != nil {
		return nil, cmdutil.UsageErrorf("--contract %s: %v (want outcome, verification, constraints, boundaries, stop_when)", path, err)
	}
	if c.Outcome == "" && c.Verification == "" {
		return nil, cmdutil.UsageErrorf("--contract %s: give at least outcome or verification", path)
	}
	return &c, nil
}

// pickGoal finds the goal a command without --session means: the only
// goal that is pending, active or paused.
func pickGoal(store goals.Store, session string, flagSet bool) (goals.State, error) {
	if flagSet {
		st, err := store.Load(session)
		if errors.Is(err, goals.ErrNoGoal) {
			return st, fmt.Errorf("%s has no goal", sessionLabel(session))
		}
		return st, err
	}
	all, errs := store.List()
	if len(errs) > 0 {
		return goals.State{}, errs[0]
	}
	var live []goals.State
	for _, st := range all {
		if st.Status == goals.Active || st.Status == goals.Paused {
			live = append(live, st)
		}
	}
	switch len(live) {
	case 0:
		return goals.State{}, errors.New("no goal is active or paused\nhint: set one with 'skillrepo goal set <goal>'")
	case 1:
		return live[0], nil
	}
	var names []string
	for _, st := range live {
		names = append(names, sessionLabel(st.Session))
	}
	return goals.State{}, cmdutil.UsageErrorf("%d goals are live (%s); name one with --session", len(live), strings.Join(names, ", "))
}

// ShowOptions is what `goal show` was asked.
type ShowOptions struct {
	Factory *cmdutil.Factory
	Session string
	// HasSession: --session was given (its value may name the next session).
	HasSession bool
}

// NewCmdShow is `goal show`; runF, when not nil, runs instead of showRun.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "show [--session <id>]",
		Short: "Show a goal: status, turns, the judge's last verdict",
		Example: `  skillrepo goal show
  skillrepo goal show --session 00893aaf --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.HasSession = cmd.Flags().Changed("session")
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Session, "session", "", "the agent session `id`")
	return cmd
}

func showRun(opts *ShowOptions) error {
	f := opts.Factory
	store, _, err := goalStore(f)
	if err != nil {
		return err
	}
	st, err := pickGoal(store, opts.Session, opts.HasSession)
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, st)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "goal:     %s\n", st.Goal)
	fmt.Fprintf(w, "id:       %s\n", st.ID)
	fmt.Fprintf(w, "session:  %s\n", sessionLabel(st.Session))
	fmt.Fprintf(w, "status:   %s\n", st.Status)
	fmt.Fprintf(w, "turns:    %d of %d\n", st.TurnsUsed, st.MaxTurns)
	if st.LastVerdict != "" {
		fmt.Fprintf(w, "verdict:  %s: %s\n", st.LastVerdict, st.LastReason)
	}
	if st.PausedReason != "" && st.Status == goals.Paused {
		fmt.Fprintf(w, "paused:   %s\n", st.PausedReason)
	}
	if st.Waiting != nil {
		fmt.Fprintf(w, "waiting:  pid %d until %s (%s)\n", st.Waiting.PID, cmdutil.RFC3339(st.Waiting.Until), st.Waiting.Reason)
	}
	if st.JudgeFailures > 0 {
		fmt.Fprintf(w, "judge failures: %d (the agent went on each time, within the turn budget)\n", st.JudgeFailures)
	}
	return nil
}

// ListOptions is what `goal list` was asked.
type ListOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdList is `goal list`; runF, when not nil, runs instead of listRun.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	return &cobra.Command{
		Use:     "list",
		Short:   "List every goal of this library",
		Example: `  skillrepo goal list --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *ListOptions) error {
	f := opts.Factory
	store, _, err := goalStore(f)
	if err != nil {
		return err
	}
	all, errs := store.List()
	for _, err := range errs {
		fmt.Fprintf(f.IO.ErrOut, "warning: %v\n", err)
	}
	if f.JSON {
		if all == nil {
			all = []goals.State{}
		}
		return cmdutil.PrintJSON(f.IO.Out, all)
	}
	if len(all) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no goals")
		return nil
	}
	t := cmdutil.NewTable(f.IO.Out)
	t.Header(f.IO, "SESSION", "STATUS", "TURNS", "GOAL")
	for _, st := range all {
		s := st.Session
		if s == "" {
			s = "(next)"
		}
		fmt.Fprintf(t, "%s\t%s\t%d/%d\t%s\n", s, st.Status, st.TurnsUsed, st.MaxTurns, goalLine(st.Goal, 60))
	}
	return t.Flush()
}

// goalLine is a goal folded onto one line of at most n characters.
func goalLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// StatusOptions is what `goal pause`, `resume` or `clear` was asked (Verb
// says which).
type StatusOptions struct {
	Factory    *cmdutil.Factory
	Verb       string
	Session    string
	HasSession bool
	MaxTurns   int // resume: a new turn budget
}

// NewCmdStatus is `goal pause`, `goal resume` or `goal clear` (verb);
// runF, when not nil, runs instead of statusRun.
func NewCmdStatus(f *cmdutil.Factory, verb string, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Factory: f, Verb: verb}
	short := map[string]string{
		"pause":  "Pause a goal: the agent may stop, nothing is judged",
		"resume": "Resume a paused or parked goal with a fresh turn budget",
		"clear":  "Drop a goal",
	}[verb]
	cmd := &cobra.Command{
		Use:     verb + " [--session <id>]",
		Short:   short,
		Example: "  skillrepo goal " + verb,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.HasSession = cmd.Flags().Changed("session")
			if runF != nil {
				return runF(opts)
			}
			return statusRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Session, "session", "", "the agent session `id`")
	if verb == "resume" {
		cmd.Flags().IntVar(&opts.MaxTurns, "max-turns", 0, "a new turn `budget`")
	}
	return cmd
}

func statusRun(opts *StatusOptions) error {
	f := opts.Factory
	store, _, err := goalStore(f)
	if err != nil {
		return err
	}
	st, err := pickGoal(store, opts.Session, opts.HasSession)
	if err != nil {
		return err
	}
	st, err = store.Update(st.Session, func(cur *goals.State) error {
		switch opts.Verb {
		case "pause":
			if cur.Status != goals.Active {
				return fmt.Errorf("the goal is %s, not active", cur.Status)
			}
			cur.Status, cur.PausedReason, cur.ContinuationPending = goals.Paused, "paused by the user", false
		case "resume":
			if cur.Status == goals.Done || cur.Status == goals.Cleared {
				return fmt.Errorf("the goal is %s; set a new one with 'skillrepo goal set'", cur.Status)
			}
			cur.Status, cur.PausedReason, cur.Waiting = goals.Active, "", nil
			cur.ConsecutiveParseFailures, cur.TurnsUsed = 0, 0
			if opts.MaxTurns > 0 {
				cur.MaxTurns = opts.MaxTurns
			}
		case "clear":
			cur.Status, cur.ContinuationPending, cur.Waiting = goals.Cleared, false, nil
		}
		return nil
	})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, st)
	}
	fmt.Fprintf(f.IO.ErrOut, "%s goal of %s is %s\n", f.IO.Green("✓"), sessionLabel(st.Session), st.Status)
	return nil
}
