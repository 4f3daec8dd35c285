package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/internal/jsonedit"
)

// An agent's settings file: {"hooks": {"<Event>": [{"matcher": …,
// "hooks": [{"type": "command", "command": …, …}]}]}} (Claude Code,
// Codex's hooks.json and Gemini CLI share the shape; Gemini CLI also
// keeps "enabled", "disabled" and "notifications" there, which are not
// events: Format.NotEvents). It is edited as text (package jsonedit), so everything that is
// not ours keeps its bytes.

func isEventKey(t Target, key string) bool {
	return !slices.Contains(t.Format().NotEvents, key)
}

// parseSettings reads a settings file and checks its hook shape: a JSON
// object whose "hooks", when present, maps event names to lists of
// objects whose "hooks" are lists of objects.
func parseSettings(t Target, data []byte) (*jsonedit.Value, error) {
	root, err := jsonedit.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if root.Kind != jsonedit.Object {
		return nil, fmt.Errorf("%w: the top level is not a JSON object", ErrMalformed)
	}
	hooks := root.Get("hooks")
	if hooks == nil {
		return root, nil
	}
	if hooks.Val.Kind != jsonedit.Object {
		return nil, fmt.Errorf("%w: \"hooks\" is not an object of events", ErrMalformed)
	}
	for _, ev := range hooks.Val.Members {
		if !isEventKey(t, ev.Key) {
			continue
		}
		if ev.Val.Kind != jsonedit.Array {
			return nil, fmt.Errorf("%w: hooks.%s is not a list of matcher groups", ErrMalformed, ev.Key)
		}
		for i, g := range ev.Val.Elems {
			if g.Kind != jsonedit.Object {
				return nil, fmt.Errorf("%w: hooks.%s[%d] is not an object", ErrMalformed, ev.Key, i)
			}
			if t.Format().Flat {
				continue // a handler, not a matcher group
			}
			hs := g.Get("hooks")
			if hs == nil {
				continue
			}
			if hs.Val.Kind != jsonedit.Array {
				return nil, fmt.Errorf("%w: hooks.%s[%d].hooks is not a list", ErrMalformed, ev.Key, i)
			}
			for j, h := range hs.Val.Elems {
				if h.Kind != jsonedit.Object {
					return nil, fmt.Errorf("%w: hooks.%s[%d].hooks[%d] is not an object", ErrMalformed, ev.Key, i, j)
				}
			}
		}
	}
	return root, nil
}

// decodeAt decodes the value v of data into out; a value of another type
// leaves out as it was.
func decodeAt(data []byte, v *jsonedit.Value, out any) bool {
	return v != nil && json.Unmarshal(data[v.Start:v.End], out) == nil
}

// ours lists the handlers whose command carries mark, in file order.
func ours(t Target, root *jsonedit.Value, data []byte, mark string) []InstalledHandler {
	if t.Format().Flat {
		return oursFlat(root, data, mark)
	}
	var out []InstalledHandler
	hooks := root.Lookup("hooks")
	if hooks == nil || hooks.Kind != jsonedit.Object {
		return nil
	}
	for _, ev := range hooks.Members {
		if ev.Val.Kind != jsonedit.Array {
			continue
		}
		for gi, g := range ev.Val.Elems {
			hs := g.Lookup("hooks")
			if hs == nil || hs.Kind != jsonedit.Array {
				continue
			}
			var matcher string
			m := g.Get("matcher")
			hasMatcher := m != nil && decodeAt(data, m.Val, &matcher)
			for hi, h := range hs.Elems {
				var cmd string
				if !decodeAt(data, h.Lookup("command"), &cmd) || !containsMark(cmd, mark) {
					continue
				}
				f := InstalledHandler{Event: ev.Key, Group: gi, Index: hi, Matcher: matcher, HasMatcher: hasMatcher, Command: cmd}
				decodeAt(data, h.Lookup("timeout"), &f.Timeout)
				decodeAt(data, h.Lookup("async"), &f.Async)
				decodeAt(data, h.Lookup("name"), &f.Name)
				var status string
				if decodeAt(data, h.Lookup("statusMessage"), &status) {
					f.StatusMessage = &status
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// oursFlat is ours for a Flat file: handlers straight under each event
// (Group is the handler's place, Index -1), the command in "bash".
func oursFlat(root *jsonedit.Value, data []byte, mark string) []InstalledHandler {
	var out []InstalledHandler
	hooks := root.Lookup("hooks")
	if hooks == nil || hooks.Kind != jsonedit.Object {
		return nil
	}
	for _, ev := range hooks.Members {
		if ev.Val.Kind != jsonedit.Array {
			continue
		}
		for i, h := range ev.Val.Elems {
			var cmd string
			if !decodeAt(data, h.Lookup("bash"), &cmd) || !containsMark(cmd, mark) {
				continue
			}
			f := InstalledHandler{Event: ev.Key, Group: i, Index: -1, Command: cmd}
			decodeAt(data, h.Lookup("timeoutSec"), &f.Timeout)
			out = append(out, f)
		}
	}
	return out
}

// containsMark reports whether cmd is one of ours: read as the shell
// reads it, one simple command — a program, then mark's words ("hooks run
// <agent>"), then the event — with no operator, redirection, command
// substitution or comment that could run something else. A "hooks run
// claude-code" in an echo or after a "#" is not ours: doctor runs only
// what it recognises, so it must recognise only what it wrote.
func containsMark(cmd, mark string) bool {
	want := strings.Fields(mark)
	words, ok := simpleCommand(cmd)
	return ok && len(want) > 0 && len(words) >= len(want)+2 && slices.Equal(words[1:1+len(want)], want)
}

// simpleCommand splits a shell command into its words when it is one
// simple command whose only expansions are plain variables ($NAME, as
// "$CLAUDE_PROJECT_DIR"/… in a project's commands); ok is false for
// anything else (operators ; & | && ||, redirections, ( ) { }, command or
// arithmetic substitution, ${…}, backquotes, a comment, a line break,
// an unclosed quote).
func simpleCommand(cmd string) (words []string, ok bool) {
	var cur strings.Builder
	inWord, quote := false, byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
			continue
		case c == '$':
			// Only $NAME: no $( ), ${ }, $'…', $1, $$.
			j := i + 1
			for j < len(cmd) && (cmd[j] == '_' || cmd[j] >= 'a' && cmd[j] <= 'z' || cmd[j] >= 'A' && cmd[j] <= 'Z' || j > i+1 && cmd[j] >= '0' && cmd[j] <= '9') {
				j++
			}
			if j == i+1 {
				return nil, false
			}
			cur.WriteString(cmd[i:j])
			inWord, i = true, j-1
			continue
		case c == '`' || c == '\n' || c == '\r' || c == 0:
			return nil, false
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(cmd):
				i++
				cur.WriteByte(cmd[i])
			default:
				cur.WriteByte(c)
			}
			continue
		}
		switch c {
		case ' ', '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'', '"':
			quote, inWord = c, true
		case '\\':
			if i+1 >= len(cmd) {
				return nil, false
			}
			i++
			cur.WriteByte(cmd[i])
			inWord = true
		case ';', '&', '|', '<', '>', '(', ')', '{', '}':
			return nil, false
		case '#':
			if !inWord {
				return nil, false // a comment
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

type wantHandler struct {
	Handler
	Command string
}

// handlerJSON is one handler as we write it, keys in the order people
// write them: name (Gemini CLI), type, command, timeout (milliseconds for
// Gemini CLI), async.
type handlerJSON struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
	Async   bool   `json:"async,omitempty"`
}

// timeoutIn is a timeout of seconds in the agent's unit.
func timeoutIn(t Target, seconds int) int {
	if t.Format().TimeoutMillis {
		return seconds * 1000
	}
	return seconds
}

func (w wantHandler) json(t Target) handlerJSON {
	return handlerJSON{Name: w.Name, Type: "command", Command: w.Command, Timeout: timeoutIn(t, w.Timeout), Async: w.Async}
}

// flatJSON is one handler of a Flat file as we write it.
type flatJSON struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// groupJSON is a matcher group holding one handler: matcher first, then
// hooks.
type groupJSON struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []handlerJSON `json:"hooks"`
}

// mergeSettings removes our handlers from data and appends want, each in
// a matcher group of its own at the end of its event's list. Only our
// text changes; when the handlers in the file already are exactly want,
// data comes back unchanged, byte for byte. A hooks object our removal
// leaves empty is removed, so an install and an uninstall give back the
// file that was there.
func mergeSettings(t Target, data []byte, want []wantHandler) (out []byte, added, removed int, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
		if t.Format().Flat {
			data = []byte("{\n  \"version\": 1\n}\n")
		}
	}
	root, err := parseSettings(t, data)
	if err != nil {
		return nil, 0, 0, err
	}
	have := ours(t, root, data, marker(t.Name()))
	if sameHandlers(t, have, want) {
		return data, 0, 0, nil
	}
	out = data
	// Delete from the end so earlier indexes stay valid.
	for i := len(have) - 1; i >= 0; i-- {
		f := have[i]
		if out, err = deleteHandler(t, out, f); err != nil {
			return nil, 0, 0, err
		}
		removed++
	}
	if removed > 0 && len(want) == 0 {
		if r, err := jsonedit.Parse(out); err == nil {
			if h := r.Lookup("hooks"); h != nil && h.Kind == jsonedit.Object && len(h.Members) == 0 {
				if out, err = jsonedit.Delete(out, "hooks"); err != nil {
					return nil, 0, 0, err
				}
			}
		}
	}
	for _, w := range want {
		var g any = groupJSON{Matcher: w.Matcher, Hooks: []handlerJSON{w.json(t)}}
		if t.Format().Flat {
			g = flatJSON{Type: "command", Bash: w.Command, TimeoutSec: w.Timeout}
		}
		r, err := jsonedit.Parse(out)
		if err != nil {
			return nil, 0, 0, err
		}
		if list := r.Lookup("hooks", w.Event); list != nil {
			out, err = jsonedit.Append(out, g, "hooks", w.Event)
		} else {
			out, err = jsonedit.Set(out, []string{"hooks", w.Event}, []any{g})
		}
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		added++
	}
	return out, added, removed, nil
}

// deleteHandler removes one handler, then its group when that is left
// with no handler, then the event when it is left with no group.
func deleteHandler(t Target, data []byte, f InstalledHandler) ([]byte, error) {
	if t.Format().Flat {
		return deleteFlat(t, data, f)
	}
	out, err := jsonedit.DeleteElem(data, "hooks", f.Event, f.Group, "hooks", f.Index)
	if err != nil {
		return nil, err
	}
	root, err := parseSettings(t, out)
	if err != nil {
		return nil, err
	}
	list := root.Lookup("hooks", f.Event)
	if hs := list.Lookup(f.Group, "hooks"); hs != nil && len(hs.Elems) == 0 {
		if len(list.Elems) == 1 {
			return jsonedit.Delete(out, "hooks", f.Event)
		}
		return jsonedit.DeleteElem(out, "hooks", f.Event, f.Group)
	}
	return out, nil
}

// deleteFlat removes one handler of a Flat file, then its event when it
// is left with none.
func deleteFlat(t Target, data []byte, f InstalledHandler) ([]byte, error) {
	root, err := parseSettings(t, data)
	if err != nil {
		return nil, err
	}
	if list := root.Lookup("hooks", f.Event); list != nil && len(list.Elems) == 1 {
		return jsonedit.Delete(data, "hooks", f.Event)
	}
	return jsonedit.DeleteElem(data, "hooks", f.Event, f.Group)
}

func sameHandlers(t Target, have []InstalledHandler, want []wantHandler) bool {
	if len(have) != len(want) {
		return false
	}
	if t.Format().Flat {
		for i := range have {
			if have[i].Event != want[i].Event || have[i].Command != want[i].Command || have[i].Timeout != int64(want[i].Timeout) {
				return false
			}
		}
		return true
	}
	for i := range have {
		h, w := have[i], want[i].json(t)
		if h.Event != want[i].Event || h.Matcher != want[i].Matcher || h.Command != w.Command || h.Timeout != int64(w.Timeout) ||
			h.Async != w.Async || h.Name != w.Name || h.StatusMessage != nil {
			return false
		}
	}
	return true
}
