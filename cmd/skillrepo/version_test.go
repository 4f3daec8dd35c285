package main

import "testing"

// A release build's stamped version (.goreleaser.yaml's -X main.version)
// is what version, the MCP server and lint's SARIF report; a build in a
// clone says "(devel)" and tells other programs "dev". The stamped binary
// itself is checked by .ci/run (scripts/release-check.sh).
func TestStampedVersionWins(t *testing.T) {
	t.Cleanup(func() { version = "" })
	for _, tc := range []struct{ stamped, want, tool string }{
		{"", "(devel)", "dev"},
		{"1.2.3", "1.2.3", "1.2.3"},
		{"0.1.1-next+abc1234", "0.1.1-next+abc1234", "0.1.1-next+abc1234"},
	} {
		version = tc.stamped
		if got := readVersion().Version; got != tc.want {
			t.Errorf("stamped %q: version = %q, want %q", tc.stamped, got, tc.want)
		}
		if got := toolVersion(); got != tc.tool {
			t.Errorf("stamped %q: toolVersion = %q, want %q", tc.stamped, got, tc.tool)
		}
	}
}
