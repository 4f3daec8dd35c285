// Package archtest holds no code: its test keeps the package dependency
// arrows of docs/architecture.md §1 honest (modelled on go/build's deps_test.go).
//
//	cmd/skillrepo -> review, curator, mcpserver, agentsession, hooks, worker, queue, lint
//	review, curator, mcpserver -> agenttools -> skillrepo, lint
//	agentsession -> worker -> review, curator, queue
//	everything -> agent (agent and event names, scopes, homes: a leaf)
//	cmd/skillrepo (and its packages) -> agents (the registry), only they
//	review, curator, agentsession -> skillrepo -> skillrepo/skill
//	skillrepo -> skillrepo/internal/gitstore (the git engine) -> go-git
//	cmd/skillrepo, worker -> skillrepo/remote -> skillrepo (the shared remote: a room above the domain, no git of its own)
//	skillrepo -> lint, overlap (the write policy's gate and duplicate check)
//	hooks -> lint -> skillrepo/skill
//
// Only the engine, skillrepo/internal/gitstore, imports go-git, and it
// imports no domain package (skillrepo, skillrepo/skill, review, …); only
// the domain, skillrepo, imports the engine, and its exported API names
// no engine type but the object id and three error types (engine_test.go);
// only cmd/skillrepo and its internal packages import cobra; only mcpserver imports the MCP SDK;
// lint never reaches go-git or the library; review and curator never
// import each other; agenttools imports none of review, curator,
// mcpserver, hooks or agentsession, and mcpserver neither review nor
// curator; hooks (the installers) reaches none of curator, review,
// worker, queue or agentsession; overlap is pure (no git, no network, at
// most skillrepo/skill); an agent's name is spelled only in agent, the
// registry agents and the agents' folders agents/<name> (agents_test.go);
// only internal/statefile and the engine import gofrs/flock
// (statefile_test.go).
package archtest
