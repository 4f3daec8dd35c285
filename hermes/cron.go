package hermes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// CronJobsFile is where Hermes keeps its cron jobs, relative to its home
// (cron/jobs.py, JOBS_FILE; per profile: each profile's home has its own).
const CronJobsFile = "cron/jobs.json"

// CronJob is one of Hermes' cron jobs as far as skills go: its name and
// the skills it loads, in the order it loads them.
type CronJob struct {
	ID     string
	Name   string
	Skills []string
}

// CronJobs reads the jobs of Hermes' cron at home and the skills each
// loads, as Hermes 0.19.0's referenced_skill_names reads them (its
// curator never archives those): every job, paused and disabled ones
// too; the list `skills`, else the older single `skill` (a string
// `skills` is a list of one); each name trimmed, a leading "/" dropped,
// blanks and repeats left out. No jobs file is no jobs; a file that does
// not parse is an error (Hermes protects nothing then).
func CronJobs(home string) ([]CronJob, error) {
	data, err := boundedread.ReadFile(filepath.Join(home, CronJobsFile), maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var file struct {
		Jobs []json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", CronJobsFile, err)
	}
	var out []CronJob
	for _, raw := range file.Jobs {
		var j struct {
			ID     any             `json:"id"`
			Name   any             `json:"name"`
			Skill  any             `json:"skill"`
			Skills json.RawMessage `json:"skills"`
		}
		if json.Unmarshal(raw, &j) != nil {
			continue // not an object: Hermes skips it
		}
		job := CronJob{ID: pyStr(j.ID), Name: pyStr(j.Name)}
		var items []any
		switch s := strings.TrimSpace(string(j.Skills)); {
		case s == "" || s == "null":
			if j.Skill != nil && j.Skill != "" && j.Skill != false {
				items = []any{j.Skill}
			}
		case strings.HasPrefix(s, "["):
			_ = json.Unmarshal(j.Skills, &items)
		default:
			var one any
			_ = json.Unmarshal(j.Skills, &one)
			items = []any{one}
		}
		for _, it := range items {
			name := strings.TrimLeft(strings.TrimSpace(pyStr(it)), "/")
			if name != "" && !slices.Contains(job.Skills, name) {
				job.Skills = append(job.Skills, name)
			}
		}
		out = append(out, job)
	}
	return out, nil
}

// pyStr is str(v or ""), as Hermes reads a field that should be a string.
func pyStr(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case bool:
		if t {
			return "True"
		}
		return ""
	case float64:
		if t == 0 {
			return ""
		}
		return strings.TrimSuffix(fmt.Sprint(t), ".0")
	}
	b, _ := json.Marshal(v)
	return string(b)
}
