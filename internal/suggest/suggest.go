// Package suggest finds the known word that a mistyped one was probably meant to be, for the
// "did you mean" of robotsmith's messages: a misspelt directive or crawler name, a config key, a
// command or a flag.
//
// Usage:
//
//	if s, d := suggest.Nearest("noindx", known); d <= 2 {
//		return fmt.Errorf("unknown directive %q (did you mean %q?)", "noindx", s)
//	}
//	if s, ok := suggest.Resembles("paht", []string{"path", "kind", "lang"}); ok {
//		return fmt.Errorf("unknown key %q (did you mean %q?)", "paht", s) // one edit: "path"
//	}
//
// Distances are Levenshtein edits counted in runes (github.com/agnivade/levenshtein), so a
// lookalike letter from another script (a Cyrillic і in noіndex) is one edit, like any other; two
// neighbouring letters swapped (googlebto) count as one edit, as a reader sees one slip.
package suggest

import (
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the word of known closest to w and its Distance. Ties go to the word listed
// first, so callers order known by preference. With known empty it returns "" and -1.
func Nearest(w string, known []string) (best string, dist int) {
	dist = -1
	for _, k := range known {
		d := Distance(w, k)
		if dist < 0 || d < dist {
			best, dist = k, d
		}
	}
	return best, dist
}

// Distance is the number of edits between a and b: Levenshtein's insertions, deletions and
// substitutions of runes, except that two words differing only by two neighbouring runes swapped
// are one edit apart (Levenshtein counts two).
func Distance(a, b string) int {
	if swapped([]rune(a), []rune(b)) {
		return 1
	}
	return levenshtein.ComputeDistance(a, b)
}

// swapped reports whether a and b differ only by two neighbouring runes swapped.
func swapped(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && string(a[i+2:]) == string(b[i+2:])
}

// Resembles returns the word of known that w looks like a misspelling of, and whether there is
// one: a word w is not equal to, within two edits of it, or one edit for a known word of six
// runes or fewer (two edits would make half of all short words typos: "mybot" is two edits from
// both "ccbot" and "msnbot", "kin" from "kind" and "lang"). Of several, the nearest wins, then
// the first listed. Case counts: callers compare lower-case words.
func Resembles(w string, known []string) (string, bool) {
	best, bestDist := "", 3
	n := utf8.RuneCountInString(w)
	for _, k := range known {
		if k == w {
			return "", false
		}
		// Words whose lengths differ by more than the edits allowed are never near, and a caller
		// may check thousands of names against a list (agents against the crawler catalogue):
		// the length is counted without the cost of computing the distance.
		edits := Edits(k)
		if m := utf8.RuneCountInString(k); n-m > edits || m-n > edits {
			continue
		}
		d := Distance(w, k)
		if d > edits {
			continue
		}
		if d < bestDist {
			best, bestDist = k, d
		}
	}
	return best, best != ""
}

// Edits is how many edits away from a known word a misspelling of it may be: two, or one for a
// word of six runes or fewer.
func Edits(known string) int {
	if len([]rune(known)) <= 6 {
		return 1
	}
	return 2
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
