#!/bin/sh
# Re-run only the failed jobs of a GitHub Actions run.
set -eu
run_id=${1:?usage: rerun-failed.sh <run-id>}
gh run rerun "$run_id" --failed
gh run watch "$run_id"
