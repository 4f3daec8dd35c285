package curator

import (
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// UsageOwnership is the reference's rule, read from the usage sidecar
// alone: curator-managed when the record says created_by "agent" (or the
// legacy agent_created), pinned when it says pinned: the tests' ownership,
// independent of history (the CLI and worker read owners from history).
type UsageOwnership struct{}

// Owners implements [Ownership].
func (UsageOwnership) Owners(_ *skillrepo.Snapshot, skills []skillrepo.SkillInfo, usage map[string]*usage.Record) (map[string]Owner, error) {
	out := make(map[string]Owner, len(skills))
	for _, si := range skills {
		if r, ok := usage[si.Name]; ok {
			out[si.Dir] = Owner{Managed: r.AgentCreated(), Pinned: r.Pinned}
		}
	}
	return out, nil
}
