package curator

// Skills a scheduled job uses are never aged out, consolidated or
// archived (docs/reference-behaviour.md §6.5): the ones the person lists
// (curator.scheduled_skills), and those found where the jobs are
// recorded — Hermes' own cron jobs, for a library that is a Hermes home's
// skills folder (its curator protects the same ones), and the person's
// crontab lines that run an agent unattended.

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Unattended is an agent a crontab line may run with no person at it:
// its folder says whether a command's words (one command of the line,
// split as a shell would) run its program so — `claude -p`, `codex
// exec`, `gemini -p`, `hermes …`. cmd/skillrepo hands in the registry's.
type Unattended interface {
	RunsUnattended(words []string) bool
}

// Bounds on what is read of the crontab: it is the person's, and a
// scheduled job is a line of it.
const (
	maxCrontab     = 256 << 10
	maxCrontabLine = 4096
	crontabTimeout = 5 * time.Second
	// sourceConfig is where a skill listed by hand is said to come from.
	sourceConfig = "curator.scheduled_skills"
)

// scheduledSkills names the library's skills a scheduled job uses, each
// with where the job was found. A skill is named by its frontmatter name,
// its folder's name or its category/folder path. Reading the jobs is
// best effort, as the reference's is: a store or crontab that cannot be
// read protects nothing more (the listed skills stay protected).
func (c *Curator) scheduledSkills(cfg config.Curator, skills []skillrepo.SkillInfo) map[string]string {
	byRef := map[string]string{} // a reference → the skill's name
	for _, si := range skills {
		for _, ref := range []string{si.Name, path.Base(si.Dir), si.Dir} {
			if _, taken := byRef[ref]; !taken {
				byRef[ref] = si.Name
			}
		}
	}
	out := map[string]string{}
	mark := func(ref, where string) {
		if name, ok := byRef[ref]; ok {
			if _, seen := out[name]; !seen {
				out[name] = where
			}
		}
	}
	for _, n := range cfg.ScheduledSkills {
		out[n] = sourceConfig
	}
	if home, ok := hermes.HomeOf(c.Lib.Root); ok {
		jobs, _ := hermes.CronJobs(home)
		for _, j := range jobs {
			for _, s := range j.Skills {
				mark(s, fmt.Sprintf("Hermes cron job %q", j.Name))
			}
		}
	}
	if len(c.Agents) > 0 {
		for _, l := range crontabJobs(c.Agents, readCrontab()) {
			for _, ref := range l.refs {
				mark(ref, "crontab: "+l.text)
			}
		}
	}
	return out
}

// scheduledNames is the sorted names of a scheduledSkills result.
func scheduledNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// readCrontab is the person's crontab (`crontab -l`), at most maxCrontab
// bytes; nil when there is none, no crontab program, or it fails.
func readCrontab() []byte {
	ctx, cancel := context.WithTimeout(context.Background(), crontabTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "crontab", "-l")
	var out limited
	out.left = maxCrontab
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return nil
	}
	return out.buf.Bytes()
}

// limited keeps the first left bytes written to it and drops the rest.
type limited struct {
	buf  bytes.Buffer
	left int
}

func (l *limited) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > l.left {
		p = p[:l.left]
	}
	l.buf.Write(p)
	l.left -= len(p)
	return n, nil
}

// crontabJob is a crontab line that runs an agent unattended, and the
// words of it that may name a skill.
type crontabJob struct {
	text string
	refs []string
}

// skillWord is a word that may be a skill's name (the name rule of
// docs/skill-format.md, with a category's "/" allowed): `/deploy-check`,
// `$deploy-check`, `--skills a,b` and "the deploy-check skill" all hold
// one.
var skillWord = regexp.MustCompile(`[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)?`)

// crontabJobs reads crontab text: each line that is a job (not blank, a
// comment or a variable's setting) and of which one command runs an
// agent unattended, with its words (lower case, a sentence's final dot
// dropped, and each part of a category/folder word too).
func crontabJobs(agents []Unattended, text []byte) []crontabJob {
	var out []crontabJob
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || len(line) > maxCrontabLine || isCronVariable(line) {
			continue
		}
		if !runsAnAgent(agents, line) {
			continue
		}
		var refs []string
		for _, w := range skillWord.FindAllString(strings.ToLower(line), -1) {
			w = strings.TrimRight(w, ".")
			refs = append(refs, w)
			if a, b, ok := strings.Cut(w, "/"); ok {
				refs = append(refs, a, b)
			}
		}
		out = append(out, crontabJob{text: line, refs: refs})
	}
	return out
}

// isCronVariable: a crontab line NAME=value sets a variable.
func isCronVariable(line string) bool {
	name, _, ok := strings.Cut(line, "=")
	return ok && name != "" && !strings.ContainsAny(strings.TrimSpace(name), " \t")
}

// runsAnAgent splits a line into its commands (at ;, &&, || and |) and
// asks each agent whether one of them runs it unattended.
func runsAnAgent(agents []Unattended, line string) bool {
	words, err := hermes.Split(line)
	if err != nil {
		words = strings.Fields(line)
	}
	var cmds [][]string
	var cur []string
	for _, w := range words {
		end := false
		switch {
		case w == ";" || w == "&&" || w == "||" || w == "|" || w == "&":
			end = true
			w = ""
		case strings.HasSuffix(w, ";"):
			end = true
			w = strings.TrimSuffix(w, ";")
		}
		if w != "" {
			cur = append(cur, w)
		}
		if end {
			cmds, cur = append(cmds, cur), nil
		}
	}
	cmds = append(cmds, cur)
	for _, c := range cmds {
		for _, a := range agents {
			if len(c) > 0 && a.RunsUnattended(c) {
				return true
			}
		}
	}
	return false
}
