package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReleaseTargets checks that the release's targets are the same in
// every file that names them: the GoReleaser builds (.goreleaser.yaml),
// the cross-compiles CI runs (scripts/release-check.sh) and the platform
// packages the npm command picks from (npm/skillrepo/bin/skillrepo.js), so
// no platform gets an npm package without a binary or the reverse.
func TestReleaseTargets(t *testing.T) {
	root := filepath.Join("..", "..")
	var gr struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			GOOS    []string `yaml:"goos"`
			GOARCH  []string `yaml:"goarch"`
			LDFlags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	readYAML(t, filepath.Join(root, ".goreleaser.yaml"), &gr)
	if len(gr.Builds) != 1 || gr.Builds[0].Main != "./cmd/skillrepo" {
		t.Fatalf(".goreleaser.yaml builds %+v, want one build of ./cmd/skillrepo", gr.Builds)
	}
	b := gr.Builds[0]
	if !strings.Contains(strings.Join(b.LDFlags, " "), "-X main.version={{ .Version }}") {
		t.Errorf(".goreleaser.yaml ldflags %q do not stamp main.version (version.go)", b.LDFlags)
	}
	var want []string
	for _, goos := range b.GOOS {
		for _, goarch := range b.GOARCH {
			want = append(want, goos+"/"+goarch)
		}
	}
	slices.Sort(want)

	script := readText(t, filepath.Join(root, "scripts", "release-check.sh"))
	// CI builds one target per OS; SKILLREPO_RELEASE_ALL_TARGETS=1 builds
	// the list that must be GoReleaser's.
	m := regexp.MustCompile(`(?s)SKILLREPO_RELEASE_ALL_TARGETS:-}" = 1 \]; then\s*targets="([^"]+)"`).FindStringSubmatch(script)
	if m == nil || !strings.Contains(script, "for target in $targets;") {
		t.Fatal("scripts/release-check.sh has no all-targets list (SKILLREPO_RELEASE_ALL_TARGETS) and `for target in $targets;` loop")
	}
	got := strings.Fields(m[1])
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("scripts/release-check.sh builds %v, .goreleaser.yaml %v", got, want)
	}

	shim := readText(t, filepath.Join(root, "npm", "skillrepo", "bin", "skillrepo.js"))
	npmOS := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}
	npmCPU := map[string]string{"amd64": "x64", "arm64": "arm64"}
	var wantShim []string
	for _, target := range want {
		goos, goarch, _ := strings.Cut(target, "/")
		os, cpu := npmOS[goos], npmCPU[goarch]
		wantShim = append(wantShim, `"`+os+` `+cpu+`": "@skillrepo/cli-`+os+`-`+cpu+`"`)
	}
	gotShim := regexp.MustCompile(`"[a-z0-9]+ [a-z0-9]+": "@skillrepo/cli-[a-z0-9-]+"`).FindAllString(shim, -1)
	slices.Sort(wantShim)
	slices.Sort(gotShim)
	if !slices.Equal(gotShim, wantShim) {
		t.Errorf("npm/skillrepo/bin/skillrepo.js picks from\n%v\nwant\n%v", gotShim, wantShim)
	}
}

func readText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
