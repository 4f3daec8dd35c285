#!/usr/bin/env bash
# Benchmark of `skillrepo ui` (issue 37; targets: overview and skill list
# <= 100 ms on 10,000 skills, the proposal list of 1,000 <= 1 s): on a
# generated library of 10,000 skills and 2,000 commits (bench/genrepo) with
# NPROPS open proposals (default 1,000, each a review's one-file patch), the
# server is started and each page is fetched RUNS times with curl; prints
# median and p90 of the whole request (server-side open of the library,
# the reads, the template).
#
#   bash bench/ui.sh [category|flat] [runs] [nprops]
set -euo pipefail
layout=${1:-category}
runs=${2:-15}
nprops=${3:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout "$layout" >/dev/null)
lib="$work/lib"
sr="$work/skillrepo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME="$work"
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]*1000, a[int(NR*0.9+0.5)]*1000}'; }

# The proposals: one git fast-import stream (a skill patch per proposal
# through the CLI would take minutes): each branch proposals/p-N forks from
# main and adds a note to one skill, with a review's trailers.
git -C "$lib" ls-tree -r --name-only main |
  awk -v n="$nprops" '/\/SKILL\.md$/ && ++i <= n {
    dir = substr($0, 1, length($0) - length("/SKILL.md"))
    msg = "skill: write_file " dir "\n\nSkill-Action: write_file\nSkill-Name: " dir "\nSkill-Origin: background-review\nReview-Id: r-" i "\n"
    note = "Bench note " i ".\n"
    printf "commit refs/heads/proposals/p-%d\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", i, 1765000000 + i, length(msg), msg
    printf "from refs/heads/main^0\nM 100644 inline %s/references/bench-note.md\ndata %d\n%s\n", dir, length(note), note
  }' | git -C "$lib" fast-import --quiet
n=$(git -C "$lib" for-each-ref 'refs/heads/proposals/' | wc -l)
[ "$n" = "$nprops" ] || { echo "expected $nprops proposals, got $n" >&2; exit 1; }
"$sr" -C "$lib" ui --port 0 > "$work/ui.out" 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q token= "$work/ui.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$work/ui.out")
base=${url%%/\?*}
token=${url##*token=}
get() { curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -b "skillrepo_ui=$token" "$base$1"; }
echo "layout=$layout skills=10000 commits=2000 proposals=$nprops runs=$runs"
for page in / /skills /proposals "/skills?q=skill-042"; do
  get "$page" > /dev/null # warm: the history index and owners cache are built once
  : > "$work/times"
  for _ in $(seq 1 "$runs"); do
    read -r code t < <(get "$page")
    [ "$code" = 200 ] || { echo "$page: HTTP $code" >&2; exit 1; }
    echo "$t" >> "$work/times"
  done
  printf '%-22s %s\n' "GET $page" "$(stats < "$work/times")"
done
