package overlap

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field weights: a skill's name and description say what it is for, its
// body says how; agents match skills on the first two, so they count more.
const (
	weightName        = 3
	weightDescription = 2
	weightBody        = 1
)

// MaxBodyBytes is how much of a body is read. The purpose of a skill is
// stated near its top (when to use it, the first steps); the tail is
// detail, and bounding it bounds the work per skill whatever one skill
// holds.
const MaxBodyBytes = 8 << 10

// stopwords are English function words and the words every SKILL.md
// repeats. Words common in one library but not another are left to the
// inverse document frequency and the df ceiling.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again all also an and any are as at be because been
		before being below between both but by can could did do does doing done down during each either else
		etc every few for from further get gets got had has have having here how i if in into is it its itself
		just may me might more most must my need needs no nor not now of off on once one only or other our out
		over own per same shall should so some such than that the their them then there these they this those
		through to too under until up upon us use used uses using via was we were what when where whether which
		while who whom why will with within without would yes yet you your
		md http https www com org skill skills step steps see note notes example examples`) {
		m[w] = true
	}
	return m
}()

// words calls fn with every lower-cased word of text (letters and
// digits; a word of one character is no word) and its FNV-1a hash. The
// slice is reused.
func words(text string, buf []byte, fn func(w []byte, h uint64)) []byte {
	h := uint64(fnvOffset)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
				buf = append(buf, c)
				h = (h ^ uint64(c)) * fnvPrime
			} else {
				if len(buf) >= 2 {
					fn(buf, h)
				}
				buf, h = buf[:0], fnvOffset
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			k := len(buf)
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			for _, b := range buf[k:] {
				h = (h ^ uint64(b)) * fnvPrime
			}
		} else {
			if len(buf) >= 2 {
				fn(buf, h)
			}
			buf, h = buf[:0], fnvOffset
		}
		i += n
	}
	if len(buf) >= 2 {
		fn(buf, h)
	}
	return buf[:0]
}

// fold turns a lower-cased word into its term: stopwords and pure numbers
// are dropped, and a light, deterministic suffix folding makes "retries",
// "retrying" and "retried" one term, as "caches", "caching" and "cached"
// are. It is not a full stemmer (Porter's rules buy little on the short,
// technical text of skills, and over-stemming merges tool names); it only
// has to make rewordings of one sentence meet.
func fold(w []byte) string {
	if stopwords[string(w)] {
		return ""
	}
	digits := true
	for _, c := range w {
		if c < '0' || c > '9' {
			digits = false
			break
		}
	}
	if digits {
		return ""
	}
	w = append([]byte(nil), w...)
	n := len(w)
	switch {
	case n > 4 && hasSuffix(w, "ies"), n > 4 && hasSuffix(w, "ied"):
		w = append(w[:n-3], 'y')
	case n > 5 && hasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 4 && hasSuffix(w, "ed"):
		w = w[:n-2]
	case n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		w = w[:n-1]
	}
	if n = len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return string(w)
}

func hasSuffix(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

// nameWords splits a skill name into its words (gateway-retry-backoff).
func nameWords(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
}
