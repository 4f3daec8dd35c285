# A review that cannot land is told to the person, in the agent: the
# session's review fails (the provider refuses the review's request), and
# the next session's SessionStart hook answers Claude Code with a
# systemMessage (shown to the user as a warning) naming the failure and
# the fix; `skillrepo status` leads with it.
need claude
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "status": 400, "error": "the review request was refused", "times": -1},
  {"content": "Done.", "times": -1}
]
JSON
claude_env
agent_library claude-code
reviews_at_once
cd "$E2E_PROJECT"
claude -p "Fix the build." --output-format json >"$E2E_DIR/first.json"
failed() { sr -C "$lib" queue list --state failed --json | grep -q '"state": "failed"'; }
wait_for 60 failed

# The second session is a batch one (SKILLREPO_REVIEW=off): it is told
# all the same, and queues no review of its own whose failure would race
# with the status read below.
SKILLREPO_REVIEW=off claude -p "Hello again." --output-format stream-json --verbose >"$E2E_DIR/second.jsonl"
grep -m 1 '"subtype":"hook_response".*"hook_event":"SessionStart"' "$E2E_DIR/second.jsonl" >"$E2E_DIR/start-hook.json" || fail "no SessionStart hook response"
must "$E2E_DIR/start-hook.json" 'systemMessage.*skillrepo: 1 review failed: .*400.*skillrepo queue retry q-' "SessionStart did not tell the person"
must "$E2E_DIR/start-hook.json" '"outcome":"success"' "Claude Code did not take the hook's answer"
must "$(hooks_log "$lib")" 'batch session' "the second session was not taken for a batch one"
# A headless session not marked at all is not reviewed either: the
# agent says it runs headless.
env -u SKILLREPO_REVIEW claude -p "Bye." --output-format json >"$E2E_DIR/third.json"
must "$(hooks_log "$lib")" 'a headless session \(' "the headless session was not told apart"
sr -C "$lib" status >"$E2E_DIR/status.txt"
head -n 1 "$E2E_DIR/status.txt" | grep -q '^reviews: 1 review failed' || fail "status does not lead with the failure: $(head -n 3 "$E2E_DIR/status.txt")"
no_egress
