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
// tools offered, the provenance of its commits (whose origin chooses the
// rules), where writes land, and a dry run. [Toolbox.Call] runs one call
// from the model's JSON arguments and returns a [Result]: the JSON text
// for the model and the [Change] or [Refusal] it made. [Definitions] gives
// the tools' names, descriptions and JSON schemas for the model.
//
// # Guards
//
// Every guard is code, never a sentence in a prompt, and every refusal is
// a tool result the model can read, never an error. The tools check what
// they answer in their own words: a tool not offered is refused naming
// what is allowed; arguments are checked for shape (names, paths, sizes
// by package skill; "..", absolute paths and .git refused for reads too);
// a batch holds at most 20 operations, delete alone; a skill to create
// must not exist, one to change must. read_file and search_files with
// scope "project" read the session's project ([Options].Project) and
// nothing else: inside its folder (links resolved, opened through an
// os.Root), never .git or a secret-looking file, 256 KiB a file, 50 reads
// a run (project.go).
//
// The rules of the write itself are the library's write policy (package
// skillrepo, policy.go), the same for the CLI, the MCP server, the review
// and the curator: an agent's likely secret or reworded copy of an
// existing skill is refused; an autonomous writer (a background review,
// the curator) writes only curator-managed skills that are not pinned or
// protected, reads an existing file before it changes it (the toolbox
// hands the policy its session's reads), and deletes only what it
// absorbed into another skill (the delete archives); every write must not
// add lint errors to the skills it touches. The toolbox words a refusal
// of the policy as a guard's result (read_before_write_required, the
// overlapping skills of a duplicate). An unattended memory replace or
// remove from an autonomous origin lands on a staged proposal.
package agenttools
