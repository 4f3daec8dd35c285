package webui

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

func (s *Server) routes() {
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(staticFS())))
	m.HandleFunc("GET /{$}", s.page(s.overview))
	m.HandleFunc("GET /proposals", s.page(s.proposals))
	m.HandleFunc("GET /proposals/{id}", s.page(s.proposal))
	m.HandleFunc("POST /proposals/{id}/approve", s.write(s.approve))
	m.HandleFunc("POST /proposals/{id}/reject", s.write(s.reject))
	m.HandleFunc("GET /skills", s.page(s.skills))
	m.HandleFunc("GET /skill/{name...}", s.page(s.skillPage))
	m.HandleFunc("GET /blame/{name...}", s.page(s.blame))
	m.HandleFunc("GET /commit/{hash}/{name...}", s.page(s.commit))
	m.HandleFunc("GET /usage", s.page(s.usage))
	m.HandleFunc("GET /curator", s.page(s.curatorRuns))
	m.HandleFunc("POST /curator/{id}/rollback", s.write(s.rollback))
	m.HandleFunc("GET /version", s.version)
	s.mux = m
}

// view is what every page template gets.
type view struct {
	Title   string
	Nav     string
	Library string
	CSRF    string
	By      string
	Flash   string
	Error   string
	Data    any
}

// page runs a read-only handler: it returns the template and its data.
func (s *Server) page(fn func(lib *skillrepo.Library, r *http.Request, v *view) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lib, err := s.open(true)
		if err != nil {
			s.fail(w, err)
			return
		}
		defer lib.Close()
		v := &view{Library: lib.Root, CSRF: s.csrf, By: s.opts.By, Flash: r.URL.Query().Get("done")}
		name, err := fn(lib, r, v)
		if err != nil {
			s.fail(w, err)
			return
		}
		s.render(w, http.StatusOK, name, v)
	}
}

// write runs a write handler and redirects to where it says (303, so a
// reload does not post again).
func (s *Server) write(fn func(lib *skillrepo.Library, r *http.Request) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
		lib, err := s.open(false)
		if err != nil {
			s.fail(w, err)
			return
		}
		defer lib.Close()
		to, err := fn(lib, r)
		if err != nil {
			s.fail(w, err)
			return
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	}
}

// fail shows an error page with the status the error means.
func (s *Server) fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var ue *userError
	switch {
	case errors.Is(err, skillrepo.ErrNotFound):
		code = http.StatusNotFound
	case errors.As(err, &ue), errors.Is(err, skill.ErrInvalid):
		code = http.StatusBadRequest
	case errors.Is(err, skillrepo.ErrConflict), errors.Is(err, skillrepo.ErrLocked):
		code = http.StatusConflict
	}
	s.render(w, code, "error", &view{Title: "Error", Error: err.Error(), CSRF: s.csrf})
}

// userError is a request the person must change.
type userError struct{ msg string }

func (e *userError) Error() string { return e.msg }

// ---- overview

// overviewProposals is how many proposals the overview shows.
const overviewProposals = 15

type overviewData struct {
	Waiting   int
	Head      string
	Counts    []countRow
	Total     int
	Proposals []proposalRow
	Reviews   []reviewRow
	Failed    []reviewRow
	Curator   curatorDue
	WhatsNew  []usage.HistoryEvent
}

type countRow struct {
	Owner, State string
	N            int
}

type proposalRow struct {
	ID, Origin, Skills, Merge string
	Mergeable                 bool
	Updated                   time.Time
	Added, Deleted, Files     int
	Rejection                 *skillrepo.Rejection
}

type reviewRow struct {
	ID, Session, Review, Status, Summary, Retry string
	When                                        time.Time
}

type curatorDue struct {
	Enabled, Paused, Due bool
	Last, Next           *time.Time
	Owner, Summary       string
}

func (s *Server) overview(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	v.Title, v.Nav = "Overview", "overview"
	d := &overviewData{}
	items, err := listSkills(lib)
	if err != nil {
		return "", err
	}
	counts := map[[2]string]int{}
	for _, it := range items {
		counts[[2]string{it.Owner, it.State}]++
	}
	for k, n := range counts {
		d.Counts = append(d.Counts, countRow{Owner: k[0], State: k[1], N: n})
	}
	sort.Slice(d.Counts, func(i, j int) bool {
		a, b := d.Counts[i], d.Counts[j]
		return a.Owner+"/"+a.State < b.Owner+"/"+b.State
	})
	d.Total = len(items)
	if tip, err := lib.BranchTip(lib.MainBranch()); err == nil {
		d.Head = tip.String()
	}
	// The newest proposals (ids are review ids, which sort by time), each
	// read with its merge tried; reading all of a thousand would cost a
	// second, and the proposals page has them all.
	ids, err := lib.Proposals().IDs()
	if err != nil {
		return "", err
	}
	d.Waiting = len(ids)
	newest := slices.Clone(ids[max(0, len(ids)-overviewProposals):])
	slices.Reverse(newest)
	props, _ := lib.Proposals().GetAll(newest) // one that cannot be read is left out, as the list shows it
	d.Proposals = proposalRows(props)
	d.Reviews, d.Failed = reviews(lib)
	d.Curator = curatorStatus(lib, s.opts.Now())
	// What was learned: the writes of the last day's sessions.
	since := s.opts.Now().Add(-24 * time.Hour)
	d.WhatsNew, _ = lib.UsageHistory().Read(usage.HistoryFilter{Since: since, Limit: 20, Match: func(e usage.HistoryEvent) bool {
		switch e.Kind {
		case usage.HistoryCreate, usage.HistoryPatch, usage.HistoryArchive, usage.HistoryRestore, usage.HistoryDelete:
			return true
		}
		return false
	}})
	slices.Reverse(d.WhatsNew)
	v.Data = d
	return "overview", nil
}

func proposalRows(props []*skillrepo.Proposal) []proposalRow {
	out := make([]proposalRow, 0, len(props))
	for _, p := range props {
		row := proposalRow{ID: p.ID, Origin: p.Origin, Skills: strings.Join(p.Skills, ", "), Updated: p.Updated,
			Added: p.Added, Deleted: p.Deleted, Files: len(p.Files), Mergeable: p.Mergeable(), Rejection: p.Rejection}
		switch {
		case p.Rejection != nil:
			row.Merge = "rejected"
		case !p.Checked:
			row.Merge = "not checked"
		case p.Applied:
			row.Merge = "already on main"
		case len(p.Conflicts) == 0:
			row.Merge = "merges cleanly"
		default:
			row.Merge = fmt.Sprintf("conflicts (%d)", len(p.Conflicts))
		}
		out = append(out, row)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out
}

// reviews are the last finished reviews (newest first) and the failed
// ones with the command that retries each.
func reviews(lib *skillrepo.Library) (last, failed []reviewRow) {
	entries, _ := queue.New(lib.State().Queue()).List()
	for _, e := range entries {
		if e.Kind != queue.KindReview || (e.State != queue.Done && e.State != queue.Failed) {
			continue
		}
		row := reviewRow{ID: e.ID, Session: e.SessionID, Review: e.ReviewID, Status: string(e.State)}
		if e.FinishedAt != nil {
			row.When = *e.FinishedAt
		}
		if e.Outcome != nil {
			row.Status, row.Summary = e.Outcome.Status, e.Outcome.Summary
		}
		if e.State == queue.Failed {
			row.Status, row.Summary = "failed", cmp.Or(e.LastError, row.Summary)
			row.Retry = "skillrepo queue retry " + e.ID
			failed = append(failed, row)
		}
		last = append(last, row)
	}
	sort.Slice(last, func(i, j int) bool { return last[i].When.After(last[j].When) })
	if len(last) > 10 {
		last = last[:10]
	}
	return last, failed
}

func curatorStatus(lib *skillrepo.Library, now time.Time) curatorDue {
	st, err := curator.StoreOf(lib).Load()
	if err != nil {
		return curatorDue{Summary: err.Error()}
	}
	sched := curator.ScheduleOf(lib.Config.Curator)
	d := curator.Due(st, sched, now)
	out := curatorDue{Enabled: sched.Enabled, Paused: st.Paused, Due: d.Due, Last: st.LastRunAt, Owner: lib.Config.Curator.Owner, Summary: st.LastRunSummary}
	if !d.Next.IsZero() && !d.Seed {
		out.Next = &d.Next
	}
	return out
}

// ---- proposals

func (s *Server) proposals(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	v.Title, v.Nav = "Proposals", "proposals"
	open, err := lib.Proposals().List(skillrepo.ProposalQuery{CheckMerge: true})
	if err != nil {
		return "", err
	}
	rejected, err := lib.Proposals().List(skillrepo.ProposalQuery{Rejected: true})
	if err != nil {
		return "", err
	}
	v.Data = struct{ Open, Rejected []proposalRow }{proposalRows(open), proposalRows(rejected)}
	return "proposals", nil
}

type proposalData struct {
	P        *skillrepo.Proposal
	Row      proposalRow
	Files    []fileDiff
	Split    bool
	Why      string
	Sessions []string
	Models   []string
	Lint     string
	LintOK   bool
	Open     bool
}

func (s *Server) proposal(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	id := r.PathValue("id")
	p, diffs, err := lib.Proposals().Diff(id, 3)
	if err != nil {
		return "", err
	}
	v.Title, v.Nav = "Proposal "+id, "proposals"
	d := &proposalData{P: p, Split: r.URL.Query().Get("view") != "unified", Open: p.Rejection == nil}
	d.Row = proposalRows([]*skillrepo.Proposal{p})[0]
	for _, fd := range diffs {
		d.Files = append(d.Files, parseDiff(fd))
	}
	seen := map[string]bool{}
	for _, c := range p.Commits {
		for _, t := range c.Trailers {
			k := t.Key + "=" + t.Value
			if seen[k] {
				continue
			}
			seen[k] = true
			switch t.Key {
			case skillrepo.TrailerSessionID:
				d.Sessions = append(d.Sessions, t.Value)
			case skillrepo.TrailerModel:
				d.Models = append(d.Models, t.Value)
			}
		}
	}
	d.Why = reviewSummary(lib, p.ReviewID, p.ID)
	d.Lint, d.LintOK = lintVerdict(lib, p)
	v.Data = d
	return "proposal", nil
}

// reviewSummary is the review's own summary of what it did and why, from
// the queue entry (or the last review run by hand) that made proposal id.
func reviewSummary(lib *skillrepo.Library, reviewID, id string) string {
	entries, _ := queue.New(lib.State().Queue()).List()
	for _, e := range entries {
		if e.Outcome != nil && (e.Outcome.Proposal == id || (reviewID != "" && e.ReviewID == reviewID)) {
			return e.Outcome.Summary
		}
	}
	return ""
}

// lintVerdict is the write policy's lint gate on the proposal's skills
// against main: what approving would be told.
func lintVerdict(lib *skillrepo.Library, p *skillrepo.Proposal) (string, bool) {
	if p.Rejection != nil {
		return "not checked (rejected)", true
	}
	snap, err := lib.Snapshot(p.Tip.String())
	if err != nil {
		return err.Error(), false
	}
	var dirs []string
	seen := map[string]bool{}
	for _, f := range p.Files {
		if si, err := snap.FindSkill(skillOfPath(f.Path)); err == nil && !seen[si.Dir] {
			seen[si.Dir] = true
			dirs = append(dirs, si.Dir)
		}
	}
	if err := lib.LintGate(snap.FS(), lib.MainBranch(), dirs); err != nil {
		return err.Error(), false
	}
	return "no new lint errors", true
}

// skillOfPath guesses the skill folder a changed file is in: the folder
// holding SKILL.md is found by FindSkill from its last path element.
func skillOfPath(p string) string {
	dir := path.Dir(p)
	for _, sub := range []string{"/references", "/templates", "/scripts", "/assets"} {
		if i := strings.Index(dir, sub); i > 0 {
			dir = dir[:i]
		}
	}
	return dir
}

func (s *Server) approve(lib *skillrepo.Library, r *http.Request) (string, error) {
	id := r.PathValue("id")
	by := strings.TrimSpace(r.PostForm.Get("by"))
	if by == "" {
		return "", &userError{"approve: say who approves (the person's name, or Name <email>)"}
	}
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return "", err
	}
	res, err := pol.ApproveProposal(r.Context(), id, skillrepo.ApproveOptions{By: by})
	if err != nil {
		return "", fmt.Errorf("approve %s: %w", id, err)
	}
	return "/?done=" + url.QueryEscape(fmt.Sprintf("approved %s: merged as %.12s", id, res.Commit.String())), nil
}

func (s *Server) reject(lib *skillrepo.Library, r *http.Request) (string, error) {
	id := r.PathValue("id")
	reason := strings.TrimSpace(r.PostForm.Get("reason"))
	if reason == "" {
		return "", &userError{"reject: give a reason (the review reads it next time)"}
	}
	by := strings.TrimSpace(r.PostForm.Get("by"))
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return "", err
	}
	if _, err := pol.RejectProposal(r.Context(), id, skillrepo.RejectOptions{By: by, Reason: reason}); err != nil {
		return "", fmt.Errorf("reject %s: %w", id, err)
	}
	return "/proposals?done=" + url.QueryEscape("rejected "+id), nil
}

// ---- skills

type skillItem struct {
	Name, Category, Dir, State, Owner string
	Pinned                            bool
	LastUsed                          time.Time
	Uses, Views, Patches              int
}

// listSkills is every skill on main with its state, owner and use.
func listSkills(lib *skillrepo.Library) ([]skillItem, error) {
	snap, err := lib.Snapshot("")
	if err != nil {
		return nil, err
	}
	infos, err := snap.Skills()
	if err != nil {
		return nil, err
	}
	// The sidecar's records as they are, by the skill's folder name (its
	// frontmatter name, which Hermes counts under, is the same but for a
	// renamed skill): merging every alias would read all 10,000 SKILL.md
	// files per page. The skill's own page merges them (usage show does).
	recs, err := lib.Usage().Load()
	if err != nil {
		return nil, err
	}
	owners := map[string]skillrepo.Ownership{}
	pins := map[string]bool{}
	if !snap.Commit().IsZero() {
		if owners, _, err = lib.Owners().ForDisplay(snap.Commit().String()); err != nil {
			return nil, err
		}
		list, err := lib.Owners().Pins(snap.Commit().String())
		if err != nil {
			return nil, err
		}
		for _, n := range list {
			pins[n] = true
		}
	}
	out := make([]skillItem, 0, len(infos))
	for _, si := range infos {
		it := skillItem{Name: si.Name, Category: si.Category, Dir: si.Dir, State: usage.StateActive,
			Owner: cmp.Or(owners[si.Dir].Owner, skillrepo.OwnerUser), Pinned: pins[si.Name]}
		if rec, ok := recs[si.Name]; ok {
			if rec.State == usage.StateStale {
				it.State = usage.StateStale
			}
			it.LastUsed = rec.LastActivity()
			it.Uses, it.Views, it.Patches = rec.UseCount, rec.ViewCount, rec.PatchCount
		}
		if si.Archived {
			it.State = usage.StateArchived
		}
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out, nil
}

// maxListed bounds a page of the skill list; the search narrows it.
const maxListed = 500

func (s *Server) skills(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	v.Title, v.Nav = "Skills", "skills"
	all, err := listSkills(lib)
	if err != nil {
		return "", err
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	state := r.URL.Query().Get("state")
	var shown []skillItem
	matched := 0
	for _, it := range all {
		if state != "" && it.State != state {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(it.Dir), q) && !strings.Contains(it.Owner, q) {
			continue
		}
		matched++
		if len(shown) < maxListed {
			shown = append(shown, it)
		}
	}
	v.Data = struct {
		Q, State       string
		Items          []skillItem
		Matched, Total int
		States         []string
		Truncated      bool
	}{q, state, shown, matched, len(all), []string{usage.StateActive, usage.StateStale, usage.StateArchived}, matched > len(shown)}
	return "skills", nil
}

type skillData struct {
	Info     skillrepo.SkillInfo
	Item     skillItem
	Front    [][2]string
	Body     any // rendered markdown (template.HTML)
	Files    []string
	Log      []history.LogEntry
	Owner    skillrepo.Ownership
	Chart    any
	History  []usage.HistoryEvent
	Unparsed string
}

func (s *Server) skillPage(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	name := r.PathValue("name")
	snap, err := lib.Snapshot("")
	if err != nil {
		return "", err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return "", err
	}
	v.Title, v.Nav = si.Name, "skills"
	d := &skillData{Info: si}
	raw, err := snap.ReadFile(si.Dir + "/" + skill.FileName)
	if err != nil {
		return "", err
	}
	d.Front, d.Body, d.Unparsed = renderSkill(raw)
	d.Files = skillFiles(snap, si.Dir)
	d.Log, _ = lib.History().Log(si.Dir, history.LogOptions{MaxCount: 200})
	d.Owner, _ = lib.Owners().Of(si.Dir)
	d.History, _ = lib.History().Skill(si.Name, usage.HistoryFilter{Limit: 5000})
	d.Chart = usageChart(d.History, s.opts.Now(), 30)
	if len(d.History) > 20 {
		d.History = d.History[len(d.History)-20:]
	}
	slices.Reverse(d.History)
	v.Data = d
	return "skill", nil
}

// skillFiles lists the files of the skill folder dir, relative to it
// (at most 200).
func skillFiles(snap *skillrepo.Snapshot, dir string) []string {
	all, err := snap.List(dir)
	if err != nil {
		return nil
	}
	out := make([]string, 0, min(len(all), 200))
	for _, p := range all[:min(len(all), 200)] {
		out = append(out, strings.TrimPrefix(p, dir+"/"))
	}
	return out
}

func (s *Server) blame(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	name := r.PathValue("name")
	file := r.URL.Query().Get("file")
	b, err := lib.History().Blame(name, file, history.BlameOptions{})
	if err != nil {
		return "", err
	}
	v.Title, v.Nav = "Blame "+b.Skill+"/"+b.File, "skills"
	v.Data = b
	return "blame", nil
}

func (s *Server) commit(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	name, hash := r.PathValue("name"), r.PathValue("hash")
	entries, err := lib.History().Log(name, history.LogOptions{Patch: true})
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Commit.String() == hash {
			v.Title, v.Nav = e.Subject, "skills"
			v.Data = struct {
				Name  string
				Entry history.LogEntry
				Files []fileDiff
			}{name, e, parsePatch(e.Patch)}
			return "commit", nil
		}
	}
	return "", fmt.Errorf("commit %q of skill %s: %w", hash, name, skillrepo.ErrNotFound)
}

// ---- usage over time

func (s *Server) usage(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	v.Title, v.Nav = "Usage over time", "usage"
	now := s.opts.Now()
	const days = 30
	evs, err := lib.UsageHistory().Read(usage.HistoryFilter{Since: dayStart(now).AddDate(0, 0, -2*days+1)})
	if err != nil {
		return "", err
	}
	v.Data = struct {
		Chart     any
		Trends    []trend
		Archived  []usage.HistoryEvent
		Days      int
		NoHistory bool
	}{usageChart(evs, now, days), trends(evs, now, days), archivedBy(evs), days, len(evs) == 0}
	return "usage", nil
}

// ---- curator

type runRow struct {
	Run    *curator.Run
	Report string
}

func (s *Server) curatorRuns(lib *skillrepo.Library, r *http.Request, v *view) (string, error) {
	v.Title, v.Nav = "Curator runs", "curator"
	dir := filepath.Join(lib.State().Curator(), curator.ReportsDir)
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	var runs []runRow
	for i := len(ents) - 1; i >= 0 && len(runs) < 50; i-- {
		if !ents[i].IsDir() {
			continue
		}
		run, err := curator.ReadRun(filepath.Join(dir, ents[i].Name()))
		if err != nil {
			continue
		}
		runs = append(runs, runRow{Run: run, Report: run.Markdown()})
	}
	v.Data = struct {
		Runs   []runRow
		Status curatorDue
	}{runs, curatorStatus(lib, s.opts.Now())}
	return "curator", nil
}

func (s *Server) rollback(lib *skillrepo.Library, r *http.Request) (string, error) {
	id := r.PathValue("id")
	c := &curator.Curator{Lib: lib, Now: s.opts.Now}
	res, err := c.Rollback(r.Context(), id, curator.RollbackOptions{})
	if err != nil {
		return "", fmt.Errorf("roll back %s: %w", id, err)
	}
	return "/curator?done=" + url.QueryEscape(fmt.Sprintf("rolled back run %s: %d skills restored", res.Run, len(res.Restored))), nil
}

// version is what the page polls to follow the library: it changes when
// main, a proposal, the queue or the usage history changes.
func (s *Server) version(w http.ResponseWriter, r *http.Request) {
	lib, err := s.open(true)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer lib.Close()
	var b strings.Builder
	if tip, err := lib.BranchTip(lib.MainBranch()); err == nil {
		b.WriteString(tip.String())
	}
	if ids, err := lib.Proposals().IDs(); err == nil {
		for _, id := range ids {
			tip, _ := lib.BranchTip(skillrepo.ProposalBranch(id))
			b.WriteString(" " + id + ":" + tip.String())
		}
	}
	for _, p := range []string{lib.UsageHistory().Path(), filepath.Join(lib.State().Queue(), "queue")} {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, " %d.%d", fi.ModTime().UnixNano(), fi.Size())
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, hashString(b.String()))
}
