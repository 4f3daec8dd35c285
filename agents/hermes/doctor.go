package hermes

import (
	"context"

	"github.com/skillrepo/skillrepo/doctor"
)

// Check is doctor's check of Hermes Agent's shell hooks (doctor.CheckHermes:
// it runs each hook as Hermes does, with doctor's hook runner).
func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	return doctor.CheckHermes(ctx, env)
}

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
