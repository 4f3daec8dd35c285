// Package worker drains a library's review queue (package queue) in the
// background: the process agent hooks start, fully detached, when a
// review or a curator run is due.
//
// One worker runs per library: it holds .git/skillrepo/worker.lock, and a
// second one exits at once. It takes the oldest entry that may run: a
// review waits until the agent has been quiet for review.defer_quiet
// (default 15 s: no hook fired and the transcript unchanged) and at most
// review.defer_max (30 min) after it was first enqueued, as the reference
// defers its background review until the agent is idle
// (docs/reference-behaviour.md §1.8). The review is the engine of package
// review, on a proposal branch merged unless review.write_approval is set.
// A transient model error (HTTP 408, 409, 429, 5xx, network, timeout)
// puts the entry back with an exponential back-off (review.retry_backoff,
// default 30 s, doubled per attempt) until review.max_attempts (5); then,
// or at once for any other error, the entry is parked as failed with its
// reason.
//
// A review that competes with the agent for a model on this machine
// (review.defer: auto) is interruptible: while it runs the worker polls
// its entry, and a new user turn's interrupt request (package queue,
// RequestInterrupt) cancels the attempt, rejects what it wrote and queues
// it again, at most queue.MaxInterruptions times; the next interruption
// drops it (docs/reference-behaviour.md §2.7).
//
// # Crashes
//
// An entry is claimed (rewritten as running) with the attempt's review id
// before the model is called. A worker killed at any instant leaves each
// entry queued, or running with a known review id, and the next worker
// resolves a running entry from git before it takes new work:
//   - the proposal proposals/<review-id> is merged into main (its tip is
//     in main, or main has the merge commit "Proposal-Id: <review-id>"):
//     the review landed, the entry is done;
//   - the proposal is open: the attempt was cut short; its branch is
//     rejected (kept under refs/skillrepo/rejected/) and the entry runs
//     again with a new review id;
//   - there is no proposal: nothing was written; the entry runs again.
//
// So no entry is lost and no review lands twice. (With write_approval a
// review that completed in the instant before its entry was marked done
// is run again; its first proposal is rejected as interrupted.)
//
// Progress and outcomes go to .git/skillrepo/logs/worker.log, rotated at
// 1 MiB (one old file kept).
package worker
