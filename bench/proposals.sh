#!/usr/bin/env bash
# Benchmark (docs/architecture.md §3): on a generated library of 10,000 skills and 2,000
# commits,
#   1. `skillrepo proposal approve` of a one-file proposal after main moved
#      by one commit (a real three-way merge, work tree updated), against
#      `git merge --no-ff` + `git branch -d` of the same kind of proposal;
#   2. `skillrepo proposal list` with 200 open proposals, against the git
#      CLI commands that compute the same columns for each proposal
#      (for-each-ref, log with trailers, diff --numstat, merge-tree).
# Prints median and p90 wall time of whole processes.
#
#   bash bench/proposals.sh [category|flat] [runs]
set -euo pipefail
layout=${1:-category}
runs=${2:-15}
nprops=200
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout "$layout" >/dev/null)
lib="$work/lib"
sr="$work/skillrepo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME="$work"

now() { date +%s%N; }
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]/1e6, a[int(NR*0.9+0.5)]/1e6}'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
skill() { printf 'skill-%05d' "$1"; }

# --- 1. approve -------------------------------------------------------------
# Each run: a proposal patches skill A, main then patches skill B (untimed);
# the approval (timed) merges three ways and updates the work tree.
: > "$work/approve.times"
: > "$work/gitmerge.times"
for i in $(seq 1 "$runs"); do
  a=$((1000 + i)); b=$((5000 + i))
  "$sr" -C "$lib" skill patch "$(skill $a)" --old "Step 1 of" --new "Step one of" --proposal "bench-$i" 2>/dev/null
  "$sr" -C "$lib" skill patch "$(skill $b)" --old "Step 1 of" --new "Step one of" 2>/dev/null
  t0=$(now)
  "$sr" -C "$lib" proposal approve "bench-$i" 2>/dev/null
  echo $(( $(now) - t0 )) >> "$work/approve.times"

  a=$((2000 + i)); b=$((6000 + i))
  "$sr" -C "$lib" skill patch "$(skill $a)" --old "Step 1 of" --new "Step one of" --proposal "git-$i" 2>/dev/null
  "$sr" -C "$lib" skill patch "$(skill $b)" --old "Step 1 of" --new "Step one of" 2>/dev/null
  t0=$(now)
  git -C "$lib" merge -q --no-ff --no-edit "proposals/git-$i"
  git -C "$lib" branch -q -d "proposals/git-$i"
  echo $(( $(now) - t0 )) >> "$work/gitmerge.times"
done
[ -z "$(git -C "$lib" status --porcelain)" ] || { echo "work tree not clean" >&2; exit 1; }
git -C "$lib" fsck --no-progress --connectivity-only >/dev/null

# --- 2. list ----------------------------------------------------------------
for i in $(seq 1 "$nprops"); do
  "$sr" -C "$lib" skill patch "$(skill $((3000 + i)))" --old "Step 2 of" --new "Step two of" \
    --proposal "p-$i" --origin background-review --review-id "r-$i" 2>/dev/null
done
# main moves once more, so every proposal needs a real merge check
"$sr" -C "$lib" skill patch "$(skill 9999)" --old "Step 1 of" --new "Step one of" 2>/dev/null
n=$("$sr" -C "$lib" proposal list | grep -c ' yes$')
[ "$n" = "$nprops" ] || { echo "expected $nprops mergeable proposals, got $n" >&2; exit 1; }

: > "$work/list.times"
for i in $(seq 1 "$runs"); do
  t0=$(now)
  "$sr" -C "$lib" proposal list >/dev/null
  echo $(( $(now) - t0 )) >> "$work/list.times"
done

# The git CLI computing the same columns: per proposal its commits with
# trailers, its numstat against the fork point, and a trial merge.
gitlist() {
  cd "$lib"
  git for-each-ref --format='%(refname:short)' 'refs/heads/proposals/' | while read -r p; do
    git log --format='%H %at %(trailers:key=Skill-Origin,valueonly,separator=%x2C) %(trailers:key=Review-Id,valueonly)' "main..$p" >/dev/null
    git diff --numstat "main...$p" >/dev/null
    git merge-tree --write-tree --name-only main "$p" >/dev/null
  done
}
: > "$work/gitlist.times"
gitruns=$(( runs < 5 ? runs : 5 ))
for i in $(seq 1 "$gitruns"); do
  t0=$(now)
  (gitlist)
  echo $(( $(now) - t0 )) >> "$work/gitlist.times"
done

echo "layout=$layout skills=10000 commits=2000 runs=$runs"
echo "proposal approve (1 file, main moved): $(stats < "$work/approve.times")"
echo "git merge --no-ff + branch -d:         $(stats < "$work/gitmerge.times")"
echo "proposal list ($nprops open):            $(stats < "$work/list.times")"
echo "git CLI per-proposal equivalent:       $(stats < "$work/gitlist.times")  ($gitruns runs)"
awk -v a="$(median < "$work/approve.times")" -v b="$(median < "$work/gitmerge.times")" \
    -v c="$(median < "$work/list.times")" -v d="$(median < "$work/gitlist.times")" \
    'BEGIN {printf "ratio approve/git merge: %.2f   list/git: %.2f\n", a/b, c/d}'
