package review

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// Open wires a review to a library. The adapter is the one place the
// review meets package skillrepo; it is not safe for concurrent use (nor
// is the library).
func Open(l *skillrepo.Library) Library {
	return &adapter{l: l, owners: map[string]Ownership{}}
}

type adapter struct {
	l      *skillrepo.Library
	owners map[string]Ownership // by commit + name: history does not change under a commit
}

func (a *adapter) MainBranch() string { return a.l.MainBranch() }

func (a *adapter) View(ctx context.Context, rev string) (View, error) {
	s, err := a.l.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	return snapshotView{s}, nil
}

type snapshotView struct{ s *skillrepo.Snapshot }

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
	ro, err := a.l.OwnerForReview(s.Commit().String(), name)
	if err != nil {
		return Ownership{}, err
	}
	o := Ownership{Managed: ro.Managed, Pinned: ro.Pinned}
	a.owners[key] = o
	return o, nil
}

func provenance(p Provenance) skillrepo.Provenance {
	return skillrepo.Provenance{
		Origin:           skillrepo.OriginBackgroundReview,
		ReviewID:         p.ReviewID,
		SessionID:        p.SessionID,
		Model:            p.Model,
		TranscriptSHA256: p.TranscriptSHA256,
	}
}

func (a *adapter) Apply(ctx context.Context, branch, from string, ops []Op, prov Provenance) (string, error) {
	// Every review write is linted before it lands: a write that leaves
	// lint errors (a dangling references/ link, broken frontmatter) is
	// refused, and the model reads why.
	verify := func(fsys fs.FS, dirs []string) error {
		return lint.GateFor(fsys, dirs, a.l.Config.Raw, a.l.Config.Runtime)
	}
	res, err := a.l.Apply(ctx, skillrepo.ApplyOptions{Branch: branch, From: from, Ops: ops, Provenance: provenance(prov), Verify: verify})
	if err != nil {
		return "", toolError(err)
	}
	return res.Commit.String(), nil
}

func (a *adapter) Memory(ctx context.Context, branch, from string, ch MemoryChange, prov Provenance) (memory.Result, string, error) {
	res, err := a.l.ChangeMemory(ctx, skillrepo.MemoryOptions{
		Branch: branch, From: from, Target: ch.Target, Action: ch.Action,
		Content: ch.Content, OldText: ch.OldText, Ops: ch.Ops, Provenance: provenance(prov),
	})
	if err != nil {
		return memory.Result{}, "", err
	}
	if res.Commit.IsZero() {
		return res.Result, "", nil
	}
	return res.Result, res.Commit.String(), nil
}

func (a *adapter) Merge(ctx context.Context, branch string, base string, prov Provenance) (string, error) {
	// A finished review lands the way a person's approval does: a
	// three-way merge commit, linted, with an Approved-By naming the
	// automatic approval (review.write_approval is off).
	id := strings.TrimPrefix(branch, "proposals/")
	res, err := a.l.ApproveProposal(ctx, id, skillrepo.ApproveOptions{
		By: "auto (review " + prov.ReviewID + ", review.write_approval: false)",
		Verify: func(fsys fs.FS, dirs []string) error {
			return lint.GateFor(fsys, dirs, a.l.Config.Raw, a.l.Config.Runtime)
		},
	})
	if err != nil {
		return "", err
	}
	return res.Commit.String(), nil
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
