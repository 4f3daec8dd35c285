#!/usr/bin/env bash
# Benchmark: skill log, skill blame and ownership on a generated library of
# 10,000 skills and ~2,000 commits (bench/histgen: a hot skill touched by
# ~200 commits, renamed into a category, archived, restored and patched on
# a merged proposal), side by side with git log --follow and git blame on
# the same file. Checks first that both list the same commits and blame
# the same lines. Prints the median wall time and user+sys CPU time.
#
#   bash bench/history.sh [flat|category] [runs]
set -euo pipefail
layout=${1:-flat}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/skillrepo" "$root/cmd/skillrepo"
dir=$(cd "$root" && go run ./bench/histgen -out "$work/lib" -layout "$layout")
lib="$work/lib"
sr="$work/skillrepo"
file="$dir/SKILL.md"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
cd "$lib"

# Agreement first: the same commits, the same blame.
rm -rf .git/skillrepo/cache
"$sr" skill log hot-tool | awk '/^commit /{print $2}' > "$work/ours.log"
git log --follow --format=%H -- "$file" > "$work/git.log"
cmp -s "$work/ours.log" "$work/git.log" || { echo "skill log and git log --follow differ" >&2; diff "$work/ours.log" "$work/git.log" | head >&2; exit 1; }
"$sr" skill blame hot-tool | cut -c1-8 > "$work/ours.blame"
git blame --line-porcelain "$file" | grep -E '^[0-9a-f]{40} ' | cut -c1-8 > "$work/git.blame"
cmp -s "$work/ours.blame" "$work/git.blame" || { echo "skill blame and git blame differ" >&2; exit 1; }
echo "$layout layout: $(wc -l < "$work/ours.log") commits touch $file; $(wc -l < "$work/ours.blame") lines blamed; both agree with git"

# time LABEL PREP CMD...: median wall and CPU over $runs runs; PREP runs
# before each (untimed).
measure() {
  local label=$1 prep=$2
  shift 2
  : > "$work/t"
  for _ in $(seq 1 "$runs"); do
    eval "$prep"
    /usr/bin/time -f "%e %U %S %M" -a -o "$work/t" "$@" > /dev/null
  done
  median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
  local wall cpu rss
  wall=$(awk '{print $1}' "$work/t" | median)
  cpu=$(awk '{print $2+$3}' "$work/t" | median)
  rss=$(awk '{print $4}' "$work/t" | median)
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v m="$rss" 'BEGIN {printf "%-40s wall %6.0f ms   cpu %6.0f ms   rss %4.0f MB\n", l, w*1000, c*1000, m/1024}'
}
cold='rm -rf .git/skillrepo/cache'
measure "skillrepo skill log (cold cache)" "$cold" "$sr" skill log hot-tool
measure "skillrepo skill log (warm)" ":" "$sr" skill log hot-tool
measure "git log --follow -- PATH" ":" git log --follow --format=%H -- "$file"
measure "skillrepo skill blame (cold cache)" "$cold" "$sr" skill blame hot-tool
measure "skillrepo skill blame (warm)" ":" "$sr" skill blame hot-tool
measure "git blame PATH" ":" git blame "$file"
measure "skillrepo skill list, 10k owners (cold)" "$cold" "$sr" skill list
measure "skillrepo skill list (warm)" ":" "$sr" skill list
