package hermes

// What skillrepo keeps of a Hermes home: one repository at the home that
// versions skills/ and memories/ where Hermes keeps them, and nothing
// else of the home; the library's settings as Hermes' config has them;
// and Hermes' housekeeping files, ignored (docs/hermes.md §4, §5). The
// domain makes the repository and its commits; this says what Hermes'
// files are.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// HomeIgnore is the .gitignore of a repository skillrepo's init makes
// at a Hermes home: only skills/ and memories/ are versioned, and of
// memories/ only the stores (not Hermes' lock, temp and drift-backup
// files beside them).
const HomeIgnore = `# skillrepo: this repository versions Hermes' skills and memories; the
# rest of the Hermes home (sessions, logs, keys, config) stays Hermes' own.
/*
!/.gitignore
!/skills/
!/memories/
/memories/*
!/memories/MEMORY.md
!/memories/USER.md
`

// LibraryAt says whether abs (a Hermes home, or its skills folder) is a
// Hermes home skillrepo's init makes one repository of: it returns the
// home and the skills folder. A skills folder with a repository of its
// own (an earlier import) keeps its layout.
func LibraryAt(abs string) (home, skills string, ok bool) {
	switch {
	case IsHome(abs):
		home, skills = abs, filepath.Join(abs, SkillsDir)
	default:
		h, isHome := HomeOf(abs)
		if !isHome {
			return "", "", false
		}
		home, skills = h, abs
	}
	if _, err := os.Lstat(filepath.Join(skills, ".git")); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return "", "", false // a repository of its own, or unreadable: kept as it is
	}
	return home, skills, true
}

// LibraryConfig is skillrepo's default config text cfg with the settings
// a library at home's skills folder starts with: its memory folder, the
// curator's schedule from Hermes' config and who runs it, and Hermes'
// memory limits when they are not skillrepo's defaults (memoryLimit,
// userLimit) (docs/hermes.md §4, §5).
func LibraryConfig(cfg, home string, memoryLimit, userLimit int) string {
	cfg = strings.Replace(cfg, "  dir: .memory", "  dir: ../"+MemoriesDir, 1)
	hc, err := ReadConfig(home)
	if err != nil {
		return cfg
	}
	for key, v := range map[string]int{"interval_hours": hc.Curator.IntervalHours, "stale_after_days": hc.Curator.StaleAfterDays, "archive_after_days": hc.Curator.ArchiveAfterDays} {
		cfg = replaceYAMLValue(cfg, key, strconv.Itoa(v))
	}
	if !hc.Curator.Enabled {
		cfg = replaceYAMLValue(cfg, "enabled", "false")
	} else {
		// Hermes' curator runs: skillrepo's scheduled runs stand aside and
		// record Hermes' (docs/hermes.md §5). Set owner: skillrepo (and
		// curator.enabled: false in Hermes' config.yaml) to swap.
		cfg = strings.Replace(cfg, "  archive_after_days: "+strconv.Itoa(hc.Curator.ArchiveAfterDays)+"\n",
			"  archive_after_days: "+strconv.Itoa(hc.Curator.ArchiveAfterDays)+"\n  # whose curator runs: hermes (Hermes' own; its runs are recorded) or skillrepo\n  owner: hermes\n", 1)
	}
	if hc.Memory.MemoryCharLimit != memoryLimit || hc.Memory.UserCharLimit != userLimit {
		cfg = strings.Replace(cfg, "  dir: ../"+MemoriesDir, fmt.Sprintf("  dir: ../%s\n  memory_char_limit: %d\n  user_char_limit: %d", MemoriesDir, hc.Memory.MemoryCharLimit, hc.Memory.UserCharLimit), 1)
	}
	return cfg
}

// replaceYAMLValue sets "  key: value" in the default config's text.
func replaceYAMLValue(cfg, key, value string) string {
	lines := strings.Split(cfg, "\n")
	for i, l := range lines {
		if k, _, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && k == key && strings.HasPrefix(l, "  ") {
			lines[i] = "  " + key + ": " + value
			break
		}
	}
	return strings.Join(lines, "\n")
}

// Housekeeping are the .gitignore entries (relative to the skills folder)
// of the files and folders Hermes writes into its skills folder for
// itself: the curator's scheduler state and a tarball of the whole tree
// per run, the hub's lock file, the bundled-skill manifest, ledgers and
// locks. None of it is a skill.
func Housekeeping() []string {
	return []string{
		"/.curator_state",
		"/.curator_backups/",
		"/.curator_suppressed",
		"/.curator_ledger.jsonl",
		"/.bundled_manifest",
		"/.hub/",
		"/.locks/",
		"/.usage_backups/",
	}
}

// HousekeepingPresent returns the [Housekeeping] entries that exist
// under dir.
func HousekeepingPresent(dir string) []string {
	var out []string
	for _, e := range Housekeeping() {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(strings.Trim(e, "/")))); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// archivedSuffix is what Hermes' archive_skill appends to a skill's
// folder name under .archive/ when the name was taken:
// "-YYYYMMDDHHMMSS".
var archivedSuffix = regexp.MustCompile(`-\d{14}$`)

// ArchivedName is the skill folder name of dir, a folder Hermes' curator
// made under .archive/.
func ArchivedName(dir string) string { return archivedSuffix.ReplaceAllString(dir, "") }
