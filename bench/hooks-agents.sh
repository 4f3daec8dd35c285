#!/usr/bin/env bash
# Benchmark: the wall time of each skillrepo hook as the REAL agent runs
# it. Claude Code, Codex and Gemini CLI run headless in a temporary HOME
# against the scripted model on loopback (scripts/e2e/lib.sh's sandbox, as
# scripts/agents-e2e.sh), with skillrepo's hooks installed as a person
# installs them; then the installed command's binary is swapped for a
# wrapper that times the real one (bash $EPOCHREALTIME, no fork), and N
# sessions run per agent, each using a skill once (Claude Code's Skill
# tool, Codex reading SKILL.md through its shell, Gemini CLI's
# activate_skill). Prints per agent and event the count, median and
# maximum in milliseconds.
#
#   SKILLREPO_AGENTS_BIN=/path/to/node_modules/.bin bash bench/hooks-agents.sh [sessions]
#
# Without SKILLREPO_AGENTS_BIN (a folder holding claude, codex and gemini,
# as scripts/agents-e2e.sh installs them) the script says so and exits 0.
set -euo pipefail
exec </dev/null
n=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bin_dir=${SKILLREPO_AGENTS_BIN:-}
if [ -z "$bin_dir" ]; then
  echo "hooks-agents: skipped: set SKILLREPO_AGENTS_BIN to a folder holding claude, codex and gemini (see scripts/agents-e2e.sh)"
  exit 0
fi
export E2E_CLAUDE="$bin_dir/claude" E2E_CODEX="$bin_dir/codex" E2E_GEMINI="$bin_dir/gemini"
work=$(mktemp -d)
cleanup() { sleep 1; chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work" 2>/dev/null || true; }
trap cleanup EXIT
(cd "$root" && go build -o "$work/bin/skillrepo" ./cmd/skillrepo && go build -o "$work/bin/fakemodel" ./internal/fakemodel/cmd/fakemodel)
export E2E_BIN="$work/bin" E2E_ROOT="$root"
times="$work/times.txt"; : >"$times"
cat >"$work/bin/timed" <<SH
#!/usr/bin/env bash
t0=\$EPOCHREALTIME
"$work/bin/skillrepo" "\$@"
rc=\$?
t1=\$EPOCHREALTIME
echo "\$3 \$4 \$(( (\${t1/./} - \${t0/./}) / 1000 ))" >>"$times"
exit \$rc
SH
chmod +x "$work/bin/timed"
# wrap SETTINGS: the installed hooks run the timing wrapper.
wrap() {
  sed -i "s#'$work/bin/skillrepo' hooks run#'$work/bin/timed' hooks run#" "$1"
  grep -q "'$work/bin/timed' hooks run" "$1" || { echo "no installed hook command in $1 to time" >&2; exit 1; }
}

for agent in claude codex gemini; do
 [ -x "$bin_dir/$agent" ] || { echo "$agent: not in $bin_dir, skipped"; continue; }
 (
  export E2E_DIR="$work/$agent" E2E_NAME=$agent
  mkdir -p "$E2E_DIR"
  # shellcheck source=../scripts/e2e/lib.sh
  . "$root/scripts/e2e/lib.sh"
  e2e_sandbox
  case $agent in
  claude)
    fake_start - <<'JSON'
[
 {"api": "messages", "match": "USE-SKILL", "unless": "tool_result", "tool_calls": [{"name": "Skill", "arguments": {"skill": "ci-debugging"}}], "times": -1},
 {"api": "messages", "content": "The first error is a flaky test; re-run it once.", "times": -1}
]
JSON
    claude_env
    lib="$HOME/.claude/skills"; mkdir -p "$lib"; sr init --example "$lib" >/dev/null
    sr hooks install --claude-code 2>/dev/null
    wrap "$HOME/.claude/settings.json"
    cd "$E2E_PROJECT"
    for i in $(seq "$n"); do claude -p "USE-SKILL $i: why does CI fail?" --output-format json >"$E2E_DIR/s$i.json"; done ;;
  codex)
    lib="$HOME/.agents/skills"
    fake_start - <<JSON
[
 {"api": "responses", "match": "READ-SKILL", "unless": "function_call_output", "tool_calls": [{"name": "exec_command", "arguments": {"cmd": "cat $lib/ci-debugging/SKILL.md"}}], "times": -1},
 {"api": "responses", "content": "The first error is a flaky test; re-run it once.", "times": -1}
]
JSON
    codex_env gpt-e2e
    mkdir -p "$lib"; sr init --example "$lib" >/dev/null
    sr hooks install --codex 2>/dev/null
    wrap "$CODEX_HOME/hooks.json"
    cd "$E2E_PROJECT"
    for i in $(seq "$n"); do codex exec --json --dangerously-bypass-hook-trust "READ-SKILL $i: why does CI fail?" >"$E2E_DIR/s$i.jsonl" 2>"$E2E_DIR/s$i.err"; done ;;
  gemini)
    fake_start - <<'JSON'
[
 {"api": "gemini", "unless": "functionResponse", "tool_calls": [{"name": "activate_skill", "arguments": {"name": "ci-debugging"}}], "times": -1},
 {"api": "gemini", "content": "The first error is a flaky test; re-run it once.", "times": -1}
]
JSON
    gemini_env gemini-2.5-flash
    lib="$HOME/.gemini/skills"; mkdir -p "$lib"; sr init --example "$lib" >/dev/null
    sr hooks install --gemini 2>/dev/null
    wrap "$HOME/.gemini/settings.json"
    gemini_trust "$E2E_PROJECT"
    cd "$E2E_PROJECT"
    for i in $(seq "$n"); do gemini -m "$GEMINI_MODEL" --approval-mode yolo -p "Use the ci-debugging skill $i: why does CI fail?" --output-format json >"$E2E_DIR/s$i.json" 2>"$E2E_DIR/s$i.err"; done ;;
  esac
  sleep 2
 ) >"$work/$agent.log" 2>&1 || { echo "$agent: FAILED:"; tail -n 20 "$work/$agent.log"; }
done
[ -s "$times" ] || { echo "no hook ran"; exit 1; }
echo "hook wall time as the agent runs it (ms; $n sessions each):"
sort "$times" | awk '{k=$1" "$2; v[k]=v[k]" "$3} END {for (k in v) print k, v[k]}' | while read -r a e rest; do
  printf '%s\n' $rest | sort -n | awk -v a="$a" -v e="$e" '{x[NR]=$1} END {printf "  %-12s %-18s n=%-3d median %4d  max %4d\n", a, e, NR, x[int((NR+1)/2)], x[NR]}'
done | sort
