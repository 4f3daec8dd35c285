package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// sync infers who made the edits it records from the usage records'
// writes since the branch's tip; the records our own writes stamp (a
// person's skill patch too) are not evidence of an agent (issue 40 item
// 11: after the person's own patch their next hand edit was recorded as
// foreground, and for a skill an agent created as the review's). An
// agent's write outside skillrepo after ours still is.
func TestSyncOriginAfterOwnWrite(t *testing.T) {
	ctx := context.Background()
	write := func(t *testing.T, l *Library, origin string, ops ...Op) {
		t.Helper()
		pol, err := l.Policy(Writer{Provenance: Provenance{Origin: origin, ReviewID: "r-1"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pol.Apply(ctx, ops, false); err != nil {
			t.Fatal(err)
		}
	}
	handEdit := func(t *testing.T, l *Library, name, line string) {
		t.Helper()
		p := filepath.Join(l.Root, name, "SKILL.md")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, line+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// outsideWrite stamps the record as an agent's own tool does when it
	// writes the skill's files itself (Hermes' skill_manage).
	outsideWrite := func(t *testing.T, l *Library, name string) {
		t.Helper()
		time.Sleep(10 * time.Millisecond)
		if err := l.Usage().Update(func(recs map[string]*usage.Record) error {
			recs[name].LastPatchedAt = usage.FormatTime(time.Now())
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	agentSkill := "---\nname: agent-made\ndescription: Use when the agent made it.\n---\n# Agent made\n\nbody\n"
	for _, tc := range []struct {
		name    string
		skill   string
		outside bool
		want    string
	}{
		{"person's skill, hand edit", "ci-debugging", false, OriginUser},
		{"agent's skill, hand edit", "agent-made", false, OriginUser},
		{"person's skill, agent's outside write", "ci-debugging", true, OriginForeground},
		{"agent's skill, agent's outside write", "agent-made", true, OriginBackgroundReview},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, _ := newTestLibrary(t)
			write(t, l, OriginBackgroundReview, Op{Action: ActionCreate, Name: "agent-made", Content: strp(agentSkill)})
			old, repl := "Pitfalls", "Traps"
			if tc.skill == "agent-made" {
				old, repl = "body", "body two"
			}
			write(t, l, OriginUser, Op{Action: ActionPatch, Name: tc.skill, OldString: strp(old), NewString: strp(repl)})
			handEdit(t, l, tc.skill, "one more line")
			if tc.outside {
				outsideWrite(t, l, tc.skill)
			}
			res, err := l.Sync(ctx, SyncOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Origin != tc.want {
				t.Errorf("sync recorded origin %s, want %s", res.Origin, tc.want)
			}
		})
	}
}
