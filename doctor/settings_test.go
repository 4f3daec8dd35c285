package doctor

import (
	"os"
	"path/filepath"
	"testing"
)

// Gemini CLI's settings files may hold comments: doctor reads them as
// Gemini CLI does, a "//" inside a string kept; a missing file is nil, a
// broken one an error.
func TestReadJSONFileTakesComments(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	data := `{
  // hooks of this project
  "hooks": {"AfterTool": [{"command": "skillrepo hooks run gemini AfterTool"}]}, /* trusted
  below */ "url": "http://127.0.0.1:8080//v1"
}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := ReadJSONFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if v["url"] != "http://127.0.0.1:8080//v1" || Lookup(v, "hooks", "AfterTool") == nil {
		t.Errorf("read %v", v)
	}
	if v, err := ReadJSONFile(filepath.Join(dir, "none.json")); v != nil || err != nil {
		t.Errorf("missing file: %v, %v", v, err)
	}
	if err := os.WriteFile(path, []byte(`{"hooks": /* unterminated`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSONFile(path); err == nil {
		t.Error("a broken file read without an error")
	}
}
