#!/usr/bin/env bash
# Benchmark of the shared remote (docs/remote.md §7), on a generated
# library of 10,000 skills and 2,000 commits, its remote served by a real
# git daemon on 127.0.0.1 (git://):
#   1. publishing a proposal (`skillrepo proposal publish`: the lease, the
#      push, the tracking ref, the publication record) beside `git push` of
#      the same kind of branch;
#   2. `skillrepo proposal list` with 1,000 proposals, 200 of them
#      published (target: 1 s);
#   3. the SessionStart hook of a library whose remote: section is on
#      (it starts the remote sync, detached) beside the same library with
#      the section off: the fetch adds nothing to the hook's time.
# Prints median and p90 wall time of whole processes; both sides of each
# comparison run in turns in one loop.
#
#   bash bench/remote.sh [runs]
set -euo pipefail
runs=${1:-15}
nprops=1000
npublished=200
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
daemon_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
  if [ -n "${BENCH_KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
(cd "$root" && go build -o "$work/skillrepo" ./cmd/skillrepo)
(cd "$root" && go run ./bench/genrepo -out "$work/lib" -layout category >/dev/null)
lib="$work/lib"
sr="$work/skillrepo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME="$work" SKILLREPO_WORKER=off

now() { date +%s%N; }
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms  p90 %.1f ms", a[int((NR+1)/2)]/1e6, a[int(NR*0.9+0.5)]/1e6}'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
skill() { printf 'skill-%05d' "$1"; }

# The remote: a bare clone served by git daemon, with a free port found
# by trying.
mkdir -p "$work/srv"
git clone -q --bare "$lib" "$work/srv/skills.git"
git -C "$work/srv/skills.git" config core.logAllRefUpdates always
for try in 1 2 3 4 5 6 7 8; do
  port=$(( 20000 + (RANDOM % 20000) ))
  git daemon --reuseaddr --listen=127.0.0.1 --port="$port" --base-path="$work/srv" --export-all \
    --enable=receive-pack "$work/srv" 2>"$work/daemon.log" &
  daemon_pid=$!
  for _ in $(seq 1 30); do
    if git ls-remote "git://127.0.0.1:$port/skills.git" >/dev/null 2>&1; then break 2; fi
    sleep 0.1
  done
  kill "$daemon_pid" 2>/dev/null || true
  daemon_pid=""
done
[ -n "$daemon_pid" ] || { echo "git daemon did not start" >&2; exit 1; }
url="git://127.0.0.1:$port/skills.git"
git -C "$lib" remote add origin "$url"
git -C "$lib" fetch -q origin
cat >>"$lib/.skillrepo/config.yaml" <<'EOF'
remote:
  main: both
  proposals: push
EOF
git -C "$lib" commit -qam "share the library"
git -C "$lib" push -q origin main

# --- 1. publish ------------------------------------------------------------
: > "$work/publish.times"
: > "$work/gitpush.times"
for i in $(seq 1 "$runs"); do
  "$sr" -C "$lib" skill patch "$(skill $((1000 + i)))" --old "Step 1 of" --new "Step one of" --proposal "pub-$i" 2>/dev/null
  "$sr" -C "$lib" skill patch "$(skill $((2000 + i)))" --old "Step 1 of" --new "Step one of" --proposal "git-$i" 2>/dev/null
  if [ $((i % 2)) = 0 ]; then
    t0=$(now); "$sr" -C "$lib" proposal publish "pub-$i" 2>/dev/null; echo $(( $(now) - t0 )) >> "$work/publish.times"
    t0=$(now); git -C "$lib" push -q origin "proposals/git-$i"; echo $(( $(now) - t0 )) >> "$work/gitpush.times"
  else
    t0=$(now); git -C "$lib" push -q origin "proposals/git-$i"; echo $(( $(now) - t0 )) >> "$work/gitpush.times"
    t0=$(now); "$sr" -C "$lib" proposal publish "pub-$i" 2>/dev/null; echo $(( $(now) - t0 )) >> "$work/publish.times"
  fi
done
[ "$(git -C "$work/srv/skills.git" for-each-ref refs/heads/proposals/ | wc -l)" = $((2 * runs)) ] || { echo "not every branch reached the remote" >&2; exit 1; }
echo "bench: publish measured" >&2

# --- 2. list ---------------------------------------------------------------
# 1,000 proposals of one commit each, made with git's plumbing (the list
# reads them; how they were made does not matter), 200 published.
base=$(git -C "$lib" rev-parse main)
git -C "$lib" ls-tree -r --name-only main | grep '/SKILL.md$' > "$work/paths"
export GIT_INDEX_FILE="$work/index"
git -C "$lib" read-tree main
for i in $(seq 1 "$nprops"); do
  name=$(skill $((3000 + i)))
  f=$(grep -m1 "/$name/SKILL.md$" "$work/paths")
  old=$(git -C "$lib" rev-parse "main:$f")
  blob=$(git -C "$lib" cat-file blob "$old" | sed 's/Step 2 of/Step two of/' | git -C "$lib" hash-object -w --stdin)
  git -C "$lib" update-index --cacheinfo "100644,$blob,$f"
  tree=$(git -C "$lib" write-tree)
  git -C "$lib" update-index --cacheinfo "100644,$old,$f"
  c=$(printf 'skill: patch %s\n\nSkill-Action: patch\nSkill-Name: %s\nSkill-Origin: background-review\nReview-Id: r-%d\n' "$name" "$name" "$i" |
    git -C "$lib" commit-tree "$tree" -p "$base")
  echo "create refs/heads/proposals/p-$i $c"
done | git -C "$lib" update-ref --stdin
unset GIT_INDEX_FILE
echo "bench: $nprops proposals made" >&2
for i in $(seq 1 "$npublished"); do
  "$sr" -C "$lib" proposal publish "p-$i" 2>/dev/null
done
echo "bench: $npublished published" >&2
n=$("$sr" -C "$lib" proposal list | grep -c '^p-.* published$' || true)
[ "$n" = "$npublished" ] || { echo "expected $npublished published proposals in the list, got $n" >&2; exit 1; }
: > "$work/list.times"
for i in $(seq 1 "$runs"); do
  t0=$(now); "$sr" -C "$lib" proposal list >/dev/null; echo $(( $(now) - t0 )) >> "$work/list.times"
done

# --- 3. SessionStart -------------------------------------------------------
# Two clones of the library: one with the remote: section on, one with it
# off. Background processes on (the hook starts the remote sync).
unset SKILLREPO_WORKER
git clone -q "$url" "$work/on"
git clone -q "$url" "$work/off"
sed -i '/^remote:/,$d' "$work/off/.skillrepo/config.yaml"
git -C "$work/off" commit -qam "not shared"
in='{"session_id":"bench","hook_event_name":"SessionStart","source":"startup"}'
: > "$work/on.times"
: > "$work/off.times"
for i in $(seq 1 "$runs"); do
  for side in on off; do
    t0=$(now); echo "$in" | "$sr" -C "$work/$side" hooks run claude-code SessionStart >/dev/null; echo $(( $(now) - t0 )) >> "$work/$side.times"
  done
  sleep 0.2 # let the detached syncs finish before the next turn
done
grep -q 'started the remote sync' "$work/on/.git/skillrepo/logs/hooks.log" || { echo "the hook did not start the remote sync" >&2; exit 1; }

echo "layout=category skills=10000 commits=2000 runs=$runs remote=git daemon on 127.0.0.1"
echo "proposal publish (1 commit):          $(stats < "$work/publish.times")"
echo "git push of the same kind of branch:  $(stats < "$work/gitpush.times")"
echo "proposal list ($nprops, $npublished published): $(stats < "$work/list.times")"
echo "SessionStart hook, remote: on:        $(stats < "$work/on.times")"
echo "SessionStart hook, remote: off:       $(stats < "$work/off.times")"
awk -v a="$(median < "$work/publish.times")" -v b="$(median < "$work/gitpush.times")" \
    -v c="$(median < "$work/on.times")" -v d="$(median < "$work/off.times")" \
    'BEGIN {printf "ratio publish/git push: %.2f   SessionStart on/off: %.2f\n", a/b, c/d}'
