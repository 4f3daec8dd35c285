# One review per turn (issue 35 item 8): a one-prompt Claude Code session
# whose answer follows a tool call, with every turn worth a review that
# starts at once (review.defer: never, intervals 1), queues exactly one
# review — Claude Code writes the turn's last text block after the Stop
# hook ran, and SessionEnd must not take that block for a turn of its own,
# whether Stop's review still waits, runs or is done. Run
# E2E_ONE_REVIEW_RUNS times (default 5) in one library.
need claude
runs=${E2E_ONE_REVIEW_RUNS:-5}
printf 'hello from the project\n' >"$E2E_PROJECT/notes.txt"
fake_start - <<JSON
[
  {"match": "is material to learn from", "content": "Nothing to save.", "times": -1},
  {"match": "tool_use_id", "content": "The notes say hello from the project.", "times": -1},
  {"tool_calls": [{"name": "Read", "arguments": {"file_path": "$E2E_PROJECT/notes.txt"}}], "times": -1}
]
JSON
claude_env
agent_library claude-code
reviews_at_once
cd "$E2E_PROJECT"
log=$(hooks_log "$lib")
for i in $(seq 1 "$runs"); do
  claude -p "What do the notes say?" --model claude-e2e-model --output-format json >"$E2E_DIR/session-$i.json"
  must "$E2E_DIR/session-$i.json" '"is_error":false' "session $i did not succeed"
  ended() { [ "$(grep -c 'claude-code SessionEnd' "$log")" -ge "$i" ]; }
  wait_for 30 ended
  # Whatever the review's state when SessionEnd fired, it stays the one.
  all_done() { sr -C "$lib" queue list --json | grep -q '"state": *"queued"\|"state": *"running"' && return 1; return 0; }
  wait_for 90 all_done
  queued=$(grep -cE 'claude-code (Stop|SessionEnd) queued' "$log" || true)
  [ "$queued" -eq "$i" ] || fail "after $i sessions $queued reviews were queued: $(cat "$log")"
done
sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
[ "$(grep -Eo '"id": ?"q-' "$E2E_DIR/queue.json" | wc -l)" -eq "$runs" ] || fail "$runs sessions, queue: $(cat "$E2E_DIR/queue.json")"
echo "one review per session in $runs of $runs runs ($(grep -c 'took every turn' "$log" || true) SessionEnds found the turn's last block after Stop's review)"
no_egress
