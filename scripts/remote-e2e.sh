#!/usr/bin/env bash
# The shared remote against Debian's web server (docs/remote.md §8): git
# http-backend behind lighttpd (or apache2 when lighttpd is not there) on
# 127.0.0.1, and the fleet test on it — 8 clones of one library, each with
# four concurrent writers, for two minutes, while a person approves on the
# server side with plain git — then its checks: every write on the
# remote's main or in a published proposal, no forced update in the
# server's reflog, git fsck --strict everywhere, one SessionStart converges
# every clone.
#
# It installs lighttpd with apt-get when it is missing and apt can reach
# its mirror; otherwise it says clearly that it skips and exits 0.
#
#   scripts/remote-e2e.sh                 # 8 clones, 2 minutes
#   FLEET_CLONES=3 FLEET_DURATION=20s scripts/remote-e2e.sh
#
# Needs Go and git; reads no stdin.
set -euo pipefail
exec </dev/null

repo=$(cd "$(dirname "$0")/.." && pwd)
clones=${FLEET_CLONES:-8}
duration=${FLEET_DURATION:-2m}

skip() { echo "remote-e2e: SKIPPED: $*" >&2; exit 0; }

server=""
if command -v lighttpd >/dev/null 2>&1; then
  server=lighttpd
elif command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ]; then
  server=apache2
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "remote-e2e: installing lighttpd with apt-get" >&2
  if DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q --no-install-recommends lighttpd >/dev/null 2>&1 ||
     { timeout 120 apt-get update -q >/dev/null 2>&1 &&
       DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q --no-install-recommends lighttpd >/dev/null 2>&1; }; then
    server=lighttpd
  else
    skip "lighttpd is not installed and apt-get could not install it (no mirror reachable?)"
  fi
else
  skip "neither lighttpd nor apache2 is installed, and apt-get is not available as root to install lighttpd"
fi
backend="$(git --exec-path)/git-http-backend"
[ -x "$backend" ] || skip "git-http-backend is not at $backend"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skillrepo-remote-e2e.XXXXXX")
pidfile="$tmp/server.pid"
cleanup() {
  if [ -s "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

root="$tmp/repos"
mkdir -p "$root" "$tmp/www" "$tmp/home"
# git here reads no user or system config (go test keeps the real HOME:
# its module and build caches live there).
g() { HOME="$tmp/home" GIT_CONFIG_NOSYSTEM=1 git "$@"; }
bare="$root/skills.git"
g init -q --bare -b main "$bare"
g -C "$bare" config http.receivepack true
g -C "$bare" config core.logAllRefUpdates always

start_lighttpd() {
  cat >"$tmp/lighttpd.conf" <<EOF
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $1
server.pid-file = "$pidfile"
server.errorlog = "$tmp/error.log"
server.modules = ("mod_alias", "mod_cgi", "mod_setenv")
alias.url = ("/git" => "$backend")
\$HTTP["url"] =~ "^/git" {
  cgi.assign = ("" => "")
  setenv.add-environment = (
    "GIT_PROJECT_ROOT" => "$root",
    "GIT_HTTP_EXPORT_ALL" => "1",
    "GIT_CONFIG_NOSYSTEM" => "1",
    "HOME" => "$tmp/home",
    "REMOTE_USER" => "fleet"
  )
}
EOF
  lighttpd -f "$tmp/lighttpd.conf" # daemonises, writing its pid
}

start_apache2() {
  local mods=/usr/lib/apache2/modules
  cat >"$tmp/apache2.conf" <<EOF
ServerRoot "$tmp"
ServerName 127.0.0.1
Listen 127.0.0.1:$1
PidFile "$pidfile"
ErrorLog "$tmp/error.log"
LoadModule mpm_prefork_module $mods/mod_mpm_prefork.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule alias_module $mods/mod_alias.so
LoadModule cgi_module $mods/mod_cgi.so
LoadModule env_module $mods/mod_env.so
SetEnv GIT_PROJECT_ROOT $root
SetEnv GIT_HTTP_EXPORT_ALL 1
SetEnv GIT_CONFIG_NOSYSTEM 1
SetEnv HOME $tmp/home
SetEnv REMOTE_USER fleet
ScriptAlias /git/ $backend/
<Directory "$(dirname "$backend")">
  Require all granted
</Directory>
EOF
  if [ "$(id -u)" = 0 ]; then echo "User nobody" >>"$tmp/apache2.conf"; echo "Group nogroup" >>"$tmp/apache2.conf"; fi
  /usr/sbin/apache2 -f "$tmp/apache2.conf" -k start
}

url=""
for try in 1 2 3 4 5 6 7 8; do
  port=$(( 20000 + (RANDOM % 20000) ))
  rm -f "$pidfile"
  if "start_$server" "$port" 2>>"$tmp/start.log"; then
    for _ in $(seq 1 50); do
      if g ls-remote "http://127.0.0.1:$port/git/skills.git" >/dev/null 2>&1; then
        url="http://127.0.0.1:$port/git/skills.git"
        break 2
      fi
      sleep 0.1
    done
  fi
  if [ -s "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
done
if [ -z "$url" ]; then
  cat "$tmp/start.log" "$tmp/error.log" 2>/dev/null >&2 || true
  echo "remote-e2e: FAILED: $server did not serve git on 127.0.0.1" >&2
  exit 1
fi
echo "remote-e2e: $server serves $url (git http-backend); fleet of $clones clones for $duration" >&2

cd "$repo"
go test ./cmd/skillrepo -run '^TestFleet$' -count=1 -v -timeout 40m \
  -fleet.clones="$clones" -fleet.duration="$duration" -fleet.url="$url" -fleet.dir="$bare"
echo "remote-e2e: passed ($server)" >&2
