// Package archtest holds no code: its test keeps the package dependency
// arrows of docs/architecture.md §1 honest (modelled on go/build's deps_test.go).
//
//	cmd/skillrepo -> review, curator, hooks, lint
//	review, curator, hooks -> skillrepo -> skillrepo/skill
//	hooks -> lint -> skillrepo/skill
//
// Only package skillrepo imports go-git; only cmd/skillrepo imports
// cobra; lint never reaches go-git or the library; review and curator
// never import each other.
package archtest
