package memory

import (
	"fmt"
	"strings"
)

// promptRule is the 46-character rule around a store's header in the
// system-prompt snapshot (docs/reference-behaviour.md §7.2).
var promptRule = strings.Repeat("═", 46)

// PromptBlock renders a store as the reference puts it in the system
// prompt at session start: a rule, the header with the store's usage
// ("MEMORY (your personal notes) [P% — cur/limit chars]" or "USER
// PROFILE (who the user is) [...]"), a rule, then the entries joined by
// the delimiter. An empty store renders as "" (the reference omits it).
// An entry the injection scan flags is shown as a [BLOCKED: …] note
// instead (the file keeps it, so it can be seen and removed), and the
// usage counts what is shown, as the reference's snapshot does.
func PromptBlock(f File) string {
	entries := f.Entries()
	if len(entries) == 0 {
		return ""
	}
	for i, e := range entries {
		if strings.HasPrefix(e, "[BLOCKED:") {
			continue
		}
		if found := ScanThreats(e); len(found) > 0 {
			entries[i] = BlockedEntry(f.target(), found)
		}
	}
	chars, limit := Size(entries), f.limit()
	header := "MEMORY (your personal notes)"
	if f.target() == User {
		header = "USER PROFILE (who the user is)"
	}
	return fmt.Sprintf("%s\n%s [%d%% — %s/%s chars]\n%s\n%s", promptRule, header, percent(chars, limit), commas(chars), commas(limit), promptRule, Render(entries))
}
