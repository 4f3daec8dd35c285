# A Codex session ends; skillrepo's worker forks it through the same
# `codex` program (`codex exec fork`: the session's provider, model and
# key; no OpenAI-compatible endpoint configured for skillrepo), the fork
# calls our review tools over MCP (Codex sends them as namespace
# mcp__skillrepo), and a commit lands whose trailers name the session and
# its model. The fork's toolset is closed as far as Codex lets it be, as
# the reference's review whitelist is: not the person's own MCP server
# (which the session had), nor Codex's images, goals or web search (Codex
# 0.169 keeps request_user_input, which exec mode refuses, its sub-agent
# tools and its MCP resource readers: docs/agents.md). The fork queues
# nothing; nothing leaves the machine.
need codex
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "tool_calls": [{"name": "skill_manage", "namespace": "mcp__skillrepo", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n2. Look for shared state, time and ordering assumptions.\n"}]}}]},
  {"match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"unless": "is material to learn from", "content": "The test was flaky: it depended on map order. I sorted the keys and it passes 50 of 50 runs.", "times": -1}
]
JSON
codex_env gpt-e2e-model
agent_library codex
reviews_at_once
# The person's own MCP server, in their Codex configuration.
mkdir -p "$HOME/personal"
sr init "$HOME/personal"
cat >>"$CODEX_HOME/config.toml" <<TOML

[mcp_servers.personal]
command = "$E2E_BIN/skillrepo"
args = ["mcp", "-C", "$HOME/personal"]
TOML
cd "$E2E_PROJECT"
# No --dangerously-bypass-hook-trust: the hooks run because they are
# trusted, as they would in the fork if it did not turn them off.
codex exec --json "The test TestOrder fails now and then; fix it." >"$E2E_DIR/session.jsonl"
session=$(sed -n 's/.*"type":"thread.started","thread_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.jsonl")
[ -n "$session" ] || fail "no thread id in the session's events"

review_landed "$session" gpt-e2e-model flaky-test-triage
[ -f "$lib/testing/flaky-test-triage/SKILL.md" ] || fail "the skill is not in the work tree"

review_request responses 'is material to learn from'
must "$E2E_DIR/review-request.json" 'depended on map order' "the review did not see the session's conversation"
must "$E2E_DIR/review-request.json" '"model":"gpt-e2e-model"' "the review did not run on the session's model"
must "$E2E_DIR/review-request.json" '"name":"mcp__skillrepo"' "the review was not offered our tools"
must_not "$E2E_DIR/review-request.json" '"name":"(exec_command|shell|apply_patch)"' "the review was offered a shell"
grep -m 1 '"api":"responses"' "$E2E_DIR/model.log" >"$E2E_DIR/session-request.json"
must "$E2E_DIR/session-request.json" '"name":"mcp__personal"' "the session did not have the person's own MCP server"
must_not "$E2E_DIR/review-request.json" '"name":"mcp__personal"' "the review kept the person's own MCP server"
must_not "$E2E_DIR/review-request.json" '"name":"(view_image|get_goal|create_goal|update_goal|image_generation)"' "the review kept a tool of Codex's own"
must_not "$E2E_DIR/review-request.json" '"type":"web_search"' "the review kept web search"

one_agent_review codex
no_egress
