package skillrepo

import (
	"strings"
)

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
type Trailer struct {
	Key, Value string
}

// Message is a commit message: a subject, an optional body and a trailer
// block that git interpret-trailers reads.
type Message struct {
	Subject  string
	Body     string
	Trailers []Trailer
}

// agentAuthor is the author of a commit a program wrote for the person:
// "skillrepo review <model>" for a background review's write,
// "skillrepo curator [<model>]" for the curator's, "skillrepo mcp
// <client>" for an agent's write over MCP (Agent trailer), with the email
// <review|curator|mcp@skillrepo.invalid> (the .invalid domain is
// reserved: nobody receives mail there). ok is false for
// everything else, which keeps the person as author. The person remains
// the committer, so `git log --author=skillrepo` lists what agents wrote.
func (m Message) agentAuthor() (name, email string, ok bool) {
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
		name += " " + oneLine(model)
	}
	return name, role + "@skillrepo.invalid", true
}

// String renders the message: subject, blank line, body, blank line,
// trailers. Every line of the trailer block is a trailer (so git's parser
// and ours agree); values are folded to one line.
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(oneLine(m.Subject))
	b.WriteString("\n")
	if body := strings.TrimSpace(m.Body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
		b.WriteString("\n")
	}
	if len(m.Trailers) > 0 {
		b.WriteString("\n")
		for _, t := range m.Trailers {
			if t.Key == "" || strings.TrimSpace(t.Value) == "" {
				continue
			}
			b.WriteString(t.Key)
			b.WriteString(": ")
			b.WriteString(oneLine(t.Value))
			b.WriteString("\n")
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Add appends a trailer when value is not empty.
func (m *Message) Add(key, value string) {
	if strings.TrimSpace(value) != "" {
		m.Trailers = append(m.Trailers, Trailer{key, value})
	}
}

// parseTrailers reads the trailer block of a commit message with the
// rules git's own %(trailers) reads a commit with: the last paragraph
// (never the subject), continuation lines start with whitespace, and the
// paragraph counts only when every line is a trailer or at least 25 % are
// and one is a git-generated trailer (Signed-off-by, "(cherry picked from
// ...)"). A "---" line is not a divider here (it is only in a patch
// e-mail): a reject reason holding "---" and a paragraph of fake
// trailers before it must not stand in for the real ones (issue 40).
func parseTrailers(message string) []Trailer {
	lines := strings.Split(strings.ReplaceAll(message, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	start := len(lines)
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	if start == 0 {
		return nil // the only paragraph is the subject paragraph
	}
	var out []Trailer
	trailerLines, other, generated := 0, 0, false
	for _, l := range lines[start:] {
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(out) > 0 {
			out[len(out)-1].Value += " " + strings.TrimSpace(l)
			continue
		}
		if strings.HasPrefix(l, "(cherry picked from commit ") {
			generated = true
			trailerLines++
			continue
		}
		k, v, ok := splitTrailer(l)
		if !ok {
			other++
			continue
		}
		if strings.EqualFold(k, "Signed-off-by") {
			generated = true
		}
		trailerLines++
		out = append(out, Trailer{k, v})
	}
	if other == 0 || (generated && trailerLines*4 >= (trailerLines+other)) {
		return out
	}
	return nil
}

func splitTrailer(l string) (key, value string, ok bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 {
		return "", "", false
	}
	key = l[:i]
	for _, r := range key {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(l[i+1:]), true
}

// TrailerValue returns the last value of key (case-insensitive), or "".
func TrailerValue(ts []Trailer, key string) string {
	v := ""
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			v = t.Value
		}
	}
	return v
}

// TrailerValues returns every value of key (case-insensitive).
func TrailerValues(ts []Trailer, key string) []string {
	var vs []string
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			vs = append(vs, t.Value)
		}
	}
	return vs
}
