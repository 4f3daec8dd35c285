package skillrepo

// Progress hears how far long work has got: the import of a large folder
// by init or sync, and building the history index over many commits. The
// CLI draws it on a terminal; the library never prints. Calls come from
// one goroutine. A total of 0 means unknown.
type Progress interface {
	Start(what string, total int)
	Add(n int)
	Done()
}

// noProgress is the default: nothing is reported.
type noProgress struct{}

func (noProgress) Start(string, int) {}
func (noProgress) Add(int)           {}
func (noProgress) Done()             {}

// progress returns the Progress of the open options, or one that does
// nothing.
func (l *Library) progress() Progress {
	if l.reporter == nil {
		return noProgress{}
	}
	return l.reporter
}
