# A project shares its Codex hooks: `hooks install --codex --scope
# project` writes .codex/hooks.json naming `skillrepo` and the library
# relative to the project (no path of this machine), which is committed.
# A clone of the project, trusted as Codex asks, runs its hooks on the
# clone's own library, not the original's. Nothing leaves the machine.
need codex
fake_start - <<'JSON'
[{"api": "responses", "content": "Hello from the scripted model.", "times": -1}]
JSON
codex_env gpt-e2e
cd "$E2E_PROJECT"
mkdir -p .agents/skills
sr init .agents/skills >/dev/null
sr_exit 5 "$E2E_DIR/install.txt" hooks install --codex --scope project
must .codex/hooks.json "\"command\": \"'skillrepo' hooks run codex SessionStart --library .agents/skills\"" "the committed hooks name a machine's path"
must_not .codex/hooks.json "$E2E_DIR" "the committed hooks name a path of this machine"
git add .codex/hooks.json && git commit -qm "share skillrepo's Codex hooks"

# A clone elsewhere: its own library, its own trust (the hooks.json path
# is part of Codex's trust key).
clone="$E2E_DIR/clone"
git clone -q "$E2E_PROJECT" "$clone"
cd "$clone"
[ -f .agents/skills/.skillrepo/config.yaml ] || fail "the clone has no library"
printf '\n[projects."%s"]\ntrust_level = "trusted"\n' "$clone" >>"$CODEX_HOME/config.toml"
# The project's hooks name skillrepo on PATH; Codex runs them through a
# login shell, whose profile may reset PATH, so the person puts
# skillrepo where it finds it (here: the profile adds it).
printf 'PATH="%s:$PATH"\n' "$E2E_BIN" >"$HOME/.profile"
sr_exit 0 "$E2E_DIR/trust.txt" hooks install --codex --scope project --trust
must "$E2E_DIR/trust.txt" "recorded Codex's trust of 5 hooks"
git diff --quiet .codex/hooks.json || fail "installing in the clone changed the committed file: $(git diff)"
sr doctor --agent codex --scope project >"$E2E_DIR/doctor.txt" || fail "doctor finds problems in the clone: $(cat "$E2E_DIR/doctor.txt")"
codex exec --json "Say hello." >"$E2E_DIR/session.jsonl"
must "$E2E_DIR/session.jsonl" 'Hello from the scripted model' "the session did not run"
# A library inside a project keeps its state under the project's .git.
log=$(find "$clone/.git/skillrepo" -name hooks.log | head -n 1)
[ -n "$log" ] || fail "the clone's hooks did not act on the clone's library (no hooks log under $clone/.git/skillrepo)"
must "$log" 'codex SessionStart' "the clone's hooks did not act on the clone's library"
[ -z "$(find "$E2E_PROJECT/.git" -name hooks.log)" ] || fail "the clone's hooks acted on the original's library"
no_egress
