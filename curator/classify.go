package curator

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// YAMLSummary is the structured summary the model ends with
// (docs/reference-behaviour.md §6.6).
type YAMLSummary struct {
	Consolidations []struct {
		From   string `yaml:"from" json:"from"`
		Into   string `yaml:"into" json:"into"`
		Reason string `yaml:"reason" json:"reason"`
	} `yaml:"consolidations" json:"consolidations"`
	Prunings []struct {
		Name   string `yaml:"name" json:"name"`
		Reason string `yaml:"reason" json:"reason"`
	} `yaml:"prunings" json:"prunings"`
}

var yamlFence = regexp.MustCompile("(?s)```ya?ml[ \t]*\n(.*?)\n[ \t]*```")

// ParseYAMLSummary finds the fenced yaml block of the final answer (the
// last one after a "Structured summary" heading, else the last one) and
// parses it. A missing or malformed block is an error the report names;
// classification then rests on git and the audit alone.
func ParseYAMLSummary(final string) (*YAMLSummary, error) {
	text := final
	if i := strings.LastIndex(strings.ToLower(final), "structured summary"); i >= 0 {
		text = final[i:]
	}
	ms := yamlFence.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return nil, fmt.Errorf("the final answer has no fenced yaml block")
	}
	var s YAMLSummary
	if err := yaml.Unmarshal([]byte(ms[len(ms)-1][1]), &s); err != nil {
		return nil, fmt.Errorf("the yaml summary does not parse: %v", err)
	}
	return &s, nil
}

// archiveEvent is one archive a phase-2 commit records in its trailers.
type archiveEvent struct {
	name, into, commit string
	pruned             bool
}

// gitEvidence reads the archives of phase 2 back from its commits: the
// Skill-Name of each archive commit, its Absorbed-Into, and the Reason
// trailer of a prune.
func gitEvidence(lib *skillrepo.Library, commits []string) (map[string]archiveEvent, error) {
	out := map[string]archiveEvent{}
	for _, c := range commits {
		if !skillrepo.IsHash(c) {
			return nil, fmt.Errorf("phase 2 commit %q is not a commit id", c)
		}
		ci, err := lib.History().Commit(skillrepo.NewHash(c))
		if err != nil {
			return nil, err
		}
		tr := ci.Trailers()
		if trailer.Value(tr, skillrepo.TrailerAction) != skillrepo.ActionArchive {
			continue
		}
		into := trailer.Value(tr, skillrepo.TrailerAbsorbedInto)
		pruned := strings.HasPrefix(trailer.Value(tr, skillrepo.TrailerReason), "pruned")
		for _, n := range trailer.Values(tr, skillrepo.TrailerName) {
			out[n] = archiveEvent{name: n, into: into, commit: c, pruned: pruned && into == ""}
		}
	}
	return out, nil
}

// classifyInput is everything classification reads.
type classifyInput struct {
	phase1   []Change                // the ageing phase's archives
	archived []string                // skills phase 2 archived (from git)
	events   map[string]archiveEvent // from the commits' trailers
	active   map[string]bool         // active skills at the end of the run
	yaml     *YAMLSummary
	calls    []ToolCall
}

// classify says of every archived skill whether it was consolidated into
// an umbrella or pruned, and on what evidence, in the reference's order
// (docs/reference-behaviour.md §6.7) with git first: the Absorbed-Into
// trailer of the archive commit (followed through umbrellas archived in
// turn), then the model's YAML summary, then the tool-call audit.
func classify(in classifyInput) (cons, pruned []Classified, renames map[string]string, disagreements []string) {
	renames = map[string]string{}
	for _, c := range in.phase1 {
		pruned = append(pruned, Classified{Name: c.Name, Evidence: "phase 1: " + c.Reason, Reason: "stale", Phase: 1})
	}
	yamlInto := map[string]string{}
	yamlPrune := map[string]string{}
	if in.yaml != nil {
		for _, c := range in.yaml.Consolidations {
			yamlInto[strings.TrimSpace(c.From)] = strings.TrimSpace(c.Into)
		}
		for _, p := range in.yaml.Prunings {
			yamlPrune[strings.TrimSpace(p.Name)] = p.Reason
		}
	}
	// resolve follows a chain a → b → c of consolidations to the skill
	// that is still active.
	resolve := func(into string) (string, bool) {
		seen := map[string]bool{}
		for into != "" && !seen[into] {
			if in.active[into] {
				return into, true
			}
			seen[into] = true
			into = in.events[into].into
		}
		return "", false
	}
	archivedSet := map[string]bool{}
	for _, name := range in.archived {
		archivedSet[name] = true
		ev := in.events[name]
		var got Classified
		got.Name, got.Commit, got.Phase = name, ev.commit, 2
		switch final, ok := resolve(ev.into); {
		case ev.into != "" && ok:
			got.Into = final
			got.Evidence = fmt.Sprintf("Absorbed-Into: %s (trailer of %s)", ev.into, short(ev.commit))
			if ev.commit == "" {
				got.Evidence = fmt.Sprintf("absorbed_into: %s (the dry run's delete)", ev.into)
			}
			if final != ev.into {
				got.Evidence += fmt.Sprintf(", itself consolidated into %s", final)
			}
		case ev.pruned:
			got.Evidence = fmt.Sprintf("absorbed_into \"\" declared at delete (Reason trailer of %s)", short(ev.commit))
			if ev.commit == "" {
				got.Evidence = "absorbed_into \"\" (the dry run's delete)"
			}
		default:
			y, hasY := yamlInto[name]
			yFinal, yOK := resolve(y)
			target := auditTarget(name, in.calls, in.active)
			switch {
			case hasY && yOK:
				got.Into, got.Evidence = yFinal, "the model's YAML summary"
				if target == yFinal {
					got.Evidence += " and the tool-call audit"
				}
			case hasY && target != "":
				got.Into = target
				got.Evidence = fmt.Sprintf("tool-call audit (the YAML summary names %q, which does not exist)", y)
			case hasY:
				got.Evidence = fmt.Sprintf("hallucinated umbrella: the YAML summary names %q, which does not exist, and no write carried the content anywhere", y)
			case target != "":
				got.Into, got.Evidence = target, "tool-call audit: a write to "+target+" carried its name or files"
			case yamlPrune[name] != "":
				got.Evidence = "the model's YAML summary"
			default:
				got.Evidence = "no evidence of an umbrella"
			}
		}
		if got.Into != "" {
			renames[name] = got.Into
			cons = append(cons, got)
		} else {
			got.Reason = yamlPrune[name]
			pruned = append(pruned, got)
		}
		// Git wins; say where the model's own account differs.
		if y, ok := yamlInto[name]; ok && y != got.Into && y != in.events[name].into {
			what := "pruned"
			if got.Into != "" {
				what = "consolidated into " + got.Into
			}
			disagreements = append(disagreements, fmt.Sprintf("%s: the YAML summary says consolidated into %s; git says %s", name, y, what))
		}
		if _, ok := yamlPrune[name]; ok && got.Into != "" {
			disagreements = append(disagreements, fmt.Sprintf("%s: the YAML summary says pruned; git says consolidated into %s", name, got.Into))
		}
	}
	if in.yaml != nil {
		for from := range yamlInto {
			if !archivedSet[from] {
				disagreements = append(disagreements, fmt.Sprintf("%s: the YAML summary says consolidated, but it was not archived", from))
			}
		}
		for name := range yamlPrune {
			if !archivedSet[name] {
				disagreements = append(disagreements, fmt.Sprintf("%s: the YAML summary says pruned, but it was not archived", name))
			}
		}
	}
	sort.Slice(cons, func(i, j int) bool { return cons[i].Name < cons[j].Name })
	sort.SliceStable(pruned, func(i, j int) bool {
		if pruned[i].Phase != pruned[j].Phase {
			return pruned[i].Phase < pruned[j].Phase
		}
		return pruned[i].Name < pruned[j].Name
	})
	sort.Strings(disagreements)
	return cons, pruned, renames, disagreements
}

// auditTarget is the reference's heuristic over the tool calls: a
// successful write to another skill, still active, that carried name's
// files (a move out of it, a file path naming it) or its name in the
// text written.
func auditTarget(name string, calls []ToolCall, active map[string]bool) string {
	word := nameRE(name)
	for _, c := range calls {
		if !c.OK || c.DryRun {
			continue
		}
		for _, op := range c.Ops {
			dest := op.Name
			if op.Action == skillrepo.ActionMoveFile {
				if op.Name == name && active[op.ToSkill] {
					return op.ToSkill
				}
				continue
			}
			if dest == name || !active[dest] || op.Action == skillrepo.ActionDelete || op.Action == skillrepo.ActionRemoveFile {
				continue
			}
			for _, seg := range strings.Split(op.FilePath, "/") {
				if normName(strings.TrimSuffix(seg, path.Ext(seg))) == normName(name) {
					return dest
				}
			}
			for _, s := range []*string{op.Content, op.NewString, op.FileContent} {
				if s != nil && word.MatchString(*s) {
					return dest
				}
			}
		}
	}
	return ""
}

func normName(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }

// nameRE matches a skill name as a whole word: not inside a longer name
// (letters, digits, '-', '_' or '.' around it).
func nameRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_-]|\.[^A-Za-z0-9])`)
}

// followUps lists the lines of active skills' Markdown (SKILL.md and
// references/) that still name an archived skill, with the umbrella that
// now holds it when there is one.
func followUps(fsys fs.FS, skills []skillrepo.SkillInfo, archived []string, renames map[string]string) []FollowUp {
	if len(archived) == 0 {
		return []FollowUp{}
	}
	res := make([]*regexp.Regexp, len(archived))
	for i, n := range archived {
		res[i] = nameRE(n)
	}
	out := []FollowUp{}
	for _, si := range skills {
		if si.Archived {
			continue
		}
		files := []string{path.Join(si.Dir, "SKILL.md")}
		if ents, err := fs.ReadDir(fsys, path.Join(si.Dir, "references")); err == nil {
			for _, e := range ents {
				if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".md") {
					files = append(files, path.Join(si.Dir, "references", e.Name()))
				}
			}
		}
		for _, f := range files {
			data, err := fs.ReadFile(fsys, f)
			if err != nil {
				continue
			}
			text := string(data)
			for i, n := range archived {
				if n == si.Name || !strings.Contains(text, n) {
					continue
				}
				for ln, line := range strings.Split(text, "\n") {
					if res[i].MatchString(line) {
						out = append(out, FollowUp{Skill: si.Name, Path: f, Line: ln + 1, Names: []string{n}, Into: renames[n]})
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}
