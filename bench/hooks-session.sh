#!/usr/bin/env bash
# Benchmark: what skillrepo's hooks add to a whole one-prompt Claude Code
# session (issue 39: at most 8 %, wall and CPU). Two sandboxes of
# scripts/e2e/lib.sh (a temporary HOME each, the scripted model on
# loopback), each with the same library at ~/.claude/skills made by
# `skillrepo init --example`; skillrepo's hooks are installed in one of them
# (`hooks install --claude-code`, as a person installs them), not in the
# other. Then `claude -p` runs the same prompt, which uses a skill once
# (the Skill tool), in the two sandboxes in turns (which goes first
# alternates), RUNS times each, each run timed by /usr/bin/time: wall,
# and user + system CPU of Claude Code with every process it waited for
# (the hooks among them). A third sandbox has the same hooks installed with
# each command replaced by `true`: what Claude Code itself spends on running
# hooks (a shell and a process per event, their JSON), apart from what
# skillrepo's commands cost. Prints the medians of each side and the ratios.
# Headless sessions are not reviewed unless asked (docs/agents.md), so no
# worker starts: what is measured is the hooks on the session's path.
#
#   SKILLREPO_AGENTS_BIN=/path/to/node_modules/.bin bash bench/hooks-session.sh [runs]
#
# Without SKILLREPO_AGENTS_BIN (a folder holding claude, as
# scripts/agents-e2e.sh installs it) the script says so and exits 0.
set -euo pipefail
exec </dev/null
runs=${1:-9}
# shellcheck source=agents-lib.sh
. "$(dirname "$0")/agents-lib.sh"
agents_bench hooks-session
[ -x "$bin_dir/claude" ] || { echo "hooks-session: skipped: no claude in $bin_dir"; exit 0; }
results="$work/results.txt"; : >"$results"

# side NAME HOOKS: set up a sandbox (hooks installed when HOOKS is 1, and
# replaced by `true` when it is "noop") and
# write $work/NAME.sh, which runs one session there (its argument: the run
# number) and appends "NAME wall user sys" to the results.
side() {
  local name=$1 hooks=$2
  (
    export E2E_DIR="$work/$name" E2E_NAME=$name
    mkdir -p "$E2E_DIR"
    # shellcheck source=../scripts/e2e/lib.sh
    . "$root/scripts/e2e/lib.sh"
    e2e_sandbox
    unset SKILLREPO_REVIEW # a headless session as a person runs one
    trap - EXIT            # the model server outlives this set-up
    fake_start - <<'JSON'
[
 {"api": "messages", "match": "USE-SKILL", "unless": "tool_result", "tool_calls": [{"name": "Skill", "arguments": {"skill": "ci-debugging"}}], "times": -1},
 {"api": "messages", "content": "The first error is a flaky test; re-run it once.", "times": -1}
]
JSON
    echo "${E2E_PIDS[*]}" >"$work/$name.pids"
    claude_env
    lib="$HOME/.claude/skills"; mkdir -p "$lib"; sr init --example "$lib" >/dev/null
    if [ "$hooks" != 0 ]; then
      sr hooks install --claude-code 2>/dev/null || true # exit 5: no review model set (none is needed here)
      grep -q "hooks run" "$HOME/.claude/settings.json" || fail "no hook installed"
    fi
    if [ "$hooks" = noop ]; then
      sed -i -E 's#"command": *"[^"]*hooks run[^"]*"#"command": "true"#' "$HOME/.claude/settings.json"
      ! grep -q "hooks run" "$HOME/.claude/settings.json" || fail "a hook left"
    fi
    # The run script: this sandbox's environment, then one session.
    {
      echo '#!/usr/bin/env bash'
      export -p
      echo "cd '$E2E_PROJECT'"
      echo "/usr/bin/time -o '$work/$name.time' -f '%e %U %S' claude -p \"USE-SKILL \$1: why does CI fail?\" --output-format json >'$E2E_DIR/s.json' 2>'$E2E_DIR/s.err' || exit 1"
      echo "grep -q 'flaky test' '$E2E_DIR/s.json' || { echo '$name: the session did not finish' >&2; exit 1; }"
      echo "echo \"$name \$(tail -n 1 '$work/$name.time')\" >>'$results'"
    } >"$work/$name.sh"
    chmod +x "$work/$name.sh"
  )
}
cleanup_sides() {
  local p
  for p in $(cat "$work"/*.pids 2>/dev/null); do kill "$p" 2>/dev/null || true; done
  agents_bench_cleanup
}
trap cleanup_sides EXIT
side hooks 1
side plain 0
side noop noop
"$work/hooks.sh" 0 && "$work/plain.sh" 0 && "$work/noop.sh" 0 # warm up (Claude Code's first start writes its caches)
: >"$results"
for i in $(seq "$runs"); do
  case $((i % 3)) in
  1) "$work/hooks.sh" "$i"; "$work/plain.sh" "$i"; "$work/noop.sh" "$i" ;;
  2) "$work/plain.sh" "$i"; "$work/noop.sh" "$i"; "$work/hooks.sh" "$i" ;;
  0) "$work/noop.sh" "$i"; "$work/hooks.sh" "$i"; "$work/plain.sh" "$i" ;;
  esac
done
echo "one-prompt Claude Code session, $runs runs each, load average $(cut -d' ' -f1-3 /proc/loadavg):"
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for s in hooks noop plain; do
  w=$(awk -v s=$s '$1 == s {print $2}' "$results" | med)
  c=$(awk -v s=$s '$1 == s {print $3 + $4}' "$results" | med)
  printf '  %-6s wall %.2f s  cpu %.2f s\n' "$s" "$w" "$c"
  eval "${s}_w=$w ${s}_c=$c"
done
awk -v hw="$hooks_w" -v pw="$plain_w" -v hc="$hooks_c" -v pc="$plain_c" -v nw="$noop_w" -v nc="$noop_c" 'BEGIN {
  printf "  hooks/plain: wall %.3f  cpu %.3f\n", hw / pw, hc / pc
  printf "  noop/plain:  wall %.3f  cpu %.3f (Claude Code running hooks that do nothing)\n", nw / pw, nc / pc
  printf "  hooks/noop:  wall %.3f  cpu %.3f (what the skillrepo commands add to that)\n", hw / nw, hc / nc }'
