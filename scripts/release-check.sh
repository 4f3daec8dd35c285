#!/usr/bin/env bash
# The release, checked as far as one machine can (.ci/run runs this after
# the Go tests):
#
# 1. windows compiles (every release target of .goreleaser.yaml — linux,
#    darwin, windows × amd64, arm64 — with SKILLREPO_RELEASE_ALL_TARGETS=1),
#    and `go vet` passes for darwin and windows (the per-OS files:
#    docs/git-format.md §13), which type-checks them too;
# 2. a GoReleaser snapshot of this machine's target (`goreleaser release
#    --snapshot` of the configuration narrowed to it): the archive's binary runs `version` and
#    prints the snapshot's version, and checksums.txt matches the archive;
# 3. the npm packages built from that snapshot (npm/build.sh) install into
#    a temporary prefix with the registry unreachable, and the installed
#    `skillrepo version` runs (docs/install.md §2).
#
# GoReleaser is a program, not a dependency of the module: it is installed
# with `go install` into a cache folder outside the repository.
#   SKILLREPO_CI_CACHE      the cache (default ${XDG_CACHE_HOME:-~/.cache}/skillrepo-ci)
#   SKILLREPO_GORELEASER    a goreleaser binary to use instead: no install
#   SKILLREPO_RELEASE_KEEP=1  keep the snapshot and the npm prefix, and print where
#   SKILLREPO_RELEASE_SNAPSHOT=0  skip steps 2 and 3 (saying so)
# When the Go module proxy cannot serve GoReleaser, steps 2 and 3 are
# skipped, saying so; when npm is missing, step 3 is. A skip is not a
# failure; a step that runs and fails makes the exit code 1.
set -euo pipefail
exec </dev/null
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
goreleaser_version=v2.17.0

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skillrepo-release.XXXXXX")
cleanup() {
  if [ "${SKILLREPO_RELEASE_KEEP:-}" = 1 ]; then
    echo "release-check: kept $tmp" >&2
  else
    chmod -R u+w "$tmp" 2>/dev/null || true
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
step() { echo "release-check: $*" >&2; }
fail() { echo "release-check: FAILED: $*" >&2; exit 1; }

# 1. Windows compiles (every target with SKILLREPO_RELEASE_ALL_TARGETS=1); darwin and windows vet.
start=$SECONDS
# In CI no cross build: go vet below type-checks darwin and windows (the
# code differs by OS, not by architecture: there is no cgo and no
# per-architecture file), and the CI budget is 15 minutes; all six
# targets build with SKILLREPO_RELEASE_ALL_TARGETS=1, as GoReleaser does.
targets=""
if [ "${SKILLREPO_RELEASE_ALL_TARGETS:-}" = 1 ]; then
  targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
fi
for target in $targets; do
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build -o /dev/null ./cmd/skillrepo ||
    fail "go build for $target"
done
# go vet type-checks every package and its tests for each OS (the tests'
# unix-only calls sit behind internal/testenv and build tags).
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go vet ./... || fail "go vet for GOOS=darwin"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go vet ./... || fail "go vet for GOOS=windows"
step "builds for ${targets:-no target (SKILLREPO_RELEASE_ALL_TARGETS=1 builds all six)}; go vet passes for darwin and windows ($((SECONDS - start))s)"

# 2. The snapshot. Installing GoReleaser compiles some 400 modules once
# (110 s on two idle cores); the snapshot and the npm step then take about
# 35 s. SKILLREPO_RELEASE_SNAPSHOT=0 skips them, saying so.
if [ "${SKILLREPO_RELEASE_SNAPSHOT:-}" = 0 ] && [ -z "${SKILLREPO_GORELEASER:-}" ]; then
  step "SKIPPED the snapshot and the npm packages: SKILLREPO_RELEASE_SNAPSHOT=0"
  exit 0
fi
goreleaser=${SKILLREPO_GORELEASER:-}
if [ -z "$goreleaser" ]; then
  cache="${SKILLREPO_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skillrepo-ci}"
  goreleaser="$cache/goreleaser-$goreleaser_version/goreleaser"
  if [ ! -x "$goreleaser" ]; then
    step "installing goreleaser $goreleaser_version into $cache (once)"
    mkdir -p "$cache"
    start=$SECONDS
    # Outside the module, so its go.mod is neither read nor changed.
    if ! (cd "$cache" && GOBIN="$cache/goreleaser-$goreleaser_version" GOFLAGS=-mod=mod \
      go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version" >"$cache/goreleaser-install.log" 2>&1); then
      step "SKIPPED the snapshot and the npm packages: the Go module proxy did not serve goreleaser $goreleaser_version (see $cache/goreleaser-install.log)"
      exit 0
    fi
    step "installed goreleaser in $((SECONDS - start))s"
  fi
fi

start=$SECONDS
# A copy of the commit, so dist/ and GoReleaser's git checks touch
# nothing of the caller's checkout.
git clone --quiet --no-checkout "$root" "$tmp/src"
git -C "$tmp/src" -c advice.detachedHead=false checkout --quiet "$(git rev-parse HEAD)"
# This machine's target only: `release` has no --single-target (only
# `build` does, and it makes no archive or checksums), so the snapshot
# reads a copy of the configuration whose build lists this GOOS and
# GOARCH alone, kept outside the clone so GoReleaser sees it clean.
goos=$(go env GOOS) goarch=$(go env GOARCH)
sed -e "s/^    goos: \[.*\]\$/    goos: [$goos]/" -e "s/^    goarch: \[.*\]\$/    goarch: [$goarch]/" \
  "$tmp/src/.goreleaser.yaml" >"$tmp/goreleaser-one-target.yaml"
[ "$(grep -c -e "^    goos: \[$goos\]\$" -e "^    goarch: \[$goarch\]\$" "$tmp/goreleaser-one-target.yaml")" = 2 ] ||
  fail ".goreleaser.yaml's build no longer has the one-line goos and goarch lists this check narrows"
(cd "$tmp/src" && "$goreleaser" release --snapshot --clean --config "$tmp/goreleaser-one-target.yaml" >"$tmp/goreleaser.log" 2>&1) ||
  { cat "$tmp/goreleaser.log" >&2; fail "goreleaser release --snapshot ($goos/$goarch)"; }
dist="$tmp/src/dist"
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$dist/metadata.json" | head -1)
[ -n "$version" ] || fail "no version in $dist/metadata.json"
archive="$dist/skillrepo_${version}_${goos}_${goarch}.tar.gz"
[ -f "$archive" ] || fail "no archive $archive (dist holds: $(ls "$dist" | tr '\n' ' '))"
(cd "$dist" && sha256sum --check --strict checksums.txt >/dev/null) || fail "checksums.txt does not match the archives"
grep -q " $(basename "$archive")\$" "$dist/checksums.txt" || fail "checksums.txt does not list $(basename "$archive")"
mkdir "$tmp/unpacked"
tar -xzf "$archive" -C "$tmp/unpacked"
for f in skillrepo LICENSE README.md CHANGELOG.md; do
  [ -f "$tmp/unpacked/$f" ] || fail "the archive has no $f"
done
got=$("$tmp/unpacked/skillrepo" version)
case "$got" in
"skillrepo $version "*) ;;
*) fail "the archive's binary says '$got', not version $version" ;;
esac
step "snapshot $version for $goos/$goarch: the archive's binary says '$got'; checksums.txt matches ($((SECONDS - start))s)"

# 3. The npm packages.
if ! command -v npm >/dev/null 2>&1; then
  step "SKIPPED the npm packages: npm is not installed"
  exit 0
fi
start=$SECONDS
"$root/npm/build.sh" "$dist" "$tmp/npm" >&2 || fail "npm/build.sh"
npm_os=$goos npm_cpu=$goarch
[ "$goos" = windows ] && npm_os=win32
[ "$goarch" = amd64 ] && npm_cpu=x64
prefix="$tmp/prefix"
# A registry that cannot answer: the install must need nothing from it.
npm install --global --offline --no-audit --no-fund --loglevel=error \
  --prefix "$prefix" --cache "$tmp/npm-cache" --registry http://127.0.0.1:9/ \
  "$tmp/npm/"skillrepo-cli-"$npm_os-$npm_cpu"-*.tgz "$tmp/npm/"skillrepo-[0-9]*.tgz >&2 ||
  fail "npm install of the tarballs with the registry unreachable"
got=$("$prefix/bin/skillrepo" version)
case "$got" in
"skillrepo $version "*) ;;
*) fail "the npm-installed skillrepo says '$got', not version $version" ;;
esac
step "npm install -g of the tarballs, registry unreachable: skillrepo says '$got' ($((SECONDS - start))s)"
