# A review reads the session's project, read-only (docs/agents.md, "What a
# review reads"): Claude Code's fork runs in the project with Read, Grep
# and Glob and nothing else it can run; it reads the README and quotes its
# release line into a new skill. Its Bash is refused, .env is denied (by
# Claude Code's deny rule, and by our read_file), a file outside the
# project is blocked, and the secret never reaches the model.
need claude
cat >"$E2E_PROJECT/README.md" <<'MD'
# Shop

Release: run `make ship VERSION=x.y.z` from a clean tree; it tags and deploys.
MD
echo "STRIPE_KEY=sk_live_e2e_secret" >"$E2E_PROJECT/.env"
skill='---\nname: shop-releases\ndescription: Use when releasing the shop.\n---\n# Shop releases\n\nRelease: run `make ship VERSION=x.y.z` from a clean tree; it tags and deploys.\n'
review='"match": "is material to learn from"'
fake_start - <<JSON
[
  {$review, "tool_calls": [{"name": "Bash", "arguments": {"command": "touch $E2E_DIR/pwned", "description": "x"}}]},
  {$review, "tool_calls": [{"name": "Read", "arguments": {"file_path": "$E2E_PROJECT/.env"}}]},
  {$review, "tool_calls": [{"name": "Read", "arguments": {"file_path": "/etc/hostname"}}]},
  {$review, "tool_calls": [{"name": "mcp__skillrepo__read_file", "arguments": {"path": ".env", "scope": "project"}}]},
  {$review, "tool_calls": [{"name": "Read", "arguments": {"file_path": "$E2E_PROJECT/README.md"}}]},
  {$review, "tool_calls": [{"name": "mcp__skillrepo__skill_manage", "arguments": {"operations": [{"action": "create", "name": "shop-releases", "content": "$skill"}]}}]},
  {$review, "content": "Created shop-releases from the README."},
  {"unless": "is material to learn from", "content": "Released 1.2.3 with make ship from a clean tree.", "times": -1}
]
JSON
claude_env
agent_library claude-code
reviews_at_once
cd "$E2E_PROJECT"
claude -p "Release version 1.2.3 of the shop." --model claude-e2e-model --output-format json >"$E2E_DIR/session.json"
must "$E2E_DIR/session.json" '"is_error":false' "the session did not succeed"
session=$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$E2E_DIR/session.json")
[ -n "$session" ] || fail "no session id in the session's result"

review_landed "$session" claude-e2e-model shop-releases
must "$lib/shop-releases/SKILL.md" 'make ship VERSION=x.y.z. from a clean tree' "the skill does not quote the README"
# What each call got back, as the model saw it in the review's last request.
grep '"api":"messages".*Created shop-releases\|"api":"messages".*is material to learn from' "$E2E_DIR/model.log" | tail -n 1 >"$E2E_DIR/review-request.json"
must "$E2E_DIR/review-request.json" 'Bash is disabled for this session' "the fork ran Bash"
must "$E2E_DIR/review-request.json" 'denied by your permission settings' "the fork read .env"
must "$E2E_DIR/review-request.json" 'blockReadsOutsideWorkingDirectories' "the fork read outside the project"
must "$E2E_DIR/review-request.json" '.env looks like a secret' "our read_file read .env"
must "$E2E_DIR/review-request.json" 'Release: run' "the README did not reach the model"
must "$E2E_DIR/review-request.json" 'scope \\"project\\" take paths relative to its folder' "the prompt does not say the project can be read"
must_not "$E2E_DIR/model.log" 'sk_live_e2e_secret' "the secret reached the model"
[ ! -e "$E2E_DIR/pwned" ] || fail "the fork ran a shell command"
one_agent_review claude-code
no_egress
