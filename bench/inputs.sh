#!/usr/bin/env bash
# Benchmark: peak RSS of refusing a 1 GiB input on every input path
# (no input is read into memory unbounded). Each case runs the real binary on 1 GiB: a stream of
# zeros on standard input (a pipe, so no size is known and the read stops at
# the limit), or a sparse 1 GiB file named by a flag (refused by its size
# before a byte is read), and /dev/zero as a file (refused as not a regular
# file). Prints each case's exit code, the first error line and the peak
# RSS from /usr/bin/time -f %M; fails when a case is accepted or its peak
# RSS is 50 MiB or more.
#
#   bash bench/inputs.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
cd "$work"
./skillrepo init --example lib > /dev/null 2>&1
truncate -s 1G huge
fail=0
run() { # name, stdin source, args...
  local name=$1 src=$2; shift 2
  local code=0
  if [ "$src" = zeros ]; then
    head -c 1G /dev/zero | /usr/bin/time -f %M -o rss ./skillrepo -C lib "$@" > /dev/null 2> err || code=$?
  else
    /usr/bin/time -f %M -o rss ./skillrepo -C lib "$@" < /dev/null > /dev/null 2> err || code=$?
  fi
  local kib; kib=$(tail -n 1 rss)
  printf '%-34s exit %d  peak RSS %6.1f MiB  %s\n' "$name" "$code" "$(echo "$kib / 1024" | bc -l)" "$(head -n 1 err)"
  if [ "$code" = 0 ] || [ "$kib" -ge $((50 * 1024)) ]; then fail=1; fi
}
run "content-file - (1 GiB pipe)" zeros skill create big --content-file -
run "content-file FILE (1 GiB sparse)" none skill create big --content-file huge
run "content-file /dev/zero" none skill create big --content-file /dev/zero
run "ops - (1 GiB pipe)" zeros skill apply --ops -
run "ops FILE (1 GiB sparse)" none skill apply --ops huge
run "review - (1 GiB pipe)" zeros review - --model m --dry-run
run "review FILE (1 GiB sparse)" none review huge --model m --dry-run
run "review /dev/zero" none review /dev/zero --model m --dry-run
exit $fail
