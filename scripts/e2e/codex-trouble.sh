# A review that cannot land is told to the person, in Codex: the
# session's review fails (the provider refuses the review's request), and
# the next session's SessionStart hook answers with a systemMessage. Codex
# shows a hook's systemMessage to the person as a warning in its TUI;
# headless, `codex exec` prints only each hook's status, so what is
# checked here is that Codex took the answer as valid SessionStart output
# ("Completed"; output its schema rejects is "Failed"), and that the hook
# said it told the person. `skillrepo status` leads with the failure.
need codex
fake_start - <<'JSON'
[
  {"match": "is material to learn from", "status": 400, "error": "the review request was refused", "times": -1},
  {"content": "Done.", "times": -1}
]
JSON
codex_env gpt-e2e-model
agent_library codex
reviews_at_once
cd "$E2E_PROJECT"
codex exec --json "Fix the build." >"$E2E_DIR/first.jsonl"
failed() { sr -C "$lib" queue list --state failed --json | grep -q '"state": "failed"'; }
wait_for 60 failed

# The second session is a batch one (SKILLREPO_REVIEW=off): it is told
# all the same, and queues no review of its own whose failure would race
# with the status read below.
SKILLREPO_REVIEW=off codex exec "Hello again." >"$E2E_DIR/second.out" 2>"$E2E_DIR/second.err"
must "$(hooks_log "$lib")" 'codex SessionStart told the person: skillrepo: 1 review failed: .*400.*skillrepo queue retry q-.*skillrepo status' "SessionStart did not tell the person"
must "$E2E_DIR/second.err" '^hook: SessionStart Completed' "Codex did not take the hook's answer"
must_not "$E2E_DIR/second.err" 'hook: SessionStart (Failed|Stopped)' "Codex refused the hook's answer"
# A headless session not marked at all is not reviewed either: the
# agent says it runs headless.
env -u SKILLREPO_REVIEW codex exec "Bye." >"$E2E_DIR/third.out" 2>"$E2E_DIR/third.err"
must "$(hooks_log "$lib")" 'a headless session \(' "the headless session was not told apart"
sr -C "$lib" status >"$E2E_DIR/status.txt"
head -n 1 "$E2E_DIR/status.txt" | grep -q '^reviews: 1 review failed' || fail "status does not lead with the failure: $(head -n 3 "$E2E_DIR/status.txt")"
no_egress
