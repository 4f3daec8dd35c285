#!/usr/bin/env bash
# Benchmark: one `skillrepo curator run` (whole process) on a generated
# library of 10,000 skills and 2,000 commits where 1,000 skills change
# state (500 archived, 400 marked stale, 100 reactivated), and the same
# run as --dry-run. Each run starts from a fresh copy of the library, whose
# history cache is warm (see below).
# Prints median wall time, peak RSS, and the commits the run made.
#
#   bash bench/curator.sh [category|flat] [runs]
set -euo pipefail
layout=${1:-category}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/base" -layout "$layout" -agent >/dev/null)
(cd "$root" && go run ./bench/genusage -lib "$work/base" -now 2026-12-01T12:00:00Z)
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com

now() { date +%s%N; }

# The first command on a library never read builds the history cache
# (.git/skillrepo/cache) that ownership is read from; time that once, then
# keep the cache in the base copy, as in a library in use.
t0=$(now)
"$work/skillrepo" -C "$work/base" --now 2026-12-01T12:00:00Z curator status > /dev/null
cold=$(( $(now) - t0 ))
median() { sort -n | awk '{a[NR]=$1} END {printf "%.1f ms", a[int((NR+1)/2)]/1e6}'; }
# sync: the copy must not be in the write-back queue the run's fsyncs wait on
fresh() { rm -rf "$work/lib"; cp -a "$work/base" "$work/lib"; sync; }

: > "$work/dry.times"
fresh
for i in $(seq 1 "$runs"); do
  t0=$(now)
  "$work/skillrepo" -C "$work/lib" --now 2026-12-01T12:00:00Z curator run --dry-run > "$work/plan.txt"
  echo $(( $(now) - t0 )) >> "$work/dry.times"
done

: > "$work/run.times"
for i in $(seq 1 "$runs"); do
  fresh
  before=$(git -C "$work/lib" rev-list --count main)
  t0=$(now)
  "$work/skillrepo" -C "$work/lib" --now 2026-12-01T12:00:00Z curator run > "$work/run.txt"
  echo $(( $(now) - t0 )) >> "$work/run.times"
done
after=$(git -C "$work/lib" rev-list --count main)
[ -z "$(git -C "$work/lib" status --porcelain)" ] || { echo "work tree not clean after the run" >&2; exit 1; }
git -C "$work/lib" fsck --strict --no-progress >/dev/null
diff <(tail -n +2 "$work/plan.txt") <(sed -n '2,/^merged as/p' "$work/run.txt" | sed '$d') >/dev/null \
  || { echo "the run differs from its dry run" >&2; exit 1; }
fresh
run_mem=$(/usr/bin/time -f %M "$work/skillrepo" -C "$work/lib" --now 2026-12-01T12:00:00Z curator run 2>&1 >/dev/null | tail -1)
# undo it: one commit moving the 500 skills back
t0=$(now)
"$work/skillrepo" -C "$work/lib" curator rollback 20261201-120000 2>/dev/null
rb=$(( $(now) - t0 ))
[ -z "$(git -C "$work/lib" status --porcelain)" ] || { echo "work tree not clean after the rollback" >&2; exit 1; }
[ -z "$(git -C "$work/lib" diff refs/skillrepo/curator/20261201-120000 main)" ] || { echo "rollback did not restore the tree" >&2; exit 1; }

echo "layout=$layout skills=10000 commits=2000 runs=$runs"
sed -n 2p "$work/run.txt"
echo "curator run --dry-run (whole process): median $(median < "$work/dry.times")"
echo "curator run (whole process):           median $(median < "$work/run.times")  peak RSS ${run_mem} KiB"
echo "commits made by the run: $((after - before)) ($(grep -c '^archive ' "$work/run.txt") archived)"
awk -v t="$rb" 'BEGIN {printf "curator rollback of that run (whole process): %.1f ms\n", t/1e6}'
awk -v t="$cold" 'BEGIN {printf "first curator status on the library (builds the history cache): %.1f ms\n", t/1e6}'
echo "load average during the benchmark: $(cut -d' ' -f1-3 /proc/loadavg)"
