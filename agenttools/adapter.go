package agenttools

import (
	"context"
	"errors"
	"io/fs"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Open wires the tools to a library. The adapter is the one place the
// tools meet package skillrepo; it is not safe for concurrent use (nor is
// the library).
func Open(l *skillrepo.Library) Library {
	return &adapter{l: l, owners: map[string]Ownership{}}
}

type adapter struct {
	l      *skillrepo.Library
	owners map[string]Ownership // by commit + name: history does not change under a commit
	// last is the view of the commit read last: a commit never changes,
	// so a caller that reads an unchanged tip again (an MCP server between
	// writes) reuses its listing instead of walking 10,000 trees again.
	last snapshotView
}

func (a *adapter) MainBranch() string { return a.l.MainBranch() }

// Rules are the library runtime's write rules (see Toolbox.rules).
func (a *adapter) Rules() skill.Rules { return a.l.Rules() }

func (a *adapter) View(ctx context.Context, rev string) (View, error) {
	if a.last.s != nil {
		if tip, err := a.l.BranchTip(rev); err == nil && tip == a.last.s.Commit() {
			return a.last, nil
		} else if err != nil && rev == a.last.s.Commit().String() {
			return a.last, nil
		}
	}
	s, err := a.l.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	a.last = snapshotView{s}
	return a.last, nil
}

type snapshotView struct{ s *skillrepo.Snapshot }

func (v snapshotView) Find(name string) (SkillRef, bool, error) {
	si, err := v.s.FindSkill(name)
	if errors.Is(err, skillrepo.ErrNotFound) || (err == nil && si.Archived) {
		return SkillRef{}, false, nil
	}
	if err != nil {
		return SkillRef{}, false, err
	}
	return SkillRef{Name: si.Name, Dir: si.Dir, Category: si.Category}, true, nil
}

func (v snapshotView) Commit() string { return v.s.Commit().String() }
func (v snapshotView) FS() fs.FS      { return v.s.FS() }

func (v snapshotView) Skills() ([]SkillRef, error) {
	all, err := v.s.Skills()
	if err != nil {
		return nil, err
	}
	var out []SkillRef
	for _, si := range all {
		if !si.Archived {
			out = append(out, SkillRef{Name: si.Name, Dir: si.Dir, Category: si.Category})
		}
	}
	return out, nil
}

func (a *adapter) Ownership(ctx context.Context, rev, name string) (Ownership, error) {
	s, err := a.l.Snapshot(rev)
	if err != nil {
		return Ownership{}, err
	}
	key := s.Commit().String() + "\x00" + name
	if o, ok := a.owners[key]; ok {
		return o, nil
	}
	ro, err := a.l.Owners().ForReview(s.Commit().String(), name)
	if err != nil {
		return Ownership{}, err
	}
	o := Ownership{Managed: ro.Managed, Pinned: ro.Pinned, Protected: ro.Protected}
	a.owners[key] = o
	return o, nil
}

func (a *adapter) Status(ctx context.Context, rev string) (map[string]SkillStatus, error) {
	out := map[string]SkillStatus{}
	recs, err := a.l.Usage().Load()
	if err != nil {
		return nil, err
	}
	for name, r := range recs {
		out[name] = SkillStatus{State: r.State}
	}
	pins, err := a.l.Owners().Pins(rev)
	if err != nil {
		return nil, err
	}
	for _, name := range append(pins, a.l.Config.Protected...) {
		s := out[name]
		s.Pinned = true
		out[name] = s
	}
	return out, nil
}

// Apply writes through the library's write policy (package skillrepo,
// policy.go): the writer the toolbox describes is routed, guarded and
// linted there, as the CLI's writes are.
func (a *adapter) Apply(ctx context.Context, t Target, ops []Op) (Applied, error) {
	pol, err := a.l.Policy(t.Writer)
	if err != nil {
		return Applied{}, err
	}
	res, err := pol.Apply(ctx, ops, t.DryRun)
	if err != nil {
		return Applied{}, toolError(err)
	}
	out := Applied{Staged: res.Staged, Held: res.Held, Joined: res.Joined, Expired: res.Expired}
	if !t.DryRun && res.Held == nil {
		out.Commit = res.Commit.String()
	}
	return out, nil
}

func (a *adapter) Held(t Target) ([]skillrepo.HeldCreate, error) {
	pol, err := a.l.Policy(t.Writer)
	if err != nil {
		return nil, err
	}
	return pol.Held()
}

func (a *adapter) EndHeld(t Target) ([]skillrepo.HeldCreate, error) {
	pol, err := a.l.Policy(t.Writer)
	if err != nil {
		return nil, err
	}
	return pol.EndHeld()
}

func (a *adapter) Memory(ctx context.Context, t Target, ch MemoryChange) (memory.Result, string, error) {
	pol, err := a.l.Policy(t.Writer)
	if err != nil {
		return memory.Result{}, "", err
	}
	res, err := pol.ChangeMemory(ctx, skillrepo.MemoryOptions{
		Target: ch.Target, Action: ch.Action, Content: ch.Content, OldText: ch.OldText, Ops: ch.Ops, DryRun: t.DryRun,
	})
	if err != nil {
		return memory.Result{}, "", err
	}
	if res.Commit.IsZero() || t.DryRun {
		return res.Result, "", nil
	}
	return res.Result, res.Commit.String(), nil
}

// previewError is a write error that carries the start of the file, so
// the model can correct its old_string (the reference's file_preview).
type previewError struct {
	msg, preview string
}

func (e *previewError) Error() string { return e.msg }

// toolError keeps the engine's message and, for a patch that did not
// match, the file preview.
func toolError(err error) error {
	var pe *skillrepo.PatchError
	if errors.As(err, &pe) {
		return &previewError{msg: err.Error(), preview: pe.Preview}
	}
	return err
}
