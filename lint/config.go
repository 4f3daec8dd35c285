package lint

import (
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/internal/yamlconf"
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

// configSection is the section as written; the checks are lint's own
// (profile names, rule IDs, severities, patterns).
type configSection struct {
	Profile string            `yaml:"profile" check:"profile"`
	Strict  bool              `yaml:"strict"`
	Disable []string          `yaml:"disable" check:"rule"`
	Rules   map[string]string `yaml:"rules" keys:"rule" check:"severity"`
	Exclude []string          `yaml:"exclude" check:"pattern"`
}

var sectionDecoder = yamlconf.Decoder{Checks: map[string]yamlconf.Check{
	"profile": func(s string) (string, error) {
		if p := Profile(s); p != "" && !p.valid() {
			return "", fmt.Errorf("unknown profile %q: want one of %s", s, profileList())
		}
		return s, nil
	},
	"rule": func(s string) (string, error) {
		if _, ok := LookupRule(s); !ok {
			return "", fmt.Errorf("unknown rule %q (skillrepo lint --list-rules names them)", s)
		}
		return s, nil
	},
	"severity": func(s string) (string, error) {
		_, err := ParseSeverity(s)
		return s, err
	},
	"pattern": func(s string) (string, error) {
		if _, err := path.Match(s, ""); err != nil {
			return "", fmt.Errorf("bad pattern %q: %w", s, err)
		}
		return s, nil
	},
}}

// UnmarshalYAML decodes the `lint:` section of .skillrepo/config.yaml (the
// library's typed config holds it as a field): unknown keys, rule IDs,
// severities and profiles are errors naming their line (a
// yamlconf.Errors), so a typo never silently disables nothing. Null is
// the zero Config.
func (c *Config) UnmarshalYAML(node *yaml.Node) error {
	var sec configSection
	if errs := sectionDecoder.Decode(node, &sec, "lint"); len(errs) > 0 {
		return errs
	}
	cfg := Config{Profile: Profile(sec.Profile), Strict: sec.Strict, Disable: sec.Disable, Exclude: sec.Exclude}
	if len(sec.Rules) > 0 {
		cfg.Rules = make(map[string]Severity, len(sec.Rules))
		for id, v := range sec.Rules {
			cfg.Rules[id], _ = ParseSeverity(v) // checked above
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
