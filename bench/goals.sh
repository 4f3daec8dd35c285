#!/usr/bin/env bash
# Benchmark: the goal judge's cost in the agents' Stop hook, whole process,
# on a generated library of 1,000 skills: `skillrepo hooks run claude-code
# stop` with the event JSON on stdin, (a) for a session with no goal (the
# common case: one stat, then the review's nudge counters), and (b) for a
# session with an active goal whose judge (the project's scripted model
# server on loopback, answering "continue") is asked on every turn.
# Prints the medians and each case's peak RSS.
#
#   bash bench/goals.sh [skills] [runs]
set -euo pipefail
skills=${1:-1000}
runs=${2:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
fm=""
trap '[ -n "$fm" ] && kill "$fm" 2>/dev/null; rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo && go build -o "$work/fakemodel" ./internal/fakemodel/cmd/fakemodel)
(cd "$root" && go run ./bench/cmd/genlib -out "$work/lib" -skills "$skills" -categories $((skills / 100)) -support 1)
"$work/skillrepo" init "$work/lib" 2> /dev/null
cd "$work"
export SKILLREPO_WORKER=off SKILLREPO_MODEL=judge HOME="$work"
printf '[{"content":"{\\"verdict\\":\\"continue\\",\\"reason\\":\\"not yet\\"}","times":-1}]\n' > judge.json
./fakemodel judge.json > fakemodel.url &
fm=$!
for _ in $(seq 1 50); do [ -s fakemodel.url ] && break; sleep 0.1; done
export OPENAI_BASE_URL=$(head -n 1 fakemodel.url)

event() { printf '{"session_id":"%s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"I ran the tests."}\n' "$1"; }
stop() { event "$1" | ./skillrepo -C lib hooks run claude-code stop > /dev/null; }
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

./skillrepo -C lib goal set "all tests pass" --session with-goal --max-turns 100000 2> /dev/null
stop no-goal; stop with-goal # warm up
: > none.t; : > goal.t
for _ in $(seq 1 "$runs"); do
  t0=$(now); stop no-goal; echo $(( $(now) - t0 )) >> none.t
  t0=$(now); stop with-goal; echo $(( $(now) - t0 )) >> goal.t
done
rss() { event "$1" | /usr/bin/time -v ./skillrepo -C lib hooks run claude-code stop 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'; }
echo "skills=$skills runs=$runs cpus=$(nproc)"
awk -v n="$(median < none.t)" -v g="$(median < goal.t)" -v rn="$(rss no-goal)" -v rg="$(rss with-goal)" 'BEGIN {
  printf "Stop hook, no goal:           median %.1f ms, peak RSS %.1f MiB\n", n/1e6, rn/1024
  printf "Stop hook, goal + judge call: median %.1f ms, peak RSS %.1f MiB\n", g/1e6, rg/1024
}'
