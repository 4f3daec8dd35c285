package curatorcmd

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/mcpserver"
)

// RunOptions is what `curator run` was asked.
type RunOptions struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	DryRun      bool
	Force       bool
	IfDue       bool
	Consolidate bool
	Model       string
	BaseURL     string
	Timeout     time.Duration

	// hidden, for tests
	MaxCalls     int
	RetryBackoff time.Duration
}

// NewCmdRun is `curator run`; runF, when not nil, runs instead of runRun.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "run [--dry-run] [--force] [--if-due] [--consolidate [--model <name>] [--base-url <url>]]",
		Short: "Run the curator now (or only when due, with --if-due)",
		Long: `Decide every curator-managed skill's state from its usage and apply it:
archived skills move to .archive/<name>/ on a branch curator/<run-id> that is
merged into the main branch as one merge; stale and active are recorded in the
usage sidecar. The main branch's tip before the run is kept at
refs/skillrepo/curator/<run-id>, and a report is written to
.git/skillrepo/curator/<run-id>/.

--dry-run prints exactly the same plan and writes nothing at all: no commit,
ref, sidecar, schedule or report. --if-due runs only when interval_hours have
passed since the last run (the first call on a library starts the clock and
waits one interval); use it from cron or an agent's start-up hook.

--consolidate (or curator.consolidate: true, which scheduled runs follow)
adds phase 2: on the same branch, a model folds clusters of narrow
curator-managed skills into umbrella skills through skills_list,
skill_view, skill_manage and skill_move_file (support files move as git
renames). Pinned skills and skills a scheduled job uses are listed but
never changed; a write that would leave a dangling link, or a pointer into
an archived skill's files, is refused. Every archived skill is reported as
consolidated into an umbrella or pruned, with its evidence. With
curator.write_approval the run waits as proposal curator-<run-id>. With
--dry-run the model sees the same tools, every write answers "dry run: not
written" and is listed, and nothing changes. The model: --model, else
curator.model, else review.model, else $SKILLREPO_MODEL; the endpoint:
--base-url, else curator.base_url, else review.base_url, else
$OPENAI_BASE_URL; the key: $OPENAI_API_KEY. With no endpoint configured,
the pass runs through an agent's own program (Claude Code, Codex or Gemini
CLI, the one whose hooks are installed), calling the same tools over MCP
(review.backend chooses; docs/agents.md, "The model backend").`,
		Example: `  skillrepo curator run --dry-run
  skillrepo curator run
  skillrepo curator run --if-due --json
  skillrepo curator run --consolidate --dry-run --model qwen3-32b
  skillrepo curator run --consolidate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan, write nothing")
	fl.BoolVar(&opts.Force, "force", false, "run even when the curator is disabled or paused")
	fl.BoolVar(&opts.IfDue, "if-due", false, "run only when the schedule says a run is due")
	fl.BoolVar(&opts.Consolidate, "consolidate", false, "add phase 2: a model folds narrow skills into umbrellas (default curator.consolidate)")
	fl.StringVar(&opts.Model, "model", "", "model for --consolidate (default curator.model, review.model, $SKILLREPO_MODEL)")
	fl.StringVar(&opts.BaseURL, "base-url", "", "OpenAI-compatible endpoint (default curator.base_url, review.base_url, $OPENAI_BASE_URL)")
	fl.DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "time limit of one model call")
	fl.IntVar(&opts.MaxCalls, "max-calls", 0, "cap on model calls (default 200)")
	fl.DurationVar(&opts.RetryBackoff, "retry-backoff", 0, "first back-off before retrying a failed model call")
	for _, h := range []string{"max-calls", "retry-backoff"} {
		_ = fl.MarkHidden(h)
	}
	return cmd
}

// consolidateOptions settles phase 2's model and backend before anything
// runs: a missing one is a usage error, not a half-done run. The backend
// is chosen as a review's (docs/agents.md, "The model backend"): the
// OpenAI-compatible endpoint when one is configured (or --model/--base-url
// name one), else the program of an agent whose hooks are installed, or
// found on PATH (claude, then codex).
func consolidateOptions(f *cmdutil.Factory, c *curator.Curator, opts *RunOptions) (*curator.ConsolidateOptions, error) {
	cfg := c.Lib.Config
	if !opts.Consolidate && !cfg.Curator.Consolidate {
		return nil, nil
	}
	model := cmp.Or(opts.Model, cfg.Curator.Model, cfg.Review.Model, f.Getenv("SKILLREPO_MODEL"))
	baseURL := cmp.Or(opts.BaseURL, cfg.Curator.BaseURL, cfg.Review.BaseURL, f.Getenv("OPENAI_BASE_URL"))
	name, program := consolidationAgent(f)
	backend, err := agentcli.Choose(agentcli.Want{Setting: cfg.Review.Backend, Agent: name, Model: model, BaseURL: baseURL,
		APIKey: f.Getenv("OPENAI_API_KEY") != "" || opts.Model != "" || opts.BaseURL != "", Program: program})
	if err != nil {
		return nil, cmdutil.UsageErrorf("no model for --consolidate: %v; or pass --model and --base-url", err)
	}
	o := &curator.ConsolidateOptions{
		Model:          model,
		MaxCalls:       opts.MaxCalls,
		RetryBackoff:   opts.RetryBackoff,
		RequestTimeout: opts.Timeout,
		WriteApproval:  cfg.Curator.WriteApproval,
	}
	if backend == agentcli.BackendAgent {
		o.Backend = agentcli.Backend{Serve: mcpserver.ServeSession, Program: agentcli.Program{Agent: name, Path: program, Env: os.Environ(), Dir: c.Lib.Root,
			Model: model, Self: cmdutil.SelfExecutable(), Timeout: opts.Timeout * 3}}
		o.Model = cmp.Or(model, agentcli.ProgramName(name)+" default")
		return o, nil
	}
	if model == "" {
		return nil, cmdutil.UsageErrorf("no model for --consolidate: pass --model, set curator.model or review.model in .skillrepo/config.yaml, or set SKILLREPO_MODEL")
	}
	client, err := cmdutil.NewModelClient(f, baseURL)
	if err != nil {
		return nil, err
	}
	o.Client = client
	return o, nil
}

// consolidationAgent is the agent whose own program may hold a
// consolidation run from the command line: one whose hooks are installed
// (user scope) with its program on PATH, else any agent program on PATH.
func consolidationAgent(f *cmdutil.Factory) (name, program string) {
	homes, _ := cmdutil.AgentHomes(f)
	cwd, _ := os.Getwd()
	for _, pass := range []bool{true, false} {
		for _, a := range []agent.Name{agent.ClaudeCode, agent.Codex} {
			if pass {
				t, found := agents.Find[hooks.Target](a)
				if ok, _ := hooks.Installed(t, agent.ScopeUser, homes, cwd); !found || !ok {
					continue
				}
			}
			if p := agentcli.Find(string(a), f.Getenv("PATH")); p != "" {
				return string(a), p
			}
		}
	}
	return "", ""
}

func runRun(opts *RunOptions) error {
	f := opts.Factory
	c, done, err := curatorFor(f, opts.DryRun)
	if err != nil {
		return err
	}
	defer done()
	cons, err := consolidateOptions(f, c, opts)
	if err != nil {
		return err
	}
	out, err := c.Run(opts.Ctx, curator.RunOptions{DryRun: opts.DryRun, Force: opts.Force, IfDue: opts.IfDue, Consolidate: cons})
	if err != nil {
		return err
	}
	if f.JSON {
		return printRunJSON(f.IO.Out, out, c.Lib.Root)
	}
	if out.Run == nil {
		fmt.Fprintf(f.IO.ErrOut, "curator: %s\n", out.Skipped)
		if out.Seeded {
			fmt.Fprintf(f.IO.ErrOut, "next run due %s; preview it now with 'skillrepo curator run --dry-run'\n", cmdutil.RFC3339(out.Next))
		}
		return nil
	}
	printRun(f.IO, out.Run)
	if !out.Run.DryRun {
		if out.ReportPath != "" {
			fmt.Fprintf(f.IO.Out, "report: %s\n", relPath(c.Lib.Root, out.ReportPath))
		}
		if len(out.Run.Transitions) > 0 || out.Run.MergeCommit != "" {
			fmt.Fprintf(f.IO.Out, "undo: skillrepo curator rollback %s\n", out.Run.ID)
		}
	}
	if cr := out.Run.Consolidation; cr != nil && cr.Status == curator.PassFailed {
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}

// printRun writes a run or a plan in one shape; only the first line says
// which it is, so a dry run can be compared with the run that follows.
func printRun(ios *cmdutil.IOStreams, r *curator.Run) {
	w := ios.Out
	if r.DryRun {
		fmt.Fprintf(w, "curator plan %s (dry run: nothing was written)\n", r.ID)
	} else {
		fmt.Fprintf(w, "curator run %s\n", r.ID)
	}
	c := r.Counts
	fmt.Fprintf(w, "checked %d: %d marked stale, %d archived, %d reactivated, %d seeded; skipped %d pinned, %d scheduled; %s\n",
		c.Checked, c.MarkedStale, c.Archived, c.Reactivated, c.Seeded, c.Pinned, c.Scheduled, userOwned(c))
	if c.RolledBack > 0 {
		fmt.Fprintf(w, "skipped %d brought back by a rollback and untouched since\n", c.RolledBack)
	}
	tw := cmdutil.NewTable(w)
	tw.Header(ios, "ACTION", "NAME", "STATE", "PATH", "WHY")
	for _, t := range r.Transitions {
		where := t.Dir
		if t.ArchiveDir != "" {
			where = t.Dir + " -> " + t.ArchiveDir
		}
		fmt.Fprintf(tw, "%s\t%s\t%s -> %s\t%s\t%s\n", t.Action, t.Name, t.From, t.To, where, t.Reason)
	}
	for _, n := range r.Seeded {
		fmt.Fprintf(tw, "seed\t%s\t-\t\tno usage record: the clock starts now\n", n)
	}
	tw.Flush()
	if cr := r.Consolidation; cr != nil {
		printConsolidation(ios, cr)
	}
	if r.MergeCommit != "" {
		fmt.Fprintf(w, "merged as %.7s on %s (%s); before the run: %s\n", r.MergeCommit, r.Branch, cmdutil.NounCount(len(r.Commits), "commit"), r.PreRunRef)
	}
}

// printConsolidation writes phase 2: the pass, then one line per archived
// skill with where it went and why we say so, new umbrellas, follow-ups
// and a dry run's would-be writes.
func printConsolidation(ios *cmdutil.IOStreams, cr *curator.Consolidation) {
	w := ios.Out
	fmt.Fprintf(w, "consolidation (%s, model %s): %s, %s, %s (%d refused), %s\n",
		cr.Status, cr.Model, cmdutil.NounCount(len(cr.Candidates), "candidate"), cmdutil.NounCount(cr.ModelCalls, "model call"), cmdutil.NounCount(len(cr.ToolCalls), "tool call"), cr.Refused, cmdutil.NounCount(len(cr.Commits), "commit"))
	if cr.Reason != "" {
		fmt.Fprintf(w, "  %s\n", cr.Reason)
	}
	tw := cmdutil.NewTable(w)
	tw.Header(ios, "ACTION", "NAME", "INTO", "WHY")
	for _, c := range cr.Consolidated {
		fmt.Fprintf(tw, "consolidated\t%s\t-> %s\t%s\n", c.Name, c.Into, c.Evidence)
	}
	for _, p := range cr.Pruned {
		fmt.Fprintf(tw, "pruned\t%s\t\t%s\n", p.Name, p.Evidence)
	}
	for _, a := range cr.Added {
		fmt.Fprintf(tw, "new\t%s\t\tumbrella\n", a)
	}
	for _, u := range cr.FollowUps {
		fmt.Fprintf(tw, "follow-up\t%s:%d\tnames %s\t%s\n", u.Path, u.Line, strings.Join(u.Names, ", "), u.Into)
	}
	for _, ww := range cr.WouldWrite {
		fmt.Fprintf(tw, "would\t%s\t\tdry run: not written\n", ww.Would)
	}
	tw.Flush()
	for _, d := range cr.Disagreements {
		fmt.Fprintf(w, "note: %s (git wins)\n", d)
	}
	for _, l := range cr.LintErrors {
		fmt.Fprintf(w, "lint: %s\n", l)
	}
	if cr.Proposal != "" {
		fmt.Fprintf(w, "waits as proposal %s: skillrepo proposal show %s\n", cr.Proposal, cr.Proposal)
	}
}

// printRunJSON writes JSON Lines: one "change" per transition, then a
// "summary" with the whole run, or one "status" when nothing ran.
func printRunJSON(w io.Writer, out *curator.Outcome, root string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if out.Run == nil {
		var next *time.Time
		if !out.Next.IsZero() {
			next = &out.Next
		}
		return enc.Encode(struct {
			Type    string     `json:"message_type"`
			Skipped string     `json:"skipped"`
			Seeded  bool       `json:"seeded"`
			Next    *time.Time `json:"next_run_at"`
		}{"status", out.Skipped, out.Seeded, next})
	}
	for _, t := range out.Run.Transitions {
		if err := enc.Encode(struct {
			Type   string `json:"message_type"`
			DryRun bool   `json:"dry_run"`
			curator.Change
		}{"change", out.Run.DryRun, t}); err != nil {
			return err
		}
	}
	report := ""
	if out.ReportPath != "" {
		report = relPath(root, out.ReportPath)
	}
	return enc.Encode(struct {
		Type string `json:"message_type"`
		*curator.Run
		ReportPath string `json:"report_path,omitempty"`
	}{"summary", out.Run, report})
}

// relPath is p relative to the library root, slash-separated.
func relPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// userOwned says how many skills are user-owned, as curator status counts
// them: the pinned ones included, and said.
func userOwned(c curator.Counts) string {
	s := fmt.Sprintf("%d user-owned", c.UserOwned())
	if c.PinnedUnmanaged > 0 {
		s += fmt.Sprintf(" (%d of them pinned)", c.PinnedUnmanaged)
	}
	return s
}
