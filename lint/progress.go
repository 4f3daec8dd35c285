package lint

// Progress hears how far a long Check has got (a library of thousands of
// skills); the CLI draws it on a terminal. Calls come from one goroutine.
// A total of 0 means unknown.
type Progress interface {
	Start(what string, total int)
	Add(n int)
	Done()
}

type noProgress struct{}

func (noProgress) Start(string, int) {}
func (noProgress) Add(int)           {}
func (noProgress) Done()             {}
