package curator

import (
	"fmt"

	"github.com/skillrepo/skillrepo/overlap"
)

// OverlapVersion is the version of the [OverlapReport] shape.
const OverlapVersion = 1

// OverlapReport is what `curator overlap` finds: clusters of
// curator-managed skills that likely belong under one umbrella.
type OverlapReport struct {
	Version   int     `json:"version"`
	Commit    string  `json:"commit"`
	Threshold float64 `json:"threshold"`
	// Skills is how many skills were compared: curator-managed and not
	// archived (pinned and scheduled ones included, flagged).
	Skills   int               `json:"skills"`
	Clusters []overlap.Cluster `json:"clusters"`
	// Unreadable lists skills whose SKILL.md could not be read.
	Unreadable []string `json:"unreadable"`
	// OwnershipUnknown says why history cannot tell who owns the skills
	// (a shallow clone): every unarchived skill was compared.
	OwnershipUnknown string `json:"ownership_unknown,omitempty"`
}

// OverlapOptions choose what [Curator.Overlap] compares.
type OverlapOptions struct {
	// Threshold is the similarity that links two skills (0: the
	// default, overlap.DefaultThreshold).
	Threshold float64
}

// Overlap clusters the curator's candidates on the main branch: every
// curator-managed skill outside .archive/, pinned and scheduled ones
// listed but flagged (the reference's candidate list, docs/reference-
// behaviour.md §6.6). It reads only; nothing is written. The clusters are
// overlap.Find's.
func (c *Curator) Overlap(opts OverlapOptions) (*OverlapReport, error) {
	if opts.Threshold < 0 || opts.Threshold > 1 {
		return nil, fmt.Errorf("overlap threshold %v is outside 0..1", opts.Threshold)
	}
	src := libSource{c.Lib}
	inv, unknown, err := c.readForReport(src)
	if err != nil {
		return nil, err
	}
	th := opts.Threshold
	if th == 0 {
		th = overlap.DefaultThreshold
	}
	skills, unreadable := c.candidates(src, inv)
	return &OverlapReport{
		Version:    OverlapVersion,
		Commit:     inv.snap.Commit().String(),
		Threshold:  th,
		Skills:     len(skills),
		Clusters:   nonNil(overlap.Find(skills, overlap.Options{Threshold: th})),
		Unreadable: unreadable, OwnershipUnknown: unknown,
	}, nil
}

// candidates reads the curator's candidates for the overlap measure.
func (c *Curator) candidates(src source, inv *inventory) (skills []overlap.Skill, unreadable []string) {
	fsys := inv.snap.FS()
	unreadable = []string{}
	for _, si := range inv.skills {
		o := inv.owners[si.Dir]
		if si.Archived || !o.Managed && !o.Unknown {
			continue
		}
		s, err := overlap.ReadSkill(fsys, si.Dir)
		if err != nil {
			unreadable = append(unreadable, si.Dir)
			continue
		}
		s.Name, s.Category = si.Name, si.Category
		s.Pinned, s.Scheduled = o.Pinned, inv.scheduled[si.Name] != ""
		skills = append(skills, s)
	}
	return skills, unreadable
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
