#!/usr/bin/env bash
# Benchmark: `skillrepo curator overlap` and the write-time duplicate check
# of `skill create` (whole process) on a generated library of 10,000
# curator-managed skills and 2,000 commits. The measure alone (no git, a
# Zipf-vocabulary library with planted duplicates) is the Go benchmark:
#   go test -run XXX -bench . -benchtime 5x ./overlap
# Prints median wall time and peak RSS.
#
#   bash bench/overlap.sh [category|flat] [runs]
set -euo pipefail
layout=${1:-category}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout "$layout" -agent >/dev/null)
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {printf "%.1f ms", a[int((NR+1)/2)]/1e6}'; }
# cpu CMD...: user + system seconds of one run (the machine may be shared:
# wall time then measures the neighbours too).
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f ms", ($1+$2)*1000}'; }
# Warm the history cache ownership is read from, as in a library in use.
"$work/skillrepo" -C "$work/lib" curator status > /dev/null

: > "$work/overlap.times"
for i in $(seq 1 "$runs"); do
  t0=$(now)
  "$work/skillrepo" -C "$work/lib" curator overlap --json > "$work/overlap.json"
  echo $(( $(now) - t0 )) >> "$work/overlap.times"
done
overlap_mem=$(/usr/bin/time -f %M "$work/skillrepo" -C "$work/lib" curator overlap --json 2>&1 >/dev/null | tail -1)

# One agent create, checked against all 10,000 skills (--dry-run: the
# check and every validation run, nothing is written, so every run sees
# the same library).
cat > "$work/new.md" <<'MD'
---
name: rootless-docker-gc
description: Use when a rootless Docker host fills its disk.
---
# Rootless Docker garbage collection

1. Find the data root: `docker info --format '{{.DockerRootDir}}'`.
2. Prune build cache first: `docker builder prune --keep-storage 5GB`.
MD
: > "$work/create.times"
for i in $(seq 1 "$runs"); do
  t0=$(now)
  "$work/skillrepo" -C "$work/lib" skill create rootless-docker-gc --origin background-review --dry-run --content-file "$work/new.md" 2>/dev/null
  echo $(( $(now) - t0 )) >> "$work/create.times"
done
: > "$work/plain.times"
for i in $(seq 1 "$runs"); do
  t0=$(now)
  "$work/skillrepo" -C "$work/lib" skill patch skill-04242 --old 'Step 1 of' --new 'Step one of' --dry-run 2>/dev/null
  echo $(( $(now) - t0 )) >> "$work/plain.times"
done

overlap_cpu=$(cpu "$work/skillrepo" -C "$work/lib" curator overlap --json)
create_cpu=$(cpu "$work/skillrepo" -C "$work/lib" skill create rootless-docker-gc --origin background-review --dry-run --content-file "$work/new.md")
plain_cpu=$(cpu "$work/skillrepo" -C "$work/lib" skill patch skill-04242 --old 'Step 1 of' --new 'Step one of' --dry-run)

echo "layout=$layout skills=10000 commits=2000 runs=$runs"
echo "curator overlap --json (whole process): median $(median < "$work/overlap.times")  CPU ${overlap_cpu}  peak RSS ${overlap_mem} KiB  ($(grep -c '"umbrella"' "$work/overlap.json") clusters)"
echo "skill create --origin background-review --dry-run (whole process, duplicate check included): median $(median < "$work/create.times")  CPU ${create_cpu}"
echo "skill patch --dry-run (whole process, no duplicate check), for comparison: median $(median < "$work/plain.times")  CPU ${plain_cpu}"
echo "load average during the benchmark: $(cut -d' ' -f1-3 /proc/loadavg)"
