package memory

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Delimiter separates entries in a store file.
const Delimiter = "\n§\n"

// Default limits, in characters of the whole file.
const (
	DefaultMemoryLimit = 2200
	DefaultUserLimit   = 1375
)

// Target names a store.
type Target string

// The two stores.
const (
	Memory Target = "memory" // MEMORY.md: the agent's notes about the environment
	User   Target = "user"   // USER.md: the user profile
)

// ParseTarget accepts "memory", "user" or "" (memory, as the reference
// treats a missing target).
func ParseTarget(s string) (Target, error) {
	switch Target(s) {
	case "", Memory:
		return Memory, nil
	case User:
		return User, nil
	}
	return "", fmt.Errorf("invalid target %q: use 'memory' or 'user'", s)
}

// FileName is the store's file name.
func (t Target) FileName() string {
	if t == User {
		return "USER.md"
	}
	return "MEMORY.md"
}

// Label is how messages name the store.
func (t Target) Label() string {
	if t == User {
		return "user profile"
	}
	return "memory"
}

// DefaultLimit is the reference's limit for the store.
func (t Target) DefaultLimit() int {
	if t == User {
		return DefaultUserLimit
	}
	return DefaultMemoryLimit
}

// Errors returned (wrapped in an [*Error]) by the operations.
var (
	ErrEmpty     = errors.New("empty text")
	ErrNoMatch   = errors.New("no entry matched")
	ErrAmbiguous = errors.New("several entries matched")
	ErrOverLimit = errors.New("over the character limit")
	ErrDrift     = errors.New("file does not round-trip")
	ErrInvalidOp = errors.New("invalid operation")
)

// Error is a refused change. Its message is written for whoever asked for
// the change (a person or a model) and says what to do next; Current holds
// the entries as they are, so a model can pick what to consolidate.
type Error struct {
	Kind    error    // one of the Err values above
	Msg     string   // the message
	Current []string // current entries, when they help to retry
	Matches []string // 80-character previews of ambiguous matches
	Usage   string   // "cur/limit" when the size matters
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns Kind, so errors.Is(err, ErrNoMatch) works.
func (e *Error) Unwrap() error { return e.Kind }

// Parse splits a store file into entries: on the whole delimiter, trimmed,
// empty entries dropped, identical duplicates reduced to the first. Line
// endings are read as the reference reads them (Python's universal
// newlines: CRLF and CR are LF), so a store saved with CRLF splits into its
// entries and is written back with LF only, never with mixed endings.
func Parse(content string) []string {
	content = lf(content)
	if strings.TrimSpace(content) == "" {
		return nil
	}
	seen := map[string]bool{}
	var entries []string
	for _, e := range strings.Split(content, Delimiter) {
		e = strings.TrimSpace(e)
		if e == "" || seen[e] {
			continue
		}
		seen[e] = true
		entries = append(entries, e)
	}
	return entries
}

// Render joins entries into a store file. It adds no trailing newline,
// exactly as the reference writes the file.
func Render(entries []string) string {
	return strings.Join(entries, Delimiter)
}

// Size is the length in characters of the rendered entries.
func Size(entries []string) int {
	return utf8.RuneCountInString(Render(entries))
}

// Op is one operation of a batch, in the memory tool's shape.
type Op struct {
	Action  string `json:"action"`
	Content string `json:"content,omitempty"`
	OldText string `json:"old_text,omitempty"`
}

// File is a store's current content together with what governs it.
type File struct {
	Target  Target
	Limit   int    // characters; <= 0 means the target's default
	Content string // the file as it is now ("" when it does not exist)
}

// Result is a successful operation: the new file content and the
// reference's confirmation.
type Result struct {
	Target  Target
	Content string // the new file content
	Changed bool   // false when the operation was a no-op (duplicate add)
	Message string // "Entry added." and so on
	Entries int    // entries after the operation
	Chars   int    // characters after the operation
	Limit   int
}

// Usage is "P% — cur/limit chars", the reference's usage line.
func (r Result) Usage() string {
	return fmt.Sprintf("%d%% — %s/%s chars", percent(r.Chars, r.Limit), commas(r.Chars), commas(r.Limit))
}

func (f File) limit() int {
	if f.Limit > 0 {
		return f.Limit
	}
	return f.Target.DefaultLimit()
}

func (f File) target() Target {
	if f.Target == "" {
		return Memory
	}
	return f.Target
}

// Entries is the parsed content.
func (f File) Entries() []string { return Parse(f.Content) }

// Add appends an entry. An exact duplicate is a success that changes
// nothing. It fails with ErrEmpty, ErrThreat or ErrOverLimit.
func (f File) Add(content string) (Result, error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return Result{}, f.fail(ErrEmpty, nil, "content cannot be empty")
	}
	if err := CheckThreats(content); err != nil {
		return Result{}, err
	}
	entries := f.Entries()
	for _, e := range entries {
		if e == content {
			return f.result(entries, false, "Entry already exists (no duplicate added)."), nil
		}
	}
	next := append(entries[:len(entries):len(entries)], content)
	if n := Size(next); n > f.limit() {
		return Result{}, f.fail(ErrOverLimit, entries,
			"%s at %s/%s chars: adding this entry (%d chars) would exceed the limit; consolidate now: use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important ones (see current_entries), then retry this add",
			f.target().Label(), commas(Size(entries)), commas(f.limit()), utf8.RuneCountInString(content))
	}
	return f.result(next, true, "Entry added."), nil
}

// Replace replaces the entry containing oldText with newContent. It fails
// with ErrEmpty, ErrThreat, ErrDrift, ErrNoMatch, ErrAmbiguous or
// ErrOverLimit.
func (f File) Replace(oldText, newContent string) (Result, error) {
	oldText, newContent = strings.TrimSpace(oldText), strings.TrimSpace(newContent)
	if oldText == "" {
		return Result{}, f.fail(ErrEmpty, f.Entries(), "'replace' needs old_text: a short unique substring of the entry to replace (see current_entries)")
	}
	if newContent == "" {
		return Result{}, f.fail(ErrEmpty, nil, "new content cannot be empty; use 'remove' to delete an entry")
	}
	if err := CheckThreats(newContent); err != nil {
		return Result{}, err
	}
	entries, err := f.clean()
	if err != nil {
		return Result{}, err
	}
	i, err := f.match(entries, oldText, "replace")
	if err != nil {
		return Result{}, err
	}
	next := append([]string(nil), entries...)
	next[i] = newContent
	if n := Size(next); n > f.limit() {
		return Result{}, f.fail(ErrOverLimit, entries,
			"replacement would put %s at %s/%s chars; shorten the new content, or 'remove' other stale or less important entries to make room (see current_entries), then retry",
			f.target().Label(), commas(n), commas(f.limit()))
	}
	return f.result(dedupe(next), true, "Entry replaced."), nil
}

// Remove removes the entry containing oldText. It fails with ErrEmpty,
// ErrDrift, ErrNoMatch or ErrAmbiguous.
func (f File) Remove(oldText string) (Result, error) {
	oldText = strings.TrimSpace(oldText)
	if oldText == "" {
		return Result{}, f.fail(ErrEmpty, f.Entries(), "'remove' needs old_text: a short unique substring of the entry to remove (see current_entries)")
	}
	entries, err := f.clean()
	if err != nil {
		return Result{}, err
	}
	i, err := f.match(entries, oldText, "remove")
	if err != nil {
		return Result{}, err
	}
	next := append(append([]string(nil), entries[:i]...), entries[i+1:]...)
	return f.result(next, true, "Entry removed."), nil
}

// Batch applies ops in order, all or nothing, checking the size of the
// final result only (so one batch may free room and then add). Duplicate
// adds are skipped. It fails with ErrInvalidOp, ErrThreat, ErrEmpty,
// ErrDrift, ErrNoMatch, ErrAmbiguous or ErrOverLimit; nothing is applied
// then. Every add and replace is scanned before anything else: one
// flagged operation refuses the whole batch.
func (f File) Batch(ops []Op) (Result, error) {
	if len(ops) == 0 {
		return Result{}, f.fail(ErrInvalidOp, nil, "operations list is empty")
	}
	for i, op := range ops {
		if (op.Action == "add" || op.Action == "replace") && op.Content != "" {
			if err := CheckThreats(op.Content); err != nil {
				e := err.(*Error)
				e.Msg = fmt.Sprintf("Operation %d: %s", i+1, e.Msg)
				return Result{}, e
			}
		}
	}
	entries, err := f.clean()
	if err != nil {
		return Result{}, err
	}
	work := append([]string(nil), entries...)
	abort := func(kind error, format string, args ...any) error {
		return f.fail(kind, entries, format+"; no operations were applied (a batch is all or nothing)", args...)
	}
	for i, op := range ops {
		content, old := strings.TrimSpace(op.Content), strings.TrimSpace(op.OldText)
		action := op.Action
		if action == "" {
			action = "unknown"
		}
		pos := fmt.Sprintf("operation %d (%s)", i+1, action)
		switch op.Action {
		case "add":
			if content == "" {
				return Result{}, abort(ErrEmpty, "%s: content is required", pos)
			}
			if !contains(work, content) {
				work = append(work, content)
			}
		case "replace", "remove":
			if old == "" {
				return Result{}, abort(ErrEmpty, "%s: old_text is required", pos)
			}
			if op.Action == "replace" && content == "" {
				return Result{}, abort(ErrEmpty, "%s: content is required (use action 'remove' to delete)", pos)
			}
			idx, distinct := find(work, old)
			switch {
			case len(idx) == 0:
				return Result{}, abort(ErrNoMatch, "%s: no entry matched %q", pos, old)
			case distinct > 1:
				return Result{}, abort(ErrAmbiguous, "%s: %q matched several distinct entries; be more specific", pos, old)
			}
			if op.Action == "replace" {
				work[idx[0]] = content
			} else {
				work = append(work[:idx[0]], work[idx[0]+1:]...)
			}
		default:
			return Result{}, abort(ErrInvalidOp, "%s: unknown action; use add, replace or remove", pos)
		}
	}
	work = dedupe(work)
	if n := Size(work); n > f.limit() {
		return Result{}, f.fail(ErrOverLimit, entries,
			"after all %d operations %s would be at %s/%s chars, over the limit; remove or shorten more entries in the same batch (see current_entries), then retry",
			len(ops), f.target().Label(), commas(n), commas(f.limit()))
	}
	return f.result(work, Render(work) != Render(entries), fmt.Sprintf("Applied %d operation(s).", len(ops))), nil
}

// clean parses the file for a rewrite, refusing one that would not survive
// it (the reference's drift guard): text outside the entry format, or an
// entry longer than the whole store may be, means someone edited the file
// by other means and a rewrite would silently drop their text.
func (f File) clean() ([]string, error) {
	content := lf(f.Content)
	if strings.TrimSpace(content) == "" {
		return nil, nil
	}
	var raw []string
	longest := 0
	for _, e := range strings.Split(content, Delimiter) {
		if e = strings.TrimSpace(e); e != "" {
			raw = append(raw, e)
			longest = max(longest, utf8.RuneCountInString(e))
		}
	}
	if strings.TrimSpace(content) != Render(raw) || longest > f.limit() {
		return nil, f.fail(ErrDrift, nil,
			"refusing to rewrite %s: it holds text that would not survive a rewrite (an edit by hand or by another tool); rewrite it as a clean list of entries separated by a line holding only '§', or move the extra text out, then retry",
			f.target().FileName())
	}
	return Parse(content), nil
}

// lf reads a store as the reference does (Python's utf-8-sig and
// universal newlines): a leading byte-order mark dropped, CRLF and lone CR
// line endings read as LF.
func lf(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func (f File) match(entries []string, oldText, action string) (int, error) {
	idx, distinct := find(entries, oldText)
	switch {
	case len(idx) == 0:
		return 0, f.fail(ErrNoMatch, entries, "no entry matched %q; check current_entries and retry with the exact text of the entry to %s", oldText, action)
	case distinct > 1:
		e := f.fail(ErrAmbiguous, nil, "multiple entries matched %q; be more specific", oldText).(*Error)
		for _, i := range idx {
			e.Matches = append(e.Matches, preview(entries[i], 80))
		}
		return 0, e
	}
	return idx[0], nil
}

// find returns the indexes of entries containing sub and how many distinct
// texts they hold.
func find(entries []string, sub string) ([]int, int) {
	var idx []int
	texts := map[string]bool{}
	for i, e := range entries {
		if strings.Contains(e, sub) {
			idx = append(idx, i)
			texts[e] = true
		}
	}
	return idx, len(texts)
}

func (f File) fail(kind error, current []string, format string, args ...any) error {
	e := &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
	if current != nil {
		e.Current = append([]string{}, current...)
	}
	if kind == ErrOverLimit || current != nil {
		e.Usage = fmt.Sprintf("%s/%s", commas(Size(f.Entries())), commas(f.limit()))
	}
	return e
}

func (f File) result(entries []string, changed bool, msg string) Result {
	return Result{
		Target:  f.target(),
		Content: Render(entries),
		Changed: changed,
		Message: msg,
		Entries: len(entries),
		Chars:   Size(entries),
		Limit:   f.limit(),
	}
}

func contains(entries []string, s string) bool {
	for _, e := range entries {
		if e == s {
			return true
		}
	}
	return false
}

// dedupe keeps the first of identical entries, as a reload would.
func dedupe(entries []string) []string {
	seen := map[string]bool{}
	out := entries[:0:0]
	for _, e := range entries {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

func preview(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
}

func percent(cur, limit int) int {
	if limit <= 0 {
		return 0
	}
	return min(100, cur*100/limit)
}

// commas formats n with thousands separators, as the reference's usage
// lines do ("2,200").
func commas(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
