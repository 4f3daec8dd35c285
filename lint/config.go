package lint

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is the `lint:` section of .skillrepo/config.yaml: per-library
// choices that the command line can still override.
//
//	lint:
//	  profile: hermes            # default --profile
//	  strict: false              # default --strict
//	  disable: [file-orphan]     # rules turned off
//	  rules:                     # severity changes: error, warning, info, off
//	    body-too-long: info
//	  exclude: [drafts, "vendor/*"]   # skill folders not linted (path.Match patterns)
//
// The zero Config changes nothing.
type Config struct {
	Profile Profile
	Strict  bool
	Disable []string
	Rules   map[string]Severity
	Exclude []string
}

type configSection struct {
	Profile string            `yaml:"profile"`
	Strict  bool              `yaml:"strict"`
	Disable []string          `yaml:"disable"`
	Rules   map[string]string `yaml:"rules"`
	Exclude []string          `yaml:"exclude"`
}

// ParseConfig reads the `lint:` section of a .skillrepo/config.yaml. Other
// sections are ignored; an absent section gives the zero Config. Unknown
// keys, rule IDs, severities and profiles inside the section are errors,
// so a typo never silently disables nothing.
func ParseConfig(data []byte) (Config, error) {
	var file struct {
		Lint Config `yaml:"lint"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		return Config{}, fmt.Errorf("parse config: %w", err)
	}
	return file.Lint, nil
}

// UnmarshalYAML decodes the `lint:` section, so a typed config file can
// hold it as a field: unknown keys, rule IDs, severities and profiles are
// errors; null or an absent section is the zero Config.
func (c *Config) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind == yaml.ScalarNode && node.Tag == "!!null" {
		*c = Config{}
		return nil
	}
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("config lint (line %d): want a mapping", node.Line)
	}
	// Re-encode the section so the strict decoder can reject unknown keys
	// in it without judging the sections other packages own.
	raw, err := yaml.Marshal(node)
	if err != nil {
		return fmt.Errorf("config lint: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var sec configSection
	if err := dec.Decode(&sec); err != nil {
		return fmt.Errorf("config lint: %w", err)
	}
	cfg := Config{Profile: Profile(sec.Profile), Strict: sec.Strict, Exclude: sec.Exclude}
	if cfg.Profile != "" && !cfg.Profile.valid() {
		return fmt.Errorf("config lint.profile: unknown profile %q: want one of %s", sec.Profile, profileList())
	}
	for _, id := range sec.Disable {
		if _, ok := LookupRule(id); !ok {
			return fmt.Errorf("config lint.disable: unknown rule %q", id)
		}
		cfg.Disable = append(cfg.Disable, id)
	}
	if len(sec.Rules) > 0 {
		cfg.Rules = make(map[string]Severity, len(sec.Rules))
		ids := make([]string, 0, len(sec.Rules))
		for id := range sec.Rules {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			if _, ok := LookupRule(id); !ok {
				return fmt.Errorf("config lint.rules: unknown rule %q", id)
			}
			s, err := ParseSeverity(sec.Rules[id])
			if err != nil {
				return fmt.Errorf("config lint.rules.%s: %w", id, err)
			}
			cfg.Rules[id] = s
		}
	}
	for _, pat := range cfg.Exclude {
		if _, err := path.Match(pat, ""); err != nil {
			return fmt.Errorf("config lint.exclude: bad pattern %q: %w", pat, err)
		}
	}
	*c = cfg
	return nil
}

func profileList() string {
	var names []string
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// severity is the effective severity of rule id under profile p.
func (c Config) severity(id string, p Profile, strict bool) Severity {
	r, ok := LookupRule(id)
	if !ok {
		return Off
	}
	s := r.Default(p)
	if v, ok := c.Rules[id]; ok {
		s = v
	}
	for _, d := range c.Disable {
		if d == id {
			s = Off
		}
	}
	if (strict || c.Strict) && s == Warning {
		s = Error
	}
	return s
}

// Excluded reports whether the slash path p or one of its parent folders
// matches an exclude pattern.
func (c Config) Excluded(p string) bool {
	if len(c.Exclude) == 0 {
		return false
	}
	for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		for _, pat := range c.Exclude {
			if ok, _ := path.Match(pat, q); ok {
				return true
			}
		}
	}
	return false
}
