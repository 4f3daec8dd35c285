package skillrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// ConfigPath is the tracked settings file, relative to the library root.
const ConfigPath = ".skillrepo/config.yaml"

// ConfigLimit bounds the config file read: it is a few hundred bytes, and
// a file that is not (a mistake, a FIFO) is refused, not loaded.
const ConfigLimit = 1 << 20

// ReadConfigFile reads the config file of the library at root, at most
// [ConfigLimit] bytes. A missing file is an fs.ErrNotExist error.
func ReadConfigFile(root string) ([]byte, error) {
	return boundedread.ReadFile(filepath.Join(root, filepath.FromSlash(ConfigPath)), ConfigLimit)
}

// Config is .skillrepo/config.yaml. Zero fields take the defaults of
// [DefaultConfig]; unknown keys are kept in Raw for packages that own their
// own section (lint).
type Config struct {
	Version    int    `yaml:"version"`
	MainBranch string `yaml:"main_branch,omitempty"`
	// Runtime is the agent that reads the library (hermes, claude-code,
	// codex, generic): the write rules and the default lint profile follow
	// it. Absent from the file, it is detected from the library's path.
	Runtime skill.Runtime `yaml:"runtime,omitempty"`
	Review  ReviewConfig  `yaml:"review"`
	Curator CuratorConfig `yaml:"curator"`
	Memory  MemoryConfig  `yaml:"memory"`
	// Protected skills are never written by a background review or the
	// curator, whatever their history says.
	Protected []string `yaml:"protected,omitempty"`
	// Remote is how the library is shared through a git host
	// (config_remote.go, docs/remote.md).
	Remote RemoteConfig `yaml:"remote"`

	// Raw is the file as read, for sections other packages parse.
	Raw []byte `yaml:"-"`
}

// ReviewConfig is the review: section.
type ReviewConfig struct {
	// WriteApproval leaves non-user writes as proposals instead of
	// merging them.
	WriteApproval  bool   `yaml:"write_approval"`
	MemoryInterval *int   `yaml:"memory_interval,omitempty"`
	SkillInterval  *int   `yaml:"skill_interval,omitempty"`
	Model          string `yaml:"model,omitempty"`
	BaseURL        string `yaml:"base_url,omitempty"`
	ContextWindow  int    `yaml:"context_window,omitempty"`
}

// CuratorConfig is the curator: section.
type CuratorConfig struct {
	Enabled          *bool    `yaml:"enabled,omitempty"`
	IntervalHours    int      `yaml:"interval_hours,omitempty"`
	StaleAfterDays   int      `yaml:"stale_after_days,omitempty"`
	ArchiveAfterDays int      `yaml:"archive_after_days,omitempty"`
	ScheduledSkills  []string `yaml:"scheduled_skills,omitempty"`
	// ArchiveTTLDays is how long an archived skill stays in the tree
	// before `curator purge` removes it (history keeps it); 0, the
	// default, turns purging off as in the reference.
	ArchiveTTLDays int `yaml:"archive_ttl_days,omitempty"`
	// Consolidate adds the model pass (phase 2) to every run, scheduled
	// ones included; `curator run --consolidate` adds it to one run.
	Consolidate bool `yaml:"consolidate,omitempty"`
	// Model and BaseURL choose phase 2's model; empty falls back to the
	// review's (review.model, review.base_url).
	Model   string `yaml:"model,omitempty"`
	BaseURL string `yaml:"base_url,omitempty"`
	// WriteApproval leaves a consolidating run waiting as proposal
	// curator-<run-id> instead of merging it.
	WriteApproval bool `yaml:"write_approval,omitempty"`
}

// MemoryConfig is the memory: section.
type MemoryConfig struct {
	// Dir holds MEMORY.md and USER.md, relative to the library root or
	// absolute (e.g. ~/.hermes/memories).
	Dir string `yaml:"dir,omitempty"`
}

// Rules are the write rules of the library's runtime (its config's
// runtime, else the one its path suggests).
func (l *Library) Rules() skill.Rules { return skill.RulesFor(l.Config.Runtime) }

// DefaultConfig is what init writes and what missing fields mean.
func DefaultConfig() Config {
	ten := 10
	on := true
	return Config{
		Version:    1,
		MainBranch: "main",
		Review:     ReviewConfig{MemoryInterval: &ten, SkillInterval: &ten},
		Curator:    CuratorConfig{Enabled: &on, IntervalHours: 168, StaleAfterDays: 14, ArchiveAfterDays: 30},
		Memory:     MemoryConfig{Dir: ".memory"},
		Remote:     DefaultRemoteConfig(),
	}
}

// loadConfig reads the config from the work tree; a missing file means the
// defaults. A malformed file is an error naming the file.
func loadConfig(root string) (Config, error) {
	cfg := DefaultConfig()
	b, err := ReadConfigFile(root)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read %s: %w", ConfigPath, err)
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		return cfg, fmt.Errorf("parse %s: %w", ConfigPath, err)
	}
	d := DefaultConfig()
	if cfg.MainBranch == "" {
		cfg.MainBranch = d.MainBranch
	}
	if cfg.Review.MemoryInterval == nil {
		cfg.Review.MemoryInterval = d.Review.MemoryInterval
	}
	if cfg.Review.SkillInterval == nil {
		cfg.Review.SkillInterval = d.Review.SkillInterval
	}
	if cfg.Curator.Enabled == nil {
		cfg.Curator.Enabled = d.Curator.Enabled
	}
	if cfg.Curator.IntervalHours <= 0 {
		cfg.Curator.IntervalHours = d.Curator.IntervalHours
	}
	if cfg.Curator.StaleAfterDays <= 0 {
		cfg.Curator.StaleAfterDays = d.Curator.StaleAfterDays
	}
	if cfg.Curator.ArchiveAfterDays <= 0 {
		cfg.Curator.ArchiveAfterDays = d.Curator.ArchiveAfterDays
	}
	if cfg.Memory.Dir == "" {
		cfg.Memory.Dir = d.Memory.Dir
	}
	if cfg.Runtime == "" {
		cfg.Runtime = skill.DetectRuntime(root)
	} else if cfg.Runtime, err = skill.ParseRuntime(string(cfg.Runtime)); err != nil {
		return cfg, fmt.Errorf("%s: %w", ConfigPath, err)
	}
	if cfg.Remote, err = cfg.Remote.normalize(); err != nil {
		return cfg, fmt.Errorf("%s: %w", ConfigPath, err)
	}
	cfg.Raw = b
	return cfg, nil
}

const defaultConfigYAML = `# skillrepo library settings (tracked: shared by everyone who clones the library)
version: 1
main_branch: main
# the agent that reads this library (hermes, claude-code, codex, generic):
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
