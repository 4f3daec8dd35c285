package skillrepo

import (
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/overlap"
)

// DuplicateThreshold is the similarity (package overlap's TF-IDF cosine
// over name, description and body) at or above which a new skill is a
// duplicate of an existing one. It sits above overlap.DefaultThreshold,
// the bar for "belongs under one umbrella": refusing a write asks more
// than suggesting a merge. Tuned on a labelled set of real skills and
// review-style creates (duplicate_precision_test.go): 2.1% of distinct
// skills refused, half the look-alikes caught
// (docs/reference-behaviour.md §4.5).
const DuplicateThreshold = 0.48

// DuplicateIndex is the overlap index of a commit's active skills
// (overlapindex.go and overlap/indexfile: kept per clone and brought to the commit by the
// skills that differ), opened once per commit: a session that creates
// three skills opens it once. The zero value is ready; keep one per
// session.
type DuplicateIndex struct {
	commit Hash
	st     *overlap.Stored
}

// duplicates returns the active skills of s that a new skill (its SKILL.md
// content) overlaps at or above DuplicateThreshold, most similar first.
func (d *DuplicateIndex) duplicates(s *Snapshot, name, category, content string) ([]overlap.Match, error) {
	q := overlap.FromSKILLMD(name, category, []byte(content))
	if d.st != nil && d.commit == s.Commit() {
		if ms, err := d.st.Query(q, DuplicateThreshold); err == nil {
			return ms, nil
		}
	}
	st, err := s.l.overlapIndexAt(s)
	if err != nil {
		return nil, err
	}
	ms, err := st.Query(q, DuplicateThreshold)
	if err != nil { // a list damaged since it was opened: read the skills again
		if st, err = s.l.buildOverlapIndex(s, !s.l.readOnly && s.l.repo.Stored(s.tree)); err != nil {
			return nil, err
		}
		if ms, err = st.Query(q, DuplicateThreshold); err != nil {
			return nil, err
		}
	}
	d.st, d.commit = st, s.Commit()
	return ms, nil
}

// duplicateRefusal is the message refusing the create of name, which
// overlaps the skills ms: it names them, then advice — a write the writer
// can make instead (duplicateAdvice).
func duplicateRefusal(name string, ms []overlap.Match, advice string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Refusing to create '%s': it overlaps the existing skill '%s' (similarity %.2f; shared: %s)", name, ms[0].Name, ms[0].Similarity, strings.Join(ms[0].Shared, ", "))
	if len(ms) > 1 {
		var others []string
		for _, m := range ms[1:min(len(ms), 4)] {
			others = append(others, fmt.Sprintf("'%s' (%.2f)", m.Name, m.Similarity))
		}
		fmt.Fprintf(&b, ", and %s", strings.Join(others, ", "))
	}
	b.WriteString(". ")
	b.WriteString(advice)
	return b.String()
}

// Advice of a duplicate refusal, by what the writer may do to the skill
// it overlaps (duplicateAdvice).
const (
	insistAdvice = "Only if this is truly a different skill, create it again with force_new and a reason saying how it differs."
	patchAdvice  = "Patch '%s' instead: view it, then patch it with what is new (a labeled section, or a file under references/). " + insistAdvice
	// A background review's patch of the person's skill is staged.
	proposeAdvice = "Patch '%s' instead: view it, then patch it with what is new (a labeled section, or a file under references/); it is the user's skill, so your patch waits as a proposal for their approval. " + insistAdvice
	// A skill the writer may not change at all (protected, or the
	// curator's and the user's).
	untouchableAdvice = "'%s' may not be changed by this %s (%s), so do not patch it: say in your reply what it lacks. " + insistAdvice
)

// duplicateAdvice names a write the policy's writer can make instead of
// creating a copy of the existing skill name at snap (issue: advice the
// next guard refuses is a dead end): a patch, a patch that waits as a
// proposal (a background review's write to the person's skill), or —
// when the skill is closed to this writer — no patch at all.
func (p *Policy) duplicateAdvice(snap *Snapshot, name string) string {
	if !p.w.Provenance.Autonomous() {
		return fmt.Sprintf(patchAdvice, name)
	}
	own, ok := ReviewOwner{}, false
	if p.w.Owners != nil {
		own, ok = p.w.Owners(name)
	}
	var err error
	if !ok {
		own, err = p.l.Owners().ForReview(snap.Commit().String(), name)
	}
	switch {
	case err != nil:
		return fmt.Sprintf(untouchableAdvice, name, p.label(), "its ownership could not be read")
	case own.Protected:
		return fmt.Sprintf(untouchableAdvice, name, p.label(), "it is protected")
	case own.Managed && !own.Pinned:
		return fmt.Sprintf(patchAdvice, name)
	case p.w.Stage != "" && p.w.Provenance.Origin == OriginBackgroundReview:
		return fmt.Sprintf(proposeAdvice, name)
	case own.Pinned:
		return fmt.Sprintf(untouchableAdvice, name, p.label(), "it is pinned")
	}
	return fmt.Sprintf(untouchableAdvice, name, p.label(), "it belongs to the user; recommend `skillrepo skill adopt "+name+"`")
}

// duplicateWarning is the line a person's create gets when the skill
// overlaps existing ones: a person decides, so it only warns.
func duplicateWarning(name string, ms []overlap.Match) string {
	var names []string
	for _, m := range ms[:min(len(ms), 3)] {
		names = append(names, fmt.Sprintf("%s (%.2f)", m.Name, m.Similarity))
	}
	noun := "skill"
	if len(names) > 1 {
		noun = "skills"
	}
	return fmt.Sprintf("'%s' overlaps existing %s: %s; consider patching it instead", name, noun, strings.Join(names, ", "))
}
