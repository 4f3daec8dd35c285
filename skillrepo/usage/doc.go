// Package usage keeps a library's usage telemetry, which is never
// committed: the sidecar .usage.json (per-skill counters and lifecycle
// state, in the reference system's schema, docs/reference-behaviour.md
// §5.1), the usage keys that read a skill's split records as one, and the
// usage history (an append-only log of what happened, docs/usage.md). It
// is a room below the domain (docs/architecture.md §1): it reads and
// writes only its own files, and the domain (package skillrepo) says
// where they are, which skill a name means and what a landed write
// changes.
package usage
