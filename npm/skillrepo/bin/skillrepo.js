#!/usr/bin/env node
// skillrepo's npm command: it runs the prebuilt binary of this machine's
// platform package (@skillrepo/cli-<os>-<arch>), which npm installed as
// an optional dependency (each declares its os and cpu, so npm installs
// only the one that fits). Nothing is downloaded at install or run time.
// Arguments, standard streams and the exit code pass through unchanged:
// agents read a hook's exit code (docs/agents.md).
"use strict";

const { spawnSync } = require("node:child_process");

const platforms = {
  "darwin arm64": "@skillrepo/cli-darwin-arm64",
  "darwin x64": "@skillrepo/cli-darwin-x64",
  "linux arm64": "@skillrepo/cli-linux-arm64",
  "linux x64": "@skillrepo/cli-linux-x64",
  "win32 arm64": "@skillrepo/cli-win32-arm64",
  "win32 x64": "@skillrepo/cli-win32-x64",
};

function fail(message) {
  process.stderr.write(`skillrepo: ${message}\n`);
  process.exit(1);
}

const pkg = platforms[`${process.platform} ${process.arch}`];
if (!pkg) {
  fail(
    `no prebuilt binary for ${process.platform}/${process.arch}; ` +
      "build it with Go: go install github.com/skillrepo/skillrepo/cmd/skillrepo@latest",
  );
}
const exe = process.platform === "win32" ? "skillrepo.exe" : "skillrepo";
let bin;
try {
  bin = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  fail(
    `${pkg} is not installed: npm installs it as an optional dependency of skillrepo, ` +
      "and leaves it out with --omit=optional (or --no-optional). Install again: npm install -g skillrepo",
  );
}
const run = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (run.error) {
  fail(`cannot run ${bin}: ${run.error.message}`);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
