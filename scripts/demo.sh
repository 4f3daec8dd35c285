#!/usr/bin/env bash
# Build skillrepo and run its main job on the sample library: init, create,
# patch, list, view and the history of a skill. Needs only Go and git.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
bin="$work/skillrepo"
(cd "$root" && go build -o "$bin" ./cmd/skillrepo)
lib="$work/lib"
run() { printf '\n$ skillrepo %s\n' "$*"; "$bin" -C "$lib" "$@"; }

printf '$ skillrepo init --example %s\n' "$lib"
"$bin" init --example "$lib"
cat > "$work/SKILL.md" <<'SKILL'
---
name: flaky-tests
description: Use when a test fails only sometimes. Isolate, fix.
---
# Flaky tests
1. Re-run the test 20 times in a loop to measure the failure rate.
2. Look for shared state, time and ordering assumptions.
SKILL
run skill create flaky-tests --category testing --content-file "$work/SKILL.md"
run skill patch flaky-tests --old "20 times" --new "50 times" --origin background-review --review-id r-demo-1 --model demo-model
run skill list
run skill view flaky-tests
run skill log flaky-tests
run skill blame flaky-tests
run lint
printf '\nThe library is in %s; try: %s -C %s --help\n' "$lib" "$bin" "$lib"
