# An OpenCode session goes idle; skillrepo's worker reviews it through the
# same `opencode` program (no OpenAI-compatible endpoint configured for
# skillrepo): `opencode run --session <id> --fork` continues a copy of the
# session on its own model, every tool off but ours (served over MCP,
# named skillrepo_<tool>), and the review's skill_manage call lands a
# commit whose trailers name the session and its model. The review's run
# fires nothing of skillrepo's plugin and its fork is deleted after;
# nothing leaves the machine.
need opencode
command -v rg >/dev/null 2>&1 || skip "ripgrep (rg) is not installed: OpenCode's skill tool would download it from github.com"
fake_start - <<'JSON'
[
  {"api": "chat", "match": "You are a title generator", "content": "Flaky test", "times": -1},
  {"api": "chat", "match": "is material to learn from", "unless": "flaky-test-triage", "tool_calls": [{"name": "skillrepo_skill_manage", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times in a loop and count the failures.\n2. Look for shared state, time and ordering assumptions.\n"}]}}]},
  {"api": "chat", "match": "is material to learn from", "content": "Created flaky-test-triage."},
  {"api": "chat", "unless": "is material to learn from", "content": "The test was flaky: it depended on map order. I sorted the keys and it passes 50 of 50 runs.", "times": -1}
]
JSON
opencode_env fake-model
lib="$XDG_CONFIG_HOME/opencode/skills"
mkdir -p "$lib"
sr init "$lib" >/dev/null
reviews_at_once
sr hooks install --opencode 2>"$E2E_DIR/install.txt"
cd "$E2E_PROJECT"
opencode run "The test TestOrder fails now and then; fix it." >"$E2E_DIR/session.txt" 2>"$E2E_DIR/session.err"
must "$E2E_DIR/session.txt" 'depended on map order' "the session's answer is not the fake's"
session=$(basename "$(ls "$XDG_DATA_HOME/opencode/skillrepo/"ses_*.json | head -n 1)" .json)
[ -n "$session" ] || fail "the plugin wrote no session file"

review_landed "$session" fake/fake-model flaky-test-triage
[ -f "$lib/testing/flaky-test-triage/SKILL.md" ] || fail "the skill is not in the work tree"
grep -m 1 'is material to learn from' "$E2E_DIR/model.log" >"$E2E_DIR/review-request.json" || fail "no review request reached the model"
must "$E2E_DIR/review-request.json" 'depended on map order' "the review did not see the session's conversation"
must "$E2E_DIR/review-request.json" '"model":"fake-model"' "the review did not run on the session's model"
must "$E2E_DIR/review-request.json" '"name":"skillrepo_skill_manage"' "the review was not offered our tools"
must_not "$E2E_DIR/review-request.json" '"name":"(bash|edit|write|read|glob|grep|skill|task|webfetch|todowrite)"' "the review kept a tool of OpenCode's own"
one_agent_review opencode
# The review's fork is deleted from OpenCode's sessions once it ran: the
# person's history holds their session alone.
opencode session list >"$E2E_DIR/sessions.txt" 2>&1
[ "$(grep -o 'ses_[A-Za-z0-9]*' "$E2E_DIR/sessions.txt" | sort -u | wc -l)" -eq 1 ] || fail "OpenCode lists the review's session: $(cat "$E2E_DIR/sessions.txt")"
must "$E2E_DIR/sessions.txt" "$session"
# The review's run wrote no session file of its own (the plugin is inert
# in it): the person's session's alone.
[ "$(ls "$XDG_DATA_HOME/opencode/skillrepo/" | wc -l)" -eq 1 ] || fail "the review left session files: $(ls "$XDG_DATA_HOME/opencode/skillrepo/")"
no_egress
