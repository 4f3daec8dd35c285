package goals

import (
	"bytes"
	"fmt"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is the `goals:` section of .skillrepo/config.yaml:
//
//	goals:
//	  model: gpt-4o-mini          # the judge (default: review.model)
//	  base_url: http://…/v1       # its endpoint (default: review.base_url)
//	  max_turns: 20               # default budget of a new goal
//	  timeout_seconds: 30         # one judge call
//
// The zero Config means the defaults.
type Config struct {
	Model          string `yaml:"model"`
	BaseURL        string `yaml:"base_url"`
	MaxTurns       int    `yaml:"max_turns"`
	TimeoutSeconds int    `yaml:"timeout_seconds"`
}

// ParseConfig reads the goals section of a config file's bytes; other
// sections are ignored, unknown keys inside this one are errors.
func ParseConfig(data []byte) (Config, error) {
	var file struct {
		Goals yaml.Node `yaml:"goals"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		return Config{}, fmt.Errorf("parse config: %w", err)
	}
	if file.Goals.Kind == 0 || file.Goals.Tag == "!!null" {
		return Config{}, nil
	}
	// Re-encode the section so a strict decoder can refuse unknown keys:
	// a typo must not silently leave the judge unset.
	section, err := yaml.Marshal(&file.Goals)
	if err != nil {
		return Config{}, fmt.Errorf("config goals: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(section))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("config goals (line %d): %w", file.Goals.Line, err)
	}
	if c.MaxTurns < 0 || c.TimeoutSeconds < 0 {
		return Config{}, fmt.Errorf("config goals (line %d): max_turns and timeout_seconds must not be negative", file.Goals.Line)
	}
	return c, nil
}

// Timeout is the judge call's bound (30 s unless set).
func (c Config) Timeout() time.Duration {
	if c.TimeoutSeconds > 0 {
		return time.Duration(c.TimeoutSeconds) * time.Second
	}
	return 30 * time.Second
}
