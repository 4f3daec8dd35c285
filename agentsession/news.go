package agentsession

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// newsFile remembers up to when the person was told what the reviews
// did, so each outcome is told once, in whichever agent comes next.
const newsFile = "hooks/news.json"

type newsState struct {
	Version int `json:"version"`
	// Through: reviews that finished up to here were told.
	Through time.Time `json:"through"`
}

// newsStore is the news file; a broken one is set aside and the news
// told again.
func newsStore(hooksDir string) statefile.File[newsState] {
	return statefile.File[newsState]{Path: filepath.Join(hooksDir, filepath.FromSlash(newsFile)), Limit: maxStateFile, Version: 1, Perm: 0o644, Sync: true, Reset: true}
}

// errNothingNew leaves the news file as it is.
var errNothingNew = errors.New("nothing new to tell")

// maxNewsLine bounds what a notice quotes of the reviews' outcomes: one
// or two lines in the agent, not a report.
const maxNewsLine = 300

// newsLines are the one or two lines that tell the person what the
// agent learned since they were last told (docs/agents.md, "Told in the
// agent"): what the reviews that finished since created, patched or
// archived (their outcome's words), the proposals that wait for them,
// and the command to look. "" when nothing happened or review.notify is
// off. The mark moves only when something is told, so a hook whose
// channel does not reach the person (none: only SessionStart and
// UserPromptSubmit ask) loses nothing.
func (h *hookRun) newsLines() string {
	if h.lib.Config.Review.Notify == config.NotifyOff {
		return ""
	}
	var news []queue.Entry
	_, err := newsStore(h.state().Hooks()).Update(func(st *newsState) error {
		entries, err := queue.New(h.state().Queue()).List()
		if err != nil {
			return err
		}
		var through time.Time
		news, through = Learned(entries, st.Through)
		if through.Equal(st.Through) {
			return errNothingNew
		}
		st.Version, st.Through = 1, through
		return nil
	})
	if errors.Is(err, errNothingNew) {
		return ""
	}
	if err != nil {
		h.rep.notef("news: %v", err)
		return "" // told next time rather than twice
	}
	waiting := h.waitingProposals()
	text := NewsText(news, waiting)
	if text != "" {
		h.rep.notef("told the person: %s", strings.ReplaceAll(text, "\n", " / "))
	}
	return text
}

// waitingProposals are the open proposals, newest first.
func (h *hookRun) waitingProposals() []*skillrepo.Proposal {
	ps, err := h.lib.Proposals().List(skillrepo.ProposalQuery{})
	if err != nil {
		h.rep.notef("news: %v", err)
		return nil
	}
	var open []*skillrepo.Proposal
	for _, p := range ps {
		if p.State == skillrepo.ProposalOpen {
			open = append(open, p)
		}
	}
	sort.SliceStable(open, func(i, j int) bool { return open[i].Updated.After(open[j].Updated) })
	return open
}

// Learned are the reviews of entries that finished after since and
// changed something (landed or staged a change), oldest first, and the
// time up to which entries were looked at (since when none finished).
func Learned(entries []queue.Entry, since time.Time) ([]queue.Entry, time.Time) {
	var out []queue.Entry
	through := since
	for _, e := range entries {
		if e.Kind != queue.KindReview || e.State != queue.Done || e.FinishedAt == nil || !e.FinishedAt.After(since) || e.Outcome == nil {
			continue
		}
		if e.FinishedAt.After(through) {
			through = *e.FinishedAt
		}
		if e.Outcome.Applied+e.Outcome.Staged > 0 {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].FinishedAt.Before(*out[j].FinishedAt) })
	return out, through
}

// NewsText is the notice of reviews that learned something and of the
// proposals that wait: a line for what landed or was staged, in the
// reviews' own words, and a line for what waits. "" when there is
// nothing to tell.
func NewsText(learned []queue.Entry, waiting []*skillrepo.Proposal) string {
	if len(learned) == 0 {
		return ""
	}
	var what []string
	for _, e := range learned {
		what = append(what, e.Outcome.Summary)
	}
	line := strings.Join(what, "; ")
	if len(learned) == 1 {
		line = fmt.Sprintf("skillrepo: %s (review %s). See `skillrepo whatsnew`.", line, cutReviewWord(learned[0].Outcome.Proposal, learned[0].ReviewID))
	} else {
		line = fmt.Sprintf("skillrepo, %d reviews: %s. See `skillrepo whatsnew`.", len(learned), line)
	}
	lines := []string{clip(line, maxNewsLine)}
	if n := len(waiting); n > 0 {
		p := waiting[0]
		about := ""
		if len(p.Skills) > 0 {
			about = " for " + strings.Join(p.Skills[:min(len(p.Skills), 3)], ", ")
		}
		noun := "proposal waits"
		if n > 1 {
			noun = "proposals wait"
		}
		lines = append(lines, fmt.Sprintf("skillrepo: %d %s for your approval (newest: %s%s): `skillrepo proposal show %s`, then `proposal approve %s` or `reject`.", n, noun, p.ID, about, p.ID, p.ID))
	}
	return strings.Join(lines, "\n")
}

// cutReviewWord names a review by its proposal id, else its review id.
func cutReviewWord(proposal, reviewID string) string {
	if proposal != "" {
		return proposal
	}
	return reviewID
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
