package agenttools

import (
	"context"
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/overlap"
)

// DuplicateThreshold is the similarity (package overlap's TF-IDF cosine
// over name, description and body) at or above which a new skill is a
// duplicate of an existing one. It sits above overlap.DefaultThreshold,
// the bar for "belongs under one umbrella": refusing a write asks more
// than suggesting a merge. Rewordings of one skill score 0.65–0.85, skills
// of one family on different jobs 0.2–0.3.
const DuplicateThreshold = 0.55

// DuplicateIndex is the overlap index of a view's active skills, built
// once per commit: a review that creates three skills reads the library
// once, not three times.
type DuplicateIndex struct {
	commit string
	ix     *overlap.Index
}

// Duplicates returns the skills of v that a new skill (its SKILL.md
// content) overlaps at or above threshold, most similar first. The index
// is reused while v shows the same commit.
func (d *DuplicateIndex) Duplicates(v View, name, category, content string, threshold float64) ([]overlap.Match, error) {
	if d.ix == nil || d.commit != v.Commit() {
		skills, err := v.Skills()
		if err != nil {
			return nil, err
		}
		dirs := make([]string, len(skills))
		for i, s := range skills {
			dirs[i] = s.Dir
		}
		read, _ := overlap.ReadSkills(v.FS(), dirs)
		d.ix, d.commit = overlap.NewIndex(read), v.Commit()
	}
	return d.ix.Query(overlap.FromSKILLMD(name, category, []byte(content)), threshold), nil
}

// DuplicateRefusal is the message refusing the create of name, which
// overlaps the skills ms: it names them and says to patch instead, and how
// to insist.
func DuplicateRefusal(name string, ms []overlap.Match) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Refusing to create '%s': it overlaps the existing skill '%s' (similarity %.2f; shared: %s)", name, ms[0].Name, ms[0].Similarity, strings.Join(ms[0].Shared, ", "))
	if len(ms) > 1 {
		var others []string
		for _, m := range ms[1:min(len(ms), 4)] {
			others = append(others, fmt.Sprintf("'%s' (%.2f)", m.Name, m.Similarity))
		}
		fmt.Fprintf(&b, ", and %s", strings.Join(others, ", "))
	}
	fmt.Fprintf(&b, ". Patch '%s' instead: skill_view it, then skill_manage patch it with what is new (a labeled section, or a file under references/). Only if this is truly a different skill, create it again with force_new: true and a reason saying how it differs.", ms[0].Name)
	return b.String()
}

// DuplicateWarning is the line a person's create prints when the skill
// overlaps existing ones: a person decides, so it only warns.
func DuplicateWarning(name string, ms []overlap.Match) string {
	var names []string
	for _, m := range ms[:min(len(ms), 3)] {
		names = append(names, fmt.Sprintf("%s (%.2f)", m.Name, m.Similarity))
	}
	return fmt.Sprintf("'%s' overlaps existing %s: %s; consider patching it instead", name, plural(len(names), "skill", "skills"), strings.Join(names, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CreateDuplicates checks the creates among ops against the skills at rev
// of l ("" = the main branch; a branch not made yet reads from): for each
// create that does not pass force_new, by index, the skills it overlaps at
// or above threshold. The CLI uses it: an autonomous origin is refused,
// a person warned.
func CreateDuplicates(ctx context.Context, l Library, rev string, ops []Op, threshold float64) (map[int][]overlap.Match, error) {
	out := map[int][]overlap.Match{}
	var v View
	var d DuplicateIndex
	for i, op := range ops {
		if op.Action != "create" || op.ForceNew || op.Content == nil {
			continue
		}
		if v == nil {
			var err error
			if v, err = l.View(ctx, rev); err != nil {
				return nil, err
			}
		}
		ms, err := d.Duplicates(v, op.Name, op.Category, *op.Content, threshold)
		if err != nil {
			return nil, err
		}
		if len(ms) > 0 {
			out[i] = ms
		}
	}
	return out, nil
}
