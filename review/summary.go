package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Review outcomes: the agent loop's (package modelcall), and skipped.
const (
	StatusCompleted = modelcall.StatusCompleted // the model gave its final answer
	StatusCapped    = modelcall.StatusCapped    // stopped at the call cap; writes stand
	StatusFailed    = modelcall.StatusFailed    // model error or budget exhausted; nothing merged
	StatusSkipped   = "skipped"                 // --if-due: no review was due
)

// Summary reports a review. Applied and Staged never overlap (docs/reference-behaviour.md §2.9):
// Applied are changes that reached the main branch; Staged are changes
// that wait on a proposal branch, with the proposal named.
type Summary struct {
	ReviewID         string `json:"review_id"`
	SessionID        string `json:"session_id,omitempty"`
	Model            string `json:"model,omitempty"`
	TranscriptSHA256 string `json:"transcript_sha256,omitempty"`
	Status           string `json:"status"`
	Reason           string `json:"reason,omitempty"`
	Memory           bool   `json:"memory"`
	Skills           bool   `json:"skills"`
	MainBranch       string `json:"main_branch,omitempty"`
	Base             string `json:"base,omitempty"` // main's commit when the review started
	// Proposal is the review's proposal id (its branch is Branch), set
	// when the review wrote anything.
	Proposal    string `json:"proposal,omitempty"`
	Branch      string `json:"branch,omitempty"`
	Merged      bool   `json:"merged"`
	MergeCommit string `json:"merge_commit,omitempty"`
	MergeError  string `json:"merge_error,omitempty"`
	// StagedProposals are further proposals that always wait (memory
	// replace and remove).
	StagedProposals []string  `json:"staged_proposals"`
	Applied         []Change  `json:"applied"`
	Staged          []Change  `json:"staged"`
	Commits         []string  `json:"commits"`
	Refused         []Refusal `json:"refused"`
	ModelCalls      int       `json:"model_calls"`
	TokensIn        int       `json:"tokens_in"`
	TokensOut       int       `json:"tokens_out"`
	Digest          bool      `json:"digest"`
	Final           string    `json:"final,omitempty"`
	// Counts, for a run with --if-due: what the counters decided.
	Due *DueReport `json:"due,omitempty"`
	// RetryLater: the review failed on a model call worth another try
	// later (HTTP 408, 409, 429, 5xx, the network, a timeout), for the
	// queue worker, which retries whole reviews.
	RetryLater bool `json:"-"`
}

// DueReport is what `--if-due` found.
type DueReport struct {
	Memory        bool   `json:"memory"`
	Skills        bool   `json:"skills"`
	NewTurns      int    `json:"new_turns"`
	NewIterations int    `json:"new_iterations"`
	Skip          string `json:"skip,omitempty"`
}

// record takes the agent loop's outcome into the summary.
func (s *Summary) record(o modelcall.Outcome) {
	s.Status, s.Reason, s.Final = o.Status, o.Reason, o.Final
	s.ModelCalls, s.TokensIn, s.TokensOut = o.Calls, o.TokensIn, o.TokensOut
	s.RetryLater = o.Err != nil && modelcall.Retryable(o.Err)
}

// normalize makes the JSON lists [] rather than null.
func (s *Summary) normalize() {
	if s.StagedProposals == nil {
		s.StagedProposals = []string{}
	}
	if s.Applied == nil {
		s.Applied = []Change{}
	}
	if s.Staged == nil {
		s.Staged = []Change{}
	}
	if s.Commits == nil {
		s.Commits = []string{}
	}
	if s.Refused == nil {
		s.Refused = []Refusal{}
	}
}

// Skipped is the summary of an --if-due run that found nothing due.
func Skipped(sessionID string, d Decision) *Summary {
	s := &Summary{SessionID: sessionID, Status: StatusSkipped, Due: &DueReport{
		Memory: d.Memory, Skills: d.Skills, NewTurns: d.NewTurns, NewIterations: d.NewIterations, Skip: d.Skip,
	}}
	switch {
	case d.Skip != "":
		s.Reason = d.Skip
	default:
		s.Reason = "no review is due"
	}
	s.normalize()
	return s
}

// Headline is the one-line notice the reference prints (docs/reference-behaviour.md §2.9):
// what was applied, then what waits, never mixed.
func (s *Summary) Headline() string {
	var applied, staged []string
	seen := map[string]bool{}
	for _, c := range s.Applied {
		if !seen[c.Summary] {
			seen[c.Summary] = true
			applied = append(applied, c.Summary)
		}
	}
	for _, c := range s.Staged {
		if !seen["staged "+c.Summary] {
			seen["staged "+c.Summary] = true
			staged = append(staged, c.Summary)
		}
	}
	var parts []string
	if len(applied) > 0 {
		parts = append(parts, "Self-improvement review: "+strings.Join(applied, " · "))
	}
	if len(staged) > 0 {
		parts = append(parts, "Waiting for approval: "+strings.Join(staged, " · "))
	}
	return strings.Join(parts, "\n")
}

// Brief is the outcome in one line, for the queue and status, without
// the status word (they print it beside): what landed and what waits, or
// that the review wrote nothing and, when calls were refused, the first
// refusal. The model's own account is never taken for what happened.
func (s *Summary) Brief() string {
	if h := s.Headline(); h != "" {
		return strings.ReplaceAll(h, "\n", "; ")
	}
	b := "wrote nothing"
	if n := len(s.Refused); n > 0 {
		r := s.Refused[0]
		calls := "call was"
		if n > 1 {
			calls = "calls were"
		}
		b += fmt.Sprintf(" (%d %s refused; %s: %s)", n, calls, r.Tool, clip(flatten(r.Reason), 160))
	}
	return b
}

// WriteText prints the summary for a person.
func (s *Summary) WriteText(w io.Writer) {
	if s.Status == StatusSkipped {
		fmt.Fprintf(w, "no review: %s", s.Reason)
		if s.Due != nil {
			fmt.Fprintf(w, " (%d new user turns, %d new model iterations)", s.Due.NewTurns, s.Due.NewIterations)
		}
		fmt.Fprintln(w)
		return
	}
	kind := "skills"
	switch {
	case s.Memory && s.Skills:
		kind = "memory and skills"
	case s.Memory:
		kind = "memory"
	}
	fmt.Fprintf(w, "review %s (%s): %s", s.ReviewID, kind, s.Status)
	if s.Reason != "" {
		fmt.Fprintf(w, ": %s", s.Reason)
	}
	fmt.Fprintln(w)
	digest := ""
	if s.Digest {
		digest = ", transcript sent as a digest"
	}
	calls := "calls"
	if s.ModelCalls == 1 {
		calls = "call"
	}
	fmt.Fprintf(w, "model %s: %d %s, %d tokens in, %d tokens out%s\n", s.Model, s.ModelCalls, calls, s.TokensIn, s.TokensOut, digest)
	if len(s.Applied) > 0 {
		fmt.Fprintf(w, "applied (merged into %s at %s):\n", s.MainBranch, short(s.MergeCommit))
		for _, c := range s.Applied {
			fmt.Fprintf(w, "  %s  %s\n", short(c.Commit), c.Summary)
		}
	}
	if len(s.Staged) > 0 {
		fmt.Fprintln(w, "staged (waiting for approval, not applied):")
		for _, c := range s.Staged {
			fmt.Fprintf(w, "  %s  %s  [proposal %s]\n", short(c.Commit), c.Summary, strings.TrimPrefix(c.Branch, "proposals/"))
		}
		for _, id := range s.proposalsWaiting() {
			fmt.Fprintf(w, "  approve with: skillrepo proposal approve %s\n", id)
		}
	}
	if s.MergeError != "" {
		fmt.Fprintf(w, "not merged: %s\n", s.MergeError)
	}
	if s.Status == StatusFailed && s.Proposal != "" {
		fmt.Fprintf(w, "the review failed; its proposal %s was left unmerged and %s did not change\n", s.Proposal, s.MainBranch)
	}
	if len(s.Applied) == 0 && len(s.Staged) == 0 {
		fmt.Fprintln(w, "no changes")
	}
	if len(s.Refused) > 0 {
		fmt.Fprintln(w, "refused calls:")
		for _, r := range s.Refused {
			fmt.Fprintf(w, "  %s (%s): %s\n", r.Tool, r.Kind, r.Reason)
		}
	}
	if s.Final != "" {
		fmt.Fprintf(w, "model's last word: %s\n", clip(flatten(s.Final), 300))
	}
}

// proposalsWaiting lists the proposals that hold staged changes.
func (s *Summary) proposalsWaiting() []string {
	var ids []string
	for _, c := range s.Staged {
		ids = appendUnique(ids, strings.TrimPrefix(c.Branch, "proposals/"))
	}
	return ids
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}
