#!/usr/bin/env bash
# Precision and recall of lint's path-dangling rule on public skill
# collections, before and after a change (bench/README.md, "lint: path
# mentions placed outside the skill"). Builds skillrepo at BASE (a commit)
# and from the work tree, then runs bench/cmd/lintplacement on each
# collection folder; the hand labels are bench/lint-placement-labels.tsv,
# keyed by the folder's name.
#
#   bash bench/lint-placement.sh BASE DIR...
set -euo pipefail
base=${1:?usage: lint-placement.sh BASE DIR...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/base" 2>/dev/null || true; rm -rf "$work"' EXIT
git -C "$root" worktree add -q --detach "$work/base" "$base"
(cd "$work/base" && go build -o "$work/before" ./cmd/skillrepo)
(cd "$root" && go build -o "$work/after" ./cmd/skillrepo)
(cd "$root" && go run ./bench/cmd/lintplacement -before "$work/before" -after "$work/after" -labels bench/lint-placement-labels.tsv "$@")
