package skillrepo

import "github.com/skillrepo/skillrepo/skillrepo/trailer"

// Trailer keys written by skillrepo (docs/architecture.md §2).
const (
	TrailerAction        = "Skill-Action"
	TrailerName          = "Skill-Name"
	TrailerOrigin        = "Skill-Origin"
	TrailerReviewID      = "Review-Id"
	TrailerSessionID     = "Session-Id"
	TrailerModel         = "Model"
	TrailerAbsorbedInto  = "Absorbed-Into"
	TrailerCuratorRun    = "Curator-Run"
	TrailerApprovedBy    = "Approved-By"
	TrailerRejectedBy    = "Rejected-By"
	TrailerTranscriptSHA = "Transcript-Sha256"
	TrailerReason        = "Reason"
	TrailerFrom          = "Skill-From"
	TrailerImported      = "Skill-Imported-Agent"
	TrailerGoalID        = "Goal-Id"
	// TrailerLintError records a lint error a sync recorded anyway (the
	// edit was made outside skillrepo; the gate can only report it).
	TrailerLintError = "Lint-Error"
	// TrailerForceNew carries the reason an agent gave for creating a
	// skill that overlaps an existing one (force_new).
	TrailerForceNew = "Force-New"
	// TrailerAgent names the MCP client that wrote ("name/version").
	TrailerAgent = "Agent"
	// TrailerToolUseID is the agent's id of the tool call that wrote
	// over MCP (Claude Code's claudecode/toolUseId), which its transcript
	// and its PostToolUse hook name too.
	TrailerToolUseID = "Tool-Use-Id"
)

// Origins of a write.
const (
	OriginUser             = "user"
	OriginForeground       = "foreground"
	OriginBackgroundReview = "background-review"
	OriginCurator          = "curator"
	OriginImport           = "import"
)

// ValidOrigin reports whether o is one of the five origins.
func ValidOrigin(o string) bool {
	switch o {
	case OriginUser, OriginForeground, OriginBackgroundReview, OriginCurator, OriginImport:
		return true
	}
	return false
}

// Trailer is one "Key: value" line of a commit message's trailer block.
type Trailer = trailer.Trailer

// Message is a commit message: a subject, an optional body and a trailer
// block (package trailer renders and reads it).
type Message = trailer.Message

// agentAuthor is the author of a commit a program wrote for the person:
// "skillrepo review <model>" for a background review's write,
// "skillrepo curator [<model>]" for the curator's, "skillrepo mcp
// <client>" for an agent's write over MCP (Agent trailer), with the email
// <review|curator|mcp@skillrepo.invalid> (the .invalid domain is
// reserved: nobody receives mail there). ok is false for
// everything else, which keeps the person as author. The person remains
// the committer, so `git log --author=skillrepo` lists what agents wrote.
func agentAuthor(m Message) (name, email string, ok bool) {
	var origin, model, agent string
	for _, t := range m.Trailers {
		switch t.Key {
		case TrailerOrigin:
			origin = t.Value
		case TrailerModel:
			if model == "" {
				model = t.Value
			}
		case TrailerAgent:
			agent = t.Value
		}
	}
	var role string
	switch {
	case origin == OriginBackgroundReview:
		role = "review"
	case origin == OriginCurator:
		role = "curator"
	case origin == OriginForeground && agent != "":
		// An agent writing over MCP: the client names itself.
		role, model = "mcp", agent
	default:
		return "", "", false
	}
	name = "skillrepo " + role
	if model != "" {
		name += " " + trailer.OneLine(model)
	}
	return name, role + "@skillrepo.invalid", true
}
