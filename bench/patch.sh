#!/usr/bin/env bash
# Benchmark: one `skillrepo skill patch` (whole process) against the git-CLI
# plumbing that makes the same kind of commit (cat-file, hash-object,
# read-tree, update-index, write-tree, commit-tree, update-ref), on a
# generated library of 10,000 skills and 2,000 commits. Prints median and
# p90 wall time, CPU time and peak RSS of each, and their ratio.
#
#   bash bench/patch.sh [category|flat] [runs]
#
# The two sides run in turns within one loop (which goes first alternates),
# so both see the same load on the machine. Every run of either side writes
# text no earlier run wrote, so each stores a new blob, new trees and a new
# commit. skillrepo patches skill-04242 on the checked-out branch (work tree
# and index updated, as a user gets); git patches skill-04243 through a
# temporary index (its work tree is left behind, as plumbing does).
set -euo pipefail
layout=${1:-category}
runs=${2:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout "$layout" >/dev/null)
lib="$work/lib"
# A write starts git gc in the background once loose objects pass 64 MiB
# (skillrepo/internal/gitstore/maintenance.go), which a flat run of this script reaches: keep
# it out of the timings (git plumbing never starts one).
git -C "$lib" config gc.auto 0
if [ "$layout" = flat ]; then dir=skill-04242 gitdir=skill-04243; else dir=cat-042/skill-04242 gitdir=cat-042/skill-04243; fi
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com

now() { date +%s%N; }
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]/1e6, a[int(NR*0.9+0.5)]/1e6}'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# sr_patch I: run I of skillrepo ("Step 1 of" -> "Step r1 of" -> ...).
sr_patch() {
  local old="Step r$(($1 - 1)) of"
  [ "$1" = 1 ] && old="Step 1 of"
  "$work/skillrepo" -C "$lib" skill patch skill-04242 --old "$old" --new "Step r$1 of" 2>/dev/null
}
# git_patch I: run I of the git plumbing ("Step 1 of" -> "Step g1 of" -> ...).
git_patch() {
  local old="Step g$(($1 - 1)) of" path="$gitdir/SKILL.md"
  [ "$1" = 1 ] && old="Step 1 of"
  (
    cd "$lib"
    parent=$(git rev-parse refs/heads/main)
    blob=$(git cat-file blob "$parent:$path" | sed "s/$old/Step g$1 of/" | git hash-object -w --stdin)
    export GIT_INDEX_FILE="$work/tmp.index"
    git read-tree "$parent"
    git update-index --cacheinfo "100644,$blob,$path"
    tree=$(git write-tree)
    commit=$(printf 'skill: patch skill-04243\n\nSkill-Action: patch\nSkill-Name: skill-04243\nSkill-Origin: user\n' | git commit-tree "$tree" -p "$parent")
    git update-ref refs/heads/main "$commit" "$parent"
    rm -f "$GIT_INDEX_FILE"
  )
}

: > "$work/sr.times"
: > "$work/git.times"
for i in $(seq 1 "$runs"); do
  for side in $([ $((i % 2)) = 1 ] && echo "sr git" || echo "git sr"); do
    t0=$(now)
    if [ "$side" = sr ]; then sr_patch "$i"; else git_patch "$i"; fi
    echo $(( $(now) - t0 )) >> "$work/$side.times"
  done
done
# Every run was a real change.
git -C "$lib" show "HEAD:$dir/SKILL.md" | grep -q "Step r$runs of" || { echo "skillrepo runs did not all land" >&2; exit 1; }
git -C "$lib" show "HEAD:$gitdir/SKILL.md" | grep -q "Step g$runs of" || { echo "git runs did not all land" >&2; exit 1; }
[ "$(git -C "$lib" rev-list --count HEAD)" -ge $((2000 + 2 * runs)) ] || { echo "missing commits" >&2; exit 1; }
# skillrepo left its own skill clean in the work tree and index.
[ -z "$(git -C "$lib" status --porcelain -- "$dir")" ] || { echo "work tree not clean after skillrepo" >&2; exit 1; }

sr_mem=$(/usr/bin/time -f %M "$work/skillrepo" -C "$lib" skill patch skill-04242 --old "Step 2 of" --new "Step two of" 2>&1 >/dev/null | tail -1)
git_mem=$( (cd "$lib" && export GIT_INDEX_FILE="$work/tmp2.index"; /usr/bin/time -f %M git read-tree HEAD) 2>&1 | tail -1)

# CPU time (user + system) per run, from one timed loop of each: less
# sensitive than wall time to other load on the machine.
export -f sr_patch git_patch
export work lib gitdir
cpu_loop() { /usr/bin/time -f "%U %S" -o "$work/cpu" bash -c "$1" >/dev/null 2>&1; tail -1 "$work/cpu" | awk -v n="$runs" '{printf "%.1f", ($1+$2)*1000/n}'; }
sr_cpu=$(cpu_loop "for i in \$(seq $((runs + 1)) $((2 * runs))); do sr_patch \$i || exit 1; done")
git_cpu=$(cpu_loop "for i in \$(seq $((runs + 1)) $((2 * runs))); do git_patch \$i || exit 1; done")

sr_med=$(median < "$work/sr.times")
gt_med=$(median < "$work/git.times")
echo "layout=$layout skills=10000 commits=2000 runs=$runs"
echo "skillrepo skill patch (whole process): wall $(stats < "$work/sr.times")  cpu ${sr_cpu} ms  peak RSS ${sr_mem} KiB"
echo "git plumbing (8 processes):            wall $(stats < "$work/git.times")  cpu ${git_cpu} ms  (read-tree peak RSS ${git_mem} KiB)"
awk -v a="$sr_med" -v b="$gt_med" -v c="$sr_cpu" -v d="$git_cpu" 'BEGIN {printf "ratio skillrepo/git: wall %.2f  cpu %.2f\n", a/b, c/d}'
