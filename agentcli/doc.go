// Package agentcli runs an agent's own command-line program (Claude Code,
// Codex, Gemini CLI) headless as a model backend, so a review, the goal judge and
// the curator's consolidation use the session's model, provider and
// credentials when no OpenAI-compatible endpoint is configured
// (docs/agents.md, "The model backend").
//
// [Review] is a [review.Backend]: it forks the finished session with the
// review prompt, offers only our review tools through `skillrepo mcp
// --review` (whose toolbox package review makes from the same job as the
// in-process loop), and reads back the program's result and the tools'
// record. [Program.Ask] asks one question with no tools.
//
// Every run sets SKILLREPO_IN_REVIEW and turns the program's hooks off,
// so a run never fires hooks that would queue a review of itself; its
// MCP server and children end with it.
package agentcli
