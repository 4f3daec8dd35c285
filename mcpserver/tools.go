package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// addTools registers the agent's tools (schemas and words of package
// agenttools, which also validates the arguments: the SDK's raw tools
// leave that to us, so a model reads the same messages as everywhere) and
// the proposal tools.
func (s *Server) addTools() error {
	defs, err := agenttools.ForegroundDefinitions([]string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage, agenttools.Memory})
	if err != nil {
		return err
	}
	for _, d := range defs {
		// skill_view counts a view and a use in the usage sidecar, as the
		// reference's tool does: it changes state, so it is not read-only
		// (nor idempotent), though it destroys nothing.
		readOnly := d.Name == agenttools.SkillsList
		// The writers replace and remove (skill_manage's patch, edit and
		// delete; memory's replace and remove): destructive, as the MCP
		// spec means it, not only additive.
		destructive := d.Name == agenttools.SkillManage || d.Name == agenttools.Memory
		s.server.AddTool(&mcp.Tool{
			Name: d.Name, Description: d.Description, InputSchema: d.Parameters,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly, DestructiveHint: ptr(destructive), IdempotentHint: readOnly, OpenWorldHint: ptr(false)},
		}, s.agentTool(d))
	}
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        toolProposalList,
		Description: "List the skills library's proposals: writes (from a background review, the curator, or an agent whose writes need approval) that wait on a branch for the user to approve or reject. Each has an id, its origin, the skills it touches, line counts, and whether it still merges cleanly into main.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.proposalList)
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        toolProposalShow,
		Description: "Show one proposal: its commits (with their provenance) and the unified diff of every file it changes against main. Use it to tell the user what a proposal would change before they approve it.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.proposalShow)
	if s.opts.AllowApprove {
		mcp.AddTool(s.server, &mcp.Tool{
			Name:        toolProposalApprove,
			Description: "Approve a proposal: merge it into main with a merge commit (linted first; a conflict changes nothing). Only when the user asked for this proposal to be approved.",
			// A merge may rewrite or archive skills on main.
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
		}, s.proposalApprove)
		mcp.AddTool(s.server, &mcp.Tool{
			Name:        toolProposalReject,
			Description: "Reject a proposal: delete its branch, keeping its commits under refs/skillrepo/rejected/<id> with the reason. Only when the user asked for this proposal to be rejected.",
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
		}, s.proposalReject)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

type proposalListIn struct{}

type proposalIDIn struct {
	ID string `json:"id" jsonschema:"the proposal id, as proposal_list shows it"`
}

type proposalRejectIn struct {
	ID     string `json:"id" jsonschema:"the proposal id, as proposal_list shows it"`
	Reason string `json:"reason,omitempty" jsonschema:"why, in the user's words (recorded with the rejection)"`
}

// proposalJSON is a proposal as the tools show it.
type proposalJSON struct {
	ID        string   `json:"id"`
	State     string   `json:"state"`
	Origin    string   `json:"origin,omitempty"`
	ReviewID  string   `json:"review_id,omitempty"`
	Skills    []string `json:"skills"`
	Files     int      `json:"files"`
	Added     int      `json:"added"`
	Deleted   int      `json:"deleted"`
	Created   string   `json:"created,omitempty"`
	Updated   string   `json:"updated,omitempty"`
	Mergeable *bool    `json:"mergeable,omitempty"`
	Conflicts []string `json:"conflicts,omitempty"`
}

func toProposalJSON(p *skillrepo.Proposal) proposalJSON {
	out := proposalJSON{ID: p.ID, State: string(p.State), Origin: p.Origin, ReviewID: p.ReviewID, Skills: p.Skills,
		Files: len(p.Files), Added: p.Added, Deleted: p.Deleted}
	if out.Skills == nil {
		out.Skills = []string{}
	}
	if !p.Created.IsZero() {
		out.Created = p.Created.UTC().Format(time.RFC3339)
		out.Updated = p.Updated.UTC().Format(time.RFC3339)
	}
	if p.Checked {
		out.Mergeable = ptr(p.Mergeable())
		for _, c := range p.Conflicts {
			out.Conflicts = append(out.Conflicts, c.Path+": "+c.Detail)
		}
	}
	return out
}

func (s *Server) proposalList(ctx context.Context, req *mcp.CallToolRequest, _ proposalListIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := s.lib.Proposals().List(skillrepo.ProposalQuery{CheckMerge: true})
	if err != nil {
		return errorResult(err), nil, nil
	}
	list := []proposalJSON{}
	for _, p := range ps {
		list = append(list, toProposalJSON(p))
	}
	return textResult(encode(map[string]any{"success": true, "proposals": list, "count": len(list)}), false), nil, nil
}

// maxDiffChars bounds proposal_show's diff, so one huge proposal cannot
// flood the model's context.
const maxDiffChars = 100_000

func (s *Server) proposalShow(ctx context.Context, req *mcp.CallToolRequest, in proposalIDIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, diffs, err := s.lib.Proposals().Diff(strings.TrimSpace(in.ID), 3)
	if err != nil {
		return errorResult(err), nil, nil
	}
	var commits []map[string]any
	for _, c := range p.Commits {
		tr := map[string]string{}
		for _, t := range c.Trailers {
			tr[t.Key] = t.Value
		}
		commits = append(commits, map[string]any{"commit": c.Hash.String(), "subject": c.Subject, "author": c.Author,
			"date": c.When.UTC().Format(time.RFC3339), "trailers": tr})
	}
	var b strings.Builder
	for _, d := range diffs {
		writePatch(&b, d)
	}
	diff := b.String()
	res := map[string]any{"success": true, "proposal": toProposalJSON(p), "commits": commits, "diff": clip(diff, maxDiffChars)}
	if len(diff) > maxDiffChars {
		res["truncated"] = true
		res["hint"] = fmt.Sprintf("the diff is cut at %d characters; run 'skillrepo proposal diff %s' for all of it", maxDiffChars, p.ID)
	}
	return textResult(encode(res), false), nil, nil
}

func (s *Server) proposalApprove(ctx context.Context, req *mcp.CallToolRequest, in proposalIDIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strings.TrimSpace(in.ID)
	// The approval is the agent's: the policy names it in Approved-By.
	pol, err := s.lib.Policy(skillrepo.Writer{Provenance: s.provenance(req)})
	if err != nil {
		return errorResult(err), nil, nil
	}
	res, err := pol.ApproveProposal(ctx, id, skillrepo.ApproveOptions{})
	if err != nil {
		return errorResult(err), nil, nil
	}
	out := map[string]any{"success": true, "id": id, "merged": res.Tip.String()}
	switch {
	case res.AlreadyMerged:
		out["message"] = fmt.Sprintf("Proposal %s was already in main; its branch is deleted.", id)
	default:
		out["commit"] = res.Commit.String()
		out["message"] = fmt.Sprintf("Approved %s: merged into %s as %s.", id, s.lib.MainBranch(), short(res.Commit.String()))
		if res.BranchKept {
			out["message"] = out["message"].(string) + " Newer commits arrived meanwhile; the branch stays open with them."
		}
	}
	s.changed()
	return textResult(encode(out), false), nil, nil
}

func (s *Server) proposalReject(ctx context.Context, req *mcp.CallToolRequest, in proposalRejectIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strings.TrimSpace(in.ID)
	pol, err := s.lib.Policy(skillrepo.Writer{Provenance: s.provenance(req)})
	if err != nil {
		return errorResult(err), nil, nil
	}
	res, err := pol.RejectProposal(ctx, id, skillrepo.RejectOptions{Reason: in.Reason})
	if err != nil {
		return errorResult(err), nil, nil
	}
	return textResult(encode(map[string]any{"success": true, "id": id, "kept": res.Ref,
		"message": fmt.Sprintf("Rejected %s: its branch is deleted; its commits are kept under %s.", id, res.Ref)}), false), nil, nil
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// writePatch writes one file's change in git's patch format, for a model
// to read (no colour, no index lines).
func writePatch(b *strings.Builder, d skillrepo.FileDiff) {
	fmt.Fprintf(b, "diff --git a/%s b/%s\n", d.Path, d.Path)
	old, new := "a/"+d.Path, "b/"+d.Path
	switch d.Status {
	case "added":
		old = "/dev/null"
		b.WriteString("new file\n")
	case "deleted":
		new = "/dev/null"
		b.WriteString("deleted file\n")
	}
	if d.Binary {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", old, new)
		return
	}
	if len(d.Hunks) == 0 {
		return
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n", old, new)
	b.Write(d.Hunks)
	if d.Hunks[len(d.Hunks)-1] != '\n' {
		b.WriteByte('\n')
	}
}
