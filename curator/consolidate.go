package curator

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/overlap"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// Phase 2: a model folds clusters of narrow skills into umbrella skills
// (docs/reference-behaviour.md §6.6), on the run's branch, through tools
// whose every guard is code. See doc.go for the model of a run.

//go:embed prompts/*.md
var promptFiles embed.FS

// DefaultMaxModelCalls caps the model calls of one consolidation pass. The
// reference sets no useful cap (9999 iterations); a pass over a large
// library needs many calls, a runaway one must still stop.
const DefaultMaxModelCalls = 200

// ChatClient is the one call phase 2 makes to a model; *openai.Client
// implements it.
type ChatClient interface {
	CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// Cluster is a group of candidate skills that likely belong under one
// umbrella, computed in code (names and content), given to the model as
// a starting map.
type Cluster struct {
	Members  []string `json:"members"`
	Evidence string   `json:"evidence"`
	Umbrella string   `json:"suggested_umbrella,omitempty"`
}

// ClusterInput is one candidate as the cluster finder reads it.
type ClusterInput struct {
	Name, Category    string
	Description, Body string
	Pinned, Scheduled bool
}

// ClusterFunc finds clusters among candidates.
type ClusterFunc func([]ClusterInput) []Cluster

// ConsolidateOptions turn on phase 2 for a run and configure it.
type ConsolidateOptions struct {
	Model  string
	Client ChatClient
	// Backend holds the pass's conversation; nil is the in-process loop
	// against Client. The tools run here either way.
	Backend modelcall.Backend
	// MaxCalls caps model calls (0: DefaultMaxModelCalls).
	MaxCalls int
	// Retries of a failed model call (HTTP 408, 409, 429, 5xx, network
	// errors); 0 means 2, < 0 none. RetryBackoff is the first wait (0: 1 s).
	Retries      int
	RetryBackoff time.Duration
	// RequestTimeout limits one model call (0: 10 min, the reference's).
	RequestTimeout time.Duration
	// WriteApproval leaves the run waiting as proposal curator-<run-id>
	// instead of merging it (curator.write_approval).
	WriteApproval bool
	// Clusters finds the starting map (nil: OverlapClusters).
	Clusters ClusterFunc
}

// Status values of a consolidation pass.
const (
	PassCompleted = modelcall.StatusCompleted
	PassCapped    = modelcall.StatusCapped
	PassFailed    = modelcall.StatusFailed
	PassSkipped   = "skipped"
)

// Consolidation is the record of phase 2 in run.json.
type Consolidation struct {
	Status     string `json:"status"`
	Reason     string `json:"reason,omitempty"`
	Model      string `json:"model"`
	ModelCalls int    `json:"model_calls"`
	TokensIn   int    `json:"tokens_in"`
	TokensOut  int    `json:"tokens_out"`
	// Candidates are the skills offered; Untouchable the ones listed but
	// flagged pinned or scheduled.
	Candidates  []string  `json:"candidates"`
	Untouchable []string  `json:"untouchable"`
	Clusters    []Cluster `json:"clusters"`
	// Commits are the model's writes on the run branch, oldest first.
	Commits []string `json:"commits"`
	// Consolidated and Pruned classify every skill the pass archived
	// (docs/reference-behaviour.md §6.7), from git first.
	Consolidated []Classified `json:"consolidated"`
	Pruned       []Classified `json:"pruned"`
	Added        []string     `json:"added"`
	// RenameMap maps each consolidated skill to the umbrella that holds it.
	RenameMap map[string]string `json:"rename_map"`
	// Disagreements are places where the model's YAML summary contradicts
	// git; git wins.
	Disagreements []string `json:"disagreements"`
	// FollowUps are active skills whose text still names an archived one.
	FollowUps []FollowUp `json:"follow_ups"`
	// WouldWrite are a dry run's write calls, answered "dry run: not
	// written".
	WouldWrite []ToolCall `json:"would_write"`
	// LintErrors in the skills the run touched; a run with any is not
	// merged.
	LintErrors     []string       `json:"lint_errors"`
	ToolCalls      []ToolCall     `json:"tool_calls"`
	ToolCallCounts map[string]int `json:"tool_call_counts"`
	Refused        int            `json:"refused"`
	Final          string         `json:"llm_final"`
	Summary        *YAMLSummary   `json:"yaml_summary,omitempty"`
	SummaryError   string         `json:"yaml_summary_error,omitempty"`
	// Touched are the folders phase 2 changed (skills, archive folders),
	// for the merge's conflict check and the rollback.
	Touched []string `json:"touched"`
	// Proposal names the proposal the run waits on (write approval or
	// lint errors); "" when merged.
	Proposal string `json:"proposal,omitempty"`
}

// ToolCall is one call of the pass, as the audit keeps it.
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // clipped to 400 characters
	OK        bool   `json:"ok"`
	Result    string `json:"result,omitempty"` // the error, or what was done
	Commit    string `json:"commit,omitempty"`
	DryRun    bool   `json:"dry_run,omitempty"`
	// Would says what a dry run's write would have done.
	Would string `json:"would,omitempty"`
	// Ops are the parsed write operations of skill_manage and
	// skill_move_file (for the audit heuristic and the dry-run report).
	Ops []skillrepo.Op `json:"-"`
}

// Classified is one archived skill and why the report says what it says.
type Classified struct {
	Name     string `json:"name"`
	Into     string `json:"into,omitempty"`
	Evidence string `json:"evidence"`
	Reason   string `json:"reason,omitempty"`
	Commit   string `json:"commit,omitempty"`
	// Phase is 1 for the ageing phase's archives, 2 for the model's.
	Phase int `json:"phase"`
	// From and To are the skill's folder before and in the archive.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// FollowUp is an active skill whose text names an archived skill.
type FollowUp struct {
	Skill string   `json:"skill"`
	Path  string   `json:"path"`
	Line  int      `json:"line"`
	Names []string `json:"names"`
	Into  string   `json:"suggested,omitempty"`
}

// candidate is one skill offered to phase 2.
type candidate struct {
	Name, Dir   string
	Category    string
	Description string
	Body        string
	Pinned      bool
	Scheduled   bool
	// RolledBack is the run whose rollback brought the skill back, while
	// nothing touched it since.
	RolledBack string
	State      string
	Usage      *usage.Record
}

func (c candidate) untouchable() bool { return c.Pinned || c.Scheduled || c.RolledBack != "" }

// Prompt caps: a library of 10,000 skills must not become a prompt of
// two megabytes. The clusters come first, then the candidates in them,
// then the rest; the model pages through skills_list for more.
const (
	maxPromptClusters   = 100
	maxPromptCandidates = 400
)

// renderCandidates is the candidate list of the prompt, one line a skill
// (the reference's _render_candidate_list, plus the description): the
// members of the clusters first, then the others, at most
// maxPromptCandidates.
func renderCandidates(cs []candidate, clusters []Cluster) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Candidate skills (%d):\n", len(cs))
	inCluster := map[string]int{}
	for i, cl := range clusters {
		for _, m := range cl.Members {
			if _, ok := inCluster[m]; !ok {
				inCluster[m] = i
			}
		}
	}
	ordered := append([]candidate(nil), cs...)
	sort.SliceStable(ordered, func(i, j int) bool {
		ci, iok := inCluster[ordered[i].Name]
		cj, jok := inCluster[ordered[j].Name]
		if iok != jok {
			return iok
		}
		return iok && ci < cj
	})
	if len(ordered) > maxPromptCandidates {
		defer fmt.Fprintf(&b, "… and %d more candidates: skills_list (by category, or with offset and limit) shows them.\n", len(ordered)-maxPromptCandidates)
		ordered = ordered[:maxPromptCandidates]
	}
	for _, c := range ordered {
		yes := func(v bool) string {
			if v {
				return "yes"
			}
			return "no"
		}
		use, view, patch, last := 0, 0, 0, "never"
		if r := c.Usage; r != nil {
			use, view, patch = r.UseCount, r.ViewCount, r.PatchCount
			if t, _, ok := UsageOf(r).LastActivity(); ok {
				last = t.UTC().Format(time.RFC3339)
			}
		}
		state := c.State
		if state == "" {
			state = "active"
		}
		fmt.Fprintf(&b, "- %s  state=%s  pinned=%s  scheduled=%s  use=%d  view=%d  patches=%d  last_activity=%s\n",
			c.Name, state, yes(c.Pinned), yes(c.Scheduled), use, view, patch, last)
		if c.Description != "" {
			fmt.Fprintf(&b, "    %s\n", oneLine(c.Description, 160))
		}
	}
	return b.String()
}

func renderClusters(cl []Cluster) string {
	if len(cl) == 0 {
		return "Clusters found in code: none. Look for umbrellas yourself.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Clusters found in code (%d), a starting map:\n", len(cl))
	for i, c := range cl {
		if i == maxPromptClusters {
			fmt.Fprintf(&b, "… and %d more clusters, smaller ones.\n", len(cl)-i)
			break
		}
		fmt.Fprintf(&b, "%d. %s", i+1, strings.Join(c.Members, ", "))
		if c.Umbrella != "" {
			fmt.Fprintf(&b, "  (suggested umbrella: %s)", c.Umbrella)
		}
		if c.Evidence != "" {
			fmt.Fprintf(&b, "  — %s", c.Evidence)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// buildPrompt is the whole instruction: the dry-run banner first (dry
// runs only), our rules, the clusters and the candidates.
func buildPrompt(cs []candidate, clusters []Cluster, dryRun bool) (string, error) {
	var b strings.Builder
	if dryRun {
		banner, err := promptFiles.ReadFile("prompts/dryrun.md")
		if err != nil {
			return "", err
		}
		b.Write(banner)
	}
	rules, err := promptFiles.ReadFile("prompts/consolidate.md")
	if err != nil {
		return "", err
	}
	b.Write(rules)
	b.WriteString("\n")
	b.WriteString(renderClusters(clusters))
	b.WriteString("\n")
	b.WriteString(renderCandidates(cs, clusters))
	return b.String(), nil
}

// OverlapClusters is the starting map: package overlap's clusters (TF-IDF
// cosine over name, description and body, and shared name prefixes),
// each with its evidence in a line and the suggested umbrella.
func OverlapClusters(in []ClusterInput) []Cluster {
	skills := make([]overlap.Skill, len(in))
	for i, c := range in {
		skills[i] = overlap.Skill{Name: c.Name, Description: c.Description, Body: c.Body, Category: c.Category, Pinned: c.Pinned, Scheduled: c.Scheduled}
	}
	var out []Cluster
	for _, oc := range overlap.Find(skills, overlap.Options{}) {
		c := Cluster{Members: oc.Names(), Umbrella: oc.Umbrella}
		var ev []string
		if oc.Prefix != "" {
			ev = append(ev, "shared name prefix "+oc.Prefix)
		}
		for i, p := range oc.Pairs {
			if i == 3 {
				ev = append(ev, fmt.Sprintf("and %d more pairs", len(oc.Pairs)-3))
				break
			}
			if p.Prefix != "" && p.Similarity < overlap.DefaultThreshold {
				continue
			}
			pair := fmt.Sprintf("%s ~ %s %.2f", p.A, p.B, p.Similarity)
			if len(p.Shared) > 0 {
				pair += " (" + strings.Join(p.Shared[:min(3, len(p.Shared))], ", ") + ")"
			}
			ev = append(ev, pair)
		}
		if oc.UmbrellaExists {
			ev = append(ev, oc.Umbrella+" could be the umbrella itself")
		}
		c.Evidence = strings.Join(ev, "; ")
		out = append(out, c)
	}
	return out
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n]) + "…"
	}
	return s
}

// newModelCaller calls the model with the options' retries and a
// per-call timeout of 10 minutes unless set: a consolidation reads many
// skills in one call.
func newModelCaller(o *ConsolidateOptions) modelcall.Caller {
	timeout := o.RequestTimeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	return modelcall.Caller{Client: o.Client, Retries: o.Retries, Backoff: o.RetryBackoff, Timeout: timeout}
}

// passInput is what a consolidation pass starts from.
type passInput struct {
	runID  string
	inv    *inventory
	plan   *Plan
	cfg    config.Curator
	branch string // the run branch
	base   string // the commit it forks from
	made   bool   // phase 1 already wrote the branch
	dryRun bool
}

// candidates are the curator-managed active skills phase 1 left; pinned
// and scheduled ones are listed but flagged (docs/reference-behaviour.md
// §6.6).
func candidatesOf(in passInput) []candidate {
	archived := map[string]bool{}
	if in.plan != nil {
		for _, a := range in.plan.Archives() {
			archived[a.Dir] = true
		}
	}
	fsys := in.inv.snap.FS()
	var out []candidate
	for _, si := range in.inv.skills {
		o := in.inv.owners[si.Dir]
		if si.Archived || archived[si.Dir] || !o.Managed {
			continue
		}
		c := candidate{Name: si.Name, Dir: si.Dir, Category: si.Category, Pinned: o.Pinned, Scheduled: in.inv.scheduled[si.Name] != "", RolledBack: in.inv.rolledBack[si.Name], Usage: in.inv.usage[si.Name]}
		if c.Usage != nil {
			c.State = c.Usage.State
		}
		if data, err := fs.ReadFile(fsys, path.Join(si.Dir, skill.FileName)); err == nil {
			if doc, err := skill.Parse(data); err == nil {
				c.Description, c.Body = doc.Description, doc.Body
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

const systemPrompt = "You are the curator of an AI agent's skills library. You work only through the tools offered; there is no shell."

// consolidate runs the model pass over the candidates and returns its
// record and the tools (with what they wrote). An error is for what
// stopped the pass before its first model call; a model that fails later
// is a record with status failed.
func (c *Curator) consolidate(ctx context.Context, in passInput, o *ConsolidateOptions) (*Consolidation, *passTools, error) {
	if (o.Client == nil && o.Backend == nil) || o.Model == "" {
		return nil, nil, errors.New("curator consolidation: no model (set curator.model or review.model, or pass --model)")
	}
	rec := &Consolidation{
		Model: o.Model, Candidates: []string{}, Untouchable: []string{}, Clusters: []Cluster{}, Commits: []string{},
		Consolidated: []Classified{}, Pruned: []Classified{}, Added: []string{}, RenameMap: map[string]string{},
		Disagreements: []string{}, FollowUps: []FollowUp{}, WouldWrite: []ToolCall{}, LintErrors: []string{},
		ToolCalls: []ToolCall{}, ToolCallCounts: map[string]int{}, Touched: []string{},
	}
	cands := candidatesOf(in)
	tools := &passTools{
		ctx: ctx, lib: c.Lib, runID: in.runID, model: o.Model, branch: in.branch, base: in.base, made: in.made,
		dryRun: in.dryRun, writable: map[string]bool{}, untouchable: map[string]string{},
		reads: map[string]bool{}, dryCreated: map[string]bool{}, touched: map[string]bool{}, wrote: map[string]bool{},
		managed: map[string]bool{}, pinned: map[string]bool{},
		moved: map[string]Moved{},
	}
	var clusterIn []ClusterInput
	for _, cd := range cands {
		rec.Candidates = append(rec.Candidates, cd.Name)
		tools.managed[cd.Name], tools.pinned[cd.Name] = true, cd.Pinned
		switch {
		case cd.Pinned:
			tools.untouchable[cd.Name] = "the skill is pinned, which blocks every automatic change (`skillrepo skill unpin " + cd.Name + "` lifts it)"
		case cd.Scheduled:
			tools.untouchable[cd.Name] = "a scheduled job uses the skill (" + in.inv.scheduled[cd.Name] + ")"
		case cd.RolledBack != "":
			tools.untouchable[cd.Name] = "a person rolled back curator run " + cd.RolledBack + ", which changed this skill; it stays as it is until it is used or edited again"
		default:
			tools.writable[cd.Name] = true
		}
		if cd.untouchable() {
			rec.Untouchable = append(rec.Untouchable, cd.Name)
		}
		clusterIn = append(clusterIn, ClusterInput{Name: cd.Name, Category: cd.Category, Description: cd.Description, Body: cd.Body, Pinned: cd.Pinned, Scheduled: cd.Scheduled})
	}
	// Skills phase 1 archived in this run are gone for the pass.
	if in.plan != nil {
		for _, a := range in.plan.Archives() {
			tools.untouchable[a.Name] = "phase 1 of this run archives it"
		}
	}
	if len(tools.writable) == 0 {
		rec.Status, rec.Reason = PassSkipped, "no candidates: no curator-managed skill that is not pinned or scheduled"
		return rec, tools, nil
	}
	find := o.Clusters
	if find == nil {
		find = OverlapClusters
	}
	if cl := find(clusterIn); cl != nil {
		rec.Clusters = cl
	}
	prompt, err := buildPrompt(cands, rec.Clusters, in.dryRun)
	if err != nil {
		return nil, nil, err
	}
	maxCalls := o.MaxCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxModelCalls
	}
	defs, err := tools.definitions()
	if err != nil {
		return nil, nil, err
	}
	req := openai.ChatCompletionRequest{Model: o.Model, Tools: defs, Messages: []openai.ChatCompletionMessage{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: prompt},
	}}
	backend := o.Backend
	if backend == nil {
		backend = modelcall.Endpoint{Caller: newModelCaller(o)}
	}
	// A program runs the pass as a fresh session: the rules and the map
	// are its first message, under the curator's system prompt.
	out := backend.Run(ctx, modelcall.Task{Request: req, System: systemPrompt, Text: prompt, MaxCalls: maxCalls,
		Dispatch: func(_ context.Context, call openai.ToolCall) string { return tools.dispatch(call) }})
	rec.Status, rec.Reason, rec.Final = out.Status, out.Reason, out.Final
	rec.ModelCalls, rec.TokensIn, rec.TokensOut = out.Calls, out.TokensIn, out.TokensOut
	return rec, tools, nil
}

// finishPass fills the record from what the pass left in git: the
// classification of every archived skill, the rename map, the follow-ups,
// the lint of what it touched.
func (c *Curator) finishPass(rec *Consolidation, tools *passTools, in passInput) error {
	rec.Commits = append(rec.Commits, tools.commits...)
	for _, call := range tools.calls {
		rec.ToolCalls = append(rec.ToolCalls, call)
		rec.ToolCallCounts[call.Name]++
		if !call.OK {
			rec.Refused++
		}
		if call.DryRun {
			call.Would = describeOps(call)
			rec.WouldWrite = append(rec.WouldWrite, call)
		}
	}
	for d := range tools.touched {
		rec.Touched = append(rec.Touched, d)
	}
	sort.Strings(rec.Touched)
	if rec.Final != "" {
		if s, err := ParseYAMLSummary(rec.Final); err != nil {
			rec.SummaryError = err.Error()
		} else {
			rec.Summary = s
		}
	}
	end, err := c.Lib.Snapshot(tools.rev())
	if err != nil {
		return err
	}
	skills, err := end.Skills()
	if err != nil {
		return err
	}
	active := map[string]bool{}
	for _, si := range skills {
		if !si.Archived {
			active[si.Name] = true
		}
	}
	before := map[string]bool{}
	for _, si := range in.inv.skills {
		if !si.Archived {
			before[si.Name] = true
		}
	}
	events, err := gitEvidence(c.Lib, tools.commits)
	if err != nil {
		return err
	}
	if in.dryRun {
		// A dry run classifies what it would have done: its would-be
		// archives stand in for the commits, its would-be umbrellas for
		// the skills they would create.
		for _, call := range tools.calls {
			for _, op := range call.Ops {
				switch {
				case !call.DryRun:
				case op.Action == skillrepo.ActionDelete && op.AbsorbedInto != nil:
					into := strings.TrimSpace(*op.AbsorbedInto)
					events[op.Name] = archiveEvent{name: op.Name, into: into, pruned: into == ""}
					delete(active, op.Name)
				case op.Action == skillrepo.ActionCreate:
					active[op.Name] = true
				}
			}
		}
	}
	for n := range active {
		if !before[n] {
			rec.Added = append(rec.Added, n)
		}
	}
	sort.Strings(rec.Added)
	var archived []string
	for n := range events {
		if !active[n] {
			archived = append(archived, n)
		}
	}
	sort.Strings(archived)
	var phase1 []Change
	if in.plan != nil {
		phase1 = in.plan.Archives()
	}
	rec.Consolidated, rec.Pruned, rec.RenameMap, rec.Disagreements = classify(classifyInput{
		phase1: phase1, archived: archived, events: events, active: active, yaml: rec.Summary, calls: tools.calls,
	})
	if rec.Consolidated == nil {
		rec.Consolidated = []Classified{}
	}
	if rec.Pruned == nil {
		rec.Pruned = []Classified{}
	}
	for i := range rec.Consolidated {
		m := tools.moved[rec.Consolidated[i].Name]
		rec.Consolidated[i].From, rec.Consolidated[i].To = m.From, m.To
	}
	for i := range rec.Pruned {
		if m, ok := tools.moved[rec.Pruned[i].Name]; ok {
			rec.Pruned[i].From, rec.Pruned[i].To = m.From, m.To
		} else if rec.Pruned[i].Phase == 1 {
			for _, a := range phase1 {
				if a.Name == rec.Pruned[i].Name {
					rec.Pruned[i].From, rec.Pruned[i].To = a.Dir, a.ArchiveDir
				}
			}
		}
	}
	if rec.Disagreements == nil {
		rec.Disagreements = []string{}
	}
	all := append([]string{}, archived...)
	for _, a := range phase1 {
		all = append(all, a.Name)
	}
	rec.FollowUps = followUps(end.FS(), skills, all, rec.RenameMap)
	// The run's result passes the write policy's lint gate against where
	// it started: every active skill it wrote.
	var dirs []string
	for _, si := range skills {
		if !si.Archived && tools.touched[si.Dir] {
			dirs = append(dirs, si.Dir)
		}
	}
	if err := c.Lib.LintGate(end.FS(), in.base, dirs); err != nil {
		var ge *skillrepo.GateError
		if !errors.As(err, &ge) {
			return err
		}
		for _, f := range ge.Found.Findings {
			rec.LintErrors = append(rec.LintErrors, fmt.Sprintf("%s:%d %s: %s", f.Path, f.Line, f.Rule, f.Message))
		}
	}
	return nil
}
