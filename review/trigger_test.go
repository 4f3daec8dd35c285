package review

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustRead(t *testing.T, path string) *Transcript {
	t.Helper()
	tr, err := readFile(t, path, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestAdvance(t *testing.T) {
	long := mustRead(t, claudeFile(t, "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"))
	sub := mustRead(t, claudeFile(t, "subagent.jsonl"))
	short := mustRead(t, claudeFile(t, "short.jsonl"))
	obj := mustRead(t, "testdata/openai/object.json")
	simple := mustRead(t, "testdata/openai/simple.json")
	ten := Intervals{Memory: 10, Skill: 10}

	tests := []struct {
		name     string
		before   Counters
		tr       *Transcript
		iv       Intervals
		memory   bool
		skills   bool
		skip     string
		after    Counters // only the counter fields are compared
		newTurns int
		newIters int
	}{
		{name: "long session: 217 iterations make a skill review due", tr: long, iv: ten, skills: true,
			after: Counters{TurnsSeen: 2, IterationsSeen: 217, TurnsSinceMemory: 2}, newTurns: 2, newIters: 217},
		{name: "seen already: nothing new", before: Counters{TurnsSeen: 2, IterationsSeen: 217, TurnsSinceMemory: 2}, tr: long, iv: ten,
			after: Counters{TurnsSeen: 2, IterationsSeen: 217, TurnsSinceMemory: 2}},
		{name: "counts accumulate below the interval", before: Counters{TurnsSinceMemory: 3, IterationsSinceSkill: 5}, tr: sub, iv: Intervals{Memory: 10, Skill: 20},
			after: Counters{TurnsSeen: 2, IterationsSeen: 12, TurnsSinceMemory: 5, IterationsSinceSkill: 17}, newTurns: 2, newIters: 12},
		{name: "memory interval reached", before: Counters{TurnsSinceMemory: 9}, tr: sub, iv: ten, memory: true, skills: true,
			after: Counters{TurnsSeen: 2, IterationsSeen: 12, TurnsSinceMemory: 1}, newTurns: 2, newIters: 12},
		{name: "interval 0 disables", tr: long, iv: Intervals{},
			after: Counters{TurnsSeen: 2, IterationsSeen: 217}, newTurns: 2, newIters: 217},
		// As in the reference, the counters reset although no review runs.
		{name: "interrupted: due but skipped", tr: short, iv: Intervals{Memory: 1, Skill: 1}, memory: true, skills: true, skip: "interrupted",
			after: Counters{TurnsSeen: 1, IterationsSeen: 1}, newTurns: 1, newIters: 1},
		// object.json: the agent's memory call succeeded (resets the
		// memory counter after the first turn); its skill_manage call
		// failed (no reset); the last turn has no final answer.
		{name: "the agent's own tool use resets", before: Counters{TurnsSinceMemory: 5, IterationsSinceSkill: 5}, tr: obj, iv: ten, skip: "no final answer",
			after: Counters{TurnsSeen: 2, IterationsSeen: 3, TurnsSinceMemory: 1, IterationsSinceSkill: 8}, newTurns: 2, newIters: 3},
		{name: "openai final answer", before: Counters{IterationsSinceSkill: 8}, tr: simple, iv: ten, skills: true,
			after: Counters{TurnsSeen: 1, IterationsSeen: 2, TurnsSinceMemory: 1}, newTurns: 1, newIters: 2},
		{name: "a shorter transcript is a new one", before: Counters{TurnsSeen: 40, IterationsSeen: 400}, tr: simple, iv: ten,
			after: Counters{TurnsSeen: 1, IterationsSeen: 2, TurnsSinceMemory: 1, IterationsSinceSkill: 2}, newTurns: 1, newIters: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, d := Advance(tt.before, tt.tr, tt.iv)
			if d.Memory != tt.memory || d.Skills != tt.skills {
				t.Errorf("due memory %v skills %v; want %v %v", d.Memory, d.Skills, tt.memory, tt.skills)
			}
			if (tt.skip == "") != (d.Skip == "") || !strings.Contains(d.Skip, tt.skip) {
				t.Errorf("skip = %q, want %q", d.Skip, tt.skip)
			}
			if d.Due() != (tt.skip == "" && (tt.memory || tt.skills)) {
				t.Errorf("Due() = %v", d.Due())
			}
			if d.NewTurns != tt.newTurns || d.NewIterations != tt.newIters {
				t.Errorf("new turns %d iterations %d; want %d %d", d.NewTurns, d.NewIterations, tt.newTurns, tt.newIters)
			}
			got := Counters{TurnsSeen: c.TurnsSeen, IterationsSeen: c.IterationsSeen, TurnsSinceMemory: c.TurnsSinceMemory, IterationsSinceSkill: c.IterationsSinceSkill}
			if got != tt.after {
				t.Errorf("counters = %+v, want %+v", got, tt.after)
			}
			if c.TranscriptSHA256 != tt.tr.SHA256 || c.Version != countersVersion {
				t.Errorf("counters meta = %+v", c)
			}
		})
	}
}

// TestAdvanceGrowingSession counts a session hook by hook: the transcript
// grows between runs and each run counts only the new part.
func TestAdvanceGrowingSession(t *testing.T) {
	data, err := os.ReadFile(claudeFile(t, "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Cut just before the /compact command: the first turn and its
	// iterations only.
	first, err := Read(bytes.NewReader(bytes.Join(lines[:1480], nil)), "part", FormatClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	full, err := Read(bytes.NewReader(data), "full", FormatClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	iv := Intervals{Memory: 2, Skill: 1000}
	c, d := Advance(Counters{}, first, iv)
	if d.NewTurns != 1 || d.Memory || first.Iterations() >= full.Iterations() {
		t.Fatalf("first part: %+v, %d iterations", d, first.Iterations())
	}
	c, d = Advance(c, full, iv)
	if d.NewTurns != 1 || d.NewIterations != full.Iterations()-first.Iterations() || !d.Memory {
		t.Fatalf("second part: %+v", d)
	}
	if c.TurnsSinceMemory != 0 || c.IterationsSinceSkill != full.Iterations() {
		t.Fatalf("counters %+v", c)
	}
}

func TestCounterStore(t *testing.T) {
	s := CounterStore{Dir: filepath.Join(t.TempDir(), "review", "sessions")}
	c, err := s.Load("abc")
	if err != nil || c.TurnsSeen != 0 || c.SessionID != "abc" {
		t.Fatalf("fresh load = %+v, %v", c, err)
	}
	unlock, err := s.Lock("abc")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnsSeen, c.IterationsSinceSkill = 3, 7
	if err := s.Save(c); err != nil {
		t.Fatal(err)
	}
	unlock()
	got, err := s.Load("abc")
	if err != nil || got.TurnsSeen != 3 || got.IterationsSinceSkill != 7 || got.Version != countersVersion {
		t.Fatalf("reload = %+v, %v", got, err)
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir, "abc.json"))
	if !strings.Contains(string(data), `"version": 1`) {
		t.Errorf("file = %s", data)
	}

	// Ids that are not file names are hashed, never used as paths.
	weird := "../../etc/passwd"
	if err := s.Save(Counters{SessionID: weird, TurnsSeen: 1}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(s.Dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "passwd") {
			t.Errorf("session id used as a file name: %s", e.Name())
		}
	}
	if got, _ := s.Load(weird); got.TurnsSeen != 1 {
		t.Errorf("hashed session reload = %+v", got)
	}

	os.WriteFile(filepath.Join(s.Dir, "new.json"), []byte(`{"version": 99}`), 0o644)
	if _, err := s.Load("new"); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("newer version: %v", err)
	}
}
