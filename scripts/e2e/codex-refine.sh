# $refine from inside a Codex session: `hooks install --codex` wrote the
# skill $CODEX_HOME/skills/refine (Codex has no custom prompts since
# 0.117); Codex offers it to the model, which runs its one shell line —
# `skillrepo review --session current --focus '…'` — and Codex's
# CODEX_THREAD_ID names the session, which the review forks through the
# same `codex` (no endpoint anywhere), its focus in the review's prompt.
need codex
lib="$HOME/.agents/skills"
line="$E2E_BIN/skillrepo -C $lib review --session current --focus 'deployment steps'"
fake_start - <<JSON
[
  {"api": "responses", "match": "Focus: deployment steps", "tool_calls": [{"name": "memory", "namespace": "mcp__skillrepo", "arguments": {"action": "add", "target": "memory", "content": "Deploy to staging with make deploy ENV=staging after make check."}}]},
  {"api": "responses", "match": "Focus: deployment steps", "content": "Saved one memory entry."},
  {"api": "responses", "match": "refine deployment steps", "unless": "function_call_output", "tool_calls": [{"id": "call_0", "name": "exec_command", "arguments": {"cmd": "$line"}}]},
  {"api": "responses", "match": "function_call_output", "content": "The review saved a memory about deploying (see skillrepo log).", "times": -1},
  {"api": "responses", "content": "Deployed: make check passed, then make deploy ENV=staging.", "times": -1}
]
JSON
codex_env gpt-e2e-model
agent_library codex
must "$CODEX_HOME/skills/refine/SKILL.md" "review --session current --focus" "hooks install wrote no refine skill"
cd "$E2E_PROJECT"
codex exec --json "Deploy the app to staging." >"$E2E_DIR/session.jsonl"
session=$(sed -n 's/.*"type":"thread.started","thread_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.jsonl")
[ -n "$session" ] || fail "no thread id in the session's events"
grep -m 1 '"api":"responses"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
must "$E2E_DIR/first-request.json" 'refine' "Codex did not offer the refine skill"

# The person asks for it in the same session; the line writes the library
# and calls the model, so it runs outside Codex's sandbox.
codex exec resume --json --dangerously-bypass-approvals-and-sandbox "$session" '$refine deployment steps' >"$E2E_DIR/refine.jsonl"
must "$E2E_DIR/refine.jsonl" 'saved a memory about deploying' "the model did not tell the review's outcome"
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$lib/.memory/MEMORY.md" 'make deploy ENV=staging' "the refine review's memory entry is not in MEMORY.md"
no_egress
