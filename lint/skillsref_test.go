package lint

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testdataDir returns a folder of the package's testdata (the skills-ref
// cases, the corpora), failing the test when it is missing: every file a
// test reads is in the repository, never beside it.
func testdataDir(t *testing.T, sub string) string {
	t.Helper()
	p := filepath.Join("testdata", sub)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// refRun is one observed `skills-ref validate TARGET` run from a case's
// expected.txt.
type refRun struct {
	target string
	exit   int
	stdout []string
	stderr []string
}

// parseExpected reads the reference-cli validate runs and the API's
// validate() result lines of an expected.txt.
func parseExpected(t *testing.T, file string) (runs []refRun, apiErrors []string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cur *refRun
	section := ""
	api := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "  validate() -> errors:"):
			api = true
			continue
		case api && strings.HasPrefix(line, "    - "):
			apiErrors = append(apiErrors, strings.TrimPrefix(line, "    - "))
			continue
		case strings.HasPrefix(line, "reference-cli"):
			api = false
		case strings.HasPrefix(line, "  $ "):
			cur = nil
			if f := strings.Fields(line); len(f) >= 4 && f[2] == "validate" {
				runs = append(runs, refRun{target: f[len(f)-1]})
				cur = &runs[len(runs)-1]
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch strings.TrimSpace(line) {
		case "stdout:", "stderr:":
			section = strings.TrimSuffix(strings.TrimSpace(line), ":")
			continue
		}
		if strings.HasPrefix(line, "    exit: ") {
			cur.exit, _ = strconv.Atoi(strings.TrimPrefix(line, "    exit: "))
			continue
		}
		if !strings.HasPrefix(line, "      ") || strings.TrimSpace(line) == "(empty)" {
			continue
		}
		text := line[6:]
		if section == "stdout" {
			cur.stdout = append(cur.stdout, text)
		} else {
			cur.stderr = append(cur.stderr, text)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return runs, apiErrors
}

// messagesFromStderr splits the CLI's "Validation failed" listing into
// messages: each starts with "  - ", continuation lines follow verbatim.
func messagesFromStderr(lines []string) []string {
	var msgs []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Validation failed for "):
		case strings.HasPrefix(l, "  - "):
			msgs = append(msgs, strings.TrimPrefix(l, "  - "))
		case len(msgs) > 0:
			msgs[len(msgs)-1] += "\n" + l
		}
	}
	return msgs
}

// TestSkillsRefConformance walks all 40 cases transcribed from skills-ref's
// own test suite and checks that the skills-ref profile gives the same
// verdict and the same messages in the same order.
func TestSkillsRefConformance(t *testing.T) {
	root := testdataDir(t, "skills-ref")
	data, err := os.ReadFile(filepath.Join(root, "cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	if len(lines) != 40 {
		t.Fatalf("cases.tsv lists %d cases, want 40", len(lines))
	}
	for _, row := range lines {
		cols := strings.Split(row, "\t")
		id, call, targets := cols[0], cols[1], strings.Fields(cols[2])
		t.Run(id, func(t *testing.T) {
			caseDir := filepath.Join(root, id)
			runs, apiErrors := parseExpected(t, filepath.Join(caseDir, "expected.txt"))
			check := func(target string) *Report {
				t.Helper()
				rep, err := Check(os.DirFS(caseDir), Options{Profile: ProfileSkillsRef, Paths: []string{target}, RootName: id})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			switch {
			case len(runs) > 0:
				for _, run := range runs {
					rep := check(run.target)
					got := messages(rep)
					var want []string
					switch run.exit {
					case 0:
						if len(run.stdout) != 1 || run.stdout[0] != "Valid skill: "+run.target {
							t.Fatalf("unexpected reference stdout %q", run.stdout)
						}
					case 1:
						want = messagesFromStderr(run.stderr)
					case 2:
						// The CLI refuses a missing path before validating;
						// the API's validate() result is the message.
						want = apiErrors
					}
					if !slices.Equal(got, want) {
						t.Errorf("validate %s:\n got %q\nwant %q", run.target, got, want)
					}
					if rep.HasErrors() != (run.exit != 0) {
						t.Errorf("validate %s: HasErrors = %v, reference exit %d", run.target, rep.HasErrors(), run.exit)
					}
				}
			case call == "find_skill_md":
				// Which file is read shows in the finding's path: neither
				// file in these cases has frontmatter.
				rep := check("my-skill")
				want := map[string]string{
					"parser-11-find-skill-md-prefers-uppercase": "my-skill/SKILL.md",
					"parser-12-find-skill-md-accepts-lowercase": "my-skill/skill.md",
					"parser-13-find-skill-md-none":              "my-skill",
				}[id]
				if len(rep.Findings) != 1 || rep.Findings[0].Path != want {
					t.Fatalf("findings %+v, want one on %s", rep.Findings, want)
				}
				if id == "parser-13-find-skill-md-none" && rep.Findings[0].Message != "Missing required file: SKILL.md" {
					t.Errorf("message %q", rep.Findings[0].Message)
				}
			case call == "to_prompt":
				// to_prompt does not validate; its inputs are valid skills.
				for _, target := range targets {
					if got := messages(check(target)); len(got) != 0 {
						t.Errorf("%s: %q, want valid", target, got)
					}
				}
				if len(targets) == 0 {
					rep, err := Check(os.DirFS(caseDir), Options{Profile: ProfileSkillsRef, RootName: id, AllowEmpty: true})
					if err != nil || len(rep.Skills) != 0 || len(rep.Findings) != 0 {
						t.Errorf("empty case: %+v, %v", rep, err)
					}
				}
			default:
				t.Fatalf("case has no validate run and call %q is not handled", call)
			}
		})
	}
}

func messages(rep *Report) []string {
	out := []string{}
	for _, f := range rep.Findings {
		out = append(out, f.Message)
	}
	return out
}
