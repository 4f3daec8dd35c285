package merge

// DefaultLabels are the tests' marker labels.
var DefaultLabels = Labels{Ours: "ours", Base: "base", Theirs: "theirs"}

// Merge3 merges the changes that ours and theirs made to base, with the
// [DefaultLabels].
func Merge3(base, ours, theirs []byte) (Result, error) {
	return Merge3Labels(base, ours, theirs, DefaultLabels)
}
