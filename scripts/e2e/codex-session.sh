# Codex runs headless against the fake (Responses API) with skillrepo's
# hooks installed: the session answers, its hooks reach skillrepo, and
# nothing leaves the machine.
need codex
fake_start - <<'JSON'
[{"content": "Hello from the scripted model.", "times": -1}]
JSON
codex_env
agent_library codex
cd "$E2E_PROJECT"
# A hook runs only once trusted; the person trusts it in Codex's /hooks,
# a headless run says so per run.
codex exec --json --dangerously-bypass-hook-trust "Say hello." >"$E2E_DIR/session.jsonl"
must "$E2E_DIR/session.jsonl" '"type":"agent_message".*Hello from the scripted model' "the session's answer is not the fake's"
must "$E2E_DIR/model.log" '"path":"/v1/responses"' "Codex did not call the fake"
# SessionStart's detached sync writes its result to the hooks log.
wait_for 10 grep -q 'nothing to record' "$(hooks_log "$lib")"
wait_for 10 grep -q 'codex SessionEnd' "$(hooks_log "$lib")"
no_egress
