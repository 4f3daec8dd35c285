# Set-up shared by the benchmarks that run the real agent programs
# (hooks-agents.sh, review-latency-agents.sh), sourced after `set -euo
# pipefail`: `agents_bench NAME` says the benchmark is skipped and exits
# 0 unless SKILLREPO_AGENTS_BIN names a folder holding claude, codex and
# gemini (as scripts/agents-e2e.sh installs them; a benchmark installs
# nothing); else it sets root, bin_dir and work (a temporary folder,
# removed at exit), builds skillrepo and fakemodel into $work/bin, and
# exports what scripts/e2e/lib.sh's sandbox reads (E2E_BIN, E2E_ROOT,
# E2E_CLAUDE, E2E_CODEX, E2E_GEMINI).
agents_bench() {
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  bin_dir=${SKILLREPO_AGENTS_BIN:-}
  if [ -z "$bin_dir" ]; then
    echo "$1: skipped: set SKILLREPO_AGENTS_BIN to a folder holding claude, codex and gemini (see scripts/agents-e2e.sh)"
    exit 0
  fi
  export E2E_CLAUDE="$bin_dir/claude" E2E_CODEX="$bin_dir/codex" E2E_GEMINI="$bin_dir/gemini"
  work=$(mktemp -d)
  trap agents_bench_cleanup EXIT
  (cd "$root" && go build -o "$work/bin/skillrepo" ./cmd/skillrepo && go build -o "$work/bin/fakemodel" ./internal/fakemodel/cmd/fakemodel)
  export E2E_BIN="$work/bin" E2E_ROOT="$root"
}

# agents_bench_cleanup removes the work folder (a detached worker may
# still be writing its last line: give it a second).
agents_bench_cleanup() {
  sleep 1
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work" 2>/dev/null || true
}
