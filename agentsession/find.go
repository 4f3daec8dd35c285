package agentsession

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/review"
)

// SessionFinder is an agent whose session files can be found without a
// hook's event, by id or as the session a command runs in (`skillrepo
// review --session`, the in-agent /refine; docs/agents.md). Each agent's
// folder implements it (agents/<name>/session.go).
type SessionFinder interface {
	Name() agent.Name
	TranscriptFormat() review.Format
	TranscriptRoots(h agent.Homes) []string
	// SessionFile is the file of session id in the agent's folders, ""
	// when there is none.
	SessionFile(h agent.Homes, id string) string
	// LatestSession is the most recently written session of the project
	// folder dir: its id and file ("" none).
	LatestSession(h agent.Homes, dir string) (id, path string)
	// InSession reports whether getenv reads the environment the agent
	// gives the commands it runs, and the session id it exports there (""
	// when it exports none).
	InSession(getenv func(string) string) (inside bool, id string)
}

// Current is the session id that names the session a command runs in.
const Current = "current"

// Session is one agent session found.
type Session struct {
	Agent  agent.Name
	ID     string
	Path   string
	Format review.Format
}

// ErrNoSession: no agent has the session asked for.
var ErrNoSession = errors.New("no such session")

// FindSession finds session id among the agents' folders; id Current is
// the session the command runs in: the one whose id its agent exports to
// its commands, else (an agent that exports none, or a command run
// outside any agent) the most recently written session of the folder dir
// among the agents. Errors match ErrNoSession and say where it looked.
func FindSession(finders []SessionFinder, homes agent.Homes, getenv func(string) string, id, dir string) (Session, error) {
	if id != Current {
		if err := agentid.Check("session", id); err != nil {
			return Session{}, err
		}
		for _, f := range finders {
			if p := f.SessionFile(homes, id); p != "" {
				return Session{Agent: f.Name(), ID: id, Path: p, Format: f.TranscriptFormat()}, nil
			}
		}
		return Session{}, fmt.Errorf("%w: no agent has a session %s (looked in %s)", ErrNoSession, id, looked(finders, homes))
	}
	for _, f := range finders {
		inside, sid := f.InSession(getenv)
		if !inside {
			continue
		}
		if sid != "" {
			if err := agentid.Check("session", sid); err != nil {
				return Session{}, fmt.Errorf("%s's session: %w", f.Name().Label(), err)
			}
			if p := f.SessionFile(homes, sid); p != "" {
				return Session{Agent: f.Name(), ID: sid, Path: p, Format: f.TranscriptFormat()}, nil
			}
			return Session{}, fmt.Errorf("%w: %s runs this command in session %s, whose file is not in %s yet", ErrNoSession, f.Name().Label(), sid, strings.Join(f.TranscriptRoots(homes), ", "))
		}
		if sid, p := f.LatestSession(homes, dir); p != "" {
			return Session{Agent: f.Name(), ID: sid, Path: p, Format: f.TranscriptFormat()}, nil
		}
		return Session{}, fmt.Errorf("%w: %s runs this command, but none of its sessions is of %s", ErrNoSession, f.Name().Label(), dir)
	}
	var best Session
	var bestAt time.Time
	for _, f := range finders {
		sid, p := f.LatestSession(homes, dir)
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && (best.Path == "" || fi.ModTime().After(bestAt)) {
			best, bestAt = Session{Agent: f.Name(), ID: sid, Path: p, Format: f.TranscriptFormat()}, fi.ModTime()
		}
	}
	if best.Path == "" {
		return Session{}, fmt.Errorf("%w: no agent's session is of %s (looked in %s)", ErrNoSession, dir, looked(finders, homes))
	}
	return best, nil
}

func looked(finders []SessionFinder, homes agent.Homes) string {
	var roots []string
	for _, f := range finders {
		roots = append(roots, f.TranscriptRoots(homes)...)
	}
	return strings.Join(roots, ", ")
}
