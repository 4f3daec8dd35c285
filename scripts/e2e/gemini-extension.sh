# Gemini CLI with skillrepo as an extension, set up the way a Gemini CLI
# user adds extensions: `gemini extensions link` of this repository's
# plugins/gemini (a clone's folder; `gemini extensions install` of the
# same folder copies it instead), no `skillrepo hooks install` or `mcp
# install`. A headless session against the fake fires the extension's
# hooks (the memory reaches the model, activate_skill is counted, the
# turn's end reaches skillrepo) and offers the extension's MCP tools, whose
# write lands as a commit naming Gemini CLI. Uninstalling leaves the
# settings as they were. Nothing but Gemini CLI's own statistics of the
# extension commands tries to leave the machine (see below).
need gemini
version=$(node -p 'require(process.argv[1]).version' "$E2E_ROOT/plugins/gemini/gemini-extension.json")
fake_start - <<'JSON'
[
  {"api": "gemini", "unless": "functionResponse", "tool_calls": [{"name": "activate_skill", "arguments": {"name": "ci-debugging"}}]},
  {"api": "gemini", "match": "activated_skill", "unless": "The user runs CI", "tool_calls": [{"name": "mcp_skillrepo_memory", "arguments": {"action": "add", "target": "user", "content": "The user runs CI on every push."}}]},
  {"api": "gemini", "content": "The first error is a flaky integration test; re-run it once.", "times": -1}
]
JSON
gemini_env gemini-2.5-flash
lib="$HOME/.gemini/skills"
mkdir -p "$lib"
sr init --example "$lib" >/dev/null
sr -C "$lib" memory add "Prefers short answers." --target user >/dev/null
# Gemini CLI runs hooks only in a folder the person trusted.
gemini_trust "$E2E_PROJECT"
cp "$HOME/.gemini/settings.json" "$E2E_DIR/settings.before.json"

cd "$E2E_PROJECT"
same_handlers gemini "$E2E_ROOT/plugins/gemini/hooks/hooks.json"
gemini extensions validate "$E2E_ROOT/plugins/gemini" >"$E2E_DIR/validate.txt" 2>&1 || fail "the extension does not validate: $(cat "$E2E_DIR/validate.txt")"
gemini extensions link "$E2E_ROOT/plugins/gemini" --consent >"$E2E_DIR/link.txt" 2>&1
gemini extensions list >"$E2E_DIR/extensions.txt" 2>&1
must "$E2E_DIR/extensions.txt" "skillrepo \\(${version//./\\.}\\)" "the extension is not listed"

cp "$E2E_DIR/sink.log" "$E2E_DIR/sink.before-session"
# activate_skill and the MCP tools ask for consent, which a headless run
# can only give with --approval-mode yolo.
gemini -m "$GEMINI_MODEL" --approval-mode yolo -p "Use the ci-debugging skill: why does CI fail?" --output-format json >"$E2E_DIR/session.json" 2>"$E2E_DIR/session.err"
must "$E2E_DIR/session.json" 'flaky integration test' "the session's answer is not the fake's"
cmp -s "$E2E_DIR/sink.log" "$E2E_DIR/sink.before-session" || fail "the session tried to reach the network: $(diff "$E2E_DIR/sink.before-session" "$E2E_DIR/sink.log")"

grep -m 1 '"api":"gemini"' "$E2E_DIR/model.log" >"$E2E_DIR/first-request.json"
# The extension's MCP tools were offered; SessionStart gave the memory.
must "$E2E_DIR/first-request.json" '"name":"mcp_skillrepo_memory"' "the extension's MCP tools were not offered"
must "$E2E_DIR/first-request.json" 'Prefers short answers' "the memory did not reach the model"
# AfterTool counted the activation.
[ "$(node -p 'require(process.argv[1])["ci-debugging"].use_count' "$lib/.usage.json")" = 1 ] || fail "activate_skill was not counted once: $(cat "$lib/.usage.json")"
# The write through the extension's MCP server is a commit naming Gemini CLI.
git -C "$lib" log --format='%s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" '^Agent: gemini-cli-mcp-client/' "the MCP write does not name Gemini CLI"
wait_for 10 grep -q 'gemini SessionEnd' "$(hooks_log "$lib")"
must "$(hooks_log "$lib")" 'gemini SessionStart' "SessionStart did not reach skillrepo"

# Without skillrepo on PATH the session still answers, its hooks exit 0
# (the MCP server does not start, which Gemini CLI reports and goes on).
PATH=${PATH#"$E2E_BIN:"} gemini -m "$GEMINI_MODEL" -p "Say hello." --output-format json >"$E2E_DIR/missing.json" 2>"$E2E_DIR/missing.err" || fail "the session without skillrepo failed: $(tail -n 5 "$E2E_DIR/missing.err")"
must "$E2E_DIR/missing.json" '"response"' "the session without skillrepo did not answer"
must_not "$E2E_DIR/missing.err" 'Hook execution failed|hook.*(failed|error)' "a hook failed without skillrepo"

gemini extensions uninstall skillrepo >"$E2E_DIR/uninstall.txt" 2>&1
gemini extensions list >"$E2E_DIR/extensions-after.txt" 2>&1
must_not "$E2E_DIR/extensions-after.txt" 'skillrepo' "the extension is still listed"
cmp "$HOME/.gemini/settings.json" "$E2E_DIR/settings.before.json" || fail "uninstalling changed settings.json: $(diff "$E2E_DIR/settings.before.json" "$HOME/.gemini/settings.json")"

# The release's assets (plugins/gemini/pack.sh), which `gemini extensions
# install https://github.com/skillrepo/skillrepo` downloads — this one the
# asset Gemini CLI picks for this machine, `<platform>.<arch>.…`, unpacked
# where it would unpack it, then installed from there (the download from
# GitHub itself cannot run offline).
"$E2E_ROOT/plugins/gemini/pack.sh" "$E2E_DIR/assets" >/dev/null
asset="$E2E_DIR/assets/$(node -p 'process.platform + "." + process.arch').skillrepo-gemini-extension.tar.gz"
[ -f "$asset" ] || fail "no release asset for this machine: $(ls "$E2E_DIR/assets")"
mkdir -p "$E2E_DIR/unpacked"
tar -xzf "$asset" -C "$E2E_DIR/unpacked"
# Installing from a folder asks to trust it first.
gemini_trust "$E2E_DIR/unpacked"
gemini extensions install "$E2E_DIR/unpacked" --consent </dev/null >"$E2E_DIR/install.txt" 2>&1 || fail "the release asset does not install: $(cat "$E2E_DIR/install.txt")"
gemini extensions list >"$E2E_DIR/extensions-asset.txt" 2>&1
must "$E2E_DIR/extensions-asset.txt" "skillrepo \\(${version//./\\.}\\)" "the extension from the release asset is not listed"
cmp "$HOME/.gemini/extensions/skillrepo/hooks/hooks.json" "$E2E_ROOT/plugins/gemini/hooks/hooks.json" || fail "the installed extension's hooks are not the repository's"
gemini extensions uninstall skillrepo >>"$E2E_DIR/uninstall.txt" 2>&1
cmp "$HOME/.gemini/settings.json" "$E2E_DIR/settings.before.json" || fail "uninstalling changed settings.json"
# `gemini extensions link|install|uninstall` (0.61) log an install event
# to Google's usage statistics (play.googleapis.com) even with
# privacy.usageStatisticsEnabled false: their logger is built without the
# setting. The sink refused it; nothing else tried to leave.
bad=$(grep -Ev '^CONNECT play\.googleapis\.com:443$' "$E2E_DIR/sink.log" || true)
[ -z "$bad" ] || fail "something beyond Gemini CLI's extension statistics tried to reach the network: $bad"
