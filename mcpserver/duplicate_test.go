package mcpserver

import (
	"testing"

	"github.com/skillrepo/skillrepo/internal/testlib"
)

// dockerCopy is the example's docker-cleanup as an agent writes it again
// without looking: renamed, reworded, reordered.
const dockerCopy = "---\nname: docker-disk-space\ndescription: Use when Docker eats the disk. Clean images safely.\n---\n# Freeing disk on a Docker host\n\n1. Prune dangling images and stopped containers: `docker image prune -f`, `docker container prune -f`.\n2. First measure with `docker system df -v`.\n3. Never `docker volume prune` without a backup: volumes hold data.\n"

// TestDuplicateCreate: an MCP create of a reworded copy is refused with
// the existing skill's name and nothing is written; force_new with a
// reason lands, the reason in a Force-New trailer.
func TestDuplicateCreate(t *testing.T) {
	f := newFixture(t)
	head := f.git("rev-parse", "main")
	copyOp := map[string]any{"action": "create", "name": "docker-disk-space", "content": dockerCopy}
	f.refused("skill_manage", ops(copyOp), "overlaps the existing skill 'docker-cleanup'")
	f.refused("skill_manage", ops(copyOp), "Patch 'docker-cleanup' instead")
	if got := f.git("rev-parse", "main"); got != head {
		t.Fatalf("a refused create moved main: %s -> %s", head, got)
	}
	forced := map[string]any{"action": "create", "name": "docker-disk-space", "content": dockerCopy, "force_new": true, "reason": "rootless Docker hosts"}
	f.ok("skill_manage", ops(forced))
	if got := f.trailer("main", "Force-New"); got != "rootless Docker hosts" {
		t.Errorf("Force-New = %q", got)
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}
