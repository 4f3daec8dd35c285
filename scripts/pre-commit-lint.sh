#!/bin/sh
# The pre-commit framework's skillrepo-lint hook (.pre-commit-hooks.yaml,
# language: script). pre-commit runs this from the root of the repository
# being committed; it builds the skillrepo command alone (not every program
# of the module, as language: golang's `go install ./...` would), once per
# checkout of the hook, and runs `skillrepo lint` with the hook's args.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
bin="$src/.pre-commit-build/skillrepo"
if [ ! -x "$bin" ]; then
	if ! command -v go > /dev/null 2>&1; then
		echo "skillrepo-lint: building skillrepo needs Go (https://go.dev/dl/); or install skillrepo and use a local hook with entry: skillrepo lint" >&2
		exit 2
	fi
	echo "skillrepo-lint: building skillrepo once for this hook version (go build ./cmd/skillrepo)..." >&2
	mkdir -p "$src/.pre-commit-build"
	tmp="$bin.tmp.$$"
	trap 'rm -f "$tmp"' EXIT
	# GOTOOLCHAIN=auto fetches the Go version go.mod needs, if newer.
	(cd "$src" && GOTOOLCHAIN=auto GOFLAGS=-mod=readonly go build -trimpath -o "$tmp" ./cmd/skillrepo)
	mv -f "$tmp" "$bin" # whole, or not at all
	trap - EXIT
fi
exec "$bin" lint "$@"
