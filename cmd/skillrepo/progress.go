package main

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

// termProgress draws "what: n/total" on a terminal. It satisfies the
// Progress interfaces of package skillrepo and package lint.
type termProgress struct {
	w     io.Writer
	now   func() time.Time
	what  string
	total int
	n     int
	last  time.Time
	shown bool
}

// progress returns the reporter for long work: a terminal counter on
// stderr, or one that does nothing.
func (f *factory) progress() *termProgress {
	if !f.IO.IsStderrTTY() || f.JSON {
		return nil
	}
	return &termProgress{w: f.IO.ErrOut, now: time.Now}
}

func (p *termProgress) Start(what string, total int) {
	if p == nil {
		return
	}
	p.what, p.total, p.n = what, total, 0
	p.last = p.now()
}

func (p *termProgress) Add(n int) {
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

func (p *termProgress) draw() {
	p.shown = true
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r\x1b[K%s: %d/%d (%d%%)", p.what, p.n, p.total, p.n*100/p.total)
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %d", p.what, p.n)
}

func (p *termProgress) Done() {
	if p == nil || !p.shown {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.shown = false
}

// libraryProgress is progress() as package skillrepo takes it (nil when
// nothing is drawn).
func (f *factory) libraryProgress() skillrepo.Progress {
	if p := f.progress(); p != nil {
		return p
	}
	return nil
}

// lintProgress is progress() as package lint takes it.
func (f *factory) lintProgress() lint.Progress {
	if p := f.progress(); p != nil {
		return p
	}
	return nil
}
