#!/usr/bin/env bash
# Benchmark: from the end of a REAL agent session to its review's merge
# commit on main, the review run two ways in the same run:
#   agent     nothing configured but the agent: the worker forks the
#             session through the same program (claude -p --resume
#             --fork-session, codex exec fork, gemini --resume), whose only
#             tools are ours over MCP;
#   endpoint  SKILLREPO_MODEL and OPENAI_BASE_URL set for the session: the
#             worker's in-process loop against the OpenAI-compatible
#             endpoint (an endpoint, when set, wins).
# Claude Code, Codex and Gemini CLI run headless in a temporary HOME
# against the scripted model server on loopback (internal/fakemodel,
# which answers at once), set up exactly as scripts/agents-e2e.sh sets
# them up (scripts/e2e/lib.sh): hooks installed, every turn worth a
# review (intervals 1), review.defer: never. Two clocks stop when the
# review's merge commit is on main (polled every 20 ms): one started when
# the agent program exits (what the person waits for after the session),
# one when it started (the session and the review: the same session both
# ways, so the backends' difference is the review's). The review is
# queued at the turn's end (Stop), before the program exits, so a fast
# review lands while the program is still shutting down. Fresh sandbox
# and model server per run. Prints each run and the medians per agent and
# backend, in milliseconds.
#
#   SKILLREPO_AGENTS_BIN=/path/to/node_modules/.bin bash bench/review-latency-agents.sh [runs] [claude|codex|gemini…]
#
# The programs are not installed here: without SKILLREPO_AGENTS_BIN (a
# folder holding claude, codex and gemini, as scripts/agents-e2e.sh
# installs them) the script says so and exits 0.
set -euo pipefail
exec </dev/null
runs=${1:-3}
shift || true
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(claude codex gemini)
# shellcheck source=agents-lib.sh
. "$(dirname "$0")/agents-lib.sh"
agents_bench review-latency-agents
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The review's create, as each backend names our tool, then its answer;
# the session's answer for everything else.
skill='{"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n"}]}'
script() { # API TOOLCALL
  cat <<JSON
[
  {"api": "chat", "match": "is material to learn from", "tool_calls": [{"name": "skill_manage", "arguments": $skill}]},
  {"api": "chat", "match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"api": "$1", "match": "is material to learn from", "tool_calls": [$2]},
  {"api": "$1", "match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"api": "$1", "unless": "is material to learn from", "content": "The test was flaky: it depended on map order; sorted, it passes 50 of 50 runs.", "times": -1}
]
JSON
}

# one AGENT BACKEND N: prints the milliseconds from the program's exit to
# the review's merge on main, and from the program's start to it.
one() {
  local agent=$1 backend=$2 n=$3
  (
    set -euo pipefail
    export E2E_DIR="$work/$agent-$backend-$n" E2E_NAME="$agent-$backend-$n"
    mkdir -p "$E2E_DIR"
    # shellcheck source=../scripts/e2e/lib.sh
    . "$root/scripts/e2e/lib.sh"
    e2e_sandbox
    need "$agent" >/dev/null
    case $agent in
      claude)
        script messages "{\"name\": \"mcp__skillrepo__skill_manage\", \"arguments\": $skill}" >"$E2E_DIR/model-script.json"
        fake_start "$E2E_DIR/model-script.json"
        claude_env
        agent_library claude-code >/dev/null 2>&1 ;;
      codex)
        script responses "{\"name\": \"skill_manage\", \"namespace\": \"mcp__skillrepo\", \"arguments\": $skill}" >"$E2E_DIR/model-script.json"
        fake_start "$E2E_DIR/model-script.json"
        codex_env gpt-bench
        agent_library codex >/dev/null 2>&1 ;;
      gemini)
        script gemini "{\"name\": \"mcp_skillrepo_skill_manage\", \"arguments\": $skill}" >"$E2E_DIR/model-script.json"
        fake_start "$E2E_DIR/model-script.json"
        gemini_env gemini-2.5-flash
        lib="$HOME/.gemini/skills"
        mkdir -p "$lib"
        sr init "$lib" >/dev/null 2>&1
        sr hooks install --gemini >/dev/null 2>&1
        gemini_trust "$E2E_PROJECT" ;;
    esac
    reviews_at_once 2>/dev/null
    if [ "$backend" = endpoint ]; then
      export SKILLREPO_MODEL=bench-model OPENAI_BASE_URL="$FAKE_OPENAI" OPENAI_API_KEY=bench-key
    fi
    cd "$E2E_PROJECT"
    prompt="The test TestOrder fails now and then; fix it."
    ts=$EPOCHREALTIME
    case $agent in
      claude) claude -p "$prompt" --output-format json >"$E2E_DIR/session.json" ;;
      codex) codex exec --json "$prompt" >"$E2E_DIR/session.jsonl" 2>"$E2E_DIR/session.err" ;;
      gemini) gemini -m "$GEMINI_MODEL" -p "$prompt" --output-format json >"$E2E_DIR/session.json" 2>"$E2E_DIR/session.err" ;;
    esac
    t0=$EPOCHREALTIME
    until git -C "$lib" log -1 --format=%B main | grep -q '^Review-Id:'; do
      if [ $(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000000 )) -gt 120 ]; then
        echo "$agent $backend run $n: no review landed in 120 s; hooks log:" >&2
        tail -n 5 "$lib/.git/skillrepo/logs/hooks.log" "$lib/.git/skillrepo/logs/worker.log" >&2 || true
        exit 1
      fi
      sleep 0.02
    done
    t1=$EPOCHREALTIME
    # The backend the worker used is the one meant.
    sr -C "$lib" queue list --json | grep -Eq "\"backend\": ?\"$backend\"" || { echo "$agent run $n: not reviewed through the $backend backend" >&2; exit 1; }
    echo "$(( (${t1/./} - ${t0/./}) / 1000 )) $(( (${t1/./} - ${ts/./}) / 1000 ))"
  )
}

for agent in "${agents[@]}"; do
  [ -x "$bin_dir/$agent" ] || { echo "$agent: not in $bin_dir, skipped"; continue; }
  for backend in agent endpoint; do
    : >"$work/$agent-$backend.t"
    : >"$work/$agent-$backend.w"
    for n in $(seq 1 "$runs"); do
      read -r ms whole < <(one "$agent" "$backend" "$n")
      echo "$agent $backend run $n: exit -> merged $ms ms; start -> merged $whole ms"
      echo "$ms" >>"$work/$agent-$backend.t"
      echo "$whole" >>"$work/$agent-$backend.w"
    done
  done
done
echo "review merged on main (scripted model answers at once; review.defer: never), median over $runs runs:"
echo "  agent   backend   program exit -> merged   program start -> merged"
for agent in "${agents[@]}"; do
  for backend in agent endpoint; do
    [ -s "$work/$agent-$backend.t" ] && printf '  %-7s %-9s %19d ms %22d ms\n' "$agent" "$backend" "$(median <"$work/$agent-$backend.t")" "$(median <"$work/$agent-$backend.w")"
  done
done
