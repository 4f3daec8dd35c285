#!/usr/bin/env bash
# The duplicate check's precision and recall on its labelled set, at
# every threshold from 0.25 to 0.80 (docs/reference-behaviour.md §4.5):
# how many distinct skills a create at that threshold refuses, and how
# many look-alikes it catches naming their target. No git, no network.
#   bash bench/lookalike.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./skillrepo/ -run '^TestDuplicateCheckPrecision$' -count=1 -v |
  sed -n 's/^ *duplicate_precision_test.go:[0-9]*: //p'
