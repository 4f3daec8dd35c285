package hermes

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Hermes' cron jobs read as Hermes 0.19.0 reads the skills they load
// (testdata/hermes-0.19.0-cron-jobs.json): every job, the skills list or
// the older single skill, names trimmed and without a leading "/".
func TestCronJobsAsHermesReadsThem(t *testing.T) {
	data, err := os.ReadFile("testdata/hermes-0.19.0-cron-jobs.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		JobsJSON json.RawMessage     `json:"jobs_json"`
		Want     map[string][]string `json:"want"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "cron"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, CronJobsFile), fx.JobsJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	jobs, err := CronJobs(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != len(fx.Want) {
		t.Fatalf("%d jobs, want %d: %+v", len(jobs), len(fx.Want), jobs)
	}
	for _, j := range jobs {
		want, ok := fx.Want[j.Name]
		if !ok || !slices.Equal(j.Skills, want) && len(j.Skills)+len(want) > 0 {
			t.Errorf("job %q (%s): skills %q, want %q", j.Name, j.ID, j.Skills, want)
		}
	}

	// No cron folder: no jobs. A file that does not parse: an error.
	if jobs, err := CronJobs(t.TempDir()); err != nil || jobs != nil {
		t.Errorf("no jobs file: %v, %v", jobs, err)
	}
	if err := os.WriteFile(filepath.Join(home, CronJobsFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := CronJobs(home); err == nil {
		t.Error("a jobs file that does not parse read without an error")
	}
}
