# Codex with skillrepo as a plugin, installed the way a Codex user installs
# plugins: `codex plugin marketplace add` of this repository (its
# .agents/plugins/marketplace.json) and `codex plugin add
# skillrepo@skillrepo`, no `skillrepo hooks install`. A headless session
# against the fake fires the plugin's hooks (the memory reaches the model,
# a SKILL.md read through the shell is counted, the session's end reaches
# skillrepo) and offers the plugin's MCP tools, once the hooks are
# trusted (`skillrepo hooks install --codex --trust`, as Codex's /hooks
# records it). Removing the plugin and the marketplace
# gives config.toml back (but for the hooks' trust, which Codex keeps).
# Nothing but Codex's own plugin
# catalogue sync tries to leave the machine (see below).
need codex
version=$(node -p 'require(process.argv[1]).version' "$E2E_ROOT/plugins/codex/.codex-plugin/plugin.json")
lib="$HOME/.agents/skills"
fake_start - <<JSON
[
  {"api": "responses", "match": "ci-debugging", "unless": "function_call_output", "tool_calls": [{"id": "call_0", "name": "exec_command", "arguments": {"cmd": "cat $lib/ci-debugging/SKILL.md"}}]},
  {"api": "responses", "content": "The first error is a flaky integration test; re-run it once.", "times": -1}
]
JSON
codex_env
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null
# codex_env turns Codex's plugins off; this scenario is about a plugin.
sed -i 's/^plugins = false$/plugins = true/' "$CODEX_HOME/config.toml"
cp "$CODEX_HOME/config.toml" "$E2E_DIR/config.before.toml"

same_handlers codex "$E2E_ROOT/plugins/codex/hooks/hooks.json"
codex plugin marketplace add "$E2E_ROOT" >"$E2E_DIR/marketplace-add.txt" 2>&1
must "$E2E_DIR/marketplace-add.txt" 'Added marketplace `skillrepo`'
codex plugin add skillrepo@skillrepo >"$E2E_DIR/install.txt" 2>&1
must "$E2E_DIR/install.txt" 'Added plugin `skillrepo`'
codex plugin list >"$E2E_DIR/plugins.txt" 2>&1
must "$E2E_DIR/plugins.txt" "^skillrepo@skillrepo +installed, enabled +${version//./\\.} " "the plugin is not installed and enabled"

cd "$E2E_PROJECT"
# A plugin's hooks, like the person's own, run only once trusted: doctor
# says so, `hooks install --codex` (refused beside the plugin) says how,
# and `hooks install --codex --trust` records their trust as Codex's
# /hooks does: Codex's own list of hooks (codex_trust_hooks asks the
# app-server, as the TUI does) then has none left to trust.
if sr doctor --agent codex >"$E2E_DIR/doctor-untrusted.txt"; then fail "doctor passed the plugin's untrusted hooks"; fi
must "$E2E_DIR/doctor-untrusted.txt" 'hooks of the plugin skillrepo@skillrepo' "doctor did not name the plugin's untrusted hooks"
sr_exit 1 "$E2E_DIR/refused.txt" hooks install --codex
must "$E2E_DIR/refused.txt" 'hint: to trust the plugin.s hooks .*: skillrepo hooks install --codex --trust' "the refusal did not say how to trust the plugin's hooks"
sr_exit 0 "$E2E_DIR/trust.txt" hooks install --codex --trust
must "$E2E_DIR/trust.txt" "recorded Codex's trust of 5 hooks of the plugin skillrepo@skillrepo"
[ ! -e "$CODEX_HOME/hooks.json" ] || fail "--trust beside the plugin installed hooks.json too"
codex_trust_hooks "$E2E_PROJECT" >"$E2E_DIR/left-to-trust.txt"
! grep -q . "$E2E_DIR/left-to-trust.txt" || fail "Codex does not take skillrepo's trust of the plugin's hooks; it still lists: $(cat "$E2E_DIR/left-to-trust.txt")"
codex exec --json "Use the ci-debugging skill: why does CI fail?" >"$E2E_DIR/session.jsonl" 2>"$E2E_DIR/session.err"
must "$E2E_DIR/session.jsonl" '"type":"agent_message".*flaky integration test' "the session's answer is not the fake's"
must "$E2E_DIR/session.jsonl" '"type":"command_execution".*"exit_code":0' "the session's shell read of the skill failed"
# The plugin's MCP server's tools were offered to the model.
grep -m 1 '"api":"responses"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
must "$E2E_DIR/first-request.json" '"name":"mcp__skillrepo"' "the plugin's MCP tools were not offered"
must "$E2E_DIR/first-request.json" '"name":"skill_manage"' "the plugin's MCP tools were not offered"
# SessionStart gave the memory to the first request.
must "$E2E_DIR/first-request.json" 'Prefers short answers' "the memory did not reach the model"
# PostToolUse (matcher Bash) counted the read; SessionEnd ran.
wait_for 10 grep -q '"ci-debugging"' "$lib/.usage.json"
[ "$(node -p 'require(process.argv[1])["ci-debugging"].use_count' "$lib/.usage.json")" = 1 ] || fail "the SKILL.md read was not counted once: $(cat "$lib/.usage.json")"
wait_for 10 grep -q 'codex SessionEnd' "$(hooks_log "$lib")"
must "$(hooks_log "$lib")" 'codex SessionStart' "SessionStart did not reach skillrepo"

# Without skillrepo on PATH the session still answers and no hook fails
# (the MCP server does not start, which Codex reports and goes on).
PATH=${PATH#"$E2E_BIN:"} codex exec --json "Say hello." >"$E2E_DIR/missing.jsonl" 2>"$E2E_DIR/missing.err" || fail "the session without skillrepo failed: $(tail -n 5 "$E2E_DIR/missing.err")"
must "$E2E_DIR/missing.jsonl" '"type":"agent_message"' "the session without skillrepo did not answer"
must_not "$E2E_DIR/missing.jsonl" '"type":"hook.*"status":"failed"' "a hook failed without skillrepo"

# Removing the plugin and the marketplace gives config.toml back, but for
# the trust of the plugin's hooks, which Codex keeps (keyed by the plugin's
# id; the person's own, like any hooks.state entry).
codex plugin remove skillrepo@skillrepo >"$E2E_DIR/uninstall.txt" 2>&1
codex plugin marketplace remove skillrepo >>"$E2E_DIR/uninstall.txt" 2>&1
must "$E2E_DIR/uninstall.txt" 'Removed plugin `skillrepo`'
awk '/^\[hooks\.state(\]|\."skillrepo@skillrepo:)/ { skip = 1; next } /^\[/ { skip = 0 } !skip' "$CODEX_HOME/config.toml" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$E2E_DIR/config.after.toml"
cmp "$E2E_DIR/config.after.toml" "$E2E_DIR/config.before.toml" || fail "removing the plugin did not give config.toml back: $(diff "$E2E_DIR/config.before.toml" "$CODEX_HOME/config.toml")"

# With plugins on, Codex syncs its own curated plugin catalogue (git and
# HTTPS to github.com, an export from chatgpt.com) whatever the plugin;
# the sink refused those. Nothing else tried to leave.
bad=$(grep -Ev '^CONNECT (github\.com|api\.github\.com|chatgpt\.com):443$' "$E2E_DIR/sink.log" || true)
[ -z "$bad" ] || fail "the session tried to reach the network beyond Codex's plugin catalogue: $bad"
