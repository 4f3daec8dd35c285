#!/usr/bin/env bash
# Benchmark: one `skillrepo skill patch` (whole process) on a library that
# is a folder of a project's repository (.claude/skills beside 50,000 other
# files) against the same patch on the same library as a repository of its
# own (docs/project-libraries.md: target at most 1.2x), with the same kind of change
# committed by git in the project for scale. The folder library is timed
# twice: in the project as git makes it (one 5 MB index), and in a copy of
# the project with git's split index on (core.splitIndex=true and
# 'git update-index --split-index': .git/index holds only the changes over
# a shared index). Prints median and p90 wall time of each and the ratios
# of the medians, and the kernel's floor: what replacing each index file
# costs with no code of ours (bench/indexfloor), i.e. the ratio no engine
# that rewrites the whole index can beat on this machine.
#
#   bash bench/prefix.sh [runs] [skills] [project-files]
#
# Both libraries hold the same generated skills (bench/genrepo); the
# project is bench/genproject's files plus the library, in one commit. The
# two sides run in turns within one loop (which goes first alternates), so
# all see the same load on the machine; every run writes new text.
set -euo pipefail
runs=${1:-30}
skills=${2:-2000}
files=${3:-50000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/skillrepo" "$root/cmd/skillrepo"
(cd "$root" && go build -o "$work/indexfloor" ./bench/indexfloor)
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -skills "$skills" -commits 200 -layout category >/dev/null)
git -C "$work/lib" config gc.auto 0

proj="$work/proj"
(cd "$root" && go run ./bench/genproject -out "$proj" -files "$files")
mkdir -p "$proj/.claude/skills"
git -C "$work/lib" archive HEAD | tar -x -C "$proj/.claude/skills"
git -C "$proj" init -q -b main
git -C "$proj" config gc.auto 0
git -C "$proj" add -A
git -C "$proj" commit -q -m "the project, with its skills"
# The same project with git's split index on.
sproj="$work/sproj"
cp -a "$proj" "$sproj"
git -C "$sproj" update-index -q --refresh
git -C "$sproj" config core.splitIndex true
git -C "$sproj" update-index --split-index
# The project's own work in progress, which no write may touch.
echo "// work in progress" >> "$proj/src/pkg000/mod00/file00000.go"
echo "// work in progress" >> "$sproj/src/pkg000/mod00/file00000.go"
lib="$work/lib" plib="$proj/.claude/skills" splib="$sproj/.claude/skills"
# genrepo's category layout puts 100 skills in each category.
[ "$skills" -ge 43 ] || { echo "skills must be at least 43" >&2; exit 2; }
dir=cat-000/skill-00042 name=skill-00042

now() { date +%s%N; }
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]/1e6, a[int(NR*0.9+0.5)]/1e6}'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# git_patch I: the same change made by hand with git in the project, for
# scale: edit skill-00043's SKILL.md and 'git commit -- <path>' (which
# commits that path alone, leaving the project's edit out).
git_patch() {
  local old="Step g$(($1 - 1)) of" f="$plib/cat-000/skill-00043/SKILL.md"
  [ "$1" = 1 ] && old="Step 1 of"
  sed -i "s/$old/Step g$1 of/" "$f"
  git -C "$proj" commit -q -m "patch skill-00043" -- ".claude/skills/cat-000/skill-00043/SKILL.md"
}

# patch SIDE DIR I: run I on one side ("Step 1 of" -> "Step x1 of" -> ...).
patch() {
  local old="Step x$(($3 - 1)) of"
  [ "$3" = 1 ] && old="Step 1 of"
  "$work/skillrepo" -C "$2" skill patch "$name" --old "$old" --new "Step x$3 of" 2>/dev/null
}

: > "$work/root.times"
: > "$work/prefix.times"
: > "$work/split.times"
: > "$work/git.times"
sync
for i in $(seq 1 "$runs"); do
  case $((i % 3)) in
    0) order="root prefix split" ;;
    1) order="prefix split root" ;;
    *) order="split root prefix" ;;
  esac
  for side in $order; do
    d=$lib; [ "$side" = prefix ] && d=$plib; [ "$side" = split ] && d=$splib
    t0=$(now)
    patch "$side" "$d" "$i"
    echo $(( $(now) - t0 )) >> "$work/$side.times"
  done
done
# Our writes kept the project's index split: a small .git/index.
split_size=$(stat -c %s "$sproj/.git/index")
grep -q link "$sproj/.git/index" || { echo "the split project's index is no longer split" >&2; exit 1; }
# git runs in a loop of its own: it does not sync what it writes, and the
# next skillrepo write's barrier would pay for flushing it.
sync
for i in $(seq 1 "$runs"); do
  t0=$(now)
  git_patch "$i"
  echo $(( $(now) - t0 )) >> "$work/git.times"
done
# Every run landed; the project's edit is untouched and uncommitted, the
# library's paths are clean, the repository is sound.
git -C "$lib" show "HEAD:$dir/SKILL.md" | grep -q "Step x$runs of" || { echo "root runs did not all land" >&2; exit 1; }
git -C "$proj" show "HEAD:.claude/skills/$dir/SKILL.md" | grep -q "Step x$runs of" || { echo "prefix runs did not all land" >&2; exit 1; }
git -C "$sproj" show "HEAD:.claude/skills/$dir/SKILL.md" | grep -q "Step x$runs of" || { echo "split-index runs did not all land" >&2; exit 1; }
[ "$(git -C "$sproj" status --porcelain)" = " M src/pkg000/mod00/file00000.go" ] || { echo "split project status is not just its own edit" >&2; git -C "$sproj" status --porcelain | head >&2; exit 1; }
git -C "$sproj" fsck --strict --no-progress >/dev/null 2>&1 || { echo "git fsck failed (split index)" >&2; exit 1; }
git -C "$proj" show "HEAD:.claude/skills/cat-000/skill-00043/SKILL.md" | grep -q "Step g$runs of" || { echo "git runs did not all land" >&2; exit 1; }
[ "$(git -C "$proj" status --porcelain)" = " M src/pkg000/mod00/file00000.go" ] || { echo "project status is not just its own edit" >&2; git -C "$proj" status --porcelain | head >&2; exit 1; }
git -C "$proj" fsck --strict --no-progress >/dev/null 2>&1 || { echo "git fsck failed" >&2; exit 1; }

echo "skill patch, $skills skills; prefix library beside $files project files ($(git -C "$proj" ls-files | wc -l) in the index), $runs runs each"
echo "root library:   $(stats < "$work/root.times")"
echo "prefix library: $(stats < "$work/prefix.times")"
echo "prefix library, split index: $(stats < "$work/split.times") (.git/index $split_size bytes)"
echo "git commit in the project (for scale): $(stats < "$work/git.times")"
# The kernel's floor: replacing each index file as a write does (map and
# read it, write a new one, rename it over, syncfs, exit), no code of ours.
floor_p=$("$work/indexfloor" -runs "$runs" "$proj/.git/index" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
floor_r=$("$work/indexfloor" -runs "$runs" "$lib/.git/index" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
echo "kernel floor of replacing the index (bench/indexfloor): project $floor_p ms ($(stat -c %s "$proj/.git/index") bytes), root library $floor_r ms ($(stat -c %s "$lib/.git/index") bytes)"
awk -v a="$(median < "$work/prefix.times")" -v b="$(median < "$work/root.times")" 'BEGIN {printf "ratio prefix/root (medians): %.2fx (target <= 1.20x)\n", a/b}'
awk -v a="$(median < "$work/split.times")" -v b="$(median < "$work/root.times")" 'BEGIN {printf "ratio prefix with split index/root (medians): %.2fx (target <= 1.20x)\n", a/b}'
awk -v b="$(median < "$work/root.times")" -v fp="$floor_p" -v fr="$floor_r" 'BEGIN {printf "floor ratio, root library + the kernel'"'"'s extra for the larger index: %.2fx\n", (b/1e6 + fp - fr)/(b/1e6)}'
