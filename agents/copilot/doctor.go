package copilot

import (
	"context"

	"github.com/skillrepo/skillrepo/doctor"
)

// Copilot CLI runs a command hook's "bash" through bash in the
// repository's root.
var shell = doctor.Shell{Path: "Copilot CLI's own", Argv: []string{"bash", "-c"}}

// Check runs each installed hook command as Copilot CLI runs it.
func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	for _, in := range doctor.Installations(env, Agent{}, scopes...) {
		out = append(out, doctor.HookChecks(ctx, env, in, shell)...)
	}
	return out
}

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
