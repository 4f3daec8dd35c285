#!/usr/bin/env bash
# Builds the npm packages from a GoReleaser dist folder (.goreleaser.yaml):
#
#   npm/build.sh DIST OUT
#
# OUT gets one tarball per platform archive in DIST,
# skillrepo-cli-<os>-<cpu>-<version>.tgz (the package @skillrepo/cli-<os>-<cpu>:
# the binary, its os and cpu, no scripts), and skillrepo-<version>.tgz (the
# package skillrepo: bin/skillrepo.js, which runs the platform package's
# binary, and every platform package as an optional dependency of exactly
# this version). The pattern esbuild and biome use: npm installs only the
# platform package that fits, from the registry like any package; nothing
# runs or downloads at install time (docs/install.md §2).
#
# The version is the release's (DIST/metadata.json) without build metadata
# (npm drops "+…"). Needs node and npm; writes nothing outside OUT.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: npm/build.sh DIST OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dist=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
version=$(node -p 'require(process.argv[1]).version' "$dist/metadata.json")
version=${version%%+*}
work=$(mktemp -d "${TMPDIR:-/tmp}/skillrepo-npm.XXXXXX")
trap 'rm -rf "$work"' EXIT

optional=()
for goos in linux darwin windows; do
  for goarch in amd64 arm64; do
    os=$goos cpu=$goarch exe=skillrepo
    [ "$goos" = windows ] && os=win32 exe=skillrepo.exe
    [ "$goarch" = amd64 ] && cpu=x64
    name="@skillrepo/cli-$os-$cpu"
    optional+=("$name")
    archive=$(ls "$dist"/skillrepo_*_"${goos}_${goarch}".{tar.gz,zip} 2>/dev/null | head -1 || true)
    [ -n "$archive" ] || continue
    pkg="$work/$os-$cpu"
    mkdir -p "$pkg/bin"
    case "$archive" in
    *.zip) (cd "$pkg/bin" && unzip -q -o "$archive" "$exe") ;;
    *) tar -xzf "$archive" -C "$pkg/bin" "$exe" ;;
    esac
    chmod 755 "$pkg/bin/$exe"
    tar -xzf "$archive" -C "$pkg" LICENSE 2>/dev/null || cp "$here/../LICENSE" "$pkg/"
    node -e '
      const [name, version, os, cpu, exe] = process.argv.slice(1);
      const pkg = {
        name, version,
        description: `The skillrepo binary for ${os} ${cpu}; install the package skillrepo, which picks it.`,
        license: "Apache-2.0",
        repository: { type: "git", url: "git+https://github.com/skillrepo/skillrepo.git" },
        os: [os], cpu: [cpu],
        files: [`bin/${exe}`, "LICENSE"],
        preferUnplugged: true,
      };
      process.stdout.write(JSON.stringify(pkg, null, 2) + "\n");
    ' "$name" "$version" "$os" "$cpu" "$exe" >"$pkg/package.json"
    (cd "$pkg" && npm pack --silent --pack-destination "$out" >/dev/null)
  done
done

main="$work/skillrepo"
cp -R "$here/skillrepo" "$main"
cp "$here/../LICENSE" "$here/../README.md" "$main/"
node -e '
  const fs = require("node:fs");
  const [file, version, ...names] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.version = version;
  pkg.optionalDependencies = Object.fromEntries(names.map((n) => [n, version]));
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$main/package.json" "$version" "${optional[@]}"
chmod 755 "$main/bin/skillrepo.js"
(cd "$main" && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"
