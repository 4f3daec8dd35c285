# A Claude Code session ends; skillrepo's worker forks it through the same
# `claude` program (the session's model and key, no OpenAI-compatible
# endpoint anywhere), the fork calls our review tools over MCP, and a
# commit lands on main whose trailers name the session and its model. The
# fork fires no hook and queues nothing; nothing leaves the machine.
need claude
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "tool_calls": [{"name": "mcp__skillrepo__skill_manage", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n2. Look for shared state, time and ordering assumptions.\n"}]}}]},
  {"match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"unless": "is material to learn from", "content": "The test was flaky: it depended on map order. I sorted the keys and it passes 50 of 50 runs.", "times": -1}
]
JSON
claude_env
agent_library claude-code
reviews_at_once
cd "$E2E_PROJECT"
claude -p "The test TestOrder fails now and then; fix it." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
[ -n "$session" ] || fail "no session id in the session's result"

# The worker forks the session and the review lands.
review_landed "$session" claude-e2e-model flaky-test-triage
[ -f "$lib/testing/flaky-test-triage/SKILL.md" ] || fail "the skill is not in the work tree"

# The review was a fork of the session: its request held the session's
# conversation, then the review prompt.
review_request messages 'is material to learn from'
must "$E2E_DIR/review-request.json" 'depended on map order' "the review did not see the session's conversation"
must "$E2E_DIR/review-request.json" '"model":"claude-e2e-model"' "the review did not run on the session's model"
must "$E2E_DIR/review-request.json" 'mcp__skillrepo__skill_manage' "the review was not offered our tools"
# (The fork runs in the project, so it may read it: Claude Code lists the
# session's tools to it but runs only Read, Grep and Glob; claude-project
# checks what it may run.)

# One queue entry, done through the agent backend; the fork (every hook
# off in it, and ours do nothing under SKILLREPO_IN_REVIEW) queued
# nothing and fired none of our hooks.
one_agent_review claude-code
no_egress
