package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Options configure a server.
type Options struct {
	// Origin is the Skill-Origin of every write (default foreground). An
	// autonomous origin (background-review, curator) gets the autonomous
	// guards: curator-managed skills only, read before write.
	Origin string
	// Propose lands every write on a proposal branch that waits for
	// approval; review.write_approval in the library's config does too.
	Propose bool
	// AllowApprove offers proposal_approve and proposal_reject.
	AllowApprove bool
	// SessionID is the Session-Id of writes whose client passes none.
	SessionID string
	// Version is the server's version in the initialize handshake.
	Version string
	// Poll is how often the main branch is checked for commits made by
	// others, to notify the client (0: every second; < 0: never).
	Poll time.Duration
	// Logger receives diagnostics (stdout is the protocol's: never log
	// there). nil discards them.
	Logger *slog.Logger
	// Session is set on a server of one agent pass ([NewSession]).
	Session *Session
}

// Session is one agent pass served over MCP: the tools it offers and the
// function that runs them (in the process that serves it: the tools'
// state, guards and writes stay the pass's own).
type Session struct {
	Tools []agenttools.Definition
	// Call runs one tool call and returns the text the model reads, and
	// whether it is a failure the model should correct.
	Call func(ctx context.Context, name, args string) (text string, isError bool)
	// Instructions are the server's instructions in its handshake.
	Instructions string
}

// Server is the MCP server of one library.
type Server struct {
	lib    *skillrepo.Library
	tools  agenttools.Library
	opts   Options
	server *mcp.Server
	log    *slog.Logger

	// mu lets one call at a time use the library, which is not safe for
	// concurrent use; it is held only during a call, never while idle.
	mu          sync.Mutex
	reads       map[string]bool               // read-before-write memory of this session
	dups        skillrepo.DuplicateIndex      // the create duplicate check's index, kept per main tip
	memFailures int                           // failed memory consolidations since the last memory success
	instance    string                        // this server's session, for a client that names none
	writers     map[skillrepo.Provenance]bool // the writers that called skill_manage, whose held creates end with the server
	proposal    string                        // the proposal this server's writes gather on
	proposed    bool                          // a write landed on it
	tip         string                        // main's tip the resources show
	resources   map[string]bool               // skill names with a registered resource
	subs        map[string]bool               // resource URIs a client subscribed to
	// kick asks the watcher to refresh the resources now (after a write
	// of ours), off the call's path.
	kick chan struct{}
}

// Tool names beyond agenttools'.
const (
	toolProposalList    = "proposal_list"
	toolProposalShow    = "proposal_show"
	toolProposalApprove = "proposal_approve"
	toolProposalReject  = "proposal_reject"
)

// New makes a server over lib: the tools, and the resources as main has
// them now.
func New(lib *skillrepo.Library, opts Options) (*Server, error) {
	if opts.Origin == "" {
		opts.Origin = skillrepo.OriginForeground
	}
	if !skillrepo.ValidOrigin(opts.Origin) {
		return nil, fmt.Errorf("unknown origin %q: use user, foreground, background-review, curator or import", opts.Origin)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Poll == 0 {
		opts.Poll = time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		lib: lib, tools: agenttools.Open(lib), opts: opts, log: log,
		reads: map[string]bool{}, resources: map[string]bool{}, subs: map[string]bool{},
		instance: newInstanceID(), writers: map[skillrepo.Provenance]bool{},
		kick: make(chan struct{}, 1),
	}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "skillrepo", Title: "skillrepo skills library", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       log,
		// No logging capability: nothing is logged to the client.
		Capabilities:       &mcp.ServerCapabilities{},
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
	})
	if err := s.addTools(); err != nil {
		return nil, err
	}
	s.addIndexResources()
	s.server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: skillURIPrefix + "{+name}",
		Name:        "skill",
		Description: "A skill's SKILL.md, by name (or category/name), as the main branch has it now.",
		MIMEType:    "text/markdown",
	}, s.readSkill)
	if _, err := s.refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

const instructions = `This server is the user's skills library, kept in git. Before a task, look for a skill that applies (skills_list, then skill_view) and follow it. After solving something non-obvious that will come up again, save it with skill_manage (view before you patch). Save durable facts about the environment or the user with memory. Every write is a git commit with provenance; some setups make writes proposals the user approves.`

// Run serves one client over t until it disconnects or ctx ends, watching
// the main branch for commits made by others meanwhile. The watcher has
// ended when Run returns: it reads the library, which the caller may
// close next (the CLI does at exit; under -race a watcher still reading
// was a data race with that close).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	var watching sync.WaitGroup
	if s.opts.Session == nil {
		watching.Go(func() { s.Watch(ctx) })
	}
	if s.opts.Session == nil {
		s.reportHeld(s.lib.ExpireHeld())
	}
	err := s.server.Run(ctx, t)
	cancel()
	watching.Wait()
	if s.opts.Session == nil {
		s.endHeld()
	}
	return err
}

// newInstanceID names a server's own session: the writes of a client
// that passes no session id are this one session's.
func newInstanceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "mcp-" + hex.EncodeToString(b)
}

// session is the write policy's session of a writer: its client's, else
// this server's.
func (s *Server) session(prov skillrepo.Provenance) string {
	return cmp.Or(prov.SessionID, s.instance)
}

// endHeld ends the session of every writer of this server for the creates
// the write policy held for their files: each that never landed is
// logged (docs/architecture.md §2.1).
func (s *Server) endHeld() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for prov := range s.writers {
		pol, err := s.lib.Policy(skillrepo.Writer{Provenance: prov, Session: s.session(prov)})
		if err != nil {
			continue
		}
		s.reportHeld(pol.EndHeld())
	}
}

// reportHeld logs the held creates that never landed.
func (s *Server) reportHeld(held []skillrepo.HeldCreate, err error) {
	if err != nil {
		s.log.Warn("held creates", "error", err)
	}
	for _, h := range held {
		s.log.Warn("a create held for the files it links never landed: its files did not come", "skill", h.Name, "missing", strings.Join(h.Missing, "; "), "since", h.Since.Format(time.RFC3339))
	}
}

// Watch polls the main branch until ctx ends and, when a commit changed
// it, updates the skill resources and notifies clients (list changed, and
// updated for subscribed resources). A ref read is all an idle poll costs.
// With Poll < 0 it only follows the server's own writes.
func (s *Server) Watch(ctx context.Context) {
	var tick <-chan time.Time
	if s.opts.Poll > 0 {
		t := time.NewTicker(s.opts.Poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-s.kick:
		}
		s.mu.Lock()
		changed, err := s.refresh()
		s.mu.Unlock()
		if err != nil {
			s.log.Warn("watch the main branch", "error", err)
		}
		if changed {
			s.notifyUpdated(ctx)
		}
	}
}

// provenance is the trailers of a write asked for by req: the server's
// origin, the client's session if it passes one, and the client's name and
// version from its initialize handshake.
func (s *Server) provenance(req *mcp.CallToolRequest) skillrepo.Provenance {
	p := skillrepo.Provenance{Origin: s.opts.Origin, SessionID: s.opts.SessionID}
	if req.Params != nil {
		for _, k := range []string{"sessionId", "session_id", "skillrepo/sessionId"} {
			if v, ok := req.Params.Meta[k].(string); ok && strings.TrimSpace(v) != "" {
				p.SessionID = strings.TrimSpace(v)
				break
			}
		}
		// Claude Code names the call (its transcript and its PostToolUse
		// hook use the same id); the session is CLAUDE_CODE_SESSION_ID in
		// the server's environment (cmd/skillrepo passes it as SessionID).
		if v, ok := req.Params.Meta["claudecode/toolUseId"].(string); ok {
			p.ToolUseID = strings.TrimSpace(v)
		}
	}
	if req.Session != nil {
		if ip := req.Session.InitializeParams(); ip != nil && ip.ClientInfo != nil && ip.ClientInfo.Name != "" {
			p.Agent = ip.ClientInfo.Name
			if ip.ClientInfo.Version != "" {
				p.Agent += "/" + ip.ClientInfo.Version
			}
		}
	}
	return p
}

// target is where this call's writes land and what it reads, as the
// library's write policy routes the session's writer: main, or the
// session's proposal (a new one once the last was approved or rejected).
func (s *Server) target(prov skillrepo.Provenance) (branch string, exists bool, err error) {
	w := skillrepo.Writer{Provenance: prov, Propose: s.opts.Propose}
	if s.proposal != "" {
		_, err := s.lib.BranchTip(skillrepo.ProposalBranch(s.proposal))
		switch {
		case err == nil:
			w.Proposal, w.Propose = s.proposal, false
		case s.proposed:
			// Approved or rejected since: the next write starts anew.
			s.proposal, s.proposed = "", false
		default:
			w.Proposal, w.Propose = s.proposal, false // made, not written yet
		}
	}
	pol, err := s.lib.Policy(w)
	if err != nil {
		return "", false, err
	}
	r := pol.Route()
	if r.Proposal == "" {
		return s.lib.MainBranch(), true, nil
	}
	s.proposal = r.Proposal
	_, terr := s.lib.BranchTip(r.Branch)
	return r.Branch, terr == nil, nil
}

// agentTool runs one of agenttools' tools.
// agentTool runs tool d for a client: its arguments are checked against
// the schema the client was shown first (the SDK leaves raw tools'
// arguments to us), so what the schema forbids is refused, in the tool's
// words.
func (s *Server) agentTool(d agenttools.Definition) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args []byte
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if err := agenttools.ValidateArgs(d, args); err != nil {
			return textResult(encode(map[string]any{"success": false, "error": err.Error()}), true), nil
		}
		return s.runAgentTool(ctx, req, d.Name), nil
	}
}

// changed tells the watcher a write of ours moved a branch.
func (s *Server) changed() {
	select {
	case s.kick <- struct{}{}:
	default: // a refresh is pending already
	}
}

// runAgentTool runs one call of an agenttools tool under the server's
// mutex.
func (s *Server) runAgentTool(ctx context.Context, req *mcp.CallToolRequest, name string) *mcp.CallToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	prov := s.provenance(req)
	branch, exists, err := s.target(prov)
	if err != nil {
		return textResult(encode(map[string]any{"success": false, "error": err.Error()}), true)
	}
	tb := agenttools.New(s.tools, agenttools.Options{
		Tools:        []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage, agenttools.Memory},
		Provenance:   prov,
		Base:         s.lib.MainBranch(),
		Branch:       branch,
		BranchExists: exists,
		Reads:        s.reads,
		Duplicates:   &s.dups,
		// The server sees no turns: a run of failed memory calls counts
		// as one, ended by a memory call that succeeds, as the
		// reference's count is (docs/reference-behaviour.md §7).
		MemoryFailures: &s.memFailures,
		Session:        s.session(prov),
	})
	if name == agenttools.SkillManage {
		w := prov
		w.ToolUseID = ""
		s.writers[w] = true
	}
	var args string
	if req.Params != nil {
		args = string(req.Params.Arguments)
	}
	r := tb.Call(ctx, name, args)
	for _, ref := range tb.Refusals() {
		if ref.Kind == agenttools.RefusedHeld { // expired, said in the result too
			s.log.Warn("a held create expired", "reason", ref.Reason)
		}
	}
	text := r.Text
	switch {
	case r.OK && name == agenttools.SkillView:
		text = s.countView(text)
	case r.OK && len(r.Changes) > 0:
		if branch != s.lib.MainBranch() {
			s.proposed = true
			text = s.annotateProposal(text, r.Changes)
		}
		s.changed()
	}
	return textResult(text, !r.OK)
}

// countView counts a successful skill_view as a view and a use in
// .usage.json, as the reference's tool does, under the key the reference
// counts by (the skill's frontmatter name); a failure to count is said in
// the result, and the view stands.
func (s *Server) countView(text string) string {
	var res map[string]any
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		return text
	}
	name, _ := res["name"].(string)
	if name == "" {
		return text
	}
	_, err := s.lib.CountUse(name, skillrepo.UseView, false)
	if errors.Is(err, skillrepo.ErrNotFound) {
		// Not on main yet (a proposal's skill): counted under its name.
		err = s.lib.Usage().BumpView(name)
	}
	if err != nil {
		res["usage_warning"] = "the view was not counted in .usage.json: " + err.Error()
		return encode(res)
	}
	return text
}

// annotateProposal says in a write's result that it waits on a proposal.
func (s *Server) annotateProposal(text string, changes []agenttools.Change) string {
	var res map[string]any
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		return text
	}
	id := s.proposal
	res["proposal"] = id
	res["proposal_branch"] = skillrepo.ProposalBranch(id)
	note := fmt.Sprintf("Proposed, not applied: the write is commit %s on proposal %s, which waits for the user's approval (skillrepo proposal approve %s). Later writes of this session join it; reads show it.", short(changes[0].Commit), id, id)
	if msg, _ := res["message"].(string); msg != "" {
		note = msg + " " + note
	}
	res["message"] = note
	delete(res, "note")
	return encode(res)
}

func short(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

func encode(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"success":false,"error":%q}`, "encode result: "+err.Error())
	}
	return string(data)
}

// textResult is a tool result holding text; isError marks a failure the
// model can read and correct, never a protocol error.
func textResult(text string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
}

// cliText is an error as the CLI prints it: "error: …" then "hint: …"
// lines.
func cliText(err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "error: %s", err)
	var h interface{ Hint() string }
	if errors.As(err, &h) && h.Hint() != "" {
		for _, line := range strings.Split(h.Hint(), "\n") {
			fmt.Fprintf(&b, "\nhint: %s", line)
		}
	}
	return b.String()
}

// errorResult is a failed call's result in the CLI's words.
func errorResult(err error) *mcp.CallToolResult { return textResult(cliText(err), true) }
