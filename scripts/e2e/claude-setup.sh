# Claude Code set up as a person would. The install edits only our
# entries of a hand-written settings.json (uninstall gives the file back
# byte for byte); the first session start after init records an edit made
# outside skillrepo; the hooks log has only stamped lines. The MCP server
# installed without --allow-tools: `claude -p` refuses its tools (and
# still exits 0), as install and doctor said; with --allow-tools, once the
# workspace is trusted, the same call lands a commit whose trailers name
# the session and the tool call.
# Nothing leaves the machine.
need claude
fake_start - <<'JSON'
[
  {"api": "messages", "match": "RUN-ONE", "tool_calls": [{"name": "ToolSearch", "arguments": {"query": "select:mcp__skillrepo__memory"}}]},
  {"api": "messages", "match": "RUN-ONE", "tool_calls": [{"name": "mcp__skillrepo__memory", "arguments": {"action": "add", "target": "user", "content": "Runs CI on every push."}}]},
  {"api": "messages", "match": "RUN-ONE", "content": "I could not save that."},
  {"api": "messages", "match": "RUN-TWO", "tool_calls": [{"name": "ToolSearch", "arguments": {"query": "select:mcp__skillrepo__memory"}}]},
  {"api": "messages", "match": "RUN-TWO", "tool_calls": [{"name": "mcp__skillrepo__memory", "arguments": {"action": "add", "target": "user", "content": "Runs CI on every push."}}]},
  {"api": "messages", "match": "RUN-TWO", "content": "Saved."},
  {"api": "messages", "content": "Hello.", "times": -1}
]
JSON
claude_env
lib="$HOME/.claude/skills"
mkdir -p "$lib"
sr init --example "$lib"
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null

# A settings file written by hand: one-line objects, a multi-line list.
cat >"$HOME/.claude/settings.json" <<'SETTINGS'
{
  "model": "opus",
  "env": {"FOO": "1"},
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]
  },
  "permissions": {
    "deny": [
      "Bash(rm -rf *)"
    ]
  }
}
SETTINGS
cp "$HOME/.claude/settings.json" "$E2E_DIR/settings.before.json"
sr hooks install --claude-code 2>"$E2E_DIR/install.txt"
must "$HOME/.claude/settings.json" '^  "env": \{"FOO": "1"\},$' "the install rewrote a line it does not own"
must "$HOME/.claude/settings.json" '^      "Bash\(rm -rf \*\)"$' "the install rewrote a list it does not own"
sr hooks uninstall --claude-code 2>/dev/null
cmp "$HOME/.claude/settings.json" "$E2E_DIR/settings.before.json" || fail "uninstall did not give settings.json back: $(diff "$E2E_DIR/settings.before.json" "$HOME/.claude/settings.json")"
sr hooks install --claude-code 2>"$E2E_DIR/install.txt"

# An edit made outside skillrepo, before the first session.
mkdir -p "$lib/outside-edit"
printf -- '---\nname: outside-edit\ndescription: Use when checking that outside edits are recorded.\n---\n# Outside edit\n\nWritten by hand.\n' >"$lib/outside-edit/SKILL.md"

cd "$E2E_PROJECT"
claude -p "Say hello." --output-format json >"$E2E_DIR/hello.json"
must "$E2E_DIR/hello.json" '"is_error":false' "the session did not succeed"
recorded() { git -C "$lib" log --name-only --format=%s main | grep -q '^outside-edit/SKILL.md$'; }
wait_for 20 recorded
# SessionStart's memory reached the first request.
grep -m 1 '"api":"messages"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
must "$E2E_DIR/first-request.json" 'Prefers short answers' "the memory did not reach the model"
wait_for 10 grep -q 'claude-code SessionEnd' "$(hooks_log "$lib")"
bad=$(grep -Ev '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z claude-code [A-Za-z]+ ' "$(hooks_log "$lib")" || true)
[ -z "$bad" ] || fail "hooks.log lines without a stamp and an event: $bad"

# The MCP server, tools not allowed: install and doctor say so, and
# claude -p refuses the call.
sr mcp install --claude-code --library "$lib" 2>"$E2E_DIR/mcp-install.txt"
must "$E2E_DIR/mcp-install.txt" "run again with --allow-tools to add \"mcp__skillrepo\" to permissions.allow" "mcp install did not say how tools are permitted"
sr doctor --agent claude-code >"$E2E_DIR/doctor.txt" || true
must "$E2E_DIR/doctor.txt" 'no permissions.allow rule names mcp__skillrepo' "doctor did not warn of the missing permission"
claude -p "RUN-ONE: remember that I run CI on every push." --output-format json >"$E2E_DIR/run-one.json"
grep '"api":"messages".*RUN-ONE' "$E2E_DIR/model.log" | tail -n 1 >"$E2E_DIR/run-one-last.json"
must "$E2E_DIR/run-one-last.json" "haven't granted it yet" "claude -p did not refuse the tool: the scenario's premise changed"
must_not "$lib/.memory/USER.md" 'Runs CI on every push' "a refused call wrote"

# With --allow-tools, in a workspace the person trusted (Claude Code
# ignores a project's permission rules before: install and doctor say
# so), the same call lands, naming the session and the call.
sr_exit 5 "$E2E_DIR/mcp-allow.txt" mcp install --claude-code --library "$lib" --allow-tools
must "$E2E_DIR/mcp-allow.txt" 'allowed the tools: "mcp__skillrepo" in permissions.allow' "--allow-tools did not add the rule"
must "$E2E_DIR/mcp-allow.txt" 'Claude Code ignores a project.s permission rules until you trust the workspace' "the install did not say the workspace must be trusted"
claude_trust "$E2E_PROJECT"
sr doctor --agent claude-code >"$E2E_DIR/doctor-trusted.txt" || fail "doctor finds problems: $(cat "$E2E_DIR/doctor-trusted.txt")"
claude -p "RUN-TWO: remember that I run CI on every push." --output-format json >"$E2E_DIR/run-two.json"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/run-two.json")
[ -n "$session" ] || fail "no session id in the session's result"
must "$lib/.memory/USER.md" 'Runs CI on every push' "the allowed call did not write"
git -C "$lib" log -1 --format='%(trailers)' main >"$E2E_DIR/trailers.txt"
must "$E2E_DIR/trailers.txt" "^Session-Id: $session\$" "the MCP write does not name its session"
must "$E2E_DIR/trailers.txt" '^Tool-Use-Id: toolu_' "the MCP write does not name its tool call"
must "$E2E_DIR/trailers.txt" '^Agent: claude-code/' "the MCP write does not name Claude Code"
no_egress
