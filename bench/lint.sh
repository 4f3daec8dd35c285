#!/usr/bin/env bash
# Benchmark: `skillrepo lint` (whole process) against the floor of reading
# the same files, on two libraries generated side by side:
#   uniform: the standard generated library, 10,000 skills (40,001 files,
#            category layout, 3 small linked support files each);
#   real:    2,300 real-shaped skills (about 13,800 files, 149 MB: varied
#            sizes up to 1 MB, tables, fenced code, many links, nested
#            folders, scripts importing each other; bench/genlib ShapeReal).
# The floor is the faster of `tar` piped to /dev/null (piped, because GNU
# tar skips reading files when its archive is /dev/null) and `find | xargs
# cat`. Runs are interleaved after one warm-up of each, so all read from
# the page cache. Prints the medians, the ratio to the faster floor and
# lint's peak RSS per library.
#
#   bash bench/lint.sh [uniform-skills] [real-skills] [runs]
set -euo pipefail
uniform=${1:-10000}
real=${2:-2300}
runs=${3:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/cmd/genlib -out "$work/uniform" -skills "$uniform" -categories $((uniform / 100)) -support 3)
(cd "$root" && go run ./bench/cmd/genlib -out "$work/real" -skills "$real" -categories $((real / 100)) -shape real)
cd "$work"

lint() { ./skillrepo lint "$1" --format json > /dev/null || [ $? = 1 ]; }
tarfloor() { tar -cf - "$1" | cat > /dev/null; }
catfloor() { find "$1" -type f -print0 | xargs -0 cat > /dev/null; }
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "runs=$runs cpus=$(nproc)"
for lib in uniform real; do
  lint $lib; tarfloor $lib; catfloor $lib # warm the page cache
  : > lint.t; : > tar.t; : > cat.t
  for _ in $(seq 1 "$runs"); do
    t0=$(now); lint $lib; echo $(( $(now) - t0 )) >> lint.t
    t0=$(now); tarfloor $lib; echo $(( $(now) - t0 )) >> tar.t
    t0=$(now); catfloor $lib; echo $(( $(now) - t0 )) >> cat.t
  done
  rss=$(/usr/bin/time -v ./skillrepo lint $lib --format json 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
  # CPU seconds (user + system, children included) of one run each: less
  # sensitive than wall time to other load on a shared machine.
  cpu() { /usr/bin/time -f '%U %S' sh -c "$1" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
  lcpu=$(cpu "./skillrepo lint $lib --format json > /dev/null || true")
  tcpu=$(cpu "tar -cf - $lib | cat > /dev/null")
  ccpu=$(cpu "find $lib -type f -print0 | xargs -0 cat > /dev/null")
  load=$(cut -d' ' -f1 /proc/loadavg)
  l=$(median < lint.t); t=$(median < tar.t); c=$(median < cat.t)
  floor=$(( t < c ? t : c ))
  echo
  echo "$lib: skills=$(find $lib -name SKILL.md | wc -l) files=$(find $lib -type f | wc -l) bytes=$(find $lib -type f -printf '%s\n' | awk '{s+=$1} END {print s}')"
  awk -v l="$l" -v t="$t" -v c="$c" -v f="$floor" -v rss="$rss" -v lc="$lcpu" -v tc="$tcpu" -v cc="$ccpu" -v load="$load" 'BEGIN {
    printf "  skillrepo lint (whole process): median %.0f ms, peak RSS %.1f MiB, CPU %.2f s\n", l/1e6, rss/1024, lc
    printf "  tar -cf - | cat > /dev/null:    median %.0f ms, CPU %.2f s\n", t/1e6, tc
    printf "  find | xargs cat > /dev/null:   median %.0f ms, CPU %.2f s\n", c/1e6, cc
    printf "  ratio lint / faster floor: %.2f wall (target <= 3), %.2f CPU; load average %s\n", l/f, lc/(tc < cc ? tc : cc), load
  }'
done
