package review

import (
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Job is what a review's tools need to know. Its toolbox ([Job.Toolbox])
// runs every tool call of the review in this process, whichever backend
// holds the conversation (the in-process loop, or an agent's own program
// calling the tools over MCP): the same guards, the same commits.
type Job struct {
	ReviewID         string `json:"review_id"`
	SessionID        string `json:"session_id,omitempty"`
	Model            string `json:"model"`
	TranscriptSHA256 string `json:"transcript_sha256,omitempty"`
	GoalID           string `json:"goal_id,omitempty"`
	// Memory: memory is reviewed, so the memory tool is offered.
	Memory bool `json:"memory"`
	// Attended: a person asked for the review (memory replace and remove
	// are not held back).
	Attended bool `json:"attended,omitempty"`
	// Base is main's commit when the review started: the proposal forks
	// from it.
	Base string `json:"base"`
	// Project is the folder of the session's project, read-only to the
	// review ("" none).
	Project string `json:"project,omitempty"`
}

// validReviewID reports a review id: ^[a-z0-9][a-z0-9._-]{0,63}$ (a loop:
// the regexp's bounded repetition compiled into 64 states in every
// command's start-up).
func validReviewID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-') {
			continue
		}
		return false
	}
	return true
}

// Tools are the tools the review offers, in the order the model sees
// them (docs/reference-behaviour.md §2.5): memory only when memory is
// reviewed.
func (j Job) Tools() []string {
	tools := []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage}
	if j.Memory {
		tools = append(tools, agenttools.Memory)
	}
	return append(tools, agenttools.ReadFile, agenttools.SearchFiles)
}

// The proposals of a review that always wait for the person, beside its
// own (proposals/<review-id>): its memory replace and remove, and its
// changes to the person's skills (user-owned or pinned).
const (
	MemorySuffix = "-memory"
	UserSuffix   = "-user"
)

// WaitingProposals are the ids of the proposals a review's writes may
// wait on whatever happens to its own.
func WaitingProposals(reviewID string) []string {
	return []string{reviewID + MemorySuffix, reviewID + UserSuffix}
}

// Branch is the review's proposal branch.
func (j Job) Branch() string { return skillrepo.ProposalBranch(j.ReviewID) }

func (j Job) provenance() Provenance {
	return Provenance{ReviewID: j.ReviewID, SessionID: j.SessionID, Model: j.Model, TranscriptSHA256: j.TranscriptSHA256, GoalID: j.GoalID}
}

// Toolbox is the review's toolbox over lib: the autonomous guards, the
// review's tools, its provenance in every commit, writes on its proposal
// branch forked from Base, an unattended memory replace or remove on the
// -memory proposal, a change to a skill the person owns on the -user
// proposal (both wait for the person whatever happens to the review).
func (j Job) Toolbox(lib agenttools.Library, progress func(Change)) *agenttools.Toolbox {
	return agenttools.New(lib, agenttools.Options{
		Tools:        j.Tools(),
		Provenance:   provenance(j.provenance()),
		Base:         j.Base,
		Branch:       j.Branch(),
		StagedBranch: skillrepo.ProposalBranch(j.ReviewID + MemorySuffix),
		Stage:        skillrepo.ProposalBranch(j.ReviewID + UserSuffix),
		Attended:     j.Attended,
		Project:      j.Project,
		Progress:     progress,
	})
}

// conversationText is the conversation as one message, then the prompt,
// for a backend that starts a fresh session instead of resuming the
// agent's (the digest of a long session).
func conversationText(msgs []Message, prompt string) string {
	var b strings.Builder
	b.WriteString("[The conversation to review follows, as text: the session's messages in order.]\n")
	for _, m := range msgs {
		switch m.Role {
		case "user":
			fmt.Fprintf(&b, "\nUSER: %s\n", m.Text())
		case "assistant":
			if t := strings.TrimSpace(m.Text()); t != "" {
				fmt.Fprintf(&b, "\nASSISTANT: %s\n", t)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "\nASSISTANT called %s %s\n", tc.Name, clip(tc.Arguments, 2000))
			}
		case "tool":
			fmt.Fprintf(&b, "\nTOOL RESULT: %s\n", clip(m.Text(), 2000))
		case "system", "developer":
			fmt.Fprintf(&b, "\nSYSTEM: %s\n", clip(m.Text(), 4000))
		}
	}
	b.WriteString("\n[End of the conversation.]\n\n")
	b.WriteString(prompt)
	return b.String()
}
