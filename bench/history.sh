#!/usr/bin/env bash
# Benchmark: skill log, skill blame and ownership on a generated library of
# 10,000 skills and ~2,000 commits (bench/histgen: a hot skill touched by
# ~200 commits, renamed into a category, archived, restored and patched on
# a merged proposal), side by side with git log --follow and git blame on
# the same file. Checks first that both list the same commits and blame
# the same lines. Prints the mean wall and user+sys CPU time per run.
#
#   bash bench/history.sh [flat|category] [runs]   (default: flat 10)
set -euo pipefail
layout=${1:-flat}
runs=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
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

# measure LABEL PREP CMD: runs PREP then CMD $runs times inside one timed
# shell (time(1) counts in 10 ms steps, too coarse for one run) and prints
# the mean wall and CPU (user+sys) per run and the peak RSS. PREP is cheap
# (removing two cache files) next to CMD.
measure() {
  local label=$1 prep=$2 cmd=$3
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" bash -c "for i in \$(seq $runs); do $prep; $cmd > /dev/null; done"
  awk -v l="$label" -v n="$runs" '{printf "%-40s wall %6.1f ms   cpu %6.1f ms   rss %4.0f MB\n", l, $1*1000/n, ($2+$3)*1000/n, $4/1024}' "$work/t"
}
cold='rm -rf .git/skillrepo/cache'
# Cold: no cache at all (a fresh clone, or the first command after a pull).
measure "skillrepo skill log (cold)" "$cold" "'$sr' skill log hot-tool"
measure "git log --follow -- PATH" ":" "git log --follow --format=%H -- '$file'"
measure "skillrepo skill blame (cold)" "$cold" "'$sr' skill blame hot-tool"
measure "git blame PATH" ":" "git blame '$file'"
measure "skillrepo skill list, 10k owners (cold)" "$cold" "'$sr' skill list"
# Warm: history indexed (any ownership query, e.g. skill list, indexes all
# commits; every later walk extends the index with new commits only).
"$sr" skill list > /dev/null
measure "skillrepo skill log (warm)" ":" "'$sr' skill log hot-tool"
measure "skillrepo skill blame (warm)" ":" "'$sr' skill blame hot-tool"
measure "skillrepo skill list (warm)" ":" "'$sr' skill list"
measure "skillrepo process start (--help)" ":" "'$sr' --help"
