# OpenCode's plugin module as OpenCode loads it: `hooks install --opencode`
# writes skillrepo.js in $XDG_CONFIG_HOME/opencode/plugins, and node loads
# it (an ES module whose exported function returns the hooks, as
# @opencode-ai/plugin 1.x types them), then calls its hooks with events
# shaped as OpenCode sends them: the session's start puts the memory into
# the system prompt, a prompt, the skill tool and a read of a SKILL.md are
# counted, the session going idle (its save and Stop awaited by the
# plugin's dispose, as `opencode run` ends) and its deletion reach
# skillrepo. No OpenCode program runs here: opencode-session runs it.
command -v node >/dev/null 2>&1 || skip "node is not installed: cannot load OpenCode's plugin module"
fake_start - <<'JSON'
[{"api": "chat", "content": "nothing to save", "times": -1}]
JSON
export SKILLREPO_MODEL=fake-model OPENAI_BASE_URL="$FAKE_OPENAI" OPENAI_API_KEY=e2e SKILLREPO_WORKER=off
lib="$XDG_CONFIG_HOME/opencode/skills"
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr -C "$lib" memory add --target user "Prefers short answers." >/dev/null
sr_exit 0 "$E2E_DIR/install.txt" hooks install --opencode
plugin="$XDG_CONFIG_HOME/opencode/plugins/skillrepo.js"
must "$E2E_DIR/install.txt" "wrote OpenCode's plugin $plugin"
# node takes a .js file for CommonJS without a package.json saying
# otherwise; OpenCode (Bun) loads it as the ES module it is.
cp "$plugin" "$E2E_DIR/skillrepo.mjs"
cd "$E2E_PROJECT"
node --input-type=module -e '
  const [file, project, lib] = process.argv.slice(1);
  const { SkillrepoPlugin } = await import(file);
  const sessionID = "ses_e2e0a1b2c3";
  // the client answers the messages of the session as the server of OpenCode does
  const text = (t) => ({ type: "text", text: t });
  const messages = [
    { info: { id: "msg_1", sessionID, role: "user" }, parts: [text("Use the ci-debugging skill: why does CI fail?")] },
    { info: { id: "msg_2", sessionID, role: "assistant", modelID: "fake-model", providerID: "fake", path: { cwd: project } },
      parts: [{ type: "step-start" }, { type: "tool", callID: "call_1", tool: "skill", state: { status: "completed", input: { name: "ci-debugging" }, output: "# CI debugging" } },
              { type: "step-start" }, text("Re-run the flaky test once.")] },
  ];
  const client = { session: { messages: async ({ path }) => ({ data: path.id === sessionID ? messages : [] }) } };
  const hooks = await SkillrepoPlugin({ client, directory: project, worktree: project });
  // OpenCode does not wait for the session start either: its first
  // system prompt comes at once, and waits for the memory.
  hooks.event({ event: { type: "session.created", properties: { info: { id: sessionID, directory: project, title: "e2e" } } } });
  const system = { system: ["You are OpenCode."] };
  await hooks["experimental.chat.system.transform"]({ sessionID, model: {} }, system);
  await hooks["chat.message"]({ sessionID, model: { providerID: "fake", modelID: "fake-model" } }, { message: {}, parts: [{ type: "text", text: "Use the ci-debugging skill: why does CI fail?" }] });
  await hooks["tool.execute.after"]({ tool: "skill", sessionID, callID: "call_1", args: { name: "ci-debugging" } }, { title: "", output: "", metadata: {} });
  await hooks["tool.execute.after"]({ tool: "read", sessionID, callID: "call_2", args: { filePath: lib + "/docker-cleanup/SKILL.md" } }, { title: "", output: "", metadata: {} });
  // OpenCode does not wait for an event handler, and `opencode run` ends
  // when the session is idle: it awaits only the dispose of the plugin.
  hooks.event({ event: { type: "session.idle", properties: { sessionID } } });
  await hooks.dispose();
  await hooks.event({ event: { type: "session.deleted", properties: { info: { id: sessionID } } } });
  console.log(JSON.stringify(system));
' "file://$E2E_DIR/skillrepo.mjs" "$E2E_PROJECT" "$lib" >"$E2E_DIR/system.json"
must "$E2E_DIR/system.json" 'Prefers short answers' "the session's memory did not reach the system prompt"
usage() { node -p 'const r = require(process.argv[1])[process.argv[2]] || {}; `${r.use_count || 0} ${r.view_count || 0}`' "$lib/.usage.json" "$1"; }
[ "$(usage ci-debugging)" = "1 0" ] || fail "the skill tool's load was not counted once: $(cat "$lib/.usage.json")"
[ "$(usage docker-cleanup)" = "1 1" ] || fail "the read of a SKILL.md was not counted: $(cat "$lib/.usage.json")"
log="$(hooks_log "$lib")"
# (the prompt and the tool calls log nothing when all goes well; the
# counts above are theirs)
for e in SessionStart SessionEnd; do
  must "$log" "opencode $e" "OpenCode's $e did not reach skillrepo"
done
# The idle session was written where skillrepo reads it, and Stop read
# it (one turn: no nudge due yet, and Stop logs nothing): SessionEnd finds
# its turn counted already.
session="${XDG_DATA_HOME:-$HOME/.local/share}/opencode/skillrepo/ses_e2e0a1b2c3.json"
[ -f "$session" ] || fail "the idle session was not written to $session"
must "$session" '"tool":"skill"'
must_not "$log" 'the session has no transcript' "Stop did not get the session's transcript"
must "$log" 'opencode SessionEnd no final review: no nudge is pending \(0 new turns' "Stop did not count the session's turn"
sr -C "$lib" review --session ses_e2e0a1b2c3 --dry-run >"$E2E_DIR/review.txt"
must "$E2E_DIR/review.txt" 'transcript: opencode, 4 messages, 1 user turn, 2 model iterations'
must_not "$log" 'error' "a hook failed"

# Without skillrepo where the module names it, every hook still returns.
sed 's#"command":"[^"]*"#"command":"/nonexistent/skillrepo"#' "$plugin" >"$E2E_DIR/missing.mjs"
node --input-type=module -e '
  const { SkillrepoPlugin } = await import(process.argv[1]);
  const hooks = await SkillrepoPlugin({ directory: process.argv[2] });
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_missing" } } } });
  await hooks["tool.execute.after"]({ tool: "skill", sessionID: "ses_missing", callID: "c", args: { name: "x" } }, {});
  await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_missing" } } });
  console.log("returned");
' "file://$E2E_DIR/missing.mjs" "$E2E_PROJECT" >"$E2E_DIR/missing.txt"
must "$E2E_DIR/missing.txt" '^returned$' "a hook did not return without skillrepo"

sr hooks uninstall --opencode 2>/dev/null
[ ! -e "$plugin" ] || fail "uninstall left the plugin"
