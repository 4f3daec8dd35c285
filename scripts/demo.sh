#!/usr/bin/env bash
# Build skillrepo and show what it does on a sample library, with no API key
# and no network:
#   1. the library: init, create, patch, list, view, log, blame, lint;
#   2. the loop: a background review of a real Claude Code session (bundled
#      in review/testdata) by the project's scripted model server on a
#      loopback port lands as a proposal; proposal diff shows it; approve
#      merges it; skill blame names the review and its model; curator run
#      --dry-run explains what it would age.
# Needs only Go and git.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
bin="$work/skillrepo"
# On an empty Go cache the build downloads the modules and compiles them:
# minutes of "go: downloading" lines, so say what is happening first.
echo "building skillrepo and the demo's scripted model server (on a fresh Go cache this downloads and compiles the dependencies: a few minutes; then seconds)..." >&2
(cd "$root" && go build -o "$bin" ./cmd/skillrepo && go build -o "$work/fakemodel" ./internal/fakemodel/cmd/fakemodel)
echo "built." >&2
lib="$work/lib"
SECONDS=0 # the demo's own time, after the build
run() { printf '\n$ skillrepo'; printf ' %q' "$@"; printf '\n'; "$bin" -C "$lib" "$@"; }
say() { printf '\n# %s\n' "$*"; }

# A demo identity when git has none, so commits say who the person is.
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-$(git config user.name || echo 'Demo User')}"
export GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-$(git config user.email || echo 'demo@example.com')}"
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}"
export GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}"

say "1. The library: every write is a commit with provenance trailers"
printf '$ skillrepo init --example %s\n' "$lib"
"$bin" init --example "$lib"
cat > "$work/SKILL.md" <<'SKILL'
---
name: flaky-tests
description: Use when a test fails only sometimes. Isolate, fix.
---
# Flaky tests
1. Re-run the test 20 times in a loop to measure the failure rate.
2. Look for shared state, time and ordering assumptions.
SKILL
run skill create flaky-tests --category testing --content-file "$work/SKILL.md"
run skill patch flaky-tests --old "20 times" --new "50 times"
say "the commit the patch made: who, what, and the provenance trailers"
printf '$ git log -1 --format=%%B\n'
git -C "$lib" log -1 --format=%B
run skill list
run skill view flaky-tests
run skill log flaky-tests
run lint

say "2. The loop: a review of a finished session, staged as a proposal"
# Hold the agent's writes for approval (review.write_approval), recorded as
# a commit of the person's own edit.
sed -i.bak 's/write_approval: false/write_approval: true/' "$lib/.skillrepo/config.yaml"
rm -f "$lib/.skillrepo/config.yaml.bak"
run sync -m "config: hold background reviews for approval"

# The scripted model: it lists the skills, then writes one class-level skill
# from the session (an xterm.js terminal inside a page that would not scroll
# back while tmux ran in it). A real model would be --base-url/--model.
cat > "$work/model.json" <<'MODEL'
[
  {"tool_calls": [{"name": "skills_list", "arguments": {}}]},
  {"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "embedded-terminal-scrolling", "category": "frontend", "content": "---\nname: embedded-terminal-scrolling\ndescription: Use when an embedded xterm.js terminal will not scroll.\n---\n# Scrolling in an embedded terminal (xterm.js)\n\n1. Check what runs inside the terminal first: tmux and full-screen programs\n   use the alternate screen, so xterm.js has no scrollback of its own.\n2. With tmux inside, scroll through tmux: `set -g mouse on` makes the wheel\n   enter copy mode; otherwise send tmux's copy-mode keys from the page.\n3. Only when nothing inside uses the alternate screen, raise the Terminal's\n   `scrollback` option.\n\n## Pitfalls\n- A page that calls preventDefault on wheel events swallows them before\n  xterm.js sees them: let events over the terminal element through.\n"}]}}]},
  {"content": "Created embedded-terminal-scrolling from the xterm.js and tmux scrolling lesson."}
]
MODEL
"$work/fakemodel" "$work/model.json" > "$work/fakemodel.url" &
fake=$!
trap 'kill "$fake" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  [ -s "$work/fakemodel.url" ] && break
  sleep 0.05
done
OPENAI_BASE_URL=$(head -n 1 "$work/fakemodel.url")
export OPENAI_BASE_URL OPENAI_API_KEY=scripted-no-key
transcript="$root/review/testdata/claude-code/tool_heavy.jsonl"
printf '\n$ skillrepo review %s --model demo-model\n' "${transcript#"$root"/}"
"$bin" -C "$lib" review "$transcript" --model demo-model --review-id r-demo-1
run proposal list
run proposal diff r-demo-1
run proposal approve r-demo-1 --by "$GIT_AUTHOR_NAME"
run skill blame embedded-terminal-scrolling
say "the review's commit (second parent of the merge): the agent is its author, you its committer"
printf '$ git log -1 --format="%%h author: %%an | committer: %%cn | %%s%%n%%n%%(trailers)" main^2\n'
git -C "$lib" log -1 --format='%h author: %an | committer: %cn | %s%n%n%(trailers)' main^2

say "3. The curator: what it would age (pretend the new skill was last used in January)"
cat > "$lib/.usage.json" <<'USAGE'
{
  "embedded-terminal-scrolling": {
    "created_by": "agent", "use_count": 2, "view_count": 3, "patch_count": 0,
    "last_used_at": "2026-01-05T09:00:00+00:00", "last_viewed_at": "2026-01-05T09:00:00+00:00",
    "created_at": "2026-01-02T09:00:00+00:00", "state": "active", "pinned": false
  }
}
USAGE
run curator run --dry-run

printf '\nThe demo took %ss after the build. The library is in %s; try: %s -C %s --help\n' "$SECONDS" "$lib" "$bin" "$lib"
