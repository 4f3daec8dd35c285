package review

import (
	"path/filepath"
	"testing"
)

// TestOptionsFor: the CLI's and the worker's reviews get their settings
// from one place: the library's config, and what is reviewed (skills
// whenever memory is not, so a review always reviews something).
func TestOptionsFor(t *testing.T) {
	f := newFixture(t)
	f.lib.Config.Review.MaxInputTokens, f.lib.Config.Review.ContextWindow, f.lib.Config.Review.WriteApproval = 5000, 200_000, true
	tr := &Transcript{SessionID: "s"}
	tests := []struct {
		memory, skills         bool
		wantMemory, wantSkills bool
	}{
		{true, true, true, true},
		{true, false, true, false},
		{false, true, false, true},
		{false, false, false, true},
	}
	for _, tt := range tests {
		o := OptionsFor(f.lib, tr, tt.memory, tt.skills)
		if o.Memory != tt.wantMemory || o.Skills != tt.wantSkills {
			t.Errorf("OptionsFor(memory %v, skills %v): memory %v, skills %v; want %v, %v", tt.memory, tt.skills, o.Memory, o.Skills, tt.wantMemory, tt.wantSkills)
		}
		if o.Transcript != tr || o.MaxInputTokens != 5000 || o.ContextWindow != 200_000 || !o.WriteApproval {
			t.Errorf("OptionsFor did not carry the config: %+v", o)
		}
	}
	// The project is the session's folder while it exists.
	dir := t.TempDir()
	for _, tt := range []struct{ cwd, want string }{{dir, dir}, {filepath.Join(dir, "gone"), ""}, {"", ""}} {
		if got := OptionsFor(f.lib, &Transcript{Cwd: tt.cwd}, true, true).Project; got != tt.want {
			t.Errorf("transcript cwd %q: project %q, want %q", tt.cwd, got, tt.want)
		}
	}
}
