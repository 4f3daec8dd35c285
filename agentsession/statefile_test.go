package agentsession

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/review"
)

// FuzzHookStateFiles: whatever the hooks' state files hold (the seen tips,
// a session's transcript mark, the told troubles, a Hermes session's
// turn), reading them never panics, never reads past the transcript, and
// an unknown turn is the person's.
func FuzzHookStateFiles(f *testing.F) {
	f.Add([]byte(`{"sessions":{"s":{"tip":"abc","at":"2026-12-01T00:00:00Z"}}}`))
	f.Add([]byte(`{"version":1,"path":"PATH","offset":6,"tail_sha256":"x"}`))
	f.Add([]byte(`{"version":1,"path":"PATH","offset":-5}`))
	f.Add([]byte(`{"version":1,"path":"PATH","offset":9223372036854775807}`))
	f.Add([]byte(`{"e1/boom":true}`))
	f.Add([]byte(`{"turn":"review"}`))
	f.Add([]byte(`{"turn":"root"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		seen := filepath.Join(dir, filepath.FromSlash(seenFile))
		if err := os.MkdirAll(filepath.Dir(seen), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(seen, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := seeTip(dir, "s", "tip", time.Unix(0, 0)); err != nil {
			t.Fatalf("seeTip: %v", err)
		}
		tr := filepath.Join(dir, "t.jsonl")
		content := []byte("{\"a\":1}\n{\"b\":2}\n{\"c\"")
		if err := os.WriteFile(tr, content, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := os.Open(tr)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		var m transcriptMark
		if json.Unmarshal(data, &m) == nil {
			if m.Path == "PATH" {
				m.Path = tr // let the fuzzer's marks reach past the path check
			}
			part, end, ok, err := partSince(m, file, tr)
			if err == nil && ok && (end > int64(len(content)) || len(part) > len(content)) {
				t.Fatalf("part of %d bytes ending at %d, from a %d-byte transcript", len(part), end, len(content))
			}
		}
		// The told and news files: whatever they hold, an update reads
		// or sets them aside and writes a file that reads back.
		hooks := filepath.Join(dir, "hooks")
		told := toldStore(hooks)
		if err := os.MkdirAll(hooks, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(told.Path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := told.Update(func(m *map[string]bool) error {
			if *m == nil {
				*m = map[string]bool{}
			}
			(*m)["e1/boom"] = true
			return nil
		}); err != nil {
			var ve *statefile.VersionError
			if !errors.As(err, &ve) {
				t.Fatalf("told: %v", err)
			}
		}
		news := newsStore(hooks)
		if err := os.MkdirAll(filepath.Dir(news.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(news.Path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := news.Update(func(st *newsState) error { st.Version = 1; return nil }); err != nil {
			var ve *statefile.VersionError
			if !errors.As(err, &ve) {
				t.Fatalf("news: %v", err)
			}
		} else if _, err := news.Read(); err != nil {
			t.Fatalf("news after update: %v", err)
		}
		// A Hermes session's turn: an unknown one is the person's.
		ts := turnStore(filepath.Join(dir, "hermes"), "s")
		if err := os.MkdirAll(filepath.Dir(ts.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ts.Path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		switch turn := turnOf(ts); turn {
		case turnForeground, turnReview, turnCurator:
		default:
			t.Fatalf("turn %q", turn)
		}
	})
}

// A mark far behind the end of a transcript larger than a transcript may
// be is not followed: the part is not read into memory (the whole file's
// bounded read refuses it instead).
func TestMarkNotFollowedPastTheBound(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	head := []byte("{\"a\":1}\n")
	if err := os.WriteFile(tr, head, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(tr, int64(len(head))+review.MaxTranscriptBytes+1); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tr)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum := sha256.Sum256(head)
	data := transcriptMark{Version: 1, Path: tr, Offset: int64(len(head)), TailSum: hex.EncodeToString(sum[:])}
	if _, _, ok, err := partSince(data, f, tr); ok || err != nil {
		t.Fatalf("ok = %v, err = %v: a part over the bound was read", ok, err)
	}
	// Within the bound the same mark holds.
	if err := os.Truncate(tr, int64(len(head))+10); err != nil {
		t.Fatal(err)
	}
	if _, end, ok, err := partSince(data, f, tr); !ok || err != nil || end != int64(len(head)) {
		t.Fatalf("within the bound: end %d, ok %v, err %v", end, ok, err)
	}
}
