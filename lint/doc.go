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
// A path given to Check is a library or any folder of skills, one skill
// folder, or one SKILL.md. Below a folder, every folder holding a SKILL.md
// is a skill and is not searched further (flat and category layouts both
// work); hidden folders (.git, .archive) and node_modules are skipped;
// symbolic links are followed only when, resolved through every component,
// they stay inside the root (and never into one of their own parents).
//
// # Rules and profiles
//
// Every rule has a stable ID ([Rules]) and a severity per [Profile]: the
// runtimes do not agree (skills-format.md §1.5), so the profile says which
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
//   - Output is deterministic: skills are reported in path order whatever
//     the number of workers, and within a skill in check order.
//   - Paths in findings are slash-separated and relative to the root of
//     the file system; line and column are 1-based, columns count
//     characters.
//
// The writers in output.go render a [Report] as text, JSON, GitHub
// workflow commands or SARIF 2.1.0.
package lint
