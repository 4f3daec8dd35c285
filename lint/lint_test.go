package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
)

// mapFS builds an in-memory file system from path → content.
func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, c := range files {
		m[p] = &fstest.MapFile{Data: []byte(c), Mode: 0o644}
	}
	return m
}

func check(t *testing.T, files map[string]string, opts Options) *Report {
	t.Helper()
	rep, err := Check(mapFS(files), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func hits(rep *Report, rule string) []Finding {
	var out []Finding
	for _, f := range rep.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// skillMD renders a SKILL.md with the given frontmatter lines and body.
func skillMD(front, body string) string {
	return "---\n" + front + "---\n" + body
}

const okFront = "name: demo\ndescription: Use when testing the linter.\n"

// TestRules checks each rule on a case that must fire it and on a close
// case that must not.
func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		profile Profile
		files   map[string]string
		paths   []string
		rule    string
		fire    bool
		at      string // "path:line:col" of the first hit, when checked
	}{
		{"clean skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "# Demo\nDo it.\n")}, nil, "", false, ""},
		{"target missing", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n")}, []string{"nope"}, "target-missing", true, "nope"},
		{"target not skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/notes.txt": "n"}, []string{"demo/notes.txt"}, "target-not-skill", true, ""},
		{"target is SKILL.md", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n")}, []string{"demo/SKILL.md"}, "target-not-skill", false, ""},
		{"no skill in folder", "", map[string]string{"empty/README.md": "x"}, []string{"empty"}, "skill-md-missing", true, "empty"},
		{"support folders without SKILL.md", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "broken/references/a.md": "a"}, nil, "skill-md-missing", true, "broken"},
		{"category folder", "", map[string]string{"devops/demo/SKILL.md": skillMD(okFront, "x\n"), "devops/DESCRIPTION.md": "d"}, nil, "skill-md-missing", false, ""},
		{"lowercase skill.md", "", map[string]string{"demo/skill.md": skillMD(okFront, "x\n")}, nil, "skill-md-case", true, "demo/skill.md"},
		{"invalid UTF-8", "", map[string]string{"demo/SKILL.md": "---\nname: demo\ndescription: bad \xff byte\n---\nx\n"}, nil, "utf8-invalid", true, "demo/SKILL.md:3"},
		{"BOM", "", map[string]string{"demo/SKILL.md": "\ufeff" + skillMD(okFront, "x\n")}, nil, "bom", true, "demo/SKILL.md:1:1"},
		{"BOM is otherwise fine", "", map[string]string{"demo/SKILL.md": "\ufeff" + skillMD(okFront, "x\n")}, nil, "frontmatter-missing", false, ""},
		{"CRLF", "", map[string]string{"demo/SKILL.md": strings.ReplaceAll(skillMD(okFront, "x\n"), "\n", "\r\n")}, nil, "crlf", true, "demo/SKILL.md:1"},
		{"CRLF parses", "", map[string]string{"demo/SKILL.md": strings.ReplaceAll(skillMD(okFront, "x\n"), "\n", "\r\n")}, nil, "yaml-invalid", false, ""},
		{"no frontmatter", "", map[string]string{"demo/SKILL.md": "# Demo\n"}, nil, "frontmatter-missing", true, "demo/SKILL.md:1:1"},
		{"unclosed frontmatter", "", map[string]string{"demo/SKILL.md": "---\n" + okFront + "# Demo\n"}, nil, "frontmatter-unclosed", true, ""},
		{"closing line at end of file", "", map[string]string{"demo/SKILL.md": "---\n" + okFront + "---"}, nil, "frontmatter-unclosed", false, ""},
		{"invalid YAML line", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: Use when: testing\n", "x\n")}, nil, "yaml-invalid", true, "demo/SKILL.md:3"},
		{"unclosed flow list line", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\nplatforms: [linux\ndescription: x\n", "x\n")}, nil, "yaml-invalid", true, "demo/SKILL.md:3"},
		{"flow list is fine outside skills-ref", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata:\n  tags: [a, b]\n", "x\n")}, nil, "yaml-invalid", false, ""},
		{"frontmatter is a list", "", map[string]string{"demo/SKILL.md": skillMD("- a\n- b\n", "x\n")}, nil, "frontmatter-not-mapping", true, "demo/SKILL.md:2:1"},
		{"duplicate key", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"name: demo\n", "x\n")}, nil, "yaml-duplicate-key", true, "demo/SKILL.md:4:1"},
		{"name missing", "", map[string]string{"demo/SKILL.md": skillMD("description: d\n", "x\n")}, nil, "name-missing", true, ""},
		{"name is a list", "", map[string]string{"demo/SKILL.md": skillMD("name:\n  - demo\ndescription: d\n", "x\n")}, nil, "name-type", true, "demo/SKILL.md:2:1"},
		{"name is empty", "", map[string]string{"demo/SKILL.md": skillMD("name: \"  \"\ndescription: d\n", "x\n")}, nil, "name-type", true, ""},
		{"name too long", "", map[string]string{strings.Repeat("a", 65) + "/SKILL.md": skillMD("name: "+strings.Repeat("a", 65)+"\ndescription: d\n", "x\n")}, nil, "name-too-long", true, ""},
		{"name 64 long", "", map[string]string{strings.Repeat("a", 64) + "/SKILL.md": skillMD("name: "+strings.Repeat("a", 64)+"\ndescription: d\n", "x\n")}, nil, "name-too-long", false, ""},
		{"name uppercase", "", map[string]string{"Demo/SKILL.md": skillMD("name: Demo\ndescription: d\n", "x\n")}, nil, "name-uppercase", true, "Demo/SKILL.md:2:7"},
		{"codex ignores uppercase", ProfileCodex, map[string]string{"Demo/SKILL.md": skillMD("name: Demo\ndescription: d\n", "x\n")}, nil, "name-uppercase", false, ""},
		{"name leading hyphen", "", map[string]string{"-demo/SKILL.md": skillMD("name: -demo\ndescription: d\n", "x\n")}, nil, "name-hyphen-edge", true, ""},
		{"name double hyphen", "", map[string]string{"de--mo/SKILL.md": skillMD("name: de--mo\ndescription: d\n", "x\n")}, nil, "name-consecutive-hyphens", true, ""},
		{"name underscore", "", map[string]string{"my_skill/SKILL.md": skillMD("name: my_skill\ndescription: d\n", "x\n")}, nil, "name-invalid-chars", true, ""},
		{"name unicode letters", "", map[string]string{"café/SKILL.md": skillMD("name: café\ndescription: d\n", "x\n")}, nil, "name-non-ascii", true, ""},
		{"unicode letters are not invalid", "", map[string]string{"café/SKILL.md": skillMD("name: café\ndescription: d\n", "x\n")}, nil, "name-invalid-chars", false, ""},
		{"name differs from folder", "", map[string]string{"demo/SKILL.md": skillMD("name: other\ndescription: d\n", "x\n")}, nil, "name-dir-mismatch", true, "demo/SKILL.md:2:7"},
		{"name matches NFKC folder", "", map[string]string{"café/SKILL.md": skillMD("name: cafe\u0301\ndescription: d\n", "x\n")}, nil, "name-dir-mismatch", false, ""},
		{"root is the skill", "", map[string]string{"SKILL.md": skillMD(okFront, "x\n")}, nil, "name-dir-mismatch", false, ""},
		{"reserved word", ProfileClaudeCode, map[string]string{"claude-helper/SKILL.md": skillMD("name: claude-helper\ndescription: d\n", "x\n")}, nil, "name-reserved-word", true, ""},
		{"session artefact: PR number", "", map[string]string{"fix-pr-1234/SKILL.md": skillMD("name: fix-pr-1234\ndescription: d\n", "x\n")}, nil, "name-session-artefact", true, ""},
		{"session artefact: date", "", map[string]string{"deploy-2026-11-30/SKILL.md": skillMD("name: deploy-2026-11-30\ndescription: d\n", "x\n")}, nil, "name-session-artefact", true, ""},
		{"session artefact: debug-", "", map[string]string{"debug-login/SKILL.md": skillMD("name: debug-login\ndescription: d\n", "x\n")}, nil, "name-session-artefact", true, ""},
		{"class-level name", "", map[string]string{"ci-flaky-tests/SKILL.md": skillMD("name: ci-flaky-tests\ndescription: d\n", "x\n")}, nil, "name-session-artefact", false, ""},
		{"version number is not an artefact", "", map[string]string{"python-312/SKILL.md": skillMD("name: python-312\ndescription: d\n", "x\n")}, nil, "name-session-artefact", false, ""},
		{"description missing", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\n", "x\n")}, nil, "description-missing", true, ""},
		{"description is a mapping", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription:\n  a: b\n", "x\n")}, nil, "description-type", true, "demo/SKILL.md:3:1"},
		{"description empty", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription:\n", "x\n")}, nil, "description-type", true, ""},
		{"description too long", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: "+strings.Repeat("é", 1025)+"\n", "x\n")}, nil, "description-too-long", true, ""},
		{"description 1024 characters", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: "+strings.Repeat("é", 1024)+"\n", "x\n")}, nil, "description-too-long", false, ""},
		{"hermes index cut", ProfileHermes, map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: "+strings.Repeat("x", 61)+"\n", "x\n")}, nil, "description-index-cut", true, ""},
		{"hermes index fits", ProfileHermes, map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: "+strings.Repeat("x", 60)+"\n", "x\n")}, nil, "description-index-cut", false, ""},
		{"index cut is hermes only", "", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: "+strings.Repeat("x", 61)+"\n", "x\n")}, nil, "description-index-cut", false, ""},
		{"angle brackets", ProfileClaudeCode, map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: Use <tag>\n", "x\n")}, nil, "description-angle-brackets", true, ""},
		{"compatibility list", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"compatibility: [a]\n", "x\n")}, nil, "compatibility-type", true, ""},
		{"compatibility too long", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"compatibility: "+strings.Repeat("x", 501)+"\n", "x\n")}, nil, "compatibility-length", true, ""},
		{"compatibility fine", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"compatibility: Requires git\n", "x\n")}, nil, "compatibility-length", false, ""},
		{"metadata scalar", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata: x\n", "x\n")}, nil, "metadata-type", true, ""},
		{"metadata nested", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata:\n  hermes:\n    tags: [a]\n", "x\n")}, nil, "metadata-value-type", true, "demo/SKILL.md:5:3"},
		{"metadata nested is fine for hermes", ProfileHermes, map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata:\n  hermes:\n    tags: [a]\n", "x\n")}, nil, "metadata-value-type", false, ""},
		{"codex short-description", ProfileCodex, map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata:\n  short-description: "+strings.Repeat("x", 501)+"\n", "x\n")}, nil, "metadata-short-description", true, ""},
		{"allowed-tools list", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"allowed-tools: [Read, Bash]\n", "x\n")}, nil, "allowed-tools-list", true, ""},
		{"allowed-tools list is fine for claude-code", ProfileClaudeCode, map[string]string{"demo/SKILL.md": skillMD(okFront+"allowed-tools: [Read, Bash]\n", "x\n")}, nil, "allowed-tools-list", false, ""},
		{"allowed-tools mapping", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"allowed-tools:\n  a: b\n", "x\n")}, nil, "allowed-tools-type", true, ""},
		{"license list", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"license: [MIT]\n", "x\n")}, nil, "license-type", true, ""},
		{"unknown field", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"version: 1.0\n", "x\n")}, nil, "field-unknown", true, "demo/SKILL.md:4:1"},
		{"claude-code field known", ProfileClaudeCode, map[string]string{"demo/SKILL.md": skillMD(okFront+"user-invocable: false\n", "x\n")}, nil, "field-unknown", false, ""},
		{"hermes ignores unknown fields", ProfileHermes, map[string]string{"demo/SKILL.md": skillMD(okFront+"version: 1.0\n", "x\n")}, nil, "field-unknown", false, ""},
		{"claude-code boolean", ProfileClaudeCode, map[string]string{"demo/SKILL.md": skillMD(okFront+"user-invocable: maybe\n", "x\n")}, nil, "field-type", true, "demo/SKILL.md:4:17"},
		{"claude-code boolean words", ProfileClaudeCode, map[string]string{"demo/SKILL.md": skillMD(okFront+"user-invocable: no\n", "x\n")}, nil, "field-type", false, ""},
		{"hermes platform typo", ProfileHermes, map[string]string{"demo/SKILL.md": skillMD(okFront+"platforms: [linux, macOS, win]\n", "x\n")}, nil, "field-type", true, "demo/SKILL.md:4:27"},
		{"empty body", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "\n\n")}, nil, "body-empty", true, ""},
		{"long SKILL.md", "", map[string]string{"demo/SKILL.md": skillMD(okFront, strings.Repeat("line\n", 497))}, nil, "body-too-long", true, "demo/SKILL.md:501"},
		{"500 lines", "", map[string]string{"demo/SKILL.md": skillMD(okFront, strings.Repeat("line\n", 496))}, nil, "body-too-long", false, ""},
		{"many tokens", "", map[string]string{"demo/SKILL.md": skillMD(okFront, strings.Repeat("word ", 4100))}, nil, "body-too-many-tokens", true, ""},
		{"dangling link", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "# Demo\nSee [api](references/api.md).\n")}, nil, "link-dangling", true, "demo/SKILL.md:6:11"},
		{"dangling image", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "![chart](assets/chart.png)\n")}, nil, "link-dangling", true, "demo/SKILL.md:5:10"},
		{"link resolves", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [api](references/api.md#usage \"title\").\n"), "demo/references/api.md": "# API\n"}, nil, "link-dangling", false, ""},
		{"escaped link resolves", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [it](references/my%20notes.md).\n"), "demo/references/my notes.md": "n\n"}, nil, "link-dangling", false, ""},
		{"angle link resolves", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [it](<references/my notes.md>).\n"), "demo/references/my notes.md": "n\n"}, nil, "link-dangling", false, ""},
		{"anchor and URL", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "[a](#usage) [b](https://example.com/x.md) [c](mailto:a@b.c)\n")}, nil, "link-dangling", false, ""},
		{"link in fenced code", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "```md\n[api](references/api.md)\n```\n")}, nil, "link-dangling", false, ""},
		{"link in inline code", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Write `[api](missing.md)` like this.\n")}, nil, "link-dangling", false, ""},
		{"link in reference file", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [api](references/api.md).\n"), "demo/references/api.md": "See [b](b.md).\n"}, nil, "link-dangling", true, "demo/references/api.md:1:9"},
		{"sibling link in reference file", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [api](references/api.md).\n"), "demo/references/api.md": "See [b](b.md).\n", "demo/references/b.md": "b\n"}, nil, "link-dangling", false, ""},
		{"reference definition", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [api].\n\n[api]: references/api.md\n")}, nil, "link-dangling", true, "demo/SKILL.md:7:8"},
		{"HTML image", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "<img src=\"assets/logo.png\" alt=\"x\">\n")}, nil, "link-dangling", true, ""},
		{"link leaves skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [other](../other/SKILL.md).\n"), "other/SKILL.md": skillMD("name: other\ndescription: d\n", "x\n")}, nil, "link-outside-skill", true, "demo/SKILL.md:5:13"},
		{"absolute link", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See [x](/etc/hosts).\n")}, nil, "link-outside-skill", true, ""},
		{"dangling mention", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Read `references/api.md` first.\n")}, nil, "path-dangling", true, "demo/SKILL.md:5:7"},
		{"mention exists", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Run scripts/run.sh, then read references/api.md.\n"), "demo/scripts/run.sh": "#!/bin/sh\n", "demo/references/api.md": "a\n"}, nil, "path-dangling", false, ""},
		{"mention in fence", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "```sh\npython scripts/build.py\n```\n")}, nil, "path-dangling", false, ""},
		{"mention placeholder", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Write references/<topic>.md or templates/{name}.md or references/...\n")}, nil, "path-dangling", false, ""},
		{"mention in URL", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See https://github.com/x/y/blob/main/scripts/run.sh and $HOME/scripts/x.sh\n")}, nil, "path-dangling", false, ""},
		{"orphan file", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/references/old.md": "o\n"}, nil, "file-orphan", true, "demo/references/old.md"},
		{"referenced in fence", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "```\npython scripts/build.py\n```\n"), "demo/scripts/build.py": "print()\n"}, nil, "file-orphan", false, ""},
		{"referenced by a script", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Run scripts/build.py.\n"), "demo/scripts/build.py": "open('templates/page.html')\n", "demo/templates/page.html": "<p>\n"}, nil, "file-orphan", false, ""},
		{"licence is not an orphan", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/LICENSE.txt": "MIT\n"}, nil, "file-orphan", false, ""},
		// Precision on real collections: what real skills write is not a finding.
		{"mention with a line suffix", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See `scripts/ask.py:77-118` and references/api.md#L10.\n"), "demo/scripts/ask.py": "x\n", "demo/references/api.md": "a\n"}, nil, "path-dangling", false, ""},
		{"line suffix reaches the file", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See `scripts/ask.py:77-118`.\n"), "demo/scripts/ask.py": "x\n"}, nil, "file-orphan", false, ""},
		{"prose is no path", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Put scripts/cron jobs, scripts/URLs and templates/packages in references/templates/scripts/assets.\n")}, nil, "path-dangling", false, ""},
		{"bold path is checked", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Edit **templates/config.py** first.\n")}, nil, "path-dangling", true, "demo/SKILL.md:5:8"},
		{"italic path is checked", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Edit _templates/config.py_ first.\n")}, nil, "path-dangling", true, "demo/SKILL.md:5:7"},
		{"bold path resolves", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Edit **templates/config.py** first.\n"), "demo/templates/config.py": "x\n"}, nil, "path-dangling", false, ""},
		{"glob is no path", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Run scripts/*.py and scripts/test_*.sh.\n")}, nil, "path-dangling", false, ""},
		{"missing folder", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Copy `templates/design-system/` over.\n")}, nil, "path-dangling", true, "demo/SKILL.md:5:7"},
		{"folder exists", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Copy `templates/design-system/` over.\n"), "demo/templates/design-system/a.css": "a\n"}, nil, "path-dangling", false, ""},
		{"folder mention reaches its files", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Copy `templates/design-system/` over.\n"), "demo/templates/design-system/a.css": "a\n"}, nil, "file-orphan", false, ""},
		{"python relative import", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Run scripts/main.py.\n"), "demo/scripts/main.py": "from api.trends import top\nimport helpers\n", "demo/scripts/api/trends.py": "x\n", "demo/scripts/helpers.py": "x\n", "demo/scripts/api/__init__.py": ""}, nil, "file-orphan", false, ""},
		{"javascript relative import", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Run scripts/main.js.\n"), "demo/scripts/main.js": "import x from './lib/x.js'\nconst y = require('./lib/y')\nimport z from './util'\n", "demo/scripts/lib/x.js": "x\n", "demo/scripts/lib/y.js": "y\n", "demo/scripts/util/index.js": "z\n"}, nil, "file-orphan", false, ""},
		{"index file reaches", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Read references/index.md.\n"), "demo/references/index.md": "- [a](a.md)\n- b.md\n", "demo/references/a.md": "a\n", "demo/references/b.md": "b\n"}, nil, "file-orphan", false, ""},
		{"naming itself does not reach", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/references/self.md": "This is references/self.md.\n"}, nil, "file-orphan", true, "demo/references/self.md"},
		{"similar name does not reach", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Read references/data.md.\n"), "demo/references/data.md": "d\n", "demo/references/a.md": "a\n"}, nil, "file-orphan", true, "demo/references/a.md"},
		{"package metadata is no orphan", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/package.json": "{}", "demo/_meta.json": "{}", "demo/LICENSE": "MIT", "demo/README.md": "r", "demo/yarn.lock": "", "demo/scripts/__init__.py": "", "demo/scripts/package-lock.json": "{}"}, nil, "file-orphan", false, ""},
		{"files outside resource folders are no orphans", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "demo/agents/openai.yaml": "a", "demo/evals/evals.json": "{}", "demo/notes.md": "n"}, nil, "file-orphan", false, ""},
		{"empty body points at a line that exists", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "")}, nil, "body-empty", true, "demo/SKILL.md:4"},
		{"uppercase Skill.md is found", "", map[string]string{"demo/Skill.md": skillMD(okFront, "x\n")}, nil, "skill-md-case", true, "demo/Skill.md"},
		{"a folder without SKILL.md is searched", "", map[string]string{"tools/scripts/x.sh": "x", "tools/packs/demo/SKILL.md": skillMD(okFront, "x\n")}, nil, "skill-md-missing", false, ""},
		{"hidden skill folders are found", "", map[string]string{".claude/skills/demo/SKILL.md": skillMD("name: other\ndescription: d\n", "x\n")}, nil, "name-dir-mismatch", true, ".claude/skills/demo/SKILL.md:2:7"},
		{"dependency trees are skipped", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), "node_modules/p/SKILL.md": "x", "vendor/p/SKILL.md": "x", ".venv/p/SKILL.md": "x"}, nil, "frontmatter-missing", false, ""},
		{"no skills is an error", "", map[string]string{"README.md": "x"}, nil, "skill-md-missing", true, "."},
		{"a template's links point into its output", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Render templates/page.md.\n"), "demo/templates/page.md": "- [Diagrams](diagrams/)\n- [API](references/api.md)\n"}, nil, "link-dangling", false, ""},
		{"a template's links still reach", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Render templates/page.md.\n"), "demo/templates/page.md": "- [part](part.md)\n", "demo/templates/part.md": "p\n"}, nil, "file-orphan", false, ""},
		// skill-ref-archived: a skill naming an archived one.
		{"names an archived skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "# Demo\nOn timeouts see the `gateway-retry` skill.\n"), ".archive/gateway-retry/SKILL.md": skillMD("name: gateway-retry\ndescription: d\n", "x\n")}, nil, "skill-ref-archived", true, "demo/SKILL.md:6:22"},
		{"archived with a collision suffix, in a reference file", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Read references/a.md.\n"), "demo/references/a.md": "Use gateway-retry first.\n", ".archive/gateway-retry-20261130120000/SKILL.md": "x"}, nil, "skill-ref-archived", true, "demo/references/a.md:1:5"},
		{"related_skills names an archived skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront+"metadata:\n  related: gateway-retry\n", "x\n"), ".archive/gateway-retry/SKILL.md": "x"}, nil, "skill-ref-archived", true, "demo/SKILL.md:5:12"},
		{"one-word archived name needs context", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "Use docker to build.\n"), ".archive/docker/SKILL.md": "x"}, nil, "skill-ref-archived", false, ""},
		{"one-word archived name as a skill", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See the docker skill.\n"), ".archive/docker/SKILL.md": "x"}, nil, "skill-ref-archived", true, "demo/SKILL.md:5:9"},
		{"a path is not a skill reference", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See https://x.y/gateway-retry and gateway-retry.py.\n"), ".archive/gateway-retry/SKILL.md": "x"}, nil, "skill-ref-archived", false, ""},
		{"restored name is active", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "See gateway-retry.\n"), "gateway-retry/SKILL.md": skillMD("name: gateway-retry\ndescription: d\n", "x\n"), ".archive/gateway-retry/SKILL.md": "x"}, nil, "skill-ref-archived", false, ""},
		{"restored name is active when one skill is linted", "", map[string]string{"lib/demo/SKILL.md": skillMD(okFront, "See gateway-retry.\n"), "lib/ops/gateway-retry/SKILL.md": skillMD("name: gateway-retry\ndescription: d\n", "x\n"), "lib/.archive/gateway-retry/SKILL.md": "x"}, []string{"lib/demo"}, "skill-ref-archived", false, ""},
		{"archive of the skill's own library when one skill is linted", "", map[string]string{"lib/demo/SKILL.md": skillMD(okFront, "See gateway-retry.\n"), "lib/.archive/gateway-retry/SKILL.md": "x"}, []string{"lib/demo"}, "skill-ref-archived", true, "lib/demo/SKILL.md:5:5"},
		{"duplicate names", "", map[string]string{"a/demo/SKILL.md": skillMD(okFront, "x\n"), "b/demo/SKILL.md": skillMD(okFront, "x\n")}, nil, "duplicate-name", true, "b/demo/SKILL.md:2:7"},
		{"hidden folders skipped", "", map[string]string{"demo/SKILL.md": skillMD(okFront, "x\n"), ".archive/demo/SKILL.md": skillMD(okFront, "x\n")}, nil, "duplicate-name", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := check(t, tt.files, Options{Profile: tt.profile, Paths: tt.paths, RootName: "demo"})
			if tt.rule == "" {
				if len(rep.Findings) != 0 {
					t.Fatalf("findings on a clean skill: %+v", rep.Findings)
				}
				return
			}
			got := hits(rep, tt.rule)
			if tt.fire != (len(got) > 0) {
				t.Fatalf("%s fired=%v, want %v; findings: %+v", tt.rule, len(got) > 0, tt.fire, rep.Findings)
			}
			if tt.at != "" && got[0].location() != tt.at {
				t.Errorf("%s at %s, want %s (%s)", tt.rule, got[0].location(), tt.at, got[0].Message)
			}
			for _, f := range got {
				if f.Message == "" || f.Severity == Off {
					t.Errorf("finding without message or severity: %+v", f)
				}
			}
		})
	}
}

func TestConfigAndStrict(t *testing.T) {
	files := map[string]string{"demo/SKILL.md": skillMD(okFront+"version: 1\n", "See `references/x.md`.\n")}
	cfg, err := parseSection("review:\n  write_approval: true\nlint:\n  disable: [path-dangling]\n  rules:\n    field-unknown: info\n")
	if err != nil {
		t.Fatal(err)
	}
	rep := check(t, files, Options{Config: cfg})
	if len(hits(rep, "path-dangling")) != 0 {
		t.Error("disabled rule still reported")
	}
	if f := hits(rep, "field-unknown"); len(f) != 1 || f[0].Severity != Info {
		t.Errorf("field-unknown = %+v, want one info", f)
	}
	rep = check(t, files, Options{Strict: true})
	if f := hits(rep, "field-unknown"); len(f) != 1 || f[0].Severity != Error {
		t.Errorf("strict field-unknown = %+v, want error", f)
	}
	if !rep.HasErrors() {
		t.Error("strict report has no errors")
	}

	cfg, err = parseSection("lint:\n  profile: hermes\n  strict: true\n  exclude: [drafts]\n")
	if err != nil {
		t.Fatal(err)
	}
	rep = check(t, map[string]string{"drafts/x/SKILL.md": "no frontmatter", "demo/SKILL.md": skillMD(okFront, "x\n")}, Options{Config: cfg})
	if rep.Profile != ProfileHermes || len(rep.Skills) != 1 {
		t.Errorf("profile %s, skills %v; want hermes and drafts excluded", rep.Profile, rep.Skills)
	}

	// Each problem names its line and key.
	for _, tc := range []struct{ bad, want string }{
		{"lint:\n  disable: [no-such-rule]\n", `line 2: lint.disable[0]: unknown rule "no-such-rule"`},
		{"lint:\n  rules:\n    body-empty: loud\n", "line 3: lint.rules.body-empty: "},
		{"lint:\n  rules:\n    no-such-rule: off\n", `line 3: lint.rules.no-such-rule: unknown rule "no-such-rule"`},
		{"lint:\n  profile: vim\n", `line 2: lint.profile: unknown profile "vim"`},
		{"lint:\n  disabled: [body-empty]\n", "line 2: lint.disabled: unknown key"},
		{"lint: [a]\n", "line 1: lint: want a mapping"},
		{"lint:\n  exclude: ['[']\n", `line 2: lint.exclude[0]: bad pattern "["`},
		{"lint:\n  strict: yes\n", `line 2: lint.strict: want true or false, got "yes"`},
	} {
		_, err := parseSection(tc.bad)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("lint section %q: error %v, want %q", tc.bad, err, tc.want)
		}
	}
	if cfg, err := parseSection("curator:\n  interval: 7d\n"); err != nil || cfg.Profile != "" || cfg.Rules != nil {
		t.Errorf("config without lint section = %+v, %v", cfg, err)
	}
}

// parseSection decodes the lint: section of a config file's text, as the
// library's typed config does.
func parseSection(text string) (Config, error) {
	var file struct {
		Lint Config `yaml:"lint"`
	}
	err := yaml.Unmarshal([]byte(text), &file)
	return file.Lint, err
}

func TestOptionsValidate(t *testing.T) {
	if _, err := Check(mapFS(nil), Options{Profile: "vim"}); err == nil {
		t.Error("unknown profile accepted")
	}
	if _, err := Check(mapFS(nil), Options{Paths: []string{"../x"}}); err == nil {
		t.Error("path leaving the root accepted")
	}
	rep, err := Check(mapFS(map[string]string{"README.md": "x"}), Options{AllowEmpty: true})
	if err != nil || len(rep.Findings) != 0 || rep.Findings == nil {
		t.Errorf("empty library: %+v, %v", rep, err)
	}
}

// TestDeterministicOrder checks that the worker count never changes the
// report.
func TestDeterministicOrder(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		files[n+"/SKILL.md"] = skillMD("name: "+n+"x\ndescription: d\n", "[x](missing.md)\n")
	}
	one := check(t, files, Options{Workers: 1})
	many := check(t, files, Options{Workers: 8})
	if len(one.Findings) != 16 || !slices.Equal(one.Findings, many.Findings) {
		t.Fatalf("reports differ or wrong size:\n%+v\n%+v", one.Findings, many.Findings)
	}
}

// TestSymlinks uses a real folder: links inside the root are followed,
// links leaving it are reported and not followed.
func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	root := filepath.Join(t.TempDir(), "lib")
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "evil", "SKILL.md"), skillMD("name: evil\ndescription: d\n", "x\n"))
	write(filepath.Join(root, "store", "demo", "SKILL.md"), skillMD(okFront, "x\n"))
	if err := os.Symlink(filepath.Join(outside, "evil"), filepath.Join(root, "evil")); err != nil {
		t.Skip("symbolic links not supported:", err)
	}
	if err := os.Symlink("store/demo", filepath.Join(root, "demo")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(root, "store", "loop")); err != nil {
		t.Fatal(err)
	}
	// A link whose own target looks inside but passes through a link that
	// leaves: "sneaky -> door/evil", "door -> <outside>".
	if err := os.Symlink(outside, filepath.Join(root, "door")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("door/evil", filepath.Join(root, "sneaky")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range []struct {
		name string
		fsys fs.FS
	}{{"DirFS", os.DirFS(root)}, {"Root.FS", r.FS()}} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Check(tc.fsys, Options{RootName: "lib"})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(rep.Skills, ","); got != "demo,store/demo" {
				t.Errorf("skills %s, want demo,store/demo", got)
			}
			var outsidePaths []string
			for _, f := range hits(rep, "symlink-outside-root") {
				outsidePaths = append(outsidePaths, f.Path)
			}
			if got := strings.Join(outsidePaths, ","); got != "door,evil,sneaky" {
				t.Errorf("symlink-outside-root on %s, want door,evil,sneaky", got)
			}
			if f := hits(rep, "duplicate-name"); len(f) != 1 {
				t.Errorf("the linked skill is the same name twice: %+v", f)
			}
		})
	}
}

// TestRuleTable checks the rule table itself: unique kebab-case IDs, a
// summary, and a valid letter per profile.
func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range ruleTable {
		if seen[r.ID] || r.ID != strings.ToLower(r.ID) || strings.ContainsAny(r.ID, " _") || r.Summary == "" {
			t.Errorf("bad or duplicate rule %+v", r)
		}
		seen[r.ID] = true
		if len(r.levels) != len(Profiles()) || strings.Trim(r.levels, "ewi-") != "" {
			t.Errorf("rule %s: levels %q", r.ID, r.levels)
		}
	}
	if r, ok := LookupRule("link-dangling"); !ok || r.Default(ProfileSpec) != Error || r.Default(ProfileSkillsRef) != Off {
		t.Errorf("link-dangling = %+v", r)
	}
	for _, s := range []string{"error", "warning", "info", "off"} {
		if v, err := ParseSeverity(s); err != nil || v.String() != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s, v, err)
		}
	}
}
