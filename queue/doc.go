// Package queue is the persistent queue of background work that agent
// hooks hand to the worker: reviews of finished conversations and
// scheduled curator runs. It survives exits, crashes and reboots: every
// entry is one versioned JSON file under the library's state directory,
//
//	.git/skillrepo/queue/<id>.json
//
// replaced atomically (temp file, fsync, rename) under an exclusive lock
// on .git/skillrepo/queue/.lock, so a hook enqueueing and the worker
// claiming never lose each other's writes and a reader sees the old entry
// or the new one, never half.
//
// # Life of an entry
//
//	queued ──claim──▶ running ──▶ done
//	   ▲                 │
//	   ├── retry (back-off) ──┘──▶ failed (parked, with its reason)
//	   └── interrupted by a new user turn (at most 3 times; the 4th: done, dropped)
//
// An entry is claimed by rewriting it as running, with the attempt's review
// id recorded before any model is called. A worker killed at any instant
// leaves the entry queued (never claimed) or running with a known review
// id; the next worker resolves a running entry from git (see package
// worker), so no entry is lost and no review lands twice.
//
// A running review that competes with the agent for a model on this
// machine (review.defer: auto) is Interruptible: a new user turn's hook
// records an interrupt request in its entry ([Store.RequestInterrupt]),
// and the worker, which polls its entry, ends the attempt and queues it
// again — no process is signalled, so none that is not ours can be.
//
// Enqueueing keeps one pending slot per session and kind, as the
// reference's idle queue does (docs/reference-behaviour.md §1.8): a newer
// request for a session that already waits merges into it (what is due is
// the union; the transcript the newest) and keeps the original enqueue
// time, so defer_max counts from the first request.
package queue
