# /refine from inside a Gemini CLI session: the custom command `hooks
# install --gemini` wrote runs its !{…} line before the model answers —
# `skillrepo review --session current --focus {{args}}` — which finds the
# newest session of the folder (Gemini CLI exports no session id) and
# reviews it through the same `gemini` (no endpoint anywhere), its focus in
# the review's prompt.
need gemini
fake_start - <<'JSON'
[
  {"api": "gemini", "match": "Focus: deployment steps", "unless": "functionResponse", "tool_calls": [{"name": "mcp_skillrepo_memory", "arguments": {"action": "add", "target": "memory", "content": "Deploy to staging with make deploy ENV=staging after make check."}}]},
  {"api": "gemini", "match": "Focus: deployment steps", "content": "Saved one memory entry."},
  {"api": "gemini", "match": "outcome of skillrepo's review", "content": "The review saved a memory about deploying (see skillrepo log).", "times": -1},
  {"api": "gemini", "content": "Deployed: make check passed, then make deploy ENV=staging.", "times": -1}
]
JSON
gemini_env gemini-2.5-flash
lib="$HOME/.gemini/skills"
mkdir -p "$lib"
sr init --example "$lib"
gemini_trust "$E2E_PROJECT"
cd "$E2E_PROJECT"
sr hooks install --gemini 2>"$E2E_DIR/install.txt"
must "$E2E_DIR/install.txt" 'wrote the in-agent /refine command in .*commands/refine.toml' "hooks install wrote no /refine command"
gemini -m "$GEMINI_MODEL" --approval-mode yolo -p "Deploy the app to staging." --output-format json >"$E2E_DIR/session.json"
session=$(sed -n 's/.*"session_id": *"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json" | head -n 1)
[ -n "$session" ] || fail "no session id in the session's result"

# The person types /refine in the same session.
gemini -m "$GEMINI_MODEL" --approval-mode yolo --resume latest -p "/refine deployment steps" --output-format json >"$E2E_DIR/refine.json"
must "$E2E_DIR/refine.json" 'saved a memory about deploying' "the model did not tell the review's outcome"
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$lib/.memory/MEMORY.md" 'make deploy ENV=staging' "the /refine review's memory entry is not in MEMORY.md"
no_egress
