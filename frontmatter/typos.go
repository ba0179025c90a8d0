package frontmatter

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// Keys that look like misspelt robots keys (`robtos: noindex`, `noindx: true`).
//
// Only the robots keys are robotsmith's: every other key belongs to the generator or the theme,
// and a site its generator builds is never refused for one of them. But a key one or two edits
// from a robots key, whose value would have restricted the page, is almost certainly a robots
// key misspelt, and reading nothing from it silently drops what its author wrote. So:
//
//   - when the value would have made the page noindex (`noindx: true`, `robtos: noindex`, `robtos:
//     {googlebot: none}`), the key is an error: the page its author meant to hide would be
//     published, and the build must fail closed (SPEC §4), as it does for `robots: noindx`. A
//     generator or theme key that both looks like a robots key and holds a noindex is not one
//     anybody writes for another purpose;
//   - when the value would have been another restriction (`nofolow: true`, `robtos: nosnippet`,
//     `unavailable-after: 2027-01-31`), it is a warning: the page is published as its author
//     meant, only a restriction on it is missing, and the key may yet be the theme's;
//   - anything else (`roboto: "Roboto Slab"`, a theme's `robot: true`) is not robotsmith's: not a
//     word said about it.
//
// `index` and `follow` are words of their own, the opposite of noindex and nofollow, not
// misspellings of them, and are never taken for them.

// robotsKeyNames are the keys SPEC §3 defines, the ones a misspelling is compared with (Hugo's
// expiryDate and unpublishDate are Hugo's own keys: a misspelling of one is Hugo's to judge).
// An array, not a slice: a page's every key is compared with them, and an array on the stack
// costs no allocation.
func robotsKeyNames() [4]string {
	return [...]string{"robots", "noindex", "nofollow", "unavailable_after"}
}

// resemblesRobotsKey returns the robots key that a key (not one of them) looks like a misspelling
// of: the same but for hyphens, underscores and spaces (no_index, unavailable-after), or within
// suggest.Resembles' edits (robtos, noindx, nofolow).
func resemblesRobotsKey(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	keys := robotsKeyNames()
	if slices.Contains(keys[:], n) || n == "index" || n == "follow" {
		return "", false
	}
	squashed := squash(n)
	near := false
	for _, k := range keys {
		if squash(k) == squashed {
			return k, true
		}
		near = near || mayResemble(n, k, suggest.Edits(k))
	}
	if !near {
		return "", false // every page's title, date and tags: no edit distance computed
	}
	all := robotsKeyNames() // a copy that may escape, made only for the rare key near one
	return suggest.Resembles(n, all[:])
}

// squash is s without hyphens, underscores and spaces (s itself when it has none).
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == ' ' {
			return -1
		}
		return r
	}, s)
}

// mayResemble reports whether n may be within edits of k, by a bound cheaper than the distance:
// the letters one has more of than the other, counted with repeats, in whichever word has more
// such letters. An edit changes that count by at most one, so it is never more than the distance;
// false means n is certainly more than edits from k. A word that is not ASCII is left to the
// distance.
func mayResemble(n, k string, edits int) bool {
	if !suggest.ASCII(n) || !suggest.ASCII(k) {
		return true
	}
	var count [128]int
	for i := 0; i < len(n); i++ {
		count[n[i]]++
	}
	for i := 0; i < len(k); i++ {
		count[k[i]]--
	}
	more, fewer := 0, 0
	for i := 0; i < len(n); i++ {
		if c := count[n[i]]; c > 0 {
			more += c
			count[n[i]] = 0
		}
	}
	for i := 0; i < len(k); i++ {
		if c := count[k[i]]; c < 0 {
			fewer -= c
			count[k[i]] = 0
		}
	}
	return max(more, fewer) <= edits
}

// lookalike judges key k of a map robots keys are read from (the key is none of them) by the
// policy above: an error for a misspelt key that would have hidden the page, a warning in
// d.Warnings for one that would have restricted it otherwise, nothing for the rest.
func (d *Document) lookalike(k Key, prefix string) error {
	near, ok := resemblesRobotsKey(k.Name)
	if !ok || k.Value.IsNull() {
		return nil
	}
	hides, restricts := misspeltEffect(near, k.Value)
	if !restricts {
		return nil
	}
	line := d.Line(k.Off)
	what := fmt.Sprintf("%s: unknown key %q (did you mean %q?)", d.what, prefix+k.Name, near)
	if hides {
		return &Error{File: d.File, Line: line, Code: problem.MisspeltRobotsKey, Err: fmt.Errorf("%s: %w: robotsmith reads robots, noindex, nofollow and unavailable_after, and as written it would publish a page meant to be hidden", what, rules.ErrMisspelt)}
	}
	d.Warnings = append(d.Warnings, &Error{File: d.File, Line: line, Code: problem.UnreadRobotsKey,
		Err: fmt.Errorf("%s: robotsmith does not read it, so the restriction it holds is not applied; rename it if it is meant for robotsmith", what)})
	return nil
}

// misspeltEffect is what v would have done as the value of the robots key near: hidden the page
// from some crawler, or restricted it otherwise.
func misspeltEffect(near string, v *Node) (hides, restricts bool) {
	switch near {
	case "noindex", "nofollow":
		b, ok := v.Truth()
		restricts = ok && b
		hides = restricts && near == "noindex"
	case "unavailable_after":
		restricts = v.Kind == KindString || v.Kind == KindTime
	case "robots":
		hides, restricts = robotsLike(v)
	}
	return hides, restricts
}

// robotsLike reads v as the value of `robots` would be read (a string, a list of strings, or a map
// of agent to those): whether it would make the page noindex for some crawler (noindex, none, or a
// misspelling of a restriction), and whether it would restrict it at all (any directive but
// index, follow and all, or a malformed one).
func robotsLike(v *Node) (hides, restricts bool) {
	vals := []*Node{v}
	if v.Kind == KindMap {
		vals = vals[:0]
		for _, k := range v.Keys {
			vals = append(vals, k.Value)
		}
	}
	for _, n := range vals {
		ss, ok := n.StringList()
		if !ok {
			continue
		}
		for _, s := range ss {
			toks, _, err := rules.ParseValue(s)
			for _, t := range toks {
				hides = hides || t == "noindex"
				restricts = restricts || t != "index" && t != "follow"
			}
			hides = hides || errors.Is(err, rules.ErrMisspelt)
			restricts = restricts || err != nil
		}
	}
	return hides, restricts || hides
}
