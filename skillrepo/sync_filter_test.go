package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// fakeLFSClean is git-lfs's clean filter in shell (the pointer of its
// input), so the real git binary agrees with us without git-lfs installed.
const fakeLFSClean = `sh -c 'tmp=$(mktemp); cat >"$tmp"; printf "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n" "$(sha256sum <"$tmp" | cut -d" " -f1)" "$(wc -c <"$tmp" | tr -d " ")"; rm -f "$tmp"'`

// A dry-run sync with ReportUnconverted (what skillrepo status runs)
// tells the truth about filtered paths: every path git status calls
// changed is a change, the filtered ones are listed with the refusal's
// reason and hint instead of failing the whole dry run (which read as a
// clean work tree), and the checked-out content of an LFS pointer is not
// an edit even when its stat data is stale. The real sync still refuses
// with nothing written.
func TestSyncDryRunReportsFilteredPaths(t *testing.T) {
	for _, tc := range []struct {
		name        string
		edit        map[string]string // path -> new content ("" = delete)
		unconverted []string          // "path status"
		hint        string            // in every unconverted hint
	}{
		{name: "lfs-unchanged-stale-stat"},
		{name: "lfs-modified", edit: map[string]string{"ci-debugging/a.bin": "other\x00content"}, unconverted: []string{"ci-debugging/a.bin modified"}, hint: "git lfs"},
		{name: "lfs-added", edit: map[string]string{"ci-debugging/new.bin": "new\x00content"}, unconverted: []string{"ci-debugging/new.bin added"}, hint: "git lfs"},
		{name: "lfs-deleted", edit: map[string]string{"ci-debugging/a.bin": ""}, unconverted: []string{"ci-debugging/a.bin deleted"}, hint: "git lfs"},
		{name: "custom-filter-modified", edit: map[string]string{"ci-debugging/b.enc": "changed\n"}, unconverted: []string{"ci-debugging/b.enc modified"}, hint: "filter.crypt"},
		{name: "lfs-and-plain", edit: map[string]string{"ci-debugging/a.bin": "other", "ci-debugging/SKILL.md": "---\nname: ci-debugging\ndescription: Use when CI fails.\n---\nbody\n"}, unconverted: []string{"ci-debugging/a.bin modified"}, hint: "git lfs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, env := newTestLibrary(t)
			for _, kv := range [][2]string{{"filter.lfs.clean", fakeLFSClean}, {"filter.lfs.smudge", "cat"}, {"filter.lfs.required", "true"}, {"filter.crypt.clean", "cat"}, {"filter.crypt.smudge", "cat"}} {
				gitCmd(t, l, env, "config", kv[0], kv[1])
			}
			files := map[string]string{
				".gitattributes":     "*.bin filter=lfs diff=lfs merge=lfs -text\n*.enc filter=crypt\n",
				"ci-debugging/a.bin": "PNG\x00 big binary",
				"ci-debugging/b.enc": "secret\n",
			}
			for p, c := range files {
				if err := os.WriteFile(filepath.Join(l.Root, p), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			gitCmd(t, l, env, "add", ".")
			gitCmd(t, l, env, "commit", "-q", "-m", "lfs")
			// Stale stat data: the files are compared by content.
			old := time.Now().Add(-time.Hour)
			for _, p := range []string{"ci-debugging/a.bin", "ci-debugging/b.enc"} {
				if err := os.Chtimes(filepath.Join(l.Root, p), old, old); err != nil {
					t.Fatal(err)
				}
			}
			for p, c := range tc.edit {
				full := filepath.Join(l.Root, p)
				var err error
				if c == "" {
					err = os.Remove(full)
				} else {
					err = os.WriteFile(full, []byte(c), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			head := gitCmd(t, l, env, "rev-parse", "HEAD")

			res, err := l.Sync(context.Background(), SyncOptions{DryRun: true, ReportUnconverted: true})
			if err != nil {
				t.Fatalf("dry-run sync: %v", err)
			}
			var got, gotUnconv []string
			for _, c := range res.Changes {
				got = append(got, c.Path)
			}
			for _, u := range res.Unconverted {
				gotUnconv = append(gotUnconv, u.Path+" "+u.Status)
				if !strings.Contains(u.Reason, u.Path) || !strings.Contains(u.Reason, "filter=") || !strings.Contains(u.Hint, tc.hint) {
					t.Errorf("%s: reason %q / hint %q: want the path, the filter and %q", u.Path, u.Reason, u.Hint, tc.hint)
				}
			}
			// What git status calls changed, after our look (it may
			// refresh the index's stat data).
			var want []string
			for _, line := range strings.Split(strings.TrimRight(gitCmd(t, l, env, "status", "--porcelain", "-uall"), "\n"), "\n") {
				if line != "" {
					want = append(want, line[3:])
				}
			}
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("changes %q, git status %q", got, want)
			}
			if strings.Join(gotUnconv, ",") != strings.Join(tc.unconverted, ",") {
				t.Errorf("unconverted %q, want %q", gotUnconv, tc.unconverted)
			}

			// Without ReportUnconverted, and for real, the sync is refused
			// for a filtered change, with nothing written.
			for _, opts := range []SyncOptions{{DryRun: true}, {}} {
				_, err := l.Sync(context.Background(), opts)
				var se *gitstore.StateError
				switch {
				case len(tc.unconverted) == 0 && err != nil:
					t.Errorf("sync %+v: %v", opts, err)
				case len(tc.unconverted) > 0 && !errors.As(err, &se):
					t.Errorf("sync %+v: %v, want a StateError", opts, err)
				}
			}
			if len(tc.unconverted) > 0 {
				if h := gitCmd(t, l, env, "rev-parse", "HEAD"); h != head {
					t.Errorf("HEAD moved: %s -> %s", head, h)
				}
			}
			gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
		})
	}
}
