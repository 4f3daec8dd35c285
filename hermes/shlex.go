package hermes

import (
	"errors"
	"regexp"
	"strings"
)

// Hermes runs a shell hook's command without a shell: os.path.expanduser,
// then shlex.split (POSIX rules), then the program with that argv. Quote
// and Split are Python's shlex.quote and shlex.split, so a command
// skillrepo writes runs as the argv it means.

var unsafeChar = regexp.MustCompile(`[^\w@%+=:,./-]`)

// Quote is shlex.quote: s as is when it holds only safe characters, else
// in single quotes (a single quote written as '"'"').
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if !unsafeChar.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// Split is shlex.split(s) in POSIX mode: words separated by whitespace;
// single quotes keep everything; double quotes keep everything but a
// backslash before " or \ (Python's shlex, unlike a shell, keeps the one
// before $ or `); a backslash outside quotes escapes the next character.
func Split(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	const (
		plain = iota
		single
		double
	)
	state := plain
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch state {
		case single:
			if c == '\'' {
				state = plain
			} else {
				cur.WriteRune(c)
			}
		case double:
			switch {
			case c == '"':
				state = plain
			case c == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\'):
				i++
				cur.WriteRune(rs[i])
			case c == '\\' && i+1 >= len(rs):
				return nil, errors.New("no closing quotation")
			default:
				cur.WriteRune(c)
			}
		default:
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if inWord {
					words = append(words, cur.String())
					cur.Reset()
					inWord = false
				}
			case c == '\'':
				state, inWord = single, true
			case c == '"':
				state, inWord = double, true
			case c == '\\':
				if i+1 >= len(rs) {
					return nil, errors.New("no escaped character")
				}
				i++
				cur.WriteRune(rs[i])
				inWord = true
			default:
				cur.WriteRune(c)
				inWord = true
			}
		}
	}
	if state != plain {
		return nil, errors.New("no closing quotation")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// ExpandUser is os.path.expanduser for the user's own home: a leading
// "~" or "~/" becomes home.
func ExpandUser(s, home string) string {
	if s == "~" {
		return home
	}
	if strings.HasPrefix(s, "~/") {
		return home + s[1:]
	}
	return s
}
