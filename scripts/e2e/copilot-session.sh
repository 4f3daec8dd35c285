# GitHub Copilot CLI runs headless (`copilot -p`) with no GitHub sign-in:
# its own-provider mode against the fake (chat completions, streamed) and
# COPILOT_OFFLINE, with skillrepo's hooks installed (~/.copilot/hooks/
# skillrepo.json). The hooks get Copilot CLI's real payloads: its skill
# tool's load is counted as a use, a SKILL.md read through its shell (the
# tool named Bash in a PascalCase hook's payload) as a view; SessionStart,
# Stop and SessionEnd reach skillrepo; nothing leaves the machine. What
# the run shows of Copilot CLI's session file: Stop names
# session-state/<id>/events.jsonl before Copilot CLI has written the turn
# to it (a headless run writes it out as it exits), and SessionEnd names
# none, so no review is queued (docs/agents.md, "GitHub Copilot CLI");
# the file it leaves is one skillrepo reads.
need copilot
lib="$HOME/.copilot/skills"
fake_start - <<JSON
[{"api": "chat", "unless": "\\"role\\":\\"tool\\"", "match": "ci-debugging", "tool_calls": [
   {"name": "skill", "arguments": {"skill": "ci-debugging"}},
   {"name": "bash", "arguments": {"command": "cat $lib/devops/docker-cleanup/SKILL.md", "description": "read the docker skill"}}]},
 {"api": "chat", "match": "is material to learn from", "unless": "flaky-test-triage", "tool_calls": [{"name": "skillrepo-skill_manage", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\\nname: flaky-test-triage\\ndescription: Use when a test fails only sometimes.\\n---\\n# Flaky test triage\\n\\n1. Re-run the test 50 times in a loop and count the failures.\\n"}]}}]},
 {"api": "chat", "match": "is material to learn from", "content": "Created flaky-test-triage."},
 {"api": "chat", "unless": "is material to learn from", "content": "Re-run the flaky test once.", "times": -1}]
JSON
copilot_env
export SKILLREPO_MODEL=fake-model OPENAI_BASE_URL="$FAKE_OPENAI" OPENAI_API_KEY=e2e-dummy-key
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
reviews_at_once
sr hooks install --copilot 2>"$E2E_DIR/install.txt"
must "$E2E_DIR/install.txt" "wrote 5 GitHub Copilot CLI hooks in $COPILOT_HOME/hooks/skillrepo.json"
cd "$E2E_PROJECT"
copilot -p "Use the ci-debugging skill: why does CI fail?" --allow-all-tools >"$E2E_DIR/session.txt" 2>"$E2E_DIR/session.err"
must "$E2E_DIR/session.txt" 'Re-run the flaky test once' "the session's answer is not the fake's"
must "$E2E_DIR/model.log" '"stream":true' "Copilot CLI did not call the fake"
usage() { node -p 'const r = require(process.argv[1])[process.argv[2]] || {}; `${r.use_count || 0} ${r.view_count || 0}`' "$lib/.usage.json" "$1"; }
[ "$(usage ci-debugging)" = "1 0" ] || fail "the skill tool's load was not counted once: $(cat "$lib/.usage.json" 2>/dev/null)"
[ "$(usage docker-cleanup)" = "1 1" ] || fail "the shell's read of a SKILL.md was not counted: $(cat "$lib/.usage.json" 2>/dev/null)"
log="$(hooks_log "$lib")"
for e in SessionStart Stop SessionEnd; do
  must "$log" "copilot $e" "Copilot CLI's $e did not reach skillrepo"
done
must_not "$log" 'error' "a hook failed"
# Stop came before Copilot CLI had written the whole turn to its session
# file (no file yet, none of the conversation, or the turn without its
# answer): no review. The file is whole once Copilot CLI has exited.
must "$log" 'copilot Stop (nothing to count: the session (wrote no transcript|has no conversation yet)|a nudge fired, but the last turn has no final answer)'
must_not "$log" 'copilot (Stop|SessionEnd) queued'
must "$log" 'copilot SessionEnd the session has no transcript'
session=$(ls -d "$COPILOT_HOME"/session-state/*/ | head -n 1)
[ -f "$session/events.jsonl" ] || fail "Copilot CLI left no session file in $session"
must "$session/events.jsonl" '"type":"tool.execution_start"'
must "$session/events.jsonl" '"type":"session.shutdown"'
# skillrepo reads it (review/transcript_copilot.go): the prompt, the model
# call of two tool calls, the final answer,
# found by its id, and as the project folder's latest session.
id=$(basename "$session")
sr -C "$lib" review --session "$id" --dry-run >"$E2E_DIR/review.txt"
must "$E2E_DIR/review.txt" 'transcript: copilot, .*1 user turn, 2 model iterations'
sr -C "$lib" review --session current --dry-run >"$E2E_DIR/review-current.txt"
must "$E2E_DIR/review-current.txt" 'transcript: copilot, .*1 user turn, 2 model iterations'
# Reviewed for real through Copilot CLI itself (no endpoint configured):
# a fresh `copilot -s` run with skillrepo's tools alone (skillrepo-<tool>,
# none of its own), whose skill_manage call lands a commit naming the
# session and its model.
unset SKILLREPO_MODEL OPENAI_BASE_URL OPENAI_API_KEY
sr -C "$lib" review --session "$id" >"$E2E_DIR/review-run.txt" 2>&1 || fail "the review failed: $(cat "$E2E_DIR/review-run.txt")"
review_landed "$id" fake-model flaky-test-triage
grep -m 1 'is material to learn from' "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json" || fail "no review request reached the model"
must "$E2E_DIR/review-request.json" '"name":"skillrepo-skill_manage"' "the review was not offered our tools"
must_not "$E2E_DIR/review-request.json" '"name":"(bash|view|edit|create|skill|glob|grep|task|sql)"' "the review kept a tool of Copilot CLI's own"
must "$E2E_DIR/review-request.json" 'Re-run the flaky test once' "the review did not see the session's conversation"
no_egress
