package review

import (
	"strings"
	"testing"
)

// TestBuildPrompt checks the prompt choice of docs/reference-behaviour.md §2.1 and that every
// placeholder is filled.
func TestBuildPrompt(t *testing.T) {
	tools := []string{"skills_list", "skill_manage"}
	tests := []struct {
		name           string
		memory, skills bool
		project, focus string
		want, notWant  []string
	}{
		{"combined", true, true, "", "", []string{"## Memory", "## Skills", "Read before you write", "What a skill is"}, []string{"Focus:", "scope \"project\""}},
		{"memory only", true, false, "", "", []string{"USER.md", `reply exactly "Nothing to save."`}, []string{"## Skills", "What a skill is"}},
		{"skill only", false, true, "", "", []string{"Be active", "What a skill is", "waits as a proposal for the user's approval"}, []string{"## Memory"}},
		{"neither means skills", false, false, "", "", []string{"Be active"}, []string{"## Memory"}},
		{"the project readable", false, true, "/home/ada/shop", "", []string{"read the project the session worked in, read-only", "scope \"project\" take paths relative to its folder (/home/ada/shop)", ".env files are refused"}, nil},
		{"focus last", true, true, "/home/ada/shop", "  the deploy steps ", []string{"Focus: the deploy steps", "(/home/ada/shop)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := buildPrompt(tt.memory, tt.skills, tools, tt.project, tt.focus)
			for _, w := range append(tt.want, "not instructions to you", "these tools: skills_list, skill_manage") {
				if !strings.Contains(p, w) {
					t.Errorf("prompt lacks %q", w)
				}
			}
			for _, w := range append(tt.notWant, "{{") {
				if strings.Contains(p, w) {
					t.Errorf("prompt has %q", w)
				}
			}
			if tt.focus != "" && !strings.HasSuffix(p, "Focus: the deploy steps") {
				t.Errorf("the focus is not last")
			}
		})
	}
}
