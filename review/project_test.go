package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shopProject is a session's project folder: a README with the line a
// skill should quote, git's folder, a .env, a 50 MB file, a link out.
func shopProject(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "shop")
	for name, data := range map[string]string{
		"README.md":           "# Shop\n\nRelease: run `make ship VERSION=x.y.z` from a clean tree; it tags and deploys.\n",
		".git/config":         "[remote \"origin\"]\n\turl = https://token@example.com/shop.git\n",
		".env":                "STRIPE_KEY=sk_live_123\n",
		"../elsewhere/x":      "outside the project\n",
		"../elsewhere/notes":  "outside the project\n",
		"assets/.placeholder": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	big, err := os.Create(filepath.Join(dir, "assets", "video.bin"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(50 << 20)
	big.Close()
	if err := os.Symlink(filepath.Join(base, "elsewhere", "notes"), filepath.Join(dir, "notes.md")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReviewReadsProject: a review told it can read the project reads
// the README and quotes its release line into a new skill; its requests
// for .env, ../x, .git/config, a link out of the project and a 50 MB file
// each get a tool error, and nothing of them reaches the model.
func TestReviewReadsProject(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := shopProject(t)
	const line = "Release: run `make ship VERSION=x.y.z` from a clean tree; it tags and deploys."
	skill := "---\nname: shop-releases\ndescription: Use when releasing the shop.\n---\n# Shop releases\n\n" + line + "\n"
	read := func(p string) string {
		return `{"name": "read_file", "arguments": {"path": ` + js(p) + `, "scope": "project"}}`
	}
	run := f.review(`[
		{"tool_calls": [`+read("README.md")+`]},
		{"tool_calls": [`+read(".env")+`, `+read("../x")+`, `+read(".git/config")+`, `+read("notes.md")+`, `+read("assets/video.bin")+`]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "shop-releases", "content": `+js(skill)+`}]}}]},
		{"content": "Created shop-releases from the README's release line."}
	]`, f.transcript("simple.json"), func(o *Options) { o.Project = dir })
	if run.sum.Status != StatusCompleted || !run.sum.Merged {
		t.Fatalf("summary: %+v", run.sum)
	}
	// The prompt told the model it can read the project, and where.
	first := run.requests[0]
	if p := first.text(len(first.Messages) - 1); !strings.Contains(p, `scope "project" take paths relative to its folder (`+dir+`)`) {
		t.Errorf("the prompt does not say the project can be read:\n%s", p)
	}
	// The README's line reached the model, and the skill quotes it.
	if res := run.requests[1].lastTool(); res["success"] != true || !strings.Contains(res["content"].(string), line) {
		t.Errorf("README read: %v", res)
	}
	if got := f.show("main", "shop-releases/SKILL.md"); !strings.Contains(got, line) {
		t.Errorf("main's skill: %q", got)
	}
	// Five refusals, each a tool result naming why; no secret was sent.
	second := run.requests[2]
	var errs []string
	for i := len(second.Messages) - 5; i < len(second.Messages); i++ {
		var res map[string]any
		if m := second.Messages[i]; m.Role != "tool" || json.Unmarshal([]byte(second.text(i)), &res) != nil || res["success"] != false {
			t.Fatalf("not a tool error: %s %s", m.Role, m.Content)
		}
		errs = append(errs, res["error"].(string))
	}
	for i, want := range []string{".env looks like a secret", "'..' is not allowed", ".git/config is inside .git/", "notes.md is a link that leads outside the project", "assets/video.bin is 50 MiB"} {
		if !strings.Contains(errs[i], want) {
			t.Errorf("refusal %d: %q, want %q", i, errs[i], want)
		}
	}
	for _, r := range run.requests {
		for i := range r.Messages {
			if s := r.text(i); strings.Contains(s, "sk_live") || strings.Contains(s, "token@") || strings.Contains(s, "outside the project\n") {
				t.Errorf("a refused file reached the model: %q", s)
			}
		}
	}
	if len(run.sum.Refused) != 5 {
		t.Errorf("refused: %+v", run.sum.Refused)
	}
	// Without a project, the prompt says nothing of one and the scope is a
	// tool error.
	run = f.review(`[
		{"tool_calls": [`+read("README.md")+`]},
		{"content": "Nothing to save."}
	]`, f.transcript("simple.json"), func(o *Options) { o.ReviewID = "r-none" })
	if p := run.requests[0].text(len(run.requests[0].Messages) - 1); strings.Contains(p, `scope "project"`) {
		t.Errorf("a review without a project says it has one")
	}
	if res := run.requests[1].lastTool(); res["success"] != false || !strings.Contains(res["error"].(string), "no project folder") {
		t.Errorf("project read without a project: %v", res)
	}
}
