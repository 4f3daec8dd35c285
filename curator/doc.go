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
// # Invariants
//
//   - Only curator-managed skills are judged; ownership comes from
//     history and fails closed (no evidence means user-owned). Pinned
//     skills and skills referenced by a scheduled job are never touched.
//   - The anchor is the latest of last used, viewed and patched, else the
//     creation time, else now. Thresholds are whole days of 24 hours; a
//     skill exactly at a threshold crosses it.
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
