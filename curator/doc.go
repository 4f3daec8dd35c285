// Package curator is the other half of self-improvement: it keeps a
// growing skills library from drowning in narrow, stale skills by moving
// idle agent-made skills through the lifecycle active → stale → archived,
// as the reference system's curator does (Hermes Agent, agent/curator.py,
// phase 1: apply_automatic_transitions).
//
// # Model
//
// A run has two halves that never mix:
//
//   - Deciding. [NewPlan] is a pure function of the skills (where they
//     live, who owns them, pins, scheduled-job references), their usage
//     records, the thresholds and the current time. It returns a [Plan]:
//     per skill the action, from → to, the reason and the anchor time.
//     A dry run prints this plan and stops; a real run applies exactly
//     this plan, so the two cannot drift (the reference's dry run skipped
//     phase 1 and reported zero transitions).
//   - Applying. Archiving is a git change (the skill folder moves to
//     .archive/<name>/); stale and active are states recorded in the usage
//     sidecar, which is per clone and not tracked, as in the reference.
//
// # A run in git
//
// The archive moves of a run are a branch curator/<run-id> forked from
// the main branch: one commit per [ArchiveBatch] skills ("curator: archive
// N skills", trailers Skill-Action: archive, Skill-Name per skill,
// Skill-Origin: curator, Curator-Run: <run-id>, Skill-From per skill). It
// lands as one merge commit (first parent the main branch, second the
// branch tip; Skill-Action: merge, the same names and Curator-Run) built by
// the proposals' three-way merge (skillrepo.Policy.LandRun), so a main branch
// that moved meanwhile merges cleanly unless a moved skill itself changed;
// that is checked per skill folder first (a file-level merge would leave a
// file added on main in the archived skill's old folder), and a conflict
// is a [ConflictError] with nothing landed. The branch is deleted after
// the merge; the main branch's tip before it is kept at
// refs/skillrepo/curator/<run-id>. A run that archives nothing makes no
// commit but still keeps that ref.
//
// Rollback finds the run's merge on the main branch's first-parent line
// (stopping at the pre-run ref), reads the moves back from it
// (skillrepo.History.ArchiveMoves matches each new .archive/<x> to the
// folder with the same tree in the first parent), and moves them back in
// one new commit (Skill-Action: rollback, Curator-Run), refusing when a
// later commit changed an archived skill or took its old folder. The
// sidecar states the run set are put back from run.json when they are
// still what the run left. The skills it brought back from the archive or
// from stale are remembered in .git/skillrepo/curator-rolled-back.json
// with their folder's tree, and later runs skip them while they are
// untouched (same tree, no use, view or patch since): a rollback is a
// person's decision, which the next scheduled run must not redo.
//
// # Phase 2: consolidation
//
// With RunOptions.Consolidate, a model pass follows phase 1 on the same
// branch (docs/reference-behaviour.md §6.6, docs/curator.md): our prompt
// (prompts/), the candidates (curator-managed and active; pinned and
// scheduled ones flagged untouchable) and the clusters computed in code
// as a starting map. Its tools are package agenttools' skills_list,
// skill_view and skill_manage plus skill_move_file (a support file
// re-homed as a rename); every write is one commit on the run branch
// with Skill-Origin: curator, Curator-Run and Model (Absorbed-Into on
// archives) and passes the package-integrity check (tools.go). A dry run
// answers every write "dry run: not written" and writes nothing. Every
// archived skill is then classified from git (classify.go, §6.7): the
// Absorbed-Into trailer first, then the model's YAML summary, then the
// tool-call audit. The run lands as one merge or waits as proposal
// curator-<run-id> (landing.go); rollback of such a run reverts every
// folder it changed (rollback.go, revertRun).
//
// # The other commands
//
// [Curator.Overlap] lists the clusters of the curator's candidates that
// likely belong under one umbrella (package overlap; no model, read-only).
// [Curator.Prune] is the reference's `curator prune`: every managed,
// unpinned, unscheduled skill idle at least N days archived as one run
// (NewPrunePlan, then the same branch, merge, pre-run ref and report as a
// run, so rollback undoes it; the schedule is left alone). [Curator.Purge]
// removes archived folders older than curator.archive_ttl_days from the
// tree in one commit (Skill-Action: purge, Skill-From per folder; the age
// from history); skillrepo.Policy.Restore reads a purged skill back from
// the commit before the purge. [Curator.ListUnmanaged] lists the skills
// the curator does not own, with the evidence.
//
// # Invariants
//
//   - Only curator-managed skills are judged; ownership comes from
//     history and fails closed (no evidence means user-owned). Pinned
//     skills and skills referenced by a scheduled job are never touched.
//   - The anchor is the latest of last used, viewed and patched, else the
//     creation time, else now. Thresholds are whole days of 24 hours; a
//     skill exactly at a threshold crosses it.
//   - A dry run holds only a read-only source (see source in curator.go):
//     it takes no lock and writes no ref, object, file, sidecar, state or
//     report. The command layer also opens the library without recovery
//     for it, since recovery removes temp files.
//   - Time comes from the caller (a Now func in the command layer), never
//     from the wall clock inside this package, so every decision can be
//     replayed with --now.
//   - Per-clone state (curator.json: schedule, pause, last run) and run
//     reports (curator/<run-id>/run.json, REPORT.md) live under
//     .git/skillrepo/, are versioned JSON and are written atomically
//     (temporary file, fsync, rename).
//   - Scheduling follows the reference: a run is due once interval_hours
//     (168) have passed since the last one; the first sight of a library
//     records now and waits one interval; a paused curator never runs on
//     schedule.
//
// This package does not import package review: code the two share lives
// in package skillrepo.
package curator
