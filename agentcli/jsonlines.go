package agentcli

import (
	"bytes"
	"encoding/json"
	"iter"
)

// jsonLines yields each line of a program's JSON-lines output that
// decodes as a T, in order. Blank lines and lines that are not JSON are
// passed over: the programs (codex exec --json, copilot --output-format
// json, opencode run --format json) may print other text among their
// events, and an event we do not know decodes to a T with no type.
func jsonLines[T any](b []byte) iter.Seq[T] {
	return func(yield func(T) bool) {
		for line := range bytes.Lines(b) {
			var v T
			if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &v) != nil {
				continue
			}
			if !yield(v) {
				return
			}
		}
	}
}
