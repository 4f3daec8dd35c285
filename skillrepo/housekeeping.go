package skillrepo

// Hermes keeps its own per-clone state in the skills folder: the
// curator's scheduler state and a tarball of the whole tree per run, the
// hub's lock file, the bundled-skill manifest, ledgers and locks
// (docs/agents.md, "Hermes Agent"). None of it is a skill, and the
// tarballs alone would grow the repository by the library's size on every
// curator run; git history is the backup. So a library in a Hermes skills
// folder ignores them, and a library imported before it did stops
// tracking them, in one commit, leaving the files where Hermes keeps them.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/boundedread"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ActionUntrack is the action of the commit that stops tracking Hermes'
// housekeeping.
const ActionUntrack = "untrack"

// trackedUsageFiles are the usage sidecar's files (init's .gitignore
// entries, gitignoreEntries) an earlier repository may have committed.
var trackedUsageFiles = []string{"/" + usage.File, "/" + usage.File + ".lock"}

// maxGitignore bounds the read of a library's .gitignore, a file a
// person may have put anything in (a FIFO must not hang init).
const maxGitignore = 4 << 20

const housekeepingComment = "# skillrepo: Hermes' own housekeeping (curator state and backups, hub lock, bundled manifest): per clone, not versioned"

// ignoreLines returns the .gitignore with the entries it lacks appended
// after comment (never rewriting the user's lines), and whether it
// changed.
func ignoreLines(existing []byte, comment string, entries []string) ([]byte, bool) {
	have := map[string]bool{}
	for _, line := range strings.Split(string(existing), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	var add []string
	for _, e := range entries {
		if !have[e] {
			add = append(add, e)
		}
	}
	if len(add) == 0 {
		return existing, false
	}
	var b strings.Builder
	b.Write(existing)
	if len(existing) > 0 && !strings.HasSuffix(string(existing), "\n") {
		b.WriteString("\n")
	}
	b.WriteString(comment + "\n")
	for _, e := range add {
		b.WriteString(e + "\n")
	}
	return []byte(b.String()), true
}

// housekeepingEntries are the entries a library at root ignores: all of
// Hermes' for a Hermes library, else those present (a folder another
// runtime reads but Hermes wrote into).
func housekeepingEntries(root string, runtime skill.Runtime) []string {
	if runtime == skill.Hermes {
		return hermes.Housekeeping()
	}
	return hermes.HousekeepingPresent(root)
}

// UntrackResult says what Library.untrackHousekeeping did.
type UntrackResult struct {
	Commit Hash
	// Paths are the files the commit stopped tracking (they stay on disk).
	Paths []string
}

// untrackHousekeeping makes the checked-out branch stop tracking Hermes'
// housekeeping files a library imported before they were ignored still
// tracks: one commit adds the .gitignore entries and removes the paths
// from the tree and the index; every file stays where it is. Nothing
// tracked: nothing to do (a zero Commit).
func (l *Library) untrackHousekeeping(ctx context.Context, dryRun bool) (*UntrackResult, error) {
	head, err := l.repo.HeadBranch()
	if err != nil || head == "" {
		return &UntrackResult{}, err
	}
	if !dryRun {
		// Refused as any write is, in its own words: this step runs
		// first in every sync, of any runtime's library.
		if err := l.writable(); err != nil {
			return nil, err
		}
	}
	out := &UntrackResult{}
	_, err = l.update(ctx, updateOptions{Branch: head, DryRun: dryRun, RecordsWorktree: true}, func(tx *writeTx) error {
		entries := housekeepingEntries(l.Root, l.Config.Runtime)
		var tracked []string
		// The usage sidecar is per clone too (docs/reference-behaviour.md
		// §5.1): a folder that was a git repository before init (a Hermes
		// user's own ~/.hermes/skills, say) may have committed it and its
		// lock, and every view would then be a change to record.
		for _, e := range append(append([]string{}, entries...), trackedUsageFiles...) {
			p := strings.Trim(e, "/")
			if strings.HasSuffix(e, "/") {
				files, err := tx.gtx.List(p)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
				tracked = append(tracked, files...)
			} else if tx.gtx.Exists(p) {
				tracked = append(tracked, p)
			}
		}
		if len(tracked) == 0 {
			return nil
		}
		sort.Strings(tracked)
		committed, err := tx.gtx.ReadFile(".gitignore")
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// The work tree's .gitignore may hold lines not committed yet
		// (init writes its entries there first): extend what is on disk,
		// so none of them is lost, and commit it with the untracking.
		base := committed
		if disk, err := boundedread.ReadFile(filepath.Join(l.Root, ".gitignore"), maxGitignore); err == nil {
			base = disk
		}
		updated, _ := ignoreLines(base, usageIgnoreComment, gitignoreEntries)
		if updated, _ = ignoreLines(updated, housekeepingComment, entries); string(updated) != string(committed) {
			if err := tx.gtx.WriteFile(".gitignore", updated, false); err != nil {
				return err
			}
		}
		for _, p := range tracked {
			tx.gtx.Stage(p, gitstore.Change{Delete: true, Untrack: true})
		}
		out.Paths = tracked
		files := fmt.Sprintf("%d files", len(tracked))
		if len(tracked) == 1 {
			files = "1 file"
		}
		m := Message{Subject: fmt.Sprintf("untrack Hermes housekeeping (%s; they stay on disk, ignored)", files)}
		m.Body = "Hermes keeps its curator state, backups, hub lock, bundled manifest and usage sidecar in the skills folder for itself; they are per clone, and git history is the backup."
		m.Add(TrailerAction, ActionUntrack)
		Provenance{Origin: OriginUser}.addTrailers(&m)
		h, err := tx.Commit(m)
		if errors.Is(err, ErrNoChanges) {
			out.Paths = nil
			return nil
		}
		out.Commit = h
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("untrack Hermes housekeeping: %w", err)
	}
	return out, nil
}

// trackedHousekeeping lists the files of tree under the entries.
func trackedHousekeeping(store *gitstore.Store, tree Hash, entries []string) ([]string, error) {
	var out []string
	err := store.WalkTree(tree, "", func(p string, _ Hash, _ gitstore.FileMode) error {
		for _, e := range entries {
			if d, dir := strings.CutSuffix(strings.TrimPrefix(e, "/"), "/"); (dir && strings.HasPrefix(p, d+"/")) || (!dir && p == d) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	return out, err
}
