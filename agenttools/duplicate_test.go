package agenttools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// dockerCopy is the example's docker-cleanup as a model writes it again:
// renamed, reworded, reordered.
const dockerCopy = "---\nname: docker-disk-space\ndescription: Use when Docker eats the disk. Clean images safely.\n---\n# Freeing disk on a Docker host\n\n1. Prune dangling images and stopped containers: `docker image prune -f`, `docker container prune -f`.\n2. First measure with `docker system df -v`.\n3. Never `docker volume prune` without a backup: volumes hold data.\n"

// TestDuplicateCreate: the duplicate check of create, for every agent origin
// (the review, the curator and the MCP tools share it), and its ways out.
func TestDuplicateCreate(t *testing.T) {
	op := func(extra map[string]any) map[string]any {
		o := map[string]any{"action": "create", "name": "docker-disk-space", "content": dockerCopy}
		for k, v := range extra {
			o[k] = v
		}
		return map[string]any{"operations": []map[string]any{o}}
	}
	tests := []struct {
		name      string
		opts      Options
		args      map[string]any
		wantOK    bool
		wantError string
		trailer   string
	}{
		{"autonomous copy refused", Options{}, op(nil), false, "Refusing to create 'docker-disk-space': it overlaps the existing skill 'docker-cleanup'", ""},
		{"foreground (MCP) copy refused", Options{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginForeground}}, op(nil), false, "Patch 'docker-cleanup' instead", ""},
		{"force_new without a reason", Options{}, op(map[string]any{"force_new": true}), false, "force_new needs a reason", ""},
		{"force_new on a patch", Options{}, map[string]any{"operations": []map[string]any{{"action": "patch", "name": "docker-cleanup", "old_string": "a", "new_string": "b", "force_new": true}}}, false, "force_new applies to create only", ""},
		{"force_new with a reason lands", Options{}, op(map[string]any{"force_new": true, "reason": "rootless hosts\ndiffer"}), true, "", "rootless hosts differ"},
		{"the consolidation allows overlap", Options{AllowOverlap: true}, op(nil), true, "", ""},
		{"a distinct skill passes", Options{}, create("pnpm-workflows"), true, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			head := f.git("rev-parse", "main")
			r, res := callTool(t, f.box(tc.opts), SkillManage, tc.args)
			if r.OK != tc.wantOK {
				t.Fatalf("OK = %v, want %v: %v", r.OK, tc.wantOK, res)
			}
			if tc.wantError != "" && !strings.Contains(fmt.Sprint(res["error"]), tc.wantError) {
				t.Errorf("error = %v, want %q", res["error"], tc.wantError)
			}
			if !tc.wantOK {
				if f.git("rev-parse", "main") != head {
					t.Errorf("a refused create wrote")
				}
				if strings.Contains(tc.name, "copy refused") && (r.Refusal == nil || r.Refusal.Kind != RefusedGuard || res["duplicate"] != true) {
					t.Errorf("refusal = %+v, result %v", r.Refusal, res)
				}
				return
			}
			if got := strings.TrimSpace(f.git("log", "-1", "--format=%(trailers:key=Force-New,valueonly,separator=)", "main")); got != tc.trailer {
				t.Errorf("Force-New = %q, want %q", got, tc.trailer)
			}
			f.git("fsck", "--strict", "--no-progress")
		})
	}
}
