package agenttools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a project folder as a session leaves one: source, a
// README, git's folder, secrets, a 50 MB file (sparse), links in and out,
// and a file beside it that is not part of it.
func project(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "proj")
	files := map[string]string{
		"README.md":            "# Shop\n\nDeploy with `make ship`; never push on Fridays.\n",
		"src/app.go":           "package app\n\n// Port is where the shop listens.\nconst Port = 8443\n",
		".git/config":          "[core]\n\tbare = false\n",
		".env":                 "STRIPE_KEY=sk_live_x\n",
		".env.local":           "TOKEN=x\n",
		"deploy/server.pem":    "-----BEGIN PRIVATE KEY-----\n",
		"keys/id_rsa":          "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"conf/tls.key":         "k\n",
		"config/credentials":   "[default]\naws_secret_access_key=x\n",
		".ssh/known_hosts":     "host\n",
		"docs/notes.txt":       "make ship runs the tests first\n",
		"../outside/secret.md": "never read me: make ship\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	big, err := os.Create(filepath.Join(dir, "data.bin"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(50 << 20)
	big.Close()
	for link, target := range map[string]string{
		"out.md":          filepath.Join(base, "outside", "secret.md"),
		"up.md":           "../outside/secret.md",
		"readme-link.md":  "README.md",
		"env-link.txt":    ".env",
		"docs/outsidedir": filepath.Join(base, "outside"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProjectReads: a run reads the project's files, and every request
// for a secret, git's folder, a path out of the folder (.., absolute, a
// link) or a file over the bound is a tool error the model reads.
func TestProjectReads(t *testing.T) {
	f := newFixture(t)
	tb := f.box(Options{Project: project(t)})
	for _, tt := range []struct {
		path    string
		want    string // in the content, or in the error
		ok      bool
		refused bool // a guard's refusal (not a missing file)
	}{
		{"README.md", "never push on Fridays", true, false},
		{"./src/../src/app.go", "", false, true}, // ".." refused even inside
		{"src/app.go", "const Port = 8443", true, false},
		{"readme-link.md", "never push on Fridays", true, false},
		{".env", "looks like a secret", false, true},
		{".env.local", "looks like a secret", false, true},
		{"deploy/server.pem", "looks like a secret", false, true},
		{"keys/id_rsa", "looks like a secret", false, true},
		{"conf/tls.key", "looks like a secret", false, true},
		{"config/credentials", "looks like a secret", false, true},
		{".git/config", "inside .git/", false, true},
		{".GIT/config", "inside .GIT/", false, true},
		{".ssh/known_hosts", "inside .ssh/", false, true},
		{"../x", "'..' is not allowed", false, true},
		{"../outside/secret.md", "'..' is not allowed", false, true},
		{"/etc/passwd", "absolute paths", false, true},
		{"out.md", "leads outside the project", false, true},
		{"up.md", "leads outside the project", false, true},
		{"docs/outsidedir/secret.md", "leads outside the project", false, true},
		{"env-link.txt", "is a link to a file never read: .env looks like a secret", false, true},
		{"data.bin", "data.bin is 50 MiB; project files are read only up to 256 KiB", false, true},
		{"missing.md", "File not found in the project", false, false},
	} {
		r, m := callTool(t, tb, ReadFile, map[string]any{"path": tt.path, "scope": "project"})
		got := fmt.Sprint(m["content"], m["error"])
		if r.OK != tt.ok || !strings.Contains(got, tt.want) {
			t.Errorf("%s: ok %v %q; want ok %v %q", tt.path, r.OK, got, tt.ok, tt.want)
		}
		if refused := r.Refusal != nil && r.Refusal.Kind == RefusedGuard; refused != tt.refused {
			t.Errorf("%s: refusal %+v, want a guard's: %v", tt.path, r.Refusal, tt.refused)
		}
		if strings.Contains(got, "never read me") || strings.Contains(got, "sk_live") || strings.Contains(got, "PRIVATE KEY") {
			t.Errorf("%s: a secret reached the model: %q", tt.path, got)
		}
	}
	// A project read does not count as viewing a library file of the same
	// name.
	if tb.reads["README.md"] {
		t.Error("a project read counted as a library view")
	}
	// The library scope is unchanged: the library's own files.
	if r, m := callTool(t, tb, ReadFile, map[string]any{"path": "README.md"}); r.OK && strings.Contains(fmt.Sprint(m["content"]), "Fridays") {
		t.Errorf("the library scope read the project: %v", m)
	}
}

// TestProjectSearch: a search walks the project and never shows a secret,
// git's folder, a file through a link, or a file over the bound.
func TestProjectSearch(t *testing.T) {
	f := newFixture(t)
	tb := f.box(Options{Project: project(t)})
	_, m := callTool(t, tb, SearchFiles, map[string]any{"pattern": "make ship|sk_live|PRIVATE|bare|aws", "scope": "project"})
	var paths []string
	for _, x := range m["matches"].([]any) {
		paths = append(paths, x.(map[string]any)["path"].(string))
	}
	if got := strings.Join(paths, ","); got != "README.md,docs/notes.txt" {
		t.Errorf("content matches %s, want README.md,docs/notes.txt", got)
	}
	_, m = callTool(t, tb, SearchFiles, map[string]any{"pattern": "*", "target": "files", "scope": "project", "limit": 200})
	paths = nil
	for _, x := range m["matches"].([]any) {
		paths = append(paths, x.(map[string]any)["path"].(string))
	}
	if got := strings.Join(paths, ","); got != "README.md,docs/notes.txt,src/app.go" {
		t.Errorf("files %s", got)
	}
	for path, want := range map[string]string{"..": "'..' is not allowed", ".git": "inside .git/", "/": "absolute paths"} {
		if r, m := callTool(t, tb, SearchFiles, map[string]any{"pattern": "x", "path": path, "scope": "project"}); r.OK || !strings.Contains(fmt.Sprint(m["error"]), want) {
			t.Errorf("search in %s: %v", path, m)
		}
	}
}

// TestProjectBounds: no project, a bad scope, and the 50 reads of a run.
func TestProjectBounds(t *testing.T) {
	f := newFixture(t)
	if r, m := callTool(t, f.box(Options{}), ReadFile, map[string]any{"path": "README.md", "scope": "project"}); r.OK || !strings.Contains(fmt.Sprint(m["error"]), "no project folder") {
		t.Errorf("without a project: %v", m)
	}
	if r, m := callTool(t, f.box(Options{}), SearchFiles, map[string]any{"pattern": "x", "scope": "disk"}); r.OK || r.Refusal.Kind != RefusedArgs {
		t.Errorf("a bad scope: %v", m)
	}
	tb := f.box(Options{Project: project(t)})
	for i := range MaxProjectReads {
		if r, m := callTool(t, tb, ReadFile, map[string]any{"path": "README.md", "scope": "project"}); !r.OK {
			t.Fatalf("read %d: %v", i+1, m)
		}
	}
	for _, tool := range []string{ReadFile, SearchFiles} {
		if r, m := callTool(t, tb, tool, map[string]any{"path": "README.md", "pattern": "x", "scope": "project"}); r.OK || !strings.Contains(fmt.Sprint(m["error"]), "50 project reads of this run are used up") {
			t.Errorf("%s past the bound: %v", tool, m)
		}
	}
	// The library stays readable.
	if r, m := callTool(t, tb, SearchFiles, map[string]any{"pattern": "ci-debugging", "target": "files"}); !r.OK {
		t.Errorf("library search after the bound: %v", m)
	}
}
