# /refine from inside a Claude Code session: the slash command `hooks
# install --claude-code` wrote runs its !-line before the model answers —
# `skillrepo review --session current --focus "$ARGUMENTS"` — which finds
# the session from CLAUDE_CODE_SESSION_ID, forks it through the same
# `claude` program (no endpoint anywhere), and lands the review, its focus
# in the review's prompt; the model then tells the person.
need claude
fake_start - <<'JSON'
[
  {"match": "Focus: deployment steps", "tool_calls": [{"name": "mcp__skillrepo__skill_manage", "arguments": {"operations": [{"action": "create", "name": "staging-deploy", "category": "devops", "content": "---\nname: staging-deploy\ndescription: Use when deploying the app to staging.\n---\n# Deploy to staging\n\n1. Run make check.\n2. Run make deploy ENV=staging and watch the health page.\n"}]}}]},
  {"match": "Focus: deployment steps", "content": "Created staging-deploy."},
  {"match": "outcome of skillrepo's review", "content": "The review created the skill staging-deploy (see skillrepo log).", "times": -1},
  {"content": "Deployed: make check passed, then make deploy ENV=staging; the health page is green.", "times": -1}
]
JSON
claude_env
agent_library claude-code
[ -f "$HOME/.claude/commands/refine.md" ] || fail "hooks install wrote no /refine command"
cd "$E2E_PROJECT"
claude -p "Deploy the app to staging." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
[ -n "$session" ] || fail "no session id in the session's result"

# The person types /refine in the same session.
claude -p "/refine deployment steps" --resume "$session" --model claude-e2e-model --output-format json >"$E2E_DIR/refine.json"
must "$E2E_DIR/refine.json" 'created the skill staging-deploy' "the model did not tell the review's outcome"
git -C "$lib" log --format='%H %s%n%(trailers)' main >"$E2E_DIR/log.txt"
must "$E2E_DIR/log.txt" "^Session-Id: $session\$" "the review's commit does not name the session"
must "$E2E_DIR/log.txt" '^Skill-Name: staging-deploy$' "the /refine review did not land"
[ -f "$lib/devops/staging-deploy/SKILL.md" ] || fail "the skill is not in the work tree"
review_request messages 'Focus: deployment steps'
must "$E2E_DIR/review-request.json" 'Deploy the app to staging' "the review did not see the session's conversation"
no_egress
