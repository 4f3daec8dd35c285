package lint

// Output rules: every format writes only to the writer it is given; text
// is for people (one line per finding, editors' path:line:col form, a
// summary last), json for scripts (snake_case, [] for no findings),
// github for workflow-command annotations (escaped per docs/skill-format.md
// §4) and sarif for code scanning (2.1.0, every rule in the driver,
// repository-relative URIs).

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Format is an output format of [Write].
type Format string

// The formats.
const (
	FormatText   Format = "text"
	FormatJSON   Format = "json"
	FormatGitHub Format = "github"
	FormatSARIF  Format = "sarif"
)

// Formats lists the formats, the default first.
func Formats() []Format { return []Format{FormatText, FormatJSON, FormatGitHub, FormatSARIF} }

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: want text, json, github or sarif", s)
}

// WriteOptions tunes [Write].
type WriteOptions struct {
	// ToolVersion is written into SARIF's driver.
	ToolVersion string
	// NoHints leaves fix hints out of text output.
	NoHints bool
}

// Write renders rep in format f.
func Write(w io.Writer, rep *Report, f Format, opts WriteOptions) error {
	bw := bufio.NewWriter(w)
	var err error
	switch f {
	case FormatText, "":
		writeText(bw, rep, opts)
	case FormatJSON:
		err = writeJSON(bw, rep)
	case FormatGitHub:
		writeGitHub(bw, rep)
	case FormatSARIF:
		err = writeSARIF(bw, rep, opts)
	default:
		return fmt.Errorf("unknown format %q", f)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// location renders path:line:col, leaving out what is unknown.
func (f Finding) location() string {
	switch {
	case f.Line > 0 && f.Column > 0:
		return fmt.Sprintf("%s:%d:%d", f.Path, f.Line, f.Column)
	case f.Line > 0:
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Path
}

func writeText(w *bufio.Writer, rep *Report, opts WriteOptions) {
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "%s: %s %s: %s\n", f.location(), f.Severity, f.Rule, f.Message)
		if f.Hint != "" && !opts.NoHints {
			fmt.Fprintf(w, "    hint: %s\n", f.Hint)
		}
	}
	fmt.Fprintln(w, Summary(rep))
}

// Summary is the one-line count of a report, e.g. "2 errors, 1 warning,
// 0 info in 12 skills (profile spec)"; a report whose scopes used
// several profiles names each, e.g. "(profile claude-code in
// .claude/skills, codex in .agents/skills, spec elsewhere)".
func Summary(rep *Report) string {
	skills := plural(len(rep.Skills), "skill", "skills")
	if len(rep.Findings) == 0 {
		return fmt.Sprintf("no problems in %s (%s)", skills, profileSummary(rep))
	}
	return fmt.Sprintf("%s, %s, %d info in %s (%s)",
		plural(rep.Count(Error), "error", "errors"), plural(rep.Count(Warning), "warning", "warnings"),
		rep.Count(Info), skills, profileSummary(rep))
}

func profileSummary(rep *Report) string {
	var parts []string
	named := false // a library other than the base folder
	rest := ""
	for _, sc := range rep.Scopes {
		switch {
		case sc.Skills == 0:
		case sc.Library:
			named = named || sc.Path != "."
			parts = append(parts, fmt.Sprintf("%s in %s", sc.Profile, sc.Path))
		default:
			rest = fmt.Sprintf("%s elsewhere", sc.Profile)
		}
	}
	if rest != "" {
		parts = append(parts, rest)
	}
	if len(parts) == 0 || len(parts) == 1 && !named {
		return "profile " + string(rep.Profile)
	}
	return "profile " + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// jsonReport is the JSON shape of a report; fields are only ever added.
type jsonReport struct {
	Profile Profile `json:"profile"`
	// Libraries: the scopes of a joined report ([Report.Scopes]).
	Libraries []Scope   `json:"libraries,omitempty"`
	Skills    int       `json:"skills"`
	Errors    int       `json:"errors"`
	Warnings  int       `json:"warnings"`
	Infos     int       `json:"infos"`
	Findings  []Finding `json:"findings"`
}

func writeJSON(w io.Writer, rep *Report) error {
	out := jsonReport{
		Profile: rep.Profile, Libraries: rep.Scopes, Skills: len(rep.Skills),
		Errors: rep.Count(Error), Warnings: rep.Count(Warning), Infos: rep.Count(Info),
		Findings: rep.Findings,
	}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value, which also
// may not contain ':' or ','.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func writeGitHub(w *bufio.Writer, rep *Report) {
	for _, f := range rep.Findings {
		cmd := map[Severity]string{Error: "error", Warning: "warning", Info: "notice"}[f.Severity]
		props := []string{"file=" + escapeProperty(f.Path)}
		if f.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Line))
			if f.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", f.Column))
			}
		}
		props = append(props, "title="+escapeProperty("skillrepo lint: "+f.Rule))
		msg := f.Message
		if f.Hint != "" {
			msg += "\nhint: " + f.Hint
		}
		fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg))
	}
	fmt.Fprintln(w, Summary(rep))
}

// SARIF 2.1.0 shapes (only what code scanning reads).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifText    `json:"shortDescription"`
		DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
	}
	sarifDefault struct {
		Level   string `json:"level"`
		Enabled bool   `json:"enabled"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "note"
	}
	return "none"
}

func writeSARIF(w io.Writer, rep *Report, opts WriteOptions) error {
	rules := Rules()
	index := map[string]int{}
	driver := sarifDriver{
		Name:           "skillrepo-lint",
		Version:        opts.ToolVersion,
		InformationURI: "https://github.com/skillrepo/skillrepo",
	}
	for k, r := range rules {
		index[r.ID] = k
		def := r.Default(rep.Profile)
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.ID, Name: ruleName(r.ID), ShortDescription: sarifText{r.Summary},
			DefaultConfiguration: sarifDefault{Level: sarifLevel(def), Enabled: def != Off},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	for _, f := range rep.Findings {
		msg := f.Message
		if f.Hint != "" {
			msg += "\nhint: " + f.Hint
		}
		loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: (&url.URL{Path: f.Path}).EscapedPath(), URIBaseID: "%SRCROOT%"}}
		// GitHub code scanning drops a result without a region, so a
		// finding about a whole file or folder points at its line 1.
		loc.Region = &sarifRegion{StartLine: max(f.Line, 1), StartColumn: f.Column}
		sum := sha256.Sum256([]byte(f.Rule + "\x00" + f.Path + "\x00" + f.Message))
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
			Message:             sarifText{msg},
			Locations:           []sarifLocation{{PhysicalLocation: loc}},
			PartialFingerprints: map[string]string{"skillrepoFinding/v1": hex.EncodeToString(sum[:16])},
		})
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// ruleName turns a rule ID into SARIF's PascalCase rule name.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
