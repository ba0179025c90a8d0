// Package excerpt quotes a value in a message the way every robotsmith message does: whole when it
// is short, else its first 80 or so characters and its size, so that a value someone pasted into a
// file (a 10 KB max-snippet, a date run on for a page) cannot make a message of its own size
// (SPEC §10: an error message quotes at most a short excerpt, about 80 characters of any value).
//
// Usage:
//
//	return fmt.Errorf("%s is not an integer", excerpt.Quote(arg)) // "max-snippet:99999…"... (10012 bytes)
package excerpt

import (
	"strconv"
	"unicode/utf8"
)

// Max is the most characters of a value a message quotes, escapes included.
const Max = 80

// Quote is s quoted like %q when it quotes in Max characters or fewer; else the longest beginning
// of s that does, cut between characters, followed by `...` and the size of s in bytes.
func Quote(s string) string {
	if q := strconv.Quote(s); len(q) <= Max+2 {
		return q
	}
	n := min(len(s), Max)
	for {
		for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		q := strconv.Quote(s[:n])
		if len(q) <= Max+2 || n == 0 {
			return q + "... (" + strconv.Itoa(len(s)) + " bytes)"
		}
		// Escapes (\x00, \u2028) make the quoted form longer than the bytes it quotes.
		n -= max(1, (len(q)-Max-2)/4)
	}
}

// Cut is s when it has Max bytes or fewer; else its first Max bytes or fewer, cut between
// characters, followed by "…": for a name shown unquoted, such as a front matter key.
func Cut(s string) string {
	if len(s) <= Max {
		return s
	}
	n := Max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
