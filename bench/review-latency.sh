#!/usr/bin/env bash
# Benchmark: from the end of a session to its review's merge commit on
# main, through the hooks as an agent calls them: `skillrepo hooks run
# codex stop` (a nudge fires: the review is queued and a detached worker
# started) then `session-end`, exactly as a headless run ends; the worker
# reviews through an OpenAI-compatible endpoint on loopback (the
# project's scripted model server, which answers at once: a create, then
# the final answer), and merges. Two settings:
#   never    review.defer: never — the review starts as soon as it is queued;
#   default  review.defer left out (auto) — the endpoint is on loopback, so
#            the review waits for the agent to be quiet (review.defer_quiet,
#            15 s) as the reference does for a local model.
# Prints each run and the median per setting, in milliseconds.
#
#   bash bench/review-latency.sh [runs-never] [runs-default]
set -euo pipefail
runs_never=${1:-9}
runs_default=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; sleep 1; rm -rf "$work"; }
trap cleanup EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo && go build -o "$work/fakemodel" ./internal/fakemodel/cmd/fakemodel)
export HOME="$work" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=b@example.com
export SKILLREPO_MODEL=bench-model OPENAI_API_KEY=k SKILLREPO_WORKER_IDLE=1s
# The transcript is this script's file, outside the agent's own folders
# (hooks read transcripts only from those and $SKILLREPO_TRANSCRIPT_DIRS).
export SKILLREPO_TRANSCRIPT_DIRS="$work"
unset SKILLREPO_WORKER SKILLREPO_IN_REVIEW SKILLREPO_DEFER_QUIET
printf '[{"role":"user","content":"The deploy failed twice; fix it."},{"role":"assistant","content":"Fixed: the deploy needed the staging token refreshed first."}]\n' > "$work/chat.json"
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# one SETTING N: a fresh library and model server per run.
one() {
  local setting=$1 n=$2 lib="$work/lib-$1-$2"
  "$work/skillrepo" init --example "$lib" > /dev/null 2>&1
  sed -i -e 's/^  memory_interval: .*/  memory_interval: 1/' -e 's/^  skill_interval: .*/  skill_interval: 1/' "$lib/.skillrepo/config.yaml"
  if [ "$setting" = never ]; then sed -i 's/^review:$/review:\n  defer: never/' "$lib/.skillrepo/config.yaml"; fi
  git -C "$lib" commit -qam "bench settings"
  printf '[{"tool_calls":[{"name":"skill_manage","arguments":{"operations":[{"action":"create","name":"deploy-token-%s","content":"---\\nname: deploy-token-%s\\ndescription: Use when a deploy fails on an expired staging token.\\n---\\n# Deploy token\\n\\n1. Refresh the staging token before deploying.\\n"}]}}]},{"content":"Created the skill."}]\n' "$n" "$n" > "$work/model-$1-$2.json"
  "$work/fakemodel" "$work/model-$1-$2.json" > "$work/url-$1-$2" 2> /dev/null &
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$work/url-$1-$2" ] && break; sleep 0.05; done
  export OPENAI_BASE_URL=$(head -n 1 "$work/url-$1-$2")
  local base session="bench-$1-$2"
  base=$(git -C "$lib" rev-parse main)
  local t0
  t0=$(now)
  printf '{"session_id":"%s","hook_event_name":"Stop","transcript_path":"%s","cwd":"%s","last_assistant_message":"Fixed."}\n' "$session" "$work/chat.json" "$work" |
    "$work/skillrepo" hooks run codex stop --library "$lib" > /dev/null
  printf '{"session_id":"%s","hook_event_name":"SessionEnd","transcript_path":"%s","cwd":"%s","reason":"other"}\n' "$session" "$work/chat.json" "$work" |
    "$work/skillrepo" hooks run codex session-end --library "$lib" > /dev/null
  until git -C "$lib" log -1 --format=%B main | grep -q '^Review-Id:'; do
    if [ $(( ($(now) - t0) / 1000000000 )) -gt 120 ]; then echo "run $1 $2: no review landed in 120 s" >&2; tail "$lib/.git/skillrepo/logs/worker.log" >&2; exit 1; fi
    sleep 0.02
  done
  result=$(( ($(now) - t0) / 1000000 ))
  kill "${pids[-1]}" 2>/dev/null || true
}

for setting in never default; do
  runs=$runs_never
  [ "$setting" = default ] && runs=$runs_default
  : > "$work/$setting.t"
  for n in $(seq 1 "$runs"); do
    one "$setting" "$n"
    echo "$setting run $n: ${result} ms"
    echo "$result" >> "$work/$setting.t"
  done
done
echo "session end -> review merged on main (scripted model answers at once):"
echo "  review.defer: never           median $(median < "$work/never.t") ms over $runs_never runs"
echo "  default (auto, loopback)      median $(median < "$work/default.t") ms over $runs_default runs"
