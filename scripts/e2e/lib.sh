# Helpers of the end-to-end scenarios (sourced by scripts/agents-e2e.sh in
# a subshell per scenario, with set -euo pipefail). See README.md here.
#
# Set by the driver: E2E_DIR (this scenario's folder), E2E_NAME, E2E_BIN
# (skillrepo and fakemodel), E2E_ROOT (the repository), E2E_CLAUDE,
# E2E_CODEX, E2E_GEMINI, E2E_OPENCODE and E2E_COPILOT (the programs; maybe
# missing).

# e2e_sandbox makes the scenario's world: a temporary HOME with nothing of
# the person running the tests, git identity, a project folder (a git
# repository, as agents expect), PATH with skillrepo and the agent
# programs, and none of the model variables of the outside environment.
e2e_sandbox() {
  export HOME="$E2E_DIR/home"
  export XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache" XDG_DATA_HOME="$HOME/.local/share" XDG_STATE_HOME="$HOME/.local/state"
  export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="E2E Person" GIT_AUTHOR_EMAIL=e2e@example.com
  export GIT_COMMITTER_NAME="E2E Person" GIT_COMMITTER_EMAIL=e2e@example.com NO_COLOR=1
  local v
  for v in $(env | sed -n 's/^\(OPENAI_[A-Z_]*\|ANTHROPIC_[A-Z_]*\|SKILLREPO_[A-Z_]*\|CLAUDE_[A-Z_]*\|CODEX_[A-Z_]*\|GEMINI_[A-Z_]*\|GOOGLE_[A-Z_]*\|OPENCODE_[A-Z_]*\|COPILOT_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
  done
  unset HTTPS_PROXY HTTP_PROXY https_proxy http_proxy ALL_PROXY all_proxy NO_PROXY no_proxy
  # A worker a hook starts exits soon after the queue is empty, not a
  # minute later, so the sandbox can go.
  export SKILLREPO_WORKER_IDLE=1s
  # Every session here is headless (claude -p, codex exec, gemini -p),
  # which skillrepo does not review unless asked: these are reviewed.
  export SKILLREPO_REVIEW=on
  mkdir -p "$HOME" "$E2E_DIR/agentbin"
  git config --global init.defaultBranch main
  E2E_PROJECT="$E2E_DIR/project"
  mkdir -p "$E2E_PROJECT"
  git -C "$E2E_PROJECT" init -q
  [ -x "${E2E_CLAUDE:-}" ] && ln -sf "$E2E_CLAUDE" "$E2E_DIR/agentbin/claude"
  [ -x "${E2E_CODEX:-}" ] && ln -sf "$E2E_CODEX" "$E2E_DIR/agentbin/codex"
  [ -x "${E2E_GEMINI:-}" ] && ln -sf "$E2E_GEMINI" "$E2E_DIR/agentbin/gemini"
  [ -x "${E2E_OPENCODE:-}" ] && ln -sf "$E2E_OPENCODE" "$E2E_DIR/agentbin/opencode"
  [ -x "${E2E_COPILOT:-}" ] && ln -sf "$E2E_COPILOT" "$E2E_DIR/agentbin/copilot"
  export PATH="$E2E_BIN:$E2E_DIR/agentbin:$(dirname "$(command -v node 2>/dev/null || echo /usr/bin/node)"):/usr/bin:/bin"
  E2E_PIDS=()
  trap e2e_stop EXIT
  # A command that fails under set -e says which, instead of a silent end.
  set -E
  trap 'echo "FAILED: this command failed (status $?): $BASH_COMMAND" >&2' ERR
}

e2e_stop() {
  local p
  for p in "${E2E_PIDS[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
}

# skip REASON: the scenario cannot run here (the driver reports SKIP).
skip() { echo "$*"; exit 3; }

# fail MESSAGE: the scenario failed.
fail() { echo "FAILED: $*" >&2; exit 1; }

# sr_exit CODE FILE ARGS…: run skillrepo with its stderr in FILE; it must
# exit with CODE (5: an install whose set-up the agent will not run yet).
sr_exit() {
  local want=$1 file=$2 rc=0
  shift 2
  sr "$@" 2>"$file" || rc=$?
  [ "$rc" = "$want" ] || fail "skillrepo $* exited $rc, not $want: $(cat "$file")"
}

# need PROGRAM…: skip unless each agent program (claude, codex, gemini,
# opencode, copilot) is
# there.
need() {
  local p
  for p in "$@"; do
    [ -x "$E2E_DIR/agentbin/$p" ] || skip "$p is not installed"
  done
}

sr() { "$E2E_BIN/skillrepo" "$@"; }

# fake_start SCRIPT: serve a fakemodel script (a file, or - for standard
# input) for the rest of the scenario, and route every proxied request to
# a sink that forwards nothing. Sets FAKE_OPENAI (…/v1, for OpenAI
# clients) and FAKE_ANTHROPIC (the root, for ANTHROPIC_BASE_URL); the
# request log is $E2E_DIR/model.log, the sink's $E2E_DIR/sink.log.
fake_start() {
  local script="$1"
  if [ "$script" = - ]; then
    script="$E2E_DIR/model.json"
    cat >"$script"
  fi
  : >"$E2E_DIR/sink.log"
  "$E2E_BIN/fakemodel" -log "$E2E_DIR/model.log" -sink "$E2E_DIR/sink.log" "$script" >"$E2E_DIR/fake.urls" 2>"$E2E_DIR/fake.err" &
  E2E_PIDS+=($!)
  local i
  for i in $(seq 100); do
    [ "$(wc -l <"$E2E_DIR/fake.urls")" -ge 2 ] && break
    sleep 0.05
  done
  FAKE_OPENAI=$(sed -n 1p "$E2E_DIR/fake.urls")
  FAKE_ANTHROPIC=${FAKE_OPENAI%/v1}
  local sink
  sink=$(sed -n 2p "$E2E_DIR/fake.urls")
  [ -n "$FAKE_OPENAI" ] && [ -n "$sink" ] || fail "fakemodel did not start: $(cat "$E2E_DIR/fake.err")"
  export FAKE_OPENAI FAKE_ANTHROPIC
  export HTTPS_PROXY="$sink" HTTP_PROXY="$sink" https_proxy="$sink" http_proxy="$sink" ALL_PROXY="$sink"
  export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
}

# claude_env: Claude Code talks to the fake only (a dummy key, no
# telemetry, no update check).
claude_env() {
  export ANTHROPIC_BASE_URL="$FAKE_ANTHROPIC" ANTHROPIC_API_KEY=e2e-dummy-key
  export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1
}

# codex_env [MODEL]: Codex's provider is the fake (Responses API, a key
# in FAKE_CODEX_KEY), written into $CODEX_HOME/config.toml.
codex_env() {
  export CODEX_HOME="${CODEX_HOME:-$HOME/.codex}" FAKE_CODEX_KEY=e2e-dummy-key
  mkdir -p "$CODEX_HOME"
  # Codex also reaches for its plugin marketplace (github.com), its apps
  # and analytics (chatgpt.com) and updates; none of that is the model.
  cat >>"$CODEX_HOME/config.toml" <<TOML
model = "${1:-gpt-e2e}"
model_provider = "fake"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false

[model_providers.fake]
name = "fake"
base_url = "$FAKE_OPENAI"
env_key = "FAKE_CODEX_KEY"
wire_api = "responses"
TOML
}

# claude_trust DIR: accept Claude Code's workspace trust dialog for DIR, as
# the person does once in an interactive session (it records
# projects[DIR].hasTrustDialogAccepted in ~/.claude.json); without it
# Claude Code ignores the permission rules of DIR's .claude/ settings.
claude_trust() {
  node -e '
    const fs = require("fs"), p = process.argv[1], dir = process.argv[2];
    let c = {}; try { c = JSON.parse(fs.readFileSync(p, "utf8")); } catch (e) {}
    c.projects = c.projects || {}; c.projects[dir] = Object.assign(c.projects[dir] || {}, {hasTrustDialogAccepted: true});
    fs.writeFileSync(p, JSON.stringify(c, null, 2));
  ' "$HOME/.claude.json" "$1"
}

# gemini_env [MODEL]: Gemini CLI talks to the fake (Google's API at
# GOOGLE_GEMINI_BASE_URL with a dummy GEMINI_API_KEY; the API-key sign-in
# chosen and usage statistics off in ~/.gemini/settings.json, which
# skillrepo's installs then edit). GEMINI_MODEL names the model for -m
# (an explicit model also skips Gemini CLI's model router).
gemini_env() {
  export GEMINI_API_KEY=e2e-dummy-key GOOGLE_GEMINI_BASE_URL="$FAKE_ANTHROPIC" GEMINI_MODEL="${1:-gemini-2.5-flash}"
  mkdir -p "$HOME/.gemini"
  [ -f "$HOME/.gemini/settings.json" ] || cat >"$HOME/.gemini/settings.json" <<'JSON'
{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false}
}
JSON
}

# opencode_env [MODEL]: OpenCode talks to the fake only: a provider
# "fake" through its bundled OpenAI-compatible client (chat completions,
# streamed) at $FAKE_OPENAI, the session's model and the small one (its
# titles) both fake/MODEL, in $XDG_CONFIG_HOME/opencode/opencode.json;
# the models.dev catalogue and the update check off. OpenCode also puts
# @opencode-ai/plugin into each config folder with npm at start unless
# the folder's package-lock.json lists it: the lock of a machine where
# OpenCode ran once online is written here, so that install is not
# tried (offline it fails, logs a warning and OpenCode runs on).
opencode_env() {
  local dir="$XDG_CONFIG_HOME/opencode"
  mkdir -p "$dir/node_modules"
  cat >"$dir/opencode.json" <<JSON
{
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/${1:-fake-model}",
  "small_model": "fake/${1:-fake-model}",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "fake",
      "options": {"baseURL": "$FAKE_OPENAI", "apiKey": "e2e-dummy-key"},
      "models": {"${1:-fake-model}": {"name": "fake", "tool_call": true}}
    }
  }
}
JSON
  echo '{"name": "", "lockfileVersion": 3, "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}' >"$dir/package-lock.json"
  echo '{"dependencies": {"@opencode-ai/plugin": "*"}}' >"$dir/package.json"
  export OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1
}

# copilot_env [MODEL]: Copilot CLI talks to the fake only, with no GitHub
# sign-in: its own-provider mode (COPILOT_PROVIDER_BASE_URL, chat
# completions, streamed) and COPILOT_OFFLINE, which keeps it from GitHub's
# servers and turns its telemetry off.
copilot_env() {
  export COPILOT_PROVIDER_BASE_URL="$FAKE_OPENAI" COPILOT_PROVIDER_API_KEY=e2e-dummy-key COPILOT_MODEL="${1:-fake-model}" COPILOT_OFFLINE=true
  export COPILOT_HOME="$HOME/.copilot"
  unset GH_TOKEN GITHUB_TOKEN
}

# gemini_trust DIR: trust DIR as the person does in Gemini CLI's trust
# dialog (~/.gemini/trustedFolders.json, beside the folders trusted
# before); it runs no hook elsewhere, and installs an extension from a
# folder only once it is trusted.
gemini_trust() {
  node -e '
    const fs = require("fs"), [p, dir] = process.argv.slice(1);
    let t = {}; try { t = JSON.parse(fs.readFileSync(p, "utf8")); } catch (e) {}
    t[dir] = "TRUST_FOLDER";
    fs.writeFileSync(p, JSON.stringify(t, null, 2) + "\n");
  ' "$HOME/.gemini/trustedFolders.json" "$1"
}

# must FILE PATTERN [WHAT]: FILE holds a line matching the extended regexp.
must() {
  grep -Eq -- "$2" "$1" 2>/dev/null || fail "${3:-$1 does not match $2}; $1 is:
$(tail -n 40 "$1" 2>/dev/null)"
}

# must_not FILE PATTERN [WHAT]: no line of FILE matches.
must_not() {
  if grep -Eq -- "$2" "$1" 2>/dev/null; then
    fail "${3:-$1 matches $2}: $(grep -E -- "$2" "$1" | head -n 5)"
  fi
}

# no_egress: nothing tried to leave the machine through the proxy.
no_egress() {
  [ ! -s "$E2E_DIR/sink.log" ] || fail "the agent tried to reach the network: $(head -n 5 "$E2E_DIR/sink.log")"
}

# wait_for SECONDS COMMAND…: until COMMAND succeeds, or fail.
wait_for() {
  local limit=$1
  shift
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || fail "waited ${limit}s for: $*"
    sleep 0.2
  done
}

# model_requests API: how many requests of that protocol the fake got
# (messages, responses, chat).
model_requests() {
  if [ "$1" = chat ]; then
    grep -c '"messages"' "$E2E_DIR/model.log" 2>/dev/null | grep -v '"api"' || true
  else
    grep -c "\"api\":\"$1\"" "$E2E_DIR/model.log" 2>/dev/null || true
  fi
}

# hooks_log LIBRARY: the library's hooks log.
hooks_log() { echo "$1/.git/skillrepo/logs/hooks.log"; }

# agent_library AGENT: a library where AGENT (claude-code, codex) keeps
# its skills, with skillrepo's hooks installed; sets lib. Codex's hooks
# are installed trusted (--trust, as accepting them in /hooks does), so
# every Codex run started without --dangerously-bypass-hook-trust would
# fire them: the review's fork too, unless it turns them off.
agent_library() {
  case "$1" in
    claude-code) lib="$HOME/.claude/skills" ;;
    codex) lib="$HOME/.agents/skills" ;;
    *) fail "agent_library: no agent $1" ;;
  esac
  mkdir -p "$lib"
  sr init "$lib"
  if [ "$1" = codex ]; then
    sr hooks install --codex --trust
  else
    sr hooks install "--$1"
  fi
}

# reviews_at_once: every turn is worth a review (the nudge intervals at
# 1), and a review starts as soon as it is queued (the fake is on
# loopback, which review.defer: auto would treat as a local model to
# wait for).
reviews_at_once() {
  sed -i -e 's/^review:$/review:\n  defer: never/' -e 's/^  memory_interval: .*/  memory_interval: 1/' \
    -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
  sr -C "$lib" sync -m "config: every turn reviewed, at once" >/dev/null
}

# review_landed SESSION MODEL SKILL: a review of SESSION landed on main,
# its commit naming the session, the model and the skill it wrote.
review_landed() {
  landed() { git -C "$lib" log -1 --format=%B main | grep -q "Review-Id:"; }
  wait_for 60 landed
  git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
  must "$E2E_DIR/log.txt" "^Session-Id: $1\$" "the review's commit does not name the session"
  must "$E2E_DIR/log.txt" "^Model: $2\$" "the review's commit does not name the session's model"
  must "$E2E_DIR/log.txt" '^Skill-Origin: background-review$'
  must "$E2E_DIR/log.txt" "^Skill-Name: $3\$"
}

# review_request API PATTERN: the first request of protocol API whose body
# matches PATTERN (the review's), into $E2E_DIR/review-request.json.
review_request() {
  grep -m 1 "\"api\":\"$1\".*$2" "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json" || fail "no $1 request matches $2"
}

# one_agent_review AGENT: the session queued one review, run through the
# agent backend; the fork queued nothing and fired none of our hooks; no
# hook started two workers.
one_agent_review() {
  # The worker marks the entry done just after the review's commit lands:
  # a moment a loaded machine makes long.
  review_done() { sr -C "$lib" queue list --json | grep -Eq '"state": ?"done"'; }
  wait_for 30 review_done
  sr -C "$lib" queue list --json >"$E2E_DIR/queue.json"
  [ "$(grep -Eo '"id": ?"q-' "$E2E_DIR/queue.json" | wc -l)" -eq 1 ] || fail "more than the session's one review was queued: $(cat "$E2E_DIR/queue.json")"
  must "$E2E_DIR/queue.json" '"backend": ?"agent"'
  must "$E2E_DIR/queue.json" '"state": ?"done"'
  [ "$(grep -cE "$1 (Stop|SessionEnd) queued" "$(hooks_log "$lib")")" -eq 1 ] || fail "the session queued more than one review: $(cat "$(hooks_log "$lib")")"
  must_not "$(hooks_log "$lib")" 'inside a review' "a hook fired inside the review's fork"
  # Each hook starts one worker at most (SessionEnd queueing the final
  # review once started two).
  local twice
  twice=$(grep -Eo "$1 [A-Za-z]+ started a worker" "$(hooks_log "$lib")" | sort | uniq -d)
  [ -z "$twice" ] || fail "a hook started more than one worker: $twice"
}

# same_settings BEFORE AFTER: AFTER holds the same settings as BEFORE,
# as JSON: key order, layout and empty objects or lists left under keys
# BEFORE did not have aside (an agent's own plugin commands rewrite the
# file and leave "enabledPlugins": {} behind; docs/install.md says so).
same_settings() {
  node -e '
    const fs = require("fs");
    const [a, b] = process.argv.slice(1).map((p) => JSON.parse(fs.readFileSync(p, "utf8")));
    for (const k of Object.keys(b)) {
      const v = b[k];
      if (!(k in a) && v && typeof v === "object" && Object.keys(v).length === 0) delete b[k];
    }
    const norm = (v) => Array.isArray(v) ? v.map(norm) : v && typeof v === "object"
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm(v[k])])) : v;
    process.exit(JSON.stringify(norm(a)) === JSON.stringify(norm(b)) ? 0 : 1);
  ' "$1" "$2" || fail "$2 does not hold the settings of before: $(diff "$1" "$2")"
}

# same_handlers AGENT HOOKS_JSON: the plugin's hooks file runs, for each
# event, the handlers `skillrepo hooks install --AGENT` writes (the same
# matchers, timeouts, async and names; each command `hooks run AGENT
# <its event>`), so a plugin and an install never drift apart. Handlers
# that run something else (the Claude Code plugin's check that skillrepo
# is there) are left aside.
same_handlers() {
  sr hooks install "--$1" --dry-run >"$E2E_DIR/install-dry-run.json" 2>/dev/null
  node -e '
    const fs = require("fs");
    const [agent, installed, plugin] = process.argv.slice(1);
    const shape = (file) => {
      const out = [];
      for (const [event, groups] of Object.entries(JSON.parse(fs.readFileSync(file, "utf8")).hooks)) {
        for (const g of groups) for (const h of g.hooks) {
          if (!h.command.includes(" hooks run ")) continue;
          if (!h.command.includes(` hooks run ${agent} ${event} `)) throw new Error(`${file}: ${event} runs ${h.command}`);
          out.push(JSON.stringify([event, g.matcher || "", h.timeout || 0, !!h.async, h.name || ""]));
        }
      }
      return out.sort().join("\n");
    };
    const a = shape(installed), b = shape(plugin);
    if (a !== b) { console.error(`hooks install --${agent}:\n${a}\n${plugin}:\n${b}`); process.exit(1); }
  ' "$1" "$E2E_DIR/install-dry-run.json" "$2" || fail "$2 does not run the handlers hooks install --$1 writes"
}

# codex_trust_hooks DIR: trust every hook Codex lists for DIR, as a person
# does in Codex's /hooks: the TUI asks `codex app-server` for hooks/list
# and writes each hook's currentHash under hooks.state with
# config/batchWrite; this does the same two requests.
codex_trust_hooks() {
  node -e '
    const { spawn } = require("child_process");
    const cwd = process.argv[1];
    const p = spawn("codex", ["app-server"], { stdio: ["pipe", "pipe", "ignore"] });
    const send = (m) => p.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
    let buf = "";
    const timer = setTimeout(() => { console.error("codex app-server did not answer"); p.kill(); process.exit(1); }, 30000);
    p.stdout.on("data", (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i); buf = buf.slice(i + 1);
        let m; try { m = JSON.parse(line); } catch (e) { continue; }
        if (m.id === 1) {
          send({ method: "initialized" });
          send({ id: 2, method: "hooks/list", params: { cwds: [cwd] } });
        } else if (m.id === 2) {
          const value = {};
          for (const h of m.result.data[0].hooks) if (h.trustStatus !== "trusted") value[h.key] = { trusted_hash: h.currentHash };
          console.log(Object.keys(value).join("\n"));
          send({ id: 3, method: "config/batchWrite", params: { edits: [{ keyPath: "hooks.state", value, mergeStrategy: "upsert" }] } });
        } else if (m.id === 3) {
          clearTimeout(timer); p.kill();
          if (m.error) { console.error(JSON.stringify(m.error)); process.exit(1); }
        }
      }
    });
    send({ id: 1, method: "initialize", params: { clientInfo: { name: "skillrepo-e2e", version: "1" } } });
  ' "$1"
}
