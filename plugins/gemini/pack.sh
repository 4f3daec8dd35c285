#!/usr/bin/env bash
# Packs the Gemini CLI extension (this folder) as the release assets
# `gemini extensions install https://github.com/skillrepo/skillrepo` takes:
#
#   plugins/gemini/pack.sh OUT
#
# Gemini CLI installs from a GitHub repository's latest release the asset
# whose name starts with `<platform>.<arch>.` (node's os.platform() and
# os.arch()), else the source tarball, which would not do here: the
# extension is this folder, not the repository's root. So OUT gets one
# archive per platform the release builds for,
# <linux|darwin|win32>.<x64|arm64>.skillrepo-gemini-extension.tar.gz, each
# holding gemini-extension.json, hooks/ and commands/ at its root (the same files: the
# extension runs the skillrepo on PATH). The release workflow uploads them
# (docs/install.md §4).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: plugins/gemini/pack.sh OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
for os in linux darwin win32; do
  for cpu in x64 arm64; do
    tar -C "$here" --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' --sort=name \
      -czf "$out/$os.$cpu.skillrepo-gemini-extension.tar.gz" gemini-extension.json hooks commands
  done
done
ls "$out"
