package overlap

import (
	"fmt"
	"math/rand"
	"strings"
)

// planted is a hand-written skill of the test library.
type planted struct {
	name, desc, body string
}

// The planted families: each is one skill written several times over, as
// a review agent writes it session after session: renamed, reworded,
// its steps in another order.
var (
	dockerCleanup = []planted{
		{"docker-image-cleanup", "Use when the disk fills with old docker images. Prune dangling images and stopped containers.",
			"# Docker image cleanup\n\n1. Run `docker system df` to see how much space images, containers and volumes take.\n2. Remove stopped containers with `docker container prune`.\n3. Remove dangling images with `docker image prune`.\n4. Remove unused images older than a week: `docker image prune -a --filter until=168h`.\n5. Check the disk again with `df -h /var/lib/docker`.\n"},
		{"prune-stale-container-images", "Use when /var/lib/docker runs out of space: delete dangling docker images and dead containers.",
			"# Freeing docker disk space\n\n- First delete exited containers: `docker container prune`.\n- Then remove images no container uses, older than a week: `docker image prune -a --filter until=168h`.\n- `docker image prune` removes the dangling images left by rebuilds.\n- Verify with `df -h /var/lib/docker` and `docker system df` how much space the images and volumes now take.\n"},
		{"docker-disk-full", "Use when a docker host reports no space left: clean up images and containers.",
			"# Docker disk full\n\nWhen the host says no space left on device:\n\n- `docker system df` shows what takes the space (images, containers, volumes).\n- Prune stopped containers (`docker container prune`) and dangling images (`docker image prune`).\n- For more space prune unused images older than 168h with `docker image prune -a`.\n- Re-check `df -h /var/lib/docker`.\n"},
	}
	pgBloat = []planted{
		{"pg-vacuum-bloat", "Use when a postgres table grows without more rows. Measure bloat and vacuum it.",
			"# Postgres table bloat\n\n1. Find bloated tables with pgstattuple: `SELECT * FROM pgstattuple('orders')`.\n2. Check dead tuples in pg_stat_user_tables (n_dead_tup) and the last autovacuum time.\n3. Run `VACUUM (VERBOSE, ANALYZE) orders` to reclaim dead tuples.\n4. If the table is still bloated use pg_repack instead of VACUUM FULL, which locks the table.\n5. Tune autovacuum_vacuum_scale_factor for tables with many updates.\n"},
		{"postgres-table-bloat-fix", "Use when postgres tables bloat: check dead tuples, vacuum, repack.",
			"# Fixing bloated postgres tables\n\n- Tune autovacuum_vacuum_scale_factor on tables with many updates so autovacuum runs sooner.\n- pg_repack rebuilds a bloated table without the exclusive lock VACUUM FULL takes.\n- `VACUUM (VERBOSE, ANALYZE) orders` reclaims the dead tuples.\n- Look at n_dead_tup in pg_stat_user_tables and when autovacuum last ran.\n- pgstattuple('orders') measures the bloat.\n"},
	}
	gateway = []planted{
		{"gateway-retry-backoff", "Use when calls through the API gateway fail intermittently. Retry with exponential backoff and jitter.",
			"# Gateway retries\n\nRetry idempotent requests that fail with 502, 503 or 504 from the gateway. Use exponential backoff with full jitter, a base of 100ms and a cap of 10s, and at most five attempts. Never retry a POST without an idempotency key.\n"},
		{"gateway-timeout-tuning", "Use when the API gateway times out upstream calls. Tune the gateway's upstream timeouts.",
			"# Gateway timeouts\n\nSet the upstream connect timeout to 2s and the read timeout above the service's p99 latency. A gateway timeout (504) shorter than the client's own timeout makes retries pile up; keep client timeout > gateway timeout > upstream p99.\n"},
		{"gateway-rate-limit-429", "Use when the API gateway answers 429 Too Many Requests. Respect Retry-After and the rate limit.",
			"# Gateway rate limits\n\nA 429 from the gateway carries Retry-After: wait that long. Spread requests with a token bucket sized to the plan's rate limit, and back off exponentially if 429s continue.\n"},
	}
	prFamily = []planted{
		{"pr-description-template", "Use when opening a pull request. Write the PR description: what, why, how tested.",
			"# Pull request description\n\nEvery pull request description says what changed, why, and how it was tested. Link the issue. List follow-ups. Keep the title under 70 characters, imperative mood.\n"},
		{"pr-review-checklist", "Use when reviewing a pull request. Check tests, naming, error handling and the PR description.",
			"# Reviewing a pull request\n\nRead the PR description first, then the tests. Check naming, error handling, that the change does one thing, and that the pull request links its issue.\n"},
	}
	// Sharing words is not sharing a purpose: each of these pairs has
	// vocabulary in common with another skill of the library and a
	// different job.
	falseFriends = []planted{
		{"image-thumbnail-resize", "Use when a web page needs smaller images. Resize photos into thumbnails with Pillow.",
			"# Thumbnails\n\n1. Open the photo with Pillow: `Image.open(path)`.\n2. Keep the aspect ratio with `img.thumbnail((320, 320))`.\n3. Save as WebP at quality 80 to cut the size of each image.\n4. Serve them with srcset so browsers pick the right size.\n"},
		{"api-token-rotation", "Use when an API token leaked or expires. Rotate the token without downtime.",
			"# Token rotation\n\nIssue a second token, deploy it to every client, watch the old token's last-used time fall to zero, then revoke the old token. Store tokens in the secret manager, never in the repository.\n"},
		{"llm-tokenizer-debugging", "Use when a prompt is cut off or costs more than expected. Count tokens with the model's tokenizer.",
			"# Tokenizer surprises\n\nCount tokens with tiktoken for the exact model. Whitespace, emoji and non-English text take more tokens than words suggest. Leave room in the context window for the reply.\n"},
		{"go-heap-memory-profiling", "Use when a Go service's memory grows. Profile the heap with pprof to find the leak.",
			"# Go memory leaks\n\nTake two heap profiles a few minutes apart with `go tool pprof http://localhost:6060/debug/pprof/heap` and compare them with -base. Look for goroutines that never exit and maps that only grow.\n"},
		{"agent-memory-curation", "Use when the agent's MEMORY.md gets long. Keep durable facts, drop session notes.",
			"# Curating memory\n\nMEMORY.md holds durable facts about the environment and the user's preferences. Remove entries that describe one session, merge duplicates, keep each entry to one line.\n"},
		{"docker-compose-healthchecks", "Use when a compose service starts before its database is ready. Add healthchecks and depends_on conditions.",
			"# Compose healthchecks\n\nGive the database a healthcheck (`pg_isready`) and make the app depend on it with `condition: service_healthy`. Docker restarts unhealthy containers only under swarm; compose just reports them.\n"},
	}
)

// filler makes n unrelated skills from a synthetic Zipf vocabulary, the
// way a real library's long tail looks: every skill about something else,
// common words shared by all.
func filler(n int, seed int64) []Skill {
	rng := rand.New(rand.NewSource(seed))
	syll := []string{"ka", "ro", "mi", "te", "lu", "san", "dor", "vex", "pli", "qua", "zen", "bor", "tik", "mal", "fen", "gra", "hup", "jo", "nel", "wis"}
	vocab := make([]string, 20000)
	for i := range vocab {
		var b strings.Builder
		for k := 0; k < 2+rng.Intn(3); k++ {
			b.WriteString(syll[rng.Intn(len(syll))])
		}
		vocab[i] = fmt.Sprintf("%s%d", b.String(), i%7) // distinct words
		vocab[i] = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'a' + (r - '0')
			}
			return r
		}, vocab[i])
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	word := func() string { return vocab[zipf.Uint64()] }
	topicWord := func() string { return vocab[200+rng.Intn(len(vocab)-200)] }
	out := make([]Skill, n)
	for i := range out {
		topic := []string{topicWord(), topicWord(), topicWord()}
		name := fmt.Sprintf("%s-%s-%d", topic[0], topic[1], i)
		var desc strings.Builder
		fmt.Fprintf(&desc, "Use when %s %s needs %s.", topic[0], topic[1], topic[2])
		var body strings.Builder
		fmt.Fprintf(&body, "# %s %s\n\n", topic[0], topic[1])
		for line := 0; line < 20; line++ {
			fmt.Fprintf(&body, "%d. ", line+1)
			for w := 0; w < 10; w++ {
				if w%4 == 0 {
					body.WriteString(topic[rng.Intn(3)])
				} else {
					body.WriteString(word())
				}
				body.WriteByte(' ')
			}
			body.WriteString("\n")
		}
		out[i] = Skill{Name: name, Description: desc.String(), Body: body.String()}
	}
	return out
}

func skillsOf(ps ...[]planted) []Skill {
	var out []Skill
	for _, p := range ps {
		for _, s := range p {
			out = append(out, Skill{Name: s.name, Description: s.desc, Body: s.body})
		}
	}
	return out
}
