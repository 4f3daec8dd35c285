package review

import (
	"fmt"
	"strings"
	"testing"
)

// dockerCopy is the example's docker-cleanup written again by a model
// that did not look: renamed, reworded, steps in another order.
const dockerCopy = "---\nname: docker-disk-space\ndescription: Use when Docker eats the disk. Clean images safely.\n---\n# Freeing disk on a Docker host\n\n1. Prune dangling images and stopped containers: `docker image prune -f`, `docker container prune -f`.\n2. First measure with `docker system df -v`.\n3. Never `docker volume prune` without a backup: volumes hold data.\n4. Older unused images only with the owner's consent (retention policy).\n"

// TestReviewDuplicateCreateRefused: a review whose model creates a
// reworded copy of an existing skill is refused with the existing skill's
// name; the model's force_new with a reason lands, reason in a Force-New
// trailer.
func TestReviewDuplicateCreateRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	run := f.review(`[
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "docker-disk-space", "content": `+js(dockerCopy)+`}]}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "docker-disk-space", "content": `+js(dockerCopy)+`, "force_new": true}]}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "docker-disk-space", "content": `+js(dockerCopy)+`, "force_new": true, "reason": "covers rootless Docker hosts, which docker-cleanup does not"}]}}]},
		{"content": "Done."}
	]`, f.transcript("simple.json"), nil)
	refused := run.requests[1].lastTool()
	if refused["success"] != false || refused["duplicate"] != true || !strings.Contains(fmt.Sprint(refused["error"]), "existing skill 'docker-cleanup'") ||
		!strings.Contains(fmt.Sprint(refused["error"]), "Patch 'docker-cleanup' instead") {
		t.Fatalf("duplicate create result = %v", refused)
	}
	if ex := fmt.Sprint(refused["existing"]); !strings.Contains(ex, "name:docker-cleanup") {
		t.Errorf("existing = %s", ex)
	}
	run.refusedWith(t, "guard", "overlaps the existing skill 'docker-cleanup'")
	if noReason := run.requests[2].lastTool(); noReason["success"] != false || !strings.Contains(fmt.Sprint(noReason["error"]), "force_new needs a reason") {
		t.Errorf("force_new without a reason = %v", noReason)
	}
	if len(run.sum.Applied) != 1 {
		t.Fatalf("applied %+v, refused %+v", run.sum.Applied, run.sum.Refused)
	}
	c := run.sum.Applied[0].Commit
	if got := f.trailer(c, "Force-New"); got != "covers rootless Docker hosts, which docker-cleanup does not" {
		t.Errorf("Force-New trailer = %q", got)
	}
	if got := f.show("main", "docker-disk-space/SKILL.md"); got != dockerCopy {
		t.Errorf("main has %q", got)
	}
	f.clean()
}

// TestReviewDistinctCreateNotRefused: a skill that only shares words with
// the library (Docker, but a different job) is created without force_new.
func TestReviewDistinctCreateNotRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	compose := "---\nname: compose-healthchecks\ndescription: Use when a compose app starts before its database.\n---\n# Compose healthchecks\n\nGive the database a healthcheck (`pg_isready`) and make the app wait with `depends_on: condition: service_healthy`. Docker restarts unhealthy containers only under swarm.\n"
	run := f.review(`[
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "compose-healthchecks", "content": `+js(compose)+`}]}}]},
		{"content": "Done."}
	]`, f.transcript("simple.json"), nil)
	if len(run.sum.Applied) != 1 || len(run.sum.Refused) != 0 {
		t.Fatalf("applied %+v refused %+v", run.sum.Applied, run.sum.Refused)
	}
	if got := f.trailer(run.sum.Applied[0].Commit, "Force-New"); got != "" {
		t.Errorf("Force-New = %q on a plain create", got)
	}
}
