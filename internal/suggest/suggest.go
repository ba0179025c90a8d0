// Package suggest finds the known word that a mistyped one was probably meant to be, for the
// "did you mean" of robotsmith's messages: a misspelt directive or crawler name, a config key, a
// command or a flag.
//
// Usage:
//
//	if s, d := suggest.Nearest("noindx", known); d <= 2 {
//		return fmt.Errorf("unknown directive %q (did you mean %q?)", "noindx", s)
//	}
//
// Distances are Levenshtein edits counted in runes (github.com/agnivade/levenshtein), so a
// lookalike letter from another script (a Cyrillic і in noіndex) is one edit, like any other.
package suggest

import (
	"unicode"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the word of known closest to w and its distance in edits. Ties go to the word
// listed first, so callers order known by preference. With known empty it returns "" and -1.
func Nearest(w string, known []string) (best string, dist int) {
	dist = -1
	for _, k := range known {
		d := levenshtein.ComputeDistance(w, k)
		if dist < 0 || d < dist {
			best, dist = k, d
		}
	}
	return best, dist
}

// ASCII reports whether s holds only ASCII characters. A name or value that is not ASCII is never
// one a crawler knows, and in a restriction it is most likely a lookalike letter pasted in.
func ASCII(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}
