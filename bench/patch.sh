#!/usr/bin/env bash
# Benchmark: one `skillrepo skill patch` (whole process) against the git-CLI
# plumbing that makes the same commit (hash-object, read-tree, update-index,
# write-tree, commit-tree, update-ref), on a generated library of 10,000
# skills and 2,000 commits. Prints median and p90 wall time and peak RSS.
#
#   bash bench/patch.sh [category|flat] [runs]
set -euo pipefail
layout=${1:-category}
runs=${2:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/skillrepo" "$root/cmd/skillrepo"
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout "$layout" >/dev/null)
lib="$work/lib"
if [ "$layout" = flat ]; then dir=skill-04242; else dir=cat-042/skill-04242; fi
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com

now() { date +%s%N; }
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]/1e6, a[int(NR*0.9+0.5)]/1e6}'; }

# skillrepo: alternate between two texts so every run is a real commit.
: > "$work/sr.times"
for i in $(seq 1 "$runs"); do
  if [ $((i % 2)) = 1 ]; then old="Step 1 of"; new="Step one of"; else old="Step one of"; new="Step 1 of"; fi
  t0=$(now)
  "$work/skillrepo" -C "$lib" skill patch skill-04242 --old "$old" --new "$new" 2>/dev/null
  echo $(( $(now) - t0 )) >> "$work/sr.times"
done
sr_mem=$(/usr/bin/time -f %M "$work/skillrepo" -C "$lib" skill patch skill-04242 --old "Step 2 of" --new "Step two of" 2>&1 >/dev/null | tail -1)
[ -z "$(git -C "$lib" status --porcelain)" ] || { echo "work tree not clean after skillrepo" >&2; exit 1; }

# git plumbing on the same library (a temporary index, as a tool that does
# not touch the user's index would).
: > "$work/git.times"
path="$dir/SKILL.md"
for i in $(seq 1 "$runs"); do
  t0=$(now)
  (
    cd "$lib"
    parent=$(git rev-parse refs/heads/main)
    blob=$(git cat-file blob "$parent:$path" | sed "s/Step 3 of/Step three $i of/" | git hash-object -w --stdin)
    export GIT_INDEX_FILE="$work/tmp.index"
    git read-tree "$parent"
    git update-index --cacheinfo "100644,$blob,$path"
    tree=$(git write-tree)
    commit=$(printf 'skill: patch skill-04242\n\nSkill-Action: patch\nSkill-Name: skill-04242\nSkill-Origin: user\n' | git commit-tree "$tree" -p "$parent")
    git update-ref refs/heads/main "$commit" "$parent"
    rm -f "$GIT_INDEX_FILE"
  )
  echo $(( $(now) - t0 )) >> "$work/git.times"
done
git_mem=$( (cd "$lib" && export GIT_INDEX_FILE="$work/tmp2.index"; /usr/bin/time -f %M git read-tree HEAD) 2>&1 | tail -1)

# CPU time (user + system) per run, from one timed loop of each: less
# sensitive than wall time to other load on the machine.
cpu_loop() { /usr/bin/time -f "%U %S" -o "$work/cpu" bash -c "$1" >/dev/null 2>&1; tail -1 "$work/cpu" | awk -v n="$runs" '{printf "%.1f", ($1+$2)*1000/n}'; }
sr_cpu=$(cpu_loop "for i in \$(seq 1 $runs); do if [ \$((i % 2)) = 1 ]; then o='Step 1 of'; n='Step one of'; else o='Step one of'; n='Step 1 of'; fi; '$work/skillrepo' -C '$lib' skill patch skill-04242 --old \"\$o\" --new \"\$n\"; done")
git_cpu=$(cpu_loop "cd '$lib'; for i in \$(seq 1 $runs); do parent=\$(git rev-parse refs/heads/main); blob=\$(git cat-file blob \$parent:$path | sed 's/Step 4 of/Step four \$i of/' | git hash-object -w --stdin); export GIT_INDEX_FILE='$work/cpu.index'; git read-tree \$parent; git update-index --cacheinfo 100644,\$blob,$path; tree=\$(git write-tree); c=\$(echo m | git commit-tree \$tree -p \$parent); git update-ref refs/heads/main \$c \$parent; rm -f \$GIT_INDEX_FILE; done")

sr=$(stats < "$work/sr.times")
gt=$(stats < "$work/git.times")
sr_med=$(sort -n "$work/sr.times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
gt_med=$(sort -n "$work/git.times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "layout=$layout skills=10000 commits=2000 runs=$runs"
echo "skillrepo skill patch (whole process): wall $sr  cpu ${sr_cpu} ms  peak RSS ${sr_mem} KiB"
echo "git plumbing (7 processes):            wall $gt  cpu ${git_cpu} ms  (read-tree peak RSS ${git_mem} KiB)"
awk -v a="$sr_med" -v b="$gt_med" -v c="$sr_cpu" -v d="$git_cpu" 'BEGIN {printf "ratio skillrepo/git: wall %.2f  cpu %.2f\n", a/b, c/d}'
