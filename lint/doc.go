// Package lint checks SKILL.md packages: the frontmatter, the name and
// description rules, the types of optional fields, and the content a
// runtime cannot check for itself — dangling links and support-path
// mentions, support files nothing references, size, names that look like
// one session's artefacts, encodings, and names used twice in a library.
//
// # Model
//
// [Check] reads only through an fs.FS, so the same code lints a folder
// (os.DirFS), a commit's tree and a proposal's tree before it is approved. It
// imports neither go-git nor the skillrepo library, only the pure SKILL.md
// model (package skillrepo/skill) for the limits.
//
// A path given to Check is a repository, a library or any folder of
// skills, one skill folder, or one SKILL.md. Below a folder, every folder
// holding a SKILL.md (or skill.md) is a skill and is not searched further;
// every other folder is searched, so flat and category layouts and a
// project's hidden skill folders (.claude/skills, .agents/skills,
// .codex/skills, .github/skills) are all found. Version control, archived
// skills (.archive), library state and dependency trees (node_modules,
// vendor, virtual environments) are skipped ([SkipFolder]; the pre-commit
// hook uses the same rule). Finding no skill is an error unless
// Options.AllowEmpty. Symbolic links are followed only when, resolved
// through every component, they stay inside the root (and never into one
// of their own parents).
//
// # Markdown and frontmatter
//
// Links, images, link definitions and HTML links are what goldmark's
// CommonMark parser says they are (markdown.go): nothing in code spans,
// code blocks, HTML blocks or comments is a link, and each target's line
// and column are found in the original file. Paragraphs with no '[' and
// no '<' are not parsed for inlines (they can hold no link), which is
// most of real text. Mentions of support paths (references/x.md written as
// text) are a small scan of each block's text, since Markdown has no such
// construct; what reads as prose rather than a path is not reported.
//
// Orphans (reach.go) are support files in the resource folders that
// nothing reaches: links, mentions, folder mentions, other files naming
// them, relative imports, index files. The skill's texts are indexed once,
// so the check is linear in files and bytes. Text that names a skill which
// exists only under the library's .archive/ is reported too (archived.go).
//
// The frontmatter is split by our own code, not adrg/frontmatter: that
// library skips blank lines before the opening "---", accepts indented
// delimiters (so an indented "---" inside a block scalar ends the
// frontmatter), and cannot tell an unclosed frontmatter from none, while
// each profile must reproduce its runtime's delimiter rules exactly.
//
// # Rules and profiles
//
// Every rule has a stable ID ([Rules]) and a severity per [Profile]: the
// runtimes do not agree (docs/skill-format.md §2), so the profile says which
// runtime's rules apply. [ProfileSkillsRef] reproduces the reference
// validator skills-ref exactly — its checks, its messages, its order, its
// strict YAML (no flow collections, anchors, tags or duplicate keys) — and
// runs nothing else. The other profiles share the content rules.
// [Config] (the `lint:` section of .skillrepo/config.yaml) turns rules
// off or changes their severity; Options.Strict makes warnings errors.
//
// # Invariants
//
//   - Bad input is a finding, never a panic or an error: non-UTF-8 files,
//     byte order marks, CRLF, YAML bombs (the YAML is parsed into nodes,
//     aliases are never expanded, and frontmatter over 256 KiB is refused).
//   - Work and memory grow linearly with a file's size: Markdown is parsed
//     in units of at most 32 KiB, cut where a new block starts, with lines
//     cut at 64 KiB and nesting limited (mdunits.go), because goldmark is
//     quadratic on some crafted text.
//   - Output is deterministic: skills are reported in path order whatever
//     the number of workers, and within a skill in check order.
//   - Paths in findings are slash-separated and relative to the root of
//     the file system; line and column are 1-based, columns count
//     characters.
//
// The writers in output.go render a [Report] as text, JSON, GitHub
// workflow commands or SARIF 2.1.0.
package lint
