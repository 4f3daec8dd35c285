#!/usr/bin/env bash
# End-to-end runs of the REAL agent programs (Claude Code, Codex, Gemini CLI,
# OpenCode, GitHub Copilot CLI) with
# skillrepo's hooks and MCP server, against scripted model servers on
# 127.0.0.1 (internal/fakemodel: Anthropic Messages, OpenAI Responses and
# Google's streamGenerateContent, OpenAI chat completions, with
# server-sent events), each in a
# temporary HOME, behind a proxy that
# forwards nothing. `go test ./...` needs only Go and git; this script is
# what .ci/run runs after it.
#
# The programs come from npm (@anthropic-ai/claude-code, @openai/codex,
# @google/gemini-cli, opencode-ai, @github/copilot),
# installed into a cache folder outside the repository:
#   SKILLREPO_AGENTS_CACHE   the cache (default ${XDG_CACHE_HOME:-~/.cache}/skillrepo-agents)
#   SKILLREPO_AGENTS_BIN     a folder that already holds claude, codex, gemini, opencode and copilot: no install
#   SKILLREPO_E2E=off        skip everything
#   SKILLREPO_E2E_KEEP=1     keep each scenario's sandbox, and print where
#   E2E_JOBS=N               scenarios run N at a time (default 2; 1: one by one)
# When npm or the registry is not reachable, the script says so and exits 0
# (a skip is not a failure); a scenario whose program is missing is skipped
# the same way. Any scenario that runs and fails makes the exit code 1.
#
#   scripts/agents-e2e.sh [SCENARIO…]     scenarios are scripts/e2e/*.sh (default: all)
#
# opencode-plugin runs no agent program: it loads OpenCode's plugin module
# with node and skips, saying so, when node is missing. opencode-session
# runs OpenCode, whose skill tool lists a skill's files with ripgrep (rg;
# without it on PATH OpenCode downloads it from github.com): installed
# with apt-get when it is missing and apt can, else that scenario skips.
#
# Adding a scenario: see scripts/e2e/README.md.
set -euo pipefail
exec </dev/null
root=$(cd "$(dirname "$0")/.." && pwd)
e2e="$root/scripts/e2e"

if [ "${SKILLREPO_E2E:-}" = off ]; then
  echo "agents-e2e: skipped (SKILLREPO_E2E=off)"
  exit 0
fi

# Versions the scenarios were written against (docs/agents.md, "Verified
# with the real programs"); a newer release is a separate, deliberate bump.
claude_pkg="@anthropic-ai/claude-code@2.1.332"
codex_pkg="@openai/codex@0.169.1"
gemini_pkg="@google/gemini-cli@0.61.0"
opencode_pkg="opencode-ai@1.18.33"
copilot_pkg="@github/copilot@1.0.102"

bin_dir="${SKILLREPO_AGENTS_BIN:-}"
if [ -z "$bin_dir" ]; then
  cache="${SKILLREPO_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skillrepo-agents}"
  bin_dir="$cache/node_modules/.bin"
  if [ ! -x "$bin_dir/claude" ] || [ ! -x "$bin_dir/codex" ] || [ ! -x "$bin_dir/gemini" ] || [ ! -x "$bin_dir/opencode" ] || [ ! -x "$bin_dir/copilot" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "agents-e2e: SKIPPED: npm is not installed, so Claude Code, Codex, Gemini CLI, OpenCode and Copilot CLI cannot be installed"
      echo "  (install Node.js and npm, or point SKILLREPO_AGENTS_BIN at a folder holding claude, codex, gemini, opencode and copilot)"
      exit 0
    fi
    if ! timeout 20 npm view "$claude_pkg" version >/dev/null 2>&1; then
      echo "agents-e2e: SKIPPED: the npm registry is not reachable ($(npm config get registry))"
      exit 0
    fi
    echo "agents-e2e: installing $claude_pkg, $codex_pkg, $gemini_pkg, $opencode_pkg and $copilot_pkg into $cache" >&2
    mkdir -p "$cache"
    if ! (cd "$cache" && npm install --no-audit --no-fund --loglevel=error "$claude_pkg" "$codex_pkg" "$gemini_pkg" "$opencode_pkg" "$copilot_pkg" >"$cache/install.log" 2>&1); then
      echo "agents-e2e: FAILED to install the agent programs; see $cache/install.log" >&2
      exit 1
    fi
  fi
fi
export E2E_CLAUDE="$bin_dir/claude" E2E_CODEX="$bin_dir/codex" E2E_GEMINI="$bin_dir/gemini" E2E_OPENCODE="$bin_dir/opencode" E2E_COPILOT="$bin_dir/copilot"
if ! command -v rg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "agents-e2e: installing ripgrep with apt-get (OpenCode's skill tool runs rg)" >&2
  DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q --no-install-recommends ripgrep >/dev/null 2>&1 || true
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/skillrepo-e2e.XXXXXX")
cleanup() {
  # A worker may still be writing its last log line.
  local i
  for i in 1 2 3 4 5; do
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work" 2>/dev/null && return
    sleep 1
  done
  echo "agents-e2e: could not remove $work" >&2
}
[ -n "${SKILLREPO_E2E_KEEP:-}" ] || trap cleanup EXIT
echo "agents-e2e: building skillrepo and fakemodel" >&2
(cd "$root" && go build -o "$work/bin/skillrepo" ./cmd/skillrepo && go build -o "$work/bin/fakemodel" ./internal/fakemodel/cmd/fakemodel)
export E2E_BIN="$work/bin" E2E_ROOT="$root"

scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
  for f in "$e2e"/*.sh; do
    case "$(basename "$f")" in lib.sh) continue ;; esac
    scenarios+=("$(basename "$f" .sh)")
  done
fi

for name in "${scenarios[@]}"; do
  if [ ! -f "$e2e/$name.sh" ]; then
    echo "agents-e2e: no scenario $name ($e2e/$name.sh)" >&2
    exit 2
  fi
done

# run_one runs a scenario in its own sandbox (its own HOME, model server
# and library: nothing is shared between two of them) and leaves its exit
# code and time beside its output.
run_one() {
  local name=$1 dir="$work/$1" start=$SECONDS rc
  mkdir -p "$dir"
  set +e
  (
    set -euo pipefail
    export E2E_DIR="$dir" E2E_NAME="$name"
    # shellcheck source=e2e/lib.sh
    . "$e2e/lib.sh"
    e2e_sandbox
    # shellcheck disable=SC1090
    . "$e2e/$name.sh"
  ) >"$dir/output.log" 2>&1
  rc=$?
  set -e
  echo "$rc $((SECONDS - start))" >"$dir/result"
}

# Scenarios run E2E_JOBS at a time (default 2): most of a scenario's time
# is an agent program starting and a worker polled for, so two at once on
# two cores take little more than one; 1 runs them one by one, as when a
# time budget is under study.
jobs=${E2E_JOBS:-2}
running=0
for name in "${scenarios[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$name" &
  running=$((running + 1))
done
wait || true

pass=0 fail=0 skip=0
for name in "${scenarios[@]}"; do
  dir="$work/$name"
  read -r rc took <"$dir/result" 2>/dev/null || { rc=1 took=?; }
  case $rc in
    0) pass=$((pass + 1)); echo "PASS  $name (${took}s)" ;;
    3) skip=$((skip + 1)); echo "SKIP  $name: $(tail -n 1 "$dir/output.log")" ;;
    *) fail=$((fail + 1)); echo "FAIL  $name (${took}s); its output:"; sed 's/^/    /' "$dir/output.log" | tail -n 60 ;;
  esac
  [ -z "${SKILLREPO_E2E_KEEP:-}" ] || echo "      kept $dir"
done
echo "agents-e2e: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
