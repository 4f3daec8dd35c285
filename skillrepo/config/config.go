// Package config is a library's settings file, .skillrepo/config.yaml:
// its typed schema (one struct per section, each key a field with its
// check), the defaults, and the strict parse that names each problem's
// line (docs/config.md). It knows nothing of git: the domain reads the
// file from the work tree or a commit and hands its bytes here.
package config

import (
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Path is the tracked settings file, relative to the library root.
const Path = ".skillrepo/config.yaml"

// Limit bounds the config file read: it is a few hundred bytes, and
// a file that is not (a mistake, a FIFO) is refused, not loaded.
const Limit = 1 << 20

// Config is .skillrepo/config.yaml, parsed once ([Parse]) and
// handed to every package as its typed section. The struct is the schema:
// a field's `yaml` tag is its key and its `check` tag its validation
// (see package internal/yamlconf: min=N, max=N, oneof=a|b, and the named
// checks of decoder in parse.go); [Default] holds every default. Adding a
// key is adding a field here (with its check and a default when it has
// one) and a row in docs/config.md.
type Config struct {
	// Version is the file's format; this skillrepo reads version 1.
	Version    int    `yaml:"version" check:"version"`
	MainBranch string `yaml:"main_branch" check:"branch"`
	// Runtime is the agent that reads the library (hermes, claude-code,
	// codex, generic): the write rules and the default lint profile follow
	// it. Absent from the file, it is detected from the library's path.
	Runtime skill.Runtime `yaml:"runtime" check:"runtime"`
	Review  Review        `yaml:"review"`
	Curator Curator       `yaml:"curator"`
	Memory  Memory        `yaml:"memory"`
	// Protected skills are never written by a background review or the
	// curator, whatever their history says.
	Protected []string `yaml:"protected" check:"nonempty"`
	Goals     Goals    `yaml:"goals"`
	// Lint is the lint: section; package lint owns its keys and checks
	// them against its rule table as it decodes (lint.Config's
	// UnmarshalYAML). [Config.LintSettings] adds the runtime's profile.
	Lint lint.Config `yaml:"lint"`
	// Remote is how the library is shared through its git host
	// (remote.go, docs/remote.md).
	Remote Remote `yaml:"remote"`
}

// Review is the review: section: the background review, and the
// worker that runs it (docs/agents.md, "The worker").
type Review struct {
	// WriteApproval leaves non-user writes as proposals instead of
	// merging them.
	WriteApproval bool `yaml:"write_approval"`
	// MemoryInterval and SkillInterval are the user turns and model
	// iterations between automatic reviews; 0 turns that review off.
	MemoryInterval int    `yaml:"memory_interval" check:"min=0"`
	SkillInterval  int    `yaml:"skill_interval" check:"min=0"`
	Model          string `yaml:"model"`
	BaseURL        string `yaml:"base_url" check:"url"`
	ContextWindow  int    `yaml:"context_window" check:"min=0"`
	// MaxInputTokens bounds what one review sends the model (0: the
	// reference's budget).
	MaxInputTokens int `yaml:"max_input_tokens" check:"min=0"`
	// DeferQuiet: how long the agent must be quiet before a queued review
	// calls the model; DeferMax: the longest a review waits for quiet.
	DeferQuiet Duration `yaml:"defer_quiet"`
	DeferMax   Duration `yaml:"defer_max"`
	// RetryBackoff is the first wait after a transient model error,
	// doubled per attempt; MaxAttempts bounds the attempts.
	RetryBackoff Duration `yaml:"retry_backoff"`
	MaxAttempts  int      `yaml:"max_attempts" check:"min=1"`
	// WorkerIdle: a worker without --once exits after this long with
	// nothing queued.
	WorkerIdle Duration `yaml:"worker_idle"`
	// FinalReview: SessionEnd queues a review of what the nudge counters
	// had not yet sent to one.
	FinalReview bool `yaml:"final_review"`
	// Enabled: false stops agent hooks from queueing reviews, and a
	// worker skips the reviews already queued.
	Enabled bool `yaml:"enabled"`
	// Backend chooses who holds a review's (and the goal judge's and
	// the consolidation's) conversation: "agent", the agent's own
	// program with the session's model; "endpoint", an OpenAI-compatible
	// endpoint; "auto", the endpoint when one is configured, else the
	// agent's program (docs/agents.md, "The model backend").
	Backend string `yaml:"backend" check:"oneof=auto|agent|endpoint"`
	// Defer says when a queued review waits for the agent to be quiet:
	// "always", "never", or "auto": only when it would compete with the
	// agent for a local model (a loopback or local-provider endpoint).
	Defer string `yaml:"defer" check:"oneof=auto|always|never"`
	// Notify says whether the agent tells the person, in one or two
	// lines of its next user-visible channel, what a review landed or
	// left waiting for them: "summary" or "off" (docs/agents.md, "Told
	// in the agent").
	Notify string `yaml:"notify" check:"oneof=summary|off"`
}

// Review backends and defer modes.
const (
	BackendAuto     = "auto"
	BackendAgent    = "agent"
	BackendEndpoint = "endpoint"
	DeferAuto       = "auto"
	DeferAlways     = "always"
	DeferNever      = "never"
	NotifySummary   = "summary"
	NotifyOff       = "off"
)

// Curator is the curator: section.
type Curator struct {
	Enabled          bool     `yaml:"enabled"`
	IntervalHours    int      `yaml:"interval_hours" check:"min=1"`
	StaleAfterDays   int      `yaml:"stale_after_days" check:"min=1"`
	ArchiveAfterDays int      `yaml:"archive_after_days" check:"min=1"`
	ScheduledSkills  []string `yaml:"scheduled_skills" check:"nonempty"`
	// ArchiveTTLDays is how long an archived skill stays in the tree
	// before `curator purge` removes it (history keeps it); 0, the
	// default, turns purging off as in the reference.
	ArchiveTTLDays int `yaml:"archive_ttl_days" check:"min=0"`
	// Consolidate adds the model pass (phase 2) to every run, scheduled
	// ones included; `curator run --consolidate` adds it to one run.
	Consolidate bool `yaml:"consolidate"`
	// Model and BaseURL choose phase 2's model; empty falls back to the
	// review's (review.model, review.base_url).
	Model   string `yaml:"model"`
	BaseURL string `yaml:"base_url" check:"url"`
	// WriteApproval leaves a consolidating run waiting as proposal
	// curator-<run-id> instead of merging it.
	WriteApproval bool `yaml:"write_approval"`
	// Owner is whose curator runs the library: skillrepo's, or Hermes'
	// own (a Hermes library: skillrepo's scheduled runs stand aside and
	// Hermes' runs are recorded as curator commits; docs/hermes.md §5).
	Owner string `yaml:"owner" check:"oneof=skillrepo|hermes"`
}

// Curator owners.
const (
	CuratorOwnerSkillrepo = "skillrepo"
	CuratorOwnerHermes    = string(agent.Hermes)
)

// Memory is the memory: section.
type Memory struct {
	// Dir holds MEMORY.md and USER.md, relative to the library root or
	// absolute (e.g. ~/.hermes/memories); the domain checks it
	// lies inside the library.
	Dir string `yaml:"dir" check:"nonempty"`
	// MemoryCharLimit and UserCharLimit are the stores' sizes, in
	// characters.
	MemoryCharLimit int `yaml:"memory_char_limit" check:"min=1"`
	UserCharLimit   int `yaml:"user_char_limit" check:"min=1"`
}

// Goals is the goals: section (docs/goals.md).
type Goals struct {
	// Model and BaseURL are the judge's (default: review.model and
	// review.base_url).
	Model   string `yaml:"model"`
	BaseURL string `yaml:"base_url" check:"url"`
	// MaxTurns is a new goal's default turn budget (0: the goal loop's).
	MaxTurns int `yaml:"max_turns" check:"min=0"`
	// TimeoutSeconds bounds one judge call.
	TimeoutSeconds int `yaml:"timeout_seconds" check:"min=1"`
}

// Timeout is the judge call's bound.
func (g Goals) Timeout() time.Duration { return time.Duration(g.TimeoutSeconds) * time.Second }

// LintSettings are the lint settings of the library: its lint: section,
// with the profile of its runtime when the section names none, so every
// lint of the library (the command, the git hook, the write gate) holds
// it to the rules of the agent that reads it.
func (c Config) LintSettings() lint.Config {
	s := c.Lint
	if s.Profile == "" {
		s.Profile = lint.ProfileFor(c.Runtime)
	}
	return s
}

// Default is what init writes and what every key the file leaves
// out means.
func Default() Config {
	return Config{
		Version:    1,
		MainBranch: "main",
		Review: Review{
			MemoryInterval: 10, SkillInterval: 10,
			DeferQuiet: Duration(15 * time.Second), DeferMax: Duration(30 * time.Minute),
			RetryBackoff: Duration(30 * time.Second), MaxAttempts: 5, WorkerIdle: Duration(time.Minute),
			FinalReview: true, Enabled: true, Backend: BackendAuto, Defer: DeferAuto, Notify: NotifySummary,
		},
		Curator: Curator{Enabled: true, IntervalHours: 168, StaleAfterDays: 14, ArchiveAfterDays: 30, Owner: CuratorOwnerSkillrepo},
		Memory:  Memory{Dir: ".memory", MemoryCharLimit: memory.DefaultMemoryLimit, UserCharLimit: memory.DefaultUserLimit},
		Goals:   Goals{TimeoutSeconds: 30},
		Remote:  DefaultRemote(),
	}
}

// DefaultYAML is the file init writes: [Default], commented.
const DefaultYAML = `# skillrepo library settings (tracked: shared by everyone who clones the library)
version: 1
main_branch: main
# the agent that reads this library (hermes, claude-code, codex, gemini, generic):
# write rules and the default lint profile follow it
runtime: generic

review:
  # true: background-review writes wait as proposals for 'skillrepo proposal approve'
  write_approval: false
  # user turns / model iterations between automatic reviews; 0 disables
  memory_interval: 10
  skill_interval: 10

curator:
  enabled: true
  interval_hours: 168
  stale_after_days: 14
  archive_after_days: 30
  # skills a scheduled job uses: never aged out
  scheduled_skills: []

memory:
  dir: .memory

# lint:
#   profile: spec
#   rules:
#     file-orphan: off
#     description-index-cut: warning
`
