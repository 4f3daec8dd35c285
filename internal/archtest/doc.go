// Package archtest holds no code: its test keeps the package dependency
// arrows of docs/style.md honest (modelled on go/build's deps_test.go).
//
//	cmd/skillrepo -> review, curator, hooks, lint
//	review, curator, hooks -> skillrepo -> skillrepo/skill
//	skillrepo -> skillrepo/internal/gitstore (the git engine) -> go-git
//	hooks -> lint -> skillrepo/skill
//
// Only the engine, skillrepo/internal/gitstore, imports go-git, and it
// imports no domain package (skillrepo, skillrepo/skill, review, …);
// only cmd/skillrepo imports cobra; lint never reaches go-git or the
// library; review and curator never import each other.
package archtest
