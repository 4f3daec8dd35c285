# Claude Code with skillrepo as a plugin, installed the way a Claude Code
# user installs plugins: `claude plugin marketplace add` of this
# repository (its .claude-plugin/marketplace.json) and `claude plugin
# install skillrepo@skillrepo`, no `skillrepo hooks install`. A headless
# session against the fake fires the plugin's hooks (the memory reaches
# the model, a Skill load is counted, the turn's end reaches skillrepo),
# its MCP server is connected, its tools listed, and a call lands as a
# commit. Without skillrepo on
# PATH the session still succeeds and the person is told how to get it.
# Uninstalling gives the settings back (as JSON: Claude Code rewrites the
# file's layout). Nothing leaves the machine.
need claude
fake_start - <<'JSON'
[
  {"api": "messages", "match": "Use the ci-debugging skill", "unless": "tool_result", "tool_calls": [{"name": "Skill", "arguments": {"skill": "ci-debugging"}}]},
  {"api": "messages", "match": "Use the ci-debugging skill", "unless": "select:mcp__plugin", "tool_calls": [{"name": "ToolSearch", "arguments": {"query": "select:mcp__plugin_skillrepo_skillrepo__memory"}}]},
  {"api": "messages", "match": "Use the ci-debugging skill", "unless": "The user runs CI", "tool_calls": [{"name": "mcp__plugin_skillrepo_skillrepo__memory", "arguments": {"action": "add", "target": "user", "content": "The user runs CI on every push."}}]},
  {"api": "messages", "content": "The first error is a flaky integration test; re-run it once.", "times": -1}
]
JSON
claude_env
lib="$HOME/.claude/skills"
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null

# A settings file the person wrote, before the plugin: it lets `claude -p`
# call the plugin's MCP tools (without a rule it refuses them).
cat >"$HOME/.claude/settings.json" <<'SETTINGS'
{
  "model": "opus",
  "env": {"FOO": "1"},
  "permissions": {"allow": ["mcp__plugin_skillrepo_skillrepo"]}
}
SETTINGS
cp "$HOME/.claude/settings.json" "$E2E_DIR/settings.before.json"

claude plugin validate --strict "$E2E_ROOT" >"$E2E_DIR/validate-marketplace.txt" 2>&1 || fail "the marketplace does not validate: $(cat "$E2E_DIR/validate-marketplace.txt")"
claude plugin validate --strict "$E2E_ROOT/plugins/claude-code" >"$E2E_DIR/validate-plugin.txt" 2>&1 || fail "the plugin does not validate: $(cat "$E2E_DIR/validate-plugin.txt")"
same_handlers claude-code "$E2E_ROOT/plugins/claude-code/hooks/hooks.json"
claude plugin marketplace add "$E2E_ROOT" >"$E2E_DIR/marketplace-add.txt" 2>&1
claude plugin install skillrepo@skillrepo >"$E2E_DIR/install.txt" 2>&1
must "$E2E_DIR/install.txt" 'Successfully installed plugin: skillrepo@skillrepo'
claude plugin list --json >"$E2E_DIR/plugins.json" 2>&1 || claude plugin list >"$E2E_DIR/plugins.json" 2>&1
must "$E2E_DIR/plugins.json" 'skillrepo@skillrepo'

cd "$E2E_PROJECT"
claude -p "Use the ci-debugging skill: why does CI fail?" --output-format stream-json --verbose >"$E2E_DIR/session.jsonl"
grep '"type":"result"' "$E2E_DIR/session.jsonl" >"$E2E_DIR/result.json" || fail "the session has no result: $(tail -n 5 "$E2E_DIR/session.jsonl")"
must "$E2E_DIR/result.json" '"is_error":false' "the session did not succeed"
must "$E2E_DIR/result.json" 'flaky integration test' "the session's answer is not the fake's"
# The plugin's MCP server started and its tools are the session's.
grep -m 1 '"subtype":"init"' "$E2E_DIR/session.jsonl" >"$E2E_DIR/init.json"
must "$E2E_DIR/init.json" '"name":"plugin:skillrepo:skillrepo","status":"connected"' "the plugin's MCP server is not connected"
must "$E2E_DIR/init.json" '"mcp__plugin_skillrepo_skillrepo__memory"' "the plugin's MCP tools are not listed"
# The call through the plugin's MCP server landed as a commit naming
# the session and Claude Code.
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/result.json")
must "$lib/.memory/USER.md" 'The user runs CI on every push' "the MCP write did not land"
git -C "$lib" log -1 --format='%(trailers)' main >"$E2E_DIR/trailers.txt"
must "$E2E_DIR/trailers.txt" "^Session-Id: $session\$" "the MCP write does not name its session"
must "$E2E_DIR/trailers.txt" '^Agent: claude-code/' "the MCP write does not name Claude Code"
# SessionStart gave the memory to the first request.
grep -m 1 '"api":"messages"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
must "$E2E_DIR/first-request.json" 'Prefers short answers' "the memory did not reach the model"
# PostToolUse (matcher Skill) counted the load; Stop and SessionEnd ran.
wait_for 10 grep -q '"ci-debugging"' "$lib/.usage.json"
[ "$(node -p 'require(process.argv[1])["ci-debugging"].use_count' "$lib/.usage.json")" = 1 ] || fail "the Skill load was not counted once: $(cat "$lib/.usage.json")"
wait_for 10 grep -q 'claude-code SessionEnd' "$(hooks_log "$lib")"
must "$(hooks_log "$lib")" 'claude-code SessionStart' "SessionStart did not reach skillrepo"

# Without skillrepo on PATH: the session goes on, every hook exits 0, and
# the SessionStart check tells the person how to get it.
PATH=${PATH#"$E2E_BIN:"} claude -p "Say hello." --output-format stream-json --verbose >"$E2E_DIR/missing.jsonl"
grep '"type":"result"' "$E2E_DIR/missing.jsonl" >"$E2E_DIR/missing-result.json" || fail "the session without skillrepo has no result"
must "$E2E_DIR/missing-result.json" '"is_error":false' "the session without skillrepo failed"
must "$E2E_DIR/missing.jsonl" '"subtype":"hook_response".*npm install -g skillrepo' "the SessionStart check did not say how to get skillrepo"
must_not "$E2E_DIR/missing.jsonl" '"subtype":"hook_response".*"exit_code":[1-9]' "a hook failed without skillrepo"

# Uninstalling the plugin and removing the marketplace gives the
# person's settings back.
claude plugin uninstall skillrepo@skillrepo >"$E2E_DIR/uninstall.txt" 2>&1
claude plugin marketplace remove skillrepo >>"$E2E_DIR/uninstall.txt" 2>&1
# (Claude Code rewrites the file in its own layout, so the same settings,
# not the same bytes.)
same_settings "$E2E_DIR/settings.before.json" "$HOME/.claude/settings.json"
must "$E2E_DIR/uninstall.txt" 'Successfully removed marketplace: skillrepo'
[ "$(node -p 'Object.keys(require(process.argv[1]).plugins).length' "$HOME/.claude/plugins/installed_plugins.json")" = 0 ] || fail "the plugin is still recorded as installed: $(cat "$HOME/.claude/plugins/installed_plugins.json")"
no_egress
