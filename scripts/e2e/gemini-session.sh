# Gemini CLI runs headless against the fake (Google's API) with skillrepo's
# hooks and MCP server installed as a person would: doctor says it will
# all run; the session gets its memory at start, its activate_skill is
# counted, its write through our MCP server is a commit naming Gemini CLI;
# its turn's end queues a review of its session file, which the worker
# runs through the same `gemini` (no OpenAI-compatible endpoint): a commit
# naming the session and its model lands. Nothing leaves the machine.
need gemini
fake_start - <<'JSON'
[
  {"api": "gemini", "match": "is material to learn from", "unless": "Review: the integration suite", "tool_calls": [{"name": "mcp_skillrepo_memory", "arguments": {"action": "add", "target": "memory", "content": "Review: the integration suite of this project is flaky; re-run it once before debugging."}}]},
  {"api": "gemini", "match": "is material to learn from", "content": "Saved one memory entry."},
  {"api": "gemini", "unless": "functionResponse", "tool_calls": [{"name": "activate_skill", "arguments": {"name": "ci-debugging"}}]},
  {"api": "gemini", "match": "activated_skill", "unless": "The user runs CI", "tool_calls": [{"name": "mcp_skillrepo_memory", "arguments": {"action": "add", "target": "user", "content": "The user runs CI on every push."}}]},
  {"api": "gemini", "unless": "is material to learn from", "content": "The first error is a flaky integration test; re-run it once.", "times": -1}
]
JSON
gemini_env gemini-2.5-flash
lib="$HOME/.gemini/skills"
mkdir -p "$lib"
sr init --example "$lib"
must "$lib/.skillrepo/config.yaml" '^runtime: gemini$' "init did not detect Gemini CLI's runtime"
# Every turn is worth a review, and reviews start at once.
sed -i -e 's/^review:$/review:\n  defer: never/' -e 's/^  memory_interval: .*/  memory_interval: 1/' -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
sr -C "$lib" sync -m "config: reviews do not wait" >/dev/null
sr -C "$lib" memory add "Prefers short answers." --target user >/dev/null
cp "$HOME/.gemini/settings.json" "$E2E_DIR/settings.before.json"
# In a folder Gemini CLI does not trust, no hook runs: the install
# exits 5 with the fix. Trusted, both installs pass their checks.
sr_exit 5 "$E2E_DIR/untrusted.txt" hooks install --gemini
must "$E2E_DIR/untrusted.txt" '^hint: trust it when Gemini CLI asks' "the install's hint is not the fix"
gemini_trust "$E2E_PROJECT"
cd "$E2E_PROJECT"
sr hooks install --gemini 2>"$E2E_DIR/install.txt"
sr mcp install --gemini --allow-tools --library "$lib" 2>>"$E2E_DIR/install.txt"
sr doctor --agent gemini --verbose >"$E2E_DIR/doctor.txt" || fail "doctor finds problems: $(cat "$E2E_DIR/doctor.txt")"
must "$E2E_DIR/doctor.txt" '5 hook commands run as Gemini CLI runs them'
must "$E2E_DIR/doctor.txt" 'reviews run through .*gemini with the session'"'"'s model'
must "$E2E_DIR/doctor.txt" 'the MCP server starts and offers'

# activate_skill asks for consent, which a headless run can only give
# with --approval-mode yolo.
gemini -m "$GEMINI_MODEL" --approval-mode yolo -p "Use the ci-debugging skill: why does CI fail?" --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" 'flaky integration test' "the session's answer is not the fake's"
session=$(sed -n 's/.*"session_id": *"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json" | head -n 1)
[ -n "$session" ] || fail "no session id in the session's result"

# SessionStart gave the memory (Gemini CLI prepends it to the prompt).
grep -m 1 '"api":"gemini"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
must "$E2E_DIR/first-request.json" 'USER PROFILE \(who the user is\)' "the memory did not reach the model"
must "$E2E_DIR/first-request.json" 'Prefers short answers' "the memory did not reach the model"
# AfterTool counted the activation.
must "$lib/.usage.json" '"ci-debugging"' "no usage record"
grep -A 14 '"ci-debugging"' "$lib/.usage.json" | grep -q '"use_count": 1' || fail "activate_skill was not counted: $(cat "$lib/.usage.json")"
# The write through our MCP server is a commit naming Gemini CLI.
git -C "$lib" log --format='%s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" '^Agent: gemini-cli-mcp-client/' "the MCP write does not name Gemini CLI"
must "$E2E_DIR/log.txt" 'The user runs CI on every push|memory: add to user' "the MCP write is not there"

# AfterAgent queued a review of the session file; the worker ran it
# through gemini, which got only our tools, and it landed.
must "$(hooks_log "$lib")" 'gemini AfterAgent queued review' "AfterAgent queued no review"
landed() { git -C "$lib" log -1 --format=%B main | grep -q "Review-Id:"; }
wait_for 90 landed
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$E2E_DIR/log.txt" '^Model: gemini-2.5-flash$' "the review's commit does not name the session's model"
must "$E2E_DIR/log.txt" '^Skill-Origin: background-review$'
must "$lib/.memory/MEMORY.md" 'integration suite of this project is flaky' "the review's memory entry is not in MEMORY.md"
grep -m 1 '"api":"gemini".*is material to learn from' "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json"
must "$E2E_DIR/review-request.json" 'flaky integration test' "the review did not see the session's conversation"
sed -n 's/.*"tools":\[\(.*\)\],"generationConfig".*/\1/p' "$E2E_DIR/review-request.json" >"$E2E_DIR/review-tools.json"
must "$E2E_DIR/review-tools.json" '"name":"mcp_skillrepo_memory"' "the review was not offered our tools"
must_not "$E2E_DIR/review-tools.json" '"name":"(read_file|run_shell_command|glob|google_web_search|activate_skill|invoke_agent)"' "the review was offered Gemini CLI's built-in tools"
sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
must "$E2E_DIR/queue.json" '"format": ?"gemini"'
must "$E2E_DIR/queue.json" '"backend": ?"agent"'
must_not "$(hooks_log "$lib")" 'inside a review' "a hook fired inside the review's run"
# The review's run left nothing in the person's session history.
[ "$(find "$HOME/.gemini/tmp" -name 'session-*.jsonl' | wc -l)" -eq 1 ] || fail "the review's run left sessions behind: $(find "$HOME/.gemini/tmp" -name 'session-*')"

# Uninstalling gives the settings file back.
sr mcp uninstall --gemini >/dev/null 2>&1
sr hooks uninstall --gemini >/dev/null 2>&1
cmp "$HOME/.gemini/settings.json" "$E2E_DIR/settings.before.json" || fail "uninstall did not give settings.json back: $(diff "$E2E_DIR/settings.before.json" "$HOME/.gemini/settings.json")"
no_egress
