#!/bin/sh
# SessionStart check of the skillrepo plugin for Claude Code: the plugin's
# hooks and MCP server run the `skillrepo` program, which the plugin does
# not carry (docs/install.md). When it is not on PATH, or the library the
# hooks serve is not one yet, say once how to get there, as a message to
# the person; never fail the session (always exit 0).
lib=${SKILLREPO_LIBRARY:-${CLAUDE_CONFIG_DIR:-$HOME/.claude}/skills}
if ! command -v skillrepo >/dev/null 2>&1; then
  msg="skillrepo plugin: the skillrepo program is not on PATH, so its hooks and MCP server do nothing. Install it with: npm install -g skillrepo (or a release archive, see docs/install.md at https://github.com/skillrepo/skillrepo), then run: skillrepo init $lib"
elif [ ! -f "$lib/.skillrepo/config.yaml" ]; then
  msg="skillrepo plugin: $lib is not a skillrepo library yet, so its hooks do nothing. Run: skillrepo init $lib (or set SKILLREPO_LIBRARY to your library)"
else
  exit 0
fi
# JSON string: escape backslashes and double quotes (a path may hold them).
esc=$(printf '%s' "$msg" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')
printf '{"systemMessage": "%s"}\n' "$esc"
exit 0
