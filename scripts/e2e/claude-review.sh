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
lib="$HOME/.claude/skills"
mkdir -p "$lib"
sr init "$lib"
# Every turn is worth a review (the nudge intervals at 1), and reviews
# start at once (the fake is on loopback, which review.defer: auto would
# treat as a local model to wait for).
sed -i -e 's/^review:$/review:\n  defer: never/' -e 's/^  memory_interval: .*/  memory_interval: 1/' -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
sr -C "$lib" sync -m "config: reviews do not wait" >/dev/null
sr hooks install --claude-code
cd "$E2E_PROJECT"
claude -p "The test TestOrder fails now and then; fix it." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
[ -n "$session" ] || fail "no session id in the session's result"

# The worker forks the session and the review lands.
landed() { git -C "$lib" log -1 --format=%B main | grep -q "Review-Id:"; }
wait_for 60 landed
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$E2E_DIR/log.txt" '^Model: claude-e2e-model$' "the review's commit does not name the session's model"
must "$E2E_DIR/log.txt" '^Skill-Origin: background-review$'
must "$E2E_DIR/log.txt" '^Skill-Name: flaky-test-triage$'
[ -f "$lib/testing/flaky-test-triage/SKILL.md" ] || fail "the skill is not in the work tree"

# The review was a fork of the session: its request held the session's
# conversation, then the review prompt.
grep -m 1 '"api":"messages".*is material to learn from' "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json"
must "$E2E_DIR/review-request.json" 'depended on map order' "the review did not see the session's conversation"
must "$E2E_DIR/review-request.json" '"model":"claude-e2e-model"' "the review did not run on the session's model"
must "$E2E_DIR/review-request.json" 'mcp__skillrepo__skill_manage' "the review was not offered our tools"
must_not "$E2E_DIR/review-request.json" '"name":"(Bash|Edit|Write|Read)"' "the review was offered built-in tools"

# One queue entry, done through the agent backend; the fork queued nothing.
sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
[ "$(grep -Eo '"id": ?"q-' "$E2E_DIR/queue.json" | wc -l)" -eq 1 ] || fail "more than the session's one review was queued: $(cat "$E2E_DIR/queue.json")"
must "$E2E_DIR/queue.json" '"backend": ?"agent"'
must "$E2E_DIR/queue.json" '"state": ?"done"'
# The session's hooks ran once each; the fork's (every hook off in it,
# and ours do nothing under SKILLREPO_IN_REVIEW) not at all.
[ "$(grep -cE 'claude-code (Stop|SessionEnd) queued' "$(hooks_log "$lib")")" -eq 1 ] || fail "the session queued more than one review: $(cat "$(hooks_log "$lib")")"
must_not "$(hooks_log "$lib")" 'inside a review' "a hook fired inside the review's fork"
no_egress
