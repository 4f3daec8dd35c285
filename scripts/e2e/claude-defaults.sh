# A Claude Code user who ran the README's two commands (init, hooks
# install) and configured nothing else: a session of ten model iterations
# (it uses a skill nine times, then answers) reaches the default skill
# interval, and its review lands on main through the same `claude`, with
# the session's model and key (no endpoint anywhere), after the quiet
# wait review.defer: auto gives a provider on loopback. Nothing leaves
# the machine.
need claude
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "tool_calls": [{"name": "mcp__skillrepo__skill_manage", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n"}]}}]},
  {"match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"api": "messages", "match": "TestOrder fails now and then", "unless": "is material to learn from", "tool_calls": [{"name": "Skill", "arguments": {"skill": "ci-debugging"}}], "times": 9},
  {"unless": "is material to learn from", "content": "The test was flaky: it depended on map order. I sorted the keys and it passes 50 of 50 runs.", "times": -1}
]
JSON
claude_env
lib="$HOME/.claude/skills"
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr hooks install --claude-code 2>/dev/null
cd "$E2E_PROJECT"
claude -p "The test TestOrder fails now and then; fix it." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
must "$(hooks_log "$lib")" 'claude-code Stop queued review .*due at Stop: .*10 new model iterations' "ten iterations did not reach the default skill interval"
# review.defer: auto waits for the agent to be quiet (15 s) first.
review_landed "$session" claude-e2e-model flaky-test-triage
one_agent_review claude-code
no_egress
