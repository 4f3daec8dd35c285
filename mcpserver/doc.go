// Package mcpserver serves a skills library to any agent over the Model
// Context Protocol (the official Go SDK, github.com/modelcontextprotocol/go-sdk),
// so Claude Code, Codex, Gemini CLI, Cursor and other clients write skills
// and memory through git, with provenance and every guard.
//
// # Tools
//
// skills_list, skill_view, skill_manage and memory are package
// agenttools's — the same validation and messages as the background
// review's tools, and the same guards: the domain's write policy
// (package skillrepo, docs/architecture.md §2.1), for a foreground writer
// (or an autonomous one when the server runs with an autonomous origin). skill_view counts a
// view and a use in .usage.json, as the reference's tool does. Every write
// is one commit with Skill-Origin (foreground by default), Session-Id when
// the client passes one in the call's _meta (sessionId), and Agent: the
// client's name/version from its initialize handshake. With --propose, or
// review.write_approval in the config, writes gather on one proposal
// branch per server (a new one once it was approved or rejected), reads
// show it, and every write's result says so and names it.
//
// proposal_list and proposal_show read the proposals; proposal_approve and
// proposal_reject exist only when the server is started with
// --allow-approve.
//
// Errors are tool results with isError set, never protocol failures: the
// tools' JSON ({"success": false, "error": …}) for the agent tools, the
// CLI's "error: …" / "hint: …" text for the proposal tools.
//
// # Resources
//
// skillrepo://index (markdown) and skillrepo://index/{markdown,hermes,xml}
// are the prompt index; skillrepo://skill/<name> is a skill's SKILL.md.
// They are read from main's tip when read. [Server.Watch] polls main's ref
// (one small file read) and, when a commit by anyone moved it, updates the
// skill resources and sends resources/list_changed, and
// resources/updated for subscribed URIs.
//
// # Concurrency
//
// The server holds no lock while idle: a call takes the server's mutex
// (the library value is not safe for concurrent use) and a write takes
// the library's lock only for its commit, like every writer. Each call
// reads main's current tip, so a long-running server sees the commits of
// other servers, the CLI and people; many servers on one library lose no
// write.
package mcpserver
