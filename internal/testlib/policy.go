package testlib

import (
	"context"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Policy is the write policy of w on lib — Writer{} is a person at their
// own library — for tests that write through the one door every write
// takes (docs/architecture.md §2.1).
func Policy(tb testing.TB, lib *skillrepo.Library, w skillrepo.Writer) *skillrepo.Policy {
	tb.Helper()
	p, err := lib.Policy(w)
	if err != nil {
		tb.Fatalf("write policy: %v", err)
	}
	return p
}

// Seed writes ops as a person who means it (Force: lint errors are
// written too) and fails the test when the write fails: what a test
// prepares, not what it checks.
func Seed(tb testing.TB, lib *skillrepo.Library, ops ...skillrepo.Op) *skillrepo.PolicyResult {
	tb.Helper()
	return Write(tb, lib, skillrepo.Writer{Force: true}, ops...)
}

// Write writes ops through w's policy and fails the test when the write
// fails.
func Write(tb testing.TB, lib *skillrepo.Library, w skillrepo.Writer, ops ...skillrepo.Op) *skillrepo.PolicyResult {
	tb.Helper()
	res, err := Policy(tb, lib, w).Apply(context.Background(), ops, false)
	if err != nil {
		tb.Fatalf("write %d operation(s): %v", len(ops), err)
	}
	return res
}
