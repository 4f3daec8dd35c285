package review

import (
	"strings"
	"time"
)

// Intervals are the nudge intervals: user turns between memory reviews
// and model iterations between skill reviews. 0 disables that trigger.
type Intervals struct {
	Memory int
	Skill  int
}

// DefaultInterval is the reference's default for both intervals.
const DefaultInterval = 10

// countersVersion is the version of the counters file format.
const countersVersion = 1

// Counters are a session's nudge counters, persisted between runs of
// `review --if-due` so each run counts only what it has not seen.
type Counters struct {
	Version   int    `json:"version"`
	SessionID string `json:"session_id"`
	// TurnsSeen and IterationsSeen are how much of the transcript earlier
	// runs counted.
	TurnsSeen      int `json:"turns_seen"`
	IterationsSeen int `json:"iterations_seen"`
	// TurnsSinceMemory and IterationsSinceSkill are the reference's
	// _turns_since_memory and _iters_since_skill.
	TurnsSinceMemory     int    `json:"turns_since_memory"`
	IterationsSinceSkill int    `json:"iterations_since_skill"`
	TranscriptSHA256     string `json:"transcript_sha256,omitempty"`
	LastReviewID         string `json:"last_review_id,omitempty"`
	// ReviewedTurns is how many of the session's user turns a review
	// already took: TurnsSeen when the session's last review was queued.
	// A session's final review covers only turns after it (one review
	// per turn, whether that review waits, runs or is done).
	ReviewedTurns int       `json:"reviewed_turns,omitempty"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Decision is what the counters say about a transcript.
type Decision struct {
	Memory bool // a memory review is due
	Skills bool // a skill review is due
	// NewTurns and NewIterations are what this run counted.
	NewTurns      int
	NewIterations int
	// Skip, when not empty, says why nothing runs although a review may be
	// due (the last turn was interrupted or has no final answer).
	Skip string
}

// Due reports whether any review runs.
func (d Decision) Due() bool { return d.Skip == "" && (d.Memory || d.Skills) }

// Advance counts the part of t that c has not seen, the way the reference
// counts live (docs/reference-behaviour.md §1.2–§1.5), and returns the new counters and the
// decision:
//   - each user turn adds one to the memory counter; reaching the interval
//     makes a memory review due and sets the counter to 0;
//   - each model iteration adds one to the skill counter; at the end, a
//     counter at or over the interval makes a skill review due and is set
//     to 0;
//   - an iteration in which the agent itself called `memory` or
//     `skill_manage` (successfully) sets that counter to 0;
//   - when the last turn has no final answer or was interrupted no review
//     runs, and, as in the reference, the counters stay reset.
//
// A transcript shorter than what c has seen is a new or rewritten one and
// is counted from its start; the counters carry over.
func Advance(c Counters, t *Transcript, iv Intervals) (Counters, Decision) {
	var d Decision
	skipTurns, skipIters := c.TurnsSeen, c.IterationsSeen
	if t.UserTurns() < skipTurns || t.Iterations() < skipIters {
		skipTurns, skipIters = 0, 0
	}
	turns, iters := 0, 0
	for _, e := range t.Events {
		switch e.Kind {
		case UserTurn:
			turns++
			if turns <= skipTurns {
				continue
			}
			d.NewTurns++
			if iv.Memory > 0 {
				c.TurnsSinceMemory++
				if c.TurnsSinceMemory >= iv.Memory {
					d.Memory = true
					c.TurnsSinceMemory = 0
				}
			}
		case Iteration:
			iters++
			if iters <= skipIters {
				continue
			}
			d.NewIterations++
			if iv.Skill > 0 {
				c.IterationsSinceSkill++
			}
			for _, tool := range succeeded(e) {
				switch toolBase(tool) {
				case "memory":
					c.TurnsSinceMemory = 0
				case "skill_manage":
					c.IterationsSinceSkill = 0
				}
			}
		}
	}
	if iv.Skill > 0 && c.IterationsSinceSkill >= iv.Skill {
		d.Skills = true
		c.IterationsSinceSkill = 0
	}
	c.Version = countersVersion
	c.TurnsSeen, c.IterationsSeen = t.UserTurns(), t.Iterations()
	c.TranscriptSHA256 = t.SHA256
	if c.SessionID == "" {
		c.SessionID = t.SessionID
	}
	switch {
	case t.Interrupted:
		d.Skip = "the last turn was interrupted"
	case !t.Final:
		d.Skip = "the last turn has no final answer"
	}
	return c, d
}

// succeeded lists the tools of an iteration whose call did not fail.
func succeeded(e Event) []string {
	failed := map[string]int{}
	for _, f := range e.FailedTools {
		failed[f]++
	}
	var out []string
	for _, t := range e.Tools {
		if failed[t] > 0 {
			failed[t]--
			continue
		}
		out = append(out, t)
	}
	return out
}

// toolBase strips an MCP-style prefix ("mcp__skillrepo__skill_manage",
// "skillrepo.memory"), so the agent's use of our tools through any bridge
// counts.
func toolBase(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}
