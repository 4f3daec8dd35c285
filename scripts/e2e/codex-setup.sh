# Codex set up as a person would, with CODEX_HOME moved: `hooks install
# --codex` writes $CODEX_HOME/hooks.json and says Codex has not trusted the
# hooks (doctor agrees), and indeed `codex exec` runs none of them; with
# --trust the trust is recorded as Codex computes it and the same `codex
# exec` (no --dangerously-bypass-hook-trust) runs them. Uses are counted
# per session (two sessions whose calls are both call_0 count twice),
# through the command's own cd; `codex exec resume` gets no second memory
# block. Nothing leaves the machine.
need codex
lib="$HOME/.agents/skills"
fake_start - <<JSON
[
  {"api": "responses", "match": "read the skill", "unless": "function_call_output", "tool_calls": [{"id": "call_0", "name": "exec_command", "arguments": {"cmd": "cd $lib/ci-debugging && cat SKILL.md"}}], "times": 2},
  {"api": "responses", "content": "The first error is a flaky test; re-run it once.", "times": -1}
]
JSON
export CODEX_HOME="$HOME/codex-home"
codex_env gpt-e2e
mkdir -p "$lib"
sr init --example "$lib"
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null
cd "$E2E_PROJECT"

# Written, but untrusted: the install exits 5 with the fix.
sr_exit 5 "$E2E_DIR/install.txt" hooks install --codex
must "$E2E_DIR/install.txt" '^hint: skillrepo hooks install --codex --trust' "the install's hint is not the fix"
must "$E2E_DIR/install.txt" "wrote 5 Codex hooks in $CODEX_HOME/hooks.json" "the install did not write \$CODEX_HOME/hooks.json"
must "$E2E_DIR/install.txt" "Codex has not trusted skillrepo's SessionStart, PostToolUse, UserPromptSubmit, Stop, SessionEnd hooks" "the install did not say the hooks are untrusted"
[ ! -e "$HOME/.codex/hooks.json" ] || fail "the install wrote ~/.codex/hooks.json although CODEX_HOME is set"
if sr doctor --agent codex >"$E2E_DIR/doctor-before.txt"; then fail "doctor passed untrusted hooks: $(cat "$E2E_DIR/doctor-before.txt")"; fi

# Untrusted: Codex runs none of them, without a word.
codex exec --json "Say hello." >"$E2E_DIR/untrusted.jsonl"
must "$E2E_DIR/untrusted.jsonl" 'flaky test' "the session did not run"
must_not "$(hooks_log "$lib")" 'codex SessionStart' "an untrusted hook ran"

# --trust records Codex's trust of exactly our hooks; now they run.
sr hooks install --codex --trust 2>"$E2E_DIR/trust.txt"
must "$E2E_DIR/trust.txt" "recorded Codex's trust of 5 hooks in $CODEX_HOME/config.toml"
must "$E2E_DIR/trust.txt" '✓ checked: Codex hooks will run it'
sr doctor --agent codex >"$E2E_DIR/doctor-after.txt" || fail "doctor finds problems after --trust: $(cat "$E2E_DIR/doctor-after.txt")"
codex exec --json "Please read the skill and say why CI fails." >"$E2E_DIR/first.jsonl"
must "$(hooks_log "$lib")" 'codex SessionStart' "a trusted hook did not run: the trust hash is not Codex's"
first=$(sed -n 's/.*"type":"thread.started","thread_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/first.jsonl")
# A second session: Codex numbers its call call_0 again.
codex exec --json "Please read the skill once more." >"$E2E_DIR/second.jsonl"
views() { sed -n '/"ci-debugging"/,/}/p' "$lib/.usage.json" | sed -n 's/.*"view_count": \([0-9]*\).*/\1/p'; }
[ "$(views)" = 2 ] || fail "two sessions reading the skill through cd counted $(views) views, want 2: $(cat "$lib/.usage.json")"

# Resuming the first session gives no second memory block.
codex exec resume "$first" --json "Go on." >"$E2E_DIR/resume.jsonl"
grep '"api":"responses"' "$E2E_DIR/model.log" | tail -n 1 >"$E2E_DIR/resume-request.json"
[ "$(grep -o 'USER PROFILE (who the user is)' "$E2E_DIR/resume-request.json" | wc -l)" -eq 1 ] || fail "the resumed session got its memory $(grep -o 'USER PROFILE (who the user is)' "$E2E_DIR/resume-request.json" | wc -l) times"
must "$(hooks_log "$lib")" 'codex SessionStart resumed session: its conversation holds its memory already'

# status says the same as doctor.
sr -C "$lib" status >"$E2E_DIR/status.txt"
must "$E2E_DIR/status.txt" '^Codex set-up: (ok|ok, [0-9]+ warnings?)$' "status does not say the Codex set-up works"
no_egress
