# A new user turn interrupts a review that competes with the session for
# its model on this machine (review.defer: auto; Claude Code on a loopback
# ANTHROPIC_BASE_URL, as with a local model server): the session's next
# prompt fires UserPromptSubmit, the worker ends the review's fork of
# claude and queues the review again; the fourth interruption drops it,
# and the logs say so (docs/agents.md, "The worker").
need claude
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "delay_ms": 120000, "content": "late", "times": -1},
  {"content": "Done.", "times": -1}
]
JSON
claude_env
agent_library claude-code
sed -i -e 's/^  memory_interval: .*/  memory_interval: 1/' -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
sr -C "$lib" sync -m "config: every turn reviewed" >/dev/null
export SKILLREPO_DEFER_QUIET=1s SKILLREPO_WORKER_IDLE=2s
cd "$E2E_PROJECT"
claude -p "Step 1." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
[ -n "$session" ] || fail "no session id in the session's result"
for n in 1 2 3 4; do
  # The review runs: its fork of claude waits for the model.
  running() {
    sr -C "$lib" queue list --state running --json | grep -q '"interruptible": *true' &&
      [ "$(grep -c 'is material to learn from' "$E2E_DIR/model.log")" -ge "$n" ]
  }
  wait_for 90 running
  if [ "$n" -eq 4 ]; then
    # The review the last prompt's Stop queues is not run.
    sed -i 's/^review:$/review:\n  enabled: false/' "$lib/.skillrepo/config.yaml"
    sr -C "$lib" sync -m "config: no more reviews" >/dev/null
  fi
  # The person types the next prompt.
  claude -p --resume="$session" "Step $((n + 1))." --model claude-e2e-model --output-format json >"$E2E_DIR/turn-$n.json"
  must "$E2E_DIR/turn-$n.json" '"is_error":false' "turn $n did not succeed"
  sr -C "$lib" queue list --json >"$E2E_DIR/queue-$n.json"
  must "$E2E_DIR/queue-$n.json" "\"interruptions\": *$n" "the review was not interrupted by turn $n"
done
log=$(hooks_log "$lib")
must "$log" 'queued again \(1 of 3 interruptions\)'
must "$log" 'queued again \(3 of 3 interruptions\)'
must "$log" 'dropped: a new user turn interrupted it 4 times'
must "$lib/.git/skillrepo/logs/worker.log" 'interrupted by a new user turn \(3 of 3\); queued again'
must "$E2E_DIR/queue-4.json" 'dropped: a new user turn interrupted it 4 times'
must "$E2E_DIR/queue-4.json" '"backend": *"agent"' "the review did not run through claude"
[ "$(grep -c 'is material to learn from' "$E2E_DIR/model.log")" -eq 4 ] || fail "the review asked the model $(grep -c 'is material to learn from' "$E2E_DIR/model.log") times, not 4"
must_not <(git -C "$lib" log --format=%B main) 'Review-Id:' "an interrupted review landed"
no_egress
