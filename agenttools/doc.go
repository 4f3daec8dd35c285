// Package agenttools is the agent's tools over a skills library —
// skills_list, skill_view, skill_manage, memory, read_file and
// search_files — with their guards and the messages a model reads. The
// background review, the curator's consolidation and the MCP server all
// run them through one [Toolbox], so a skill write is validated, guarded
// and worded the same way whoever asks (docs/reference-behaviour.md §4,
// §7, §8).
//
// A [Toolbox] is built over a [Library] (the small interfaces of
// library.go; [Open] wires them to package skillrepo) with [Options]: the
// tools offered, the provenance of its commits, where writes land, the
// [Policy], and a dry run. [Toolbox.Call] runs one call from the model's
// JSON arguments and returns a [Result]: the JSON text for the model and
// the [Change] or [Refusal] it made. [Definitions] gives the tools'
// names, descriptions and JSON schemas for the model.
//
// # Guards
//
// Every guard is code in the tool dispatch, never a sentence in a prompt,
// and every refusal is a tool result the model can read, never an error:
//   - a tool not offered is refused naming what is allowed;
//   - names, paths and sizes are checked by package skill; paths with "..",
//     absolute paths and .git are refused for reads too;
//   - a batch holds at most 20 operations and is applied all or nothing;
//     delete must be alone in its call;
//   - content that looks like a secret (private key blocks, AWS, Google,
//     OpenAI, Anthropic, GitHub, Slack, Stripe key shapes) is refused with a
//     request to redact, for every policy;
//   - every write is linted before it lands;
//   - a create whose skill overlaps an existing one at DuplicateThreshold
//     (package overlap's measure) is refused, naming that skill and saying
//     to patch it, unless the call passes force_new with a reason, which
//     lands in a Force-New trailer (Options.AllowOverlap turns the
//     check off for the curator's consolidation, whose umbrellas overlap
//     their siblings by design).
//
// Under the [Autonomous] policy (a background review, the curator) also:
//   - writes go only to curator-managed skills (ownership from the
//     library's history; missing or unreadable evidence means user-owned)
//     that are not pinned or protected;
//   - an existing file must have been read (skill_view, or a whole
//     read_file) before it is patched, rewritten or removed;
//   - delete needs absorbed_into naming another existing skill, and
//     archives;
//   - an unattended memory replace or remove lands on a staged proposal.
//
// The CLI's writes from an autonomous origin pass the same ownership
// guard through [AutonomousCheck] and [AutonomousMeta], in the same
// words, so no path goes around them.
package agenttools
