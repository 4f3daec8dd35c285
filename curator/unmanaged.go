package curator

import "sort"

// UnmanagedSkill is a skill outside .archive/ the curator does not manage:
// a person's, never aged, archived or consolidated by it.
type UnmanagedSkill struct {
	Name     string `json:"name"`
	Dir      string `json:"path"`
	Category string `json:"category,omitempty"`
	Pinned   bool   `json:"pinned"`
	// Reason is the ownership evidence, in words ("no provenance:
	// user-owned", "disowned in 1a2b3c4").
	Reason string `json:"reason"`
}

// ListUnmanaged lists the main branch's skills outside .archive/ that are
// not curator-managed (the reference's `curator list-unmanaged`), by name,
// with the evidence for their owner; `skill adopt NAME` hands one to the
// curator. It reads only.
//
// Where history cannot tell (a shallow clone), no skill is curator-managed
// as far as anything deciding knows: every one is listed, its reason the
// unknown ownership.
func (c *Curator) ListUnmanaged() ([]UnmanagedSkill, error) {
	inv, unknown, err := c.readForReport(libSource{c.Lib})
	if err != nil {
		return nil, err
	}
	reasons := map[string]string{}
	if unknown != "" {
		for _, si := range inv.skills {
			reasons[si.Dir] = unknown
		}
	} else if !inv.snap.Commit().IsZero() {
		owners, err := c.Lib.Owners().At(inv.snap.Commit().String())
		if err != nil {
			return nil, err
		}
		for dir, o := range owners {
			reasons[dir] = o.Reason
		}
	}
	out := []UnmanagedSkill{}
	for _, si := range inv.skills {
		o := inv.owners[si.Dir]
		if si.Archived || o.Managed {
			continue
		}
		r := reasons[si.Dir]
		if r == "" {
			r = "no provenance: user-owned"
		}
		out = append(out, UnmanagedSkill{Name: si.Name, Dir: si.Dir, Category: si.Category, Pinned: o.Pinned, Reason: r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
