#!/usr/bin/env bash
# Benchmark: skillrepo's everyday commands at 1,000, 10,000 and 100,000
# skills, each beside its git (or floor) peer in the same loop, so the
# ratio holds on a shared machine. Libraries are bench/genlib's (realistic
# frontmatter and steps, three support files a skill, 100 skills a
# category), imported as one commit (go run ./bench/cmd/genlib -git).
#
#   bash bench/scale.sh [runs] [sizes...]     # defaults: 15 1000 10000 100000
#   SCALE_LIBS=/tmp/scale bash bench/scale.sh  # keep the libraries for the next run
#
# Pairs (A beside B; the two run in turns, which goes first alternating):
#   patch   `skill patch` (new text each run)        | git plumbing making the same kind of commit
#   create  `skill create --origin background-review --dry-run` (duplicate check) | `skill patch --dry-run` (none)
#   view    `skill view`                              | `git cat-file blob main:<path>` (floor)
#   list    `skill list --json`                       | `git ls-tree -r --name-only main` (floor)
#   status  `status`                                  | `git status --porcelain` (floor)
#   hook    `hooks run claude-code stop` (event on stdin) | `true` (floor: a process)
# Per pair: median wall of each, median CPU (user+sys of the run, from
# bash's `times`, ms resolution), peak RSS of one run, and the ratios of
# the medians. The load average is printed with each library.
set -euo pipefail
runs=${1:-15}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
libs=${SCALE_LIBS:-$work/libs}
mkdir -p "$libs"
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo && go build -o "$work/genlib" ./bench/cmd/genlib)
sr="$work/skillrepo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
export SKILLREPO_WORKER=off HOME="$work"

cat > "$work/new.md" <<'MD'
---
name: rootless-docker-gc
description: Use when a rootless Docker host fills its disk with old images and build cache.
---
# Rootless Docker garbage collection

1. Find the data root: `docker info --format '{{.DockerRootDir}}'`.
2. Prune build cache first: `docker builder prune --keep-storage 5GB`.
3. Remove dangling images with `docker image prune` and check `df -h` again.
MD
printf '{"session_id":"bench","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}\n' > "$work/stop.json"

# cpu_of CMD...: runs CMD, prints its user+sys in ms (bash's times: the
# children of this subshell).
cpu_of() {
  ( "$@" > /dev/null 2>&1 || exit 1
    times > "$work/times"
    tail -1 "$work/times" | awk '{
      split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f\n", (u[1]*60 + u[2] + s[1]*60 + s[2]) * 1000 }' )
}
now() { date +%s%N; }
med() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }

# pair NAME A B: A and B are shell function names, run with the run number.
pair() {
  local name=$1 a=$2 b=$3 i t0
  : > "$work/a.w"; : > "$work/b.w"; : > "$work/a.c"; : > "$work/b.c"
  "$a" 0 > /dev/null 2>&1; "$b" 0 > /dev/null 2>&1 # warm up
  for i in $(seq 1 "$runs"); do
    for side in $([ $((i % 2)) = 1 ] && echo "a b" || echo "b a"); do
      local fn=$a
      [ "$side" = b ] && fn=$b
      t0=$(now)
      cpu_of "$fn" "$i" >> "$work/$side.c" || { echo "$name: $fn failed" >&2; exit 1; }
      echo $(( ($(now) - t0) / 1000 )) >> "$work/$side.w"
    done
  done
  local aw bw ac bc am bm
  aw=$(med < "$work/a.w"); bw=$(med < "$work/b.w"); ac=$(med < "$work/a.c"); bc=$(med < "$work/b.c")
  am=$( { /usr/bin/time -f %M bash -c "$(declare -f "$a"); $a 999999" > /dev/null; } 2>&1 | tail -1)
  bm=$( { /usr/bin/time -f %M bash -c "$(declare -f "$b"); $b 999999" > /dev/null; } 2>&1 | tail -1)
  awk -v n="$name" -v aw="$aw" -v bw="$bw" -v ac="$ac" -v bc="$bc" -v am="$am" -v bm="$bm" 'BEGIN {
    printf "%-7s A wall %7.1f ms cpu %6.1f ms peak %6.1f MiB | B wall %7.1f ms cpu %6.1f ms peak %6.1f MiB | A/B wall %.2f cpu %.2f peak %.2f\n",
      n, aw/1000, ac, am/1024, bw/1000, bc, bm/1024, aw/bw, (bc > 0 ? ac/bc : 0), am/bm }'
}

for n in "${sizes[@]}"; do
  lib="$libs/lib$n"
  if [ ! -d "$lib" ]; then
    "$work/genlib" -git -out "$lib" -skills "$n" -categories $((n / 100)) > /dev/null
    git -C "$lib" config gc.auto 0
  fi
  export lib sr work
  k=$((n * 42 / 100))
  # skillrepo patches skill k, git skill k+1, each run new text; the
  # patch of the dry runs is skill k+2 (genlib puts skill i in category
  # i mod categories).
  sk=$(printf 'skill-%05d' $k); gk=$(printf 'skill-%05d' $((k + 1))); dk=$(printf 'skill-%05d' $((k + 2)))
  gdir=$(printf 'cat-%03d/%s' $(((k + 1) % (n / 100))) "$gk"); ddir=$(printf 'cat-%03d/%s' $(((k + 2) % (n / 100))) "$dk")
  sdir=$(printf 'cat-%03d/%s' $((k % (n / 100))) "$sk")
  export sk gk dk gdir ddir
  sr_patch() { "$sr" -C "$lib" skill patch "$sk" --old "run-$(( $1 - 1 ))-marker" --new "run-$1-marker" 2>/dev/null \
                 || "$sr" -C "$lib" skill patch "$sk" --old "Do not skip the dry run." --new "Do not skip the dry run. run-$1-marker"; }
  git_patch() {
    (cd "$lib" && p="$gdir/SKILL.md" && parent=$(git rev-parse refs/heads/main) &&
     blob=$(git cat-file blob "$parent:$p" | sed "s/Do not skip the dry run\..*/Do not skip the dry run. g$1-$RANDOM/" | git hash-object -w --stdin) &&
     export GIT_INDEX_FILE="$work/tmp.index" && git read-tree "$parent" && git update-index --cacheinfo "100644,$blob,$p" &&
     tree=$(git write-tree) && c=$(printf 'skill: patch\n\nSkill-Action: patch\n' | git commit-tree "$tree" -p "$parent") &&
     git update-ref refs/heads/main "$c" "$parent" && rm -f "$GIT_INDEX_FILE")
  }
  sr_create() { "$sr" -C "$lib" skill create rootless-docker-gc --origin background-review --dry-run --content-file "$work/new.md"; }
  sr_patch_dry() { "$sr" -C "$lib" skill patch "$dk" --old "Do not skip the dry run." --new "Never skip the dry run." --dry-run; }
  sr_view() { "$sr" -C "$lib" skill view "$dk"; }
  git_view() { git -C "$lib" cat-file blob "main:$ddir/SKILL.md"; }
  sr_list() { "$sr" -C "$lib" skill list --json; }
  git_list() { git -C "$lib" ls-tree -r --name-only main; }
  sr_status() { "$sr" -C "$lib" status; }
  git_status() { git -C "$lib" status --porcelain; }
  sr_hook() { "$sr" -C "$lib" hooks run claude-code stop < "$work/stop.json"; }
  floor() { true; }
  export -f sr_patch git_patch sr_create sr_patch_dry sr_view git_view sr_list git_list sr_status git_status sr_hook floor
  echo "== $n skills ($(git -C "$lib" ls-files | wc -l) files), runs=$runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  pair patch sr_patch git_patch
  pair create sr_create sr_patch_dry
  pair view sr_view git_view
  pair list sr_list git_list
  pair status sr_status git_status
  pair hook sr_hook floor
  [ -z "$(git -C "$lib" status --porcelain -- "$sdir")" ] || { echo "work tree not clean after skillrepo" >&2; exit 1; }
  echo "   load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
