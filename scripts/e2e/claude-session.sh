# Claude Code runs headless against the fake with skillrepo's hooks
# installed: the session answers, SessionStart and SessionEnd reach
# skillrepo, and nothing leaves the machine.
need claude
fake_start - <<'JSON'
[{"content": "Hello from the scripted model.", "times": -1}]
JSON
claude_env
agent_library claude-code
cd "$E2E_PROJECT"
claude -p "Say hello." --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
must "$E2E_DIR/session.json" 'Hello from the scripted model' "the session's answer is not the fake's"
must "$E2E_DIR/model.log" '"path":"/v1/messages"' "Claude Code did not call the fake"
wait_for 10 grep -q SessionEnd "$(hooks_log "$lib")"
# SessionStart's detached sync writes its result to the hooks log.
wait_for 10 grep -q 'nothing to record' "$(hooks_log "$lib")"
no_egress
