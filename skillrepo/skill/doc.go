// Package skill is the pure model of a SKILL.md package: splitting and
// parsing the YAML frontmatter, the name, category and support-path rules,
// the size limits, and the patch matcher that skill writes use.
//
// It performs no I/O and imports neither go-git nor cobra, so the linter
// (package lint), the write engine (package skillrepo) and the review loop
// can all share one definition of what a valid skill is.
//
// The validation rules reproduce the reference system's skill_manage tool
// (Hermes Agent, tools/skill_manager_tool.py): the same name regex and
// limits, the same frontmatter rules (content must start with "---", the
// closing delimiter is the first "\n---" line after it, the YAML must be a
// mapping with name and description, the body must not be blank) and the
// same support-file layout (references/, templates/, scripts/, assets/).
// [Split] is our own code rather than adrg/frontmatter because that
// library's delimiters differ from the reference's: it skips leading blank
// lines, trims indentation around "---" and accepts a closing "---" at the
// end of the file, all of which the reference rejects.
package skill
