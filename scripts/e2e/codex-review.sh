# A Codex session ends; skillrepo's worker forks it through the same
# `codex` program (`codex exec fork`: the session's provider, model and
# key; no OpenAI-compatible endpoint configured for skillrepo), the fork
# calls our review tools over MCP (Codex sends them as namespace
# mcp__skillrepo), and a commit lands whose trailers name the session and
# its model. The fork queues nothing; nothing leaves the machine.
need codex
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "tool_calls": [{"name": "skill_manage", "namespace": "mcp__skillrepo", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n2. Look for shared state, time and ordering assumptions.\n"}]}}]},
  {"match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"unless": "is material to learn from", "content": "The test was flaky: it depended on map order. I sorted the keys and it passes 50 of 50 runs.", "times": -1}
]
JSON
codex_env gpt-e2e-model
lib="$HOME/.agents/skills"
mkdir -p "$lib"
sr init "$lib"
# Every turn is worth a review (the nudge intervals at 1), and reviews
# start at once (the fake is on loopback, which review.defer: auto would
# treat as a local model to wait for).
sed -i -e 's/^review:$/review:\n  defer: never/' -e 's/^  memory_interval: .*/  memory_interval: 1/' -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
sr -C "$lib" sync -m "config: reviews do not wait" >/dev/null
sr hooks install --codex
cd "$E2E_PROJECT"
codex exec --json --dangerously-bypass-hook-trust "The test TestOrder fails now and then; fix it." >"$E2E_DIR/session.jsonl"
session=$(sed -n 's/.*"type":"thread.started","thread_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.jsonl")
[ -n "$session" ] || fail "no thread id in the session's events"

landed() { git -C "$lib" log -1 --format=%B main | grep -q "Review-Id:"; }
wait_for 60 landed
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$E2E_DIR/log.txt" '^Model: gpt-e2e-model$' "the review's commit does not name the session's model"
must "$E2E_DIR/log.txt" '^Skill-Origin: background-review$'
[ -f "$lib/testing/flaky-test-triage/SKILL.md" ] || fail "the skill is not in the work tree"

grep -m 1 '"api":"responses".*is material to learn from' "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json"
must "$E2E_DIR/review-request.json" 'depended on map order' "the review did not see the session's conversation"
must "$E2E_DIR/review-request.json" '"model":"gpt-e2e-model"' "the review did not run on the session's model"
must "$E2E_DIR/review-request.json" '"name":"mcp__skillrepo"' "the review was not offered our tools"
must_not "$E2E_DIR/review-request.json" '"name":"(exec_command|shell|apply_patch)"' "the review was offered a shell"

sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
[ "$(grep -Eo '"id": ?"q-' "$E2E_DIR/queue.json" | wc -l)" -eq 1 ] || fail "more than the session's one review was queued: $(cat "$E2E_DIR/queue.json")"
must "$E2E_DIR/queue.json" '"backend": ?"agent"'
must_not "$(hooks_log "$lib")" 'inside a review' "a hook fired inside the review's fork"
no_egress
