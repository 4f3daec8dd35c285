package cmdutil

// Progress rules: long work (an import of thousands of files, linting a
// large library, the first history walk over many commits) shows a
// counter on stderr, redrawn in place at most ten times a second and
// erased when the work ends — only when stderr is a terminal and the
// output is not --json. Piped or redirected, nothing is drawn: a log file
// never fills with carriage returns.

import (
	"fmt"
	"io"
	"time"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// TermProgress draws "what: n/total" on a terminal. It satisfies the
// Progress interfaces of package skillrepo and package lint.
type TermProgress struct {
	w     io.Writer
	now   func() time.Time
	what  string
	total int
	n     int
	last  time.Time
	shown bool
}

// Progress returns the reporter for long work: a terminal counter on
// stderr, or one that does nothing.
func (f *Factory) Progress() *TermProgress {
	if !f.IO.IsStderrTTY() || f.JSON {
		return nil
	}
	return &TermProgress{w: f.IO.ErrOut, now: time.Now}
}

func (p *TermProgress) Start(what string, total int) {
	if p == nil {
		return
	}
	p.what, p.total, p.n = what, total, 0
	p.last = p.now()
}

func (p *TermProgress) Add(n int) {
	if p == nil {
		return
	}
	p.n += n
	// The first draw waits 100 ms too: work that ends sooner shows nothing.
	if t := p.now(); t.Sub(p.last) >= 100*time.Millisecond {
		p.last = t
		p.draw()
	}
}

func (p *TermProgress) draw() {
	p.shown = true
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r\x1b[K%s: %d/%d (%d%%)", p.what, p.n, p.total, p.n*100/p.total)
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %d", p.what, p.n)
}

func (p *TermProgress) Done() {
	if p == nil || !p.shown {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.shown = false
}

// LibraryProgress is Progress() as package skillrepo takes it (nil when
// nothing is drawn).
func (f *Factory) LibraryProgress() skillrepo.Progress {
	if p := f.Progress(); p != nil {
		return p
	}
	return nil
}

// LintProgress is Progress() as package lint takes it.
func (f *Factory) LintProgress() lint.Progress {
	if p := f.Progress(); p != nil {
		return p
	}
	return nil
}
