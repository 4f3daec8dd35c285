# OpenCode runs headless (`opencode run`) against the fake (chat
# completions, streamed, through its OpenAI-compatible provider) with
# skillrepo's plugin installed: the session's memory reaches the system
# prompt, the model's load of a skill through OpenCode's skill tool is
# counted, the session going idle queues a review that a worker runs
# (against the review model, here the same fake: OpenCode's own program is
# not a review backend, docs/agents.md "OpenCode"), and nothing leaves the
# machine.
need opencode
command -v rg >/dev/null 2>&1 || skip "ripgrep (rg) is not installed: OpenCode's skill tool would download it from github.com"
fake_start - <<'JSON'
[{"api": "chat", "match": "You are a title generator", "content": "CI failure", "times": -1},
 {"api": "chat", "match": "\"stream\":true", "unless": "\"role\":\"tool\"", "tool_calls": [{"name": "skill", "arguments": {"name": "ci-debugging"}}]},
 {"api": "chat", "match": "\"stream\":true", "content": "Re-run the flaky test once."},
 {"api": "chat", "unless": "\"stream\":true", "content": "Nothing to save.", "times": -1}]
JSON
opencode_env
export SKILLREPO_MODEL=fake-model OPENAI_BASE_URL="$FAKE_OPENAI" OPENAI_API_KEY=e2e-dummy-key
lib="$XDG_CONFIG_HOME/opencode/skills"
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null
reviews_at_once
sr hooks install --opencode 2>"$E2E_DIR/install.txt"
cd "$E2E_PROJECT"
opencode run "Use the ci-debugging skill: why does CI fail?" >"$E2E_DIR/session.txt" 2>"$E2E_DIR/session.err"
must "$E2E_DIR/session.txt" 'Re-run the flaky test once' "the session's answer is not the fake's"
grep '"stream":true' "$E2E_DIR/model.log" | grep -v 'title generator' >"$E2E_DIR/session-requests.jsonl" || fail "OpenCode sent the fake no streamed request"
must "$E2E_DIR/session-requests.jsonl" 'Prefers short answers' "the session's memory did not reach the system prompt"
usage() { node -p 'const r = require(process.argv[1])[process.argv[2]] || {}; `${r.use_count || 0} ${r.view_count || 0}`' "$lib/.usage.json" "$1"; }
[ "$(usage ci-debugging)" = "1 0" ] || fail "the skill tool's load was not counted once: $(cat "$lib/.usage.json" 2>/dev/null)"
log="$(hooks_log "$lib")"
must "$log" 'opencode SessionStart' "OpenCode's session start did not reach skillrepo"
must "$log" 'opencode Stop queued review q-' "the idle session queued no review"
done_review() { sr -C "$lib" queue list --json | grep -Eq '"state": ?"done"'; }
wait_for 60 done_review
sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
must "$E2E_DIR/queue.json" '"session_id": ?"ses_' "the review is not of OpenCode's session"
must "$E2E_DIR/queue.json" '"format": ?"opencode"'
# The review read the session the plugin wrote: its request to the review
# model carries the skill call.
grep -v '"stream":true' "$E2E_DIR/model.log" >"$E2E_DIR/review-requests.jsonl" || fail "the review sent the model no request"
must "$E2E_DIR/review-requests.jsonl" 'ci-debugging' "the review's request does not carry the session"
must_not "$log" 'error' "a hook failed"
no_egress
