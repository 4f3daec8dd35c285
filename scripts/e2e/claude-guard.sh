# The recursion guard with the real program: a Claude Code run started
# with SKILLREPO_IN_REVIEW set (as every run skillrepo starts is) fires our
# hooks, and they do nothing: no queue entry, no worker, only a note in
# the hooks log.
need claude
fake_start - <<'JSON'
[{"content": "Done.", "times": -1}]
JSON
claude_env
agent_library claude-code
cd "$E2E_PROJECT"
SKILLREPO_IN_REVIEW=1 claude -p "Say done." --output-format json >"$E2E_DIR/run.json"
must "$E2E_DIR/run.json" '"is_error":false'
wait_for 10 grep -q 'SessionEnd inside a review' "$(hooks_log "$lib")"
must "$(hooks_log "$lib")" 'SessionStart inside a review'
must_not "$(hooks_log "$lib")" 'queued|started a worker'
[ -z "$(ls "$lib/.git/skillrepo/queue" 2>/dev/null | grep '^q-')" ] || fail "the guarded run queued work"
no_egress
