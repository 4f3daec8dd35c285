// Package hermes reads and edits Hermes Agent's own files in a Hermes
// home (~/.hermes): the keys of config.yaml skillrepo honours (curator,
// memory limits, shell hooks), the curator's schedule in
// skills/.curator_state, the skills its cron jobs load (cron/jobs.json)
// and the shell-hook consent list. The facts are
// Hermes 0.19.0's (docs/hermes.md); no git, no network.
package hermes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Files of a Hermes home, relative to it.
const (
	ConfigFile    = "config.yaml"
	SkillsDir     = "skills"
	MemoriesDir   = "memories"
	AllowlistFile = "shell-hooks-allowlist.json"
	// CuratorStateFile is relative to the skills folder.
	CuratorStateFile = ".curator_state"
)

// maxFile bounds what is read of Hermes' files: each is a few kilobytes.
const maxFile = 4 << 20

// Defaults of Hermes 0.19.0 for what config.yaml does not say.
const (
	DefaultIntervalHours    = 168
	DefaultStaleAfterDays   = 30
	DefaultArchiveAfterDays = 90
	DefaultMemoryCharLimit  = 2200
	DefaultUserCharLimit    = 1375
)

// IsHome reports whether dir looks like a Hermes home: a skills folder
// beside config.yaml or a memories folder.
func IsHome(dir string) bool {
	if !isDir(filepath.Join(dir, SkillsDir)) {
		return false
	}
	return isFile(filepath.Join(dir, ConfigFile)) || isDir(filepath.Join(dir, MemoriesDir))
}

// HomeOf returns the Hermes home a skills folder belongs to: its parent
// when that is a Hermes home and the folder is its skills folder.
func HomeOf(skillsDir string) (string, bool) {
	if filepath.Base(skillsDir) != SkillsDir {
		return "", false
	}
	home := filepath.Dir(skillsDir)
	return home, IsHome(home)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Config is what skillrepo reads of Hermes' config.yaml. Hermes' own
// coercions apply: a value of the wrong type falls back to the default,
// as its getters do.
type Config struct {
	Curator CuratorConfig
	Memory  MemoryConfig
	// Hooks are the configured shell hooks, by event.
	Hooks map[string][]HookSpec
	// HooksAutoAccept is hooks_auto_accept (consent without a prompt).
	HooksAutoAccept bool
}

// CuratorConfig is config.yaml's curator: section.
type CuratorConfig struct {
	Enabled          bool
	IntervalHours    int
	StaleAfterDays   int
	ArchiveAfterDays int
	Consolidate      bool
	// Set lists the keys the file sets (the others are defaults).
	Set map[string]bool
}

// MemoryConfig is config.yaml's memory: section.
type MemoryConfig struct {
	MemoryCharLimit, UserCharLimit int
}

// HookSpec is one entry of hooks.<event>.
type HookSpec struct {
	Matcher string `yaml:"matcher,omitempty"`
	Command string `yaml:"command"`
	Timeout int    `yaml:"timeout,omitempty"`
}

// ReadConfig reads home's config.yaml; a missing file is Hermes'
// defaults.
func ReadConfig(home string) (Config, error) {
	cfg := Config{
		Curator: CuratorConfig{Enabled: true, IntervalHours: DefaultIntervalHours, StaleAfterDays: DefaultStaleAfterDays, ArchiveAfterDays: DefaultArchiveAfterDays, Set: map[string]bool{}},
		Memory:  MemoryConfig{MemoryCharLimit: DefaultMemoryCharLimit, UserCharLimit: DefaultUserCharLimit},
	}
	data, err := boundedread.ReadFile(filepath.Join(home, ConfigFile), maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read Hermes' %s: %w", ConfigFile, err)
	}
	var raw struct {
		Curator         map[string]any       `yaml:"curator"`
		Memory          map[string]any       `yaml:"memory"`
		Hooks           map[string]yaml.Node `yaml:"hooks"`
		HooksAutoAccept any                  `yaml:"hooks_auto_accept"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return cfg, fmt.Errorf("parse Hermes' %s: %w", filepath.Join(home, ConfigFile), err)
	}
	c := &cfg.Curator
	if v, ok := raw.Curator["enabled"]; ok {
		c.Enabled, c.Set["enabled"] = pyBool(v), true
	}
	for key, dst := range map[string]*int{"interval_hours": &c.IntervalHours, "stale_after_days": &c.StaleAfterDays, "archive_after_days": &c.ArchiveAfterDays} {
		if n, ok := intOf(raw.Curator[key]); ok {
			*dst, c.Set[key] = n, true
		}
	}
	if v, ok := raw.Curator["consolidate"]; ok {
		c.Consolidate, c.Set["consolidate"] = pyBool(v), true
	}
	if n, ok := intOf(raw.Memory["memory_char_limit"]); ok && n > 0 {
		cfg.Memory.MemoryCharLimit = n
	}
	if n, ok := intOf(raw.Memory["user_char_limit"]); ok && n > 0 {
		cfg.Memory.UserCharLimit = n
	}
	cfg.HooksAutoAccept = acceptValue(raw.HooksAutoAccept)
	for event, node := range raw.Hooks {
		var specs []HookSpec
		if node.Decode(&specs) == nil {
			if cfg.Hooks == nil {
				cfg.Hooks = map[string][]HookSpec{}
			}
			cfg.Hooks[event] = specs
		}
	}
	return cfg, nil
}

// pyBool is Python's bool() of a YAML value, which is how Hermes' curator
// getters read enabled and consolidate: any non-empty string is true,
// "off" and "false" included.
func pyBool(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// acceptValue is how Hermes reads hooks_auto_accept: a boolean as it is,
// a string when it says 1, true, yes or on; anything else is false.
func acceptValue(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "1", "true", "yes", "on":
			return true
		}
	}
	return false
}

// intOf is Python's int() of a YAML value, as Hermes' getters apply it.
func intOf(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		return int(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// CuratorState is skills/.curator_state, Hermes' curator schedule.
type CuratorState struct {
	LastRunAt       string  `json:"last_run_at"`
	LastRunDuration float64 `json:"last_run_duration_seconds"`
	LastRunSummary  string  `json:"last_run_summary"`
	LastReportPath  string  `json:"last_report_path"`
	Paused          bool    `json:"paused"`
	RunCount        int     `json:"run_count"`
}

// LastRun parses LastRunAt (zero when Hermes has not run; a timestamp
// without an offset is UTC, as Hermes reads it).
func (s CuratorState) LastRun() time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s.LastRunAt); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// ReadCuratorState reads skills/.curator_state of the skills folder; ok
// is false when Hermes' curator has never written it.
func ReadCuratorState(skillsDir string) (st CuratorState, ok bool, err error) {
	data, err := boundedread.ReadFile(filepath.Join(skillsDir, CuratorStateFile), maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		// Hermes reads a corrupt state as its defaults: so do we.
		return CuratorState{}, false, nil
	}
	return st, true, nil
}
