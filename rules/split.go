package rules

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/internal/excerpt"
)

// SplitDirectives splits a directive value into its directives as written ("noindex",
// "max-snippet: 50", "unavailable_after: Friday, 25-Jun-10 15:00:00 PST", "googlebot: noindex"),
// trimmed, empty ones dropped. Directives are separated by commas; spaces, semicolons and line
// breaks between known directives are read as separators too (SPEC §4: `noindex nofollow`,
// `noindex; nofollow`, a YAML block scalar with one directive a line), and warning then says how
// the value was read and to use commas ("" when commas alone separate it). So that nothing the
// author wrote is lost to a separator: a date runs on to the next known directive, a valued
// directive's argument may follow its colon after a space, a name and a colon followed by a space
// and a word stay one item (an agent prefix in X-Robots-Tag), words that are none of them known or
// misspelt directives stay one unknown item ("foo bar"), and a known directive written with a
// space inside ("no index") stays one, misspelt. rules and headers read values through it alike.
func SplitDirectives(s string) (items []string, warning string) {
	parts := strings.Split(s, ",")
	var seps separators
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		// An RFC 850 date has a comma after its weekday: "unavailable_after: Friday, 25-Jun-10 ...".
		if endsInWeekday(p) && i+1 < len(parts) {
			i++
			p += "," + parts[i]
		}
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		pieces, how := loosePieces(p)
		if pieces == nil {
			items = append(items, p)
			continue
		}
		items = append(items, pieces...)
		seps |= how
	}
	if seps != 0 {
		warning = "directives separated by " + seps.String() + " are read as " +
			excerpt.Quote(strings.Join(items, ", ")) + "; separate them with commas"
	}
	return items, warning
}

// separators are the kinds of separator other than a comma a value used, as bits.
type separators uint8

const (
	bySpace separators = 1 << iota
	bySemicolon
	byLineBreak
)

// String names the separators: "spaces", "semicolons and line breaks".
func (s separators) String() string {
	var names []string
	for _, n := range [...]struct {
		bit  separators
		name string
	}{{bySpace, "spaces"}, {bySemicolon, "semicolons"}, {byLineBreak, "line breaks"}} {
		if s&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func isLoose(r rune) bool { return r == ';' || unicode.IsSpace(r) }

// looseKind is the kind of separator r is, r being isLoose.
func looseKind(r rune) separators {
	switch r {
	case ';':
		return bySemicolon
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return byLineBreak
	}
	return bySpace
}

// word is one run of a comma-separated part that no space, semicolon or line break breaks, with
// what separated it from the word before.
type word struct {
	text string
	sep  separators
}

// words splits p at spaces, semicolons and line breaks.
func words(p string) []word {
	var out []word
	var sep separators
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if !isLoose(r) {
			j := i + strings.IndexFunc(p[i:], isLoose)
			if j < i {
				j = len(p)
			}
			// Spaces around a semicolon or a line break only pad it: "noindex; nofollow".
			if sep != bySpace {
				sep &^= bySpace
			}
			out = append(out, word{p[i:j], sep})
			sep, i = 0, j
			continue
		}
		sep |= looseKind(r)
		i += n
	}
	return out
}

// loosePieces splits p, one comma-separated part, at its spaces, semicolons and line breaks, or
// returns nil when p is one directive: it has none of them, or they stand inside a directive
// ("max-snippet: 50", a date), or no piece is a known or misspelt directive ("foo bar"), or p is a
// known directive with a space inside, misspelt ("no index"). how is the separators that split it.
func loosePieces(p string) (pieces []string, how separators) {
	if !strings.ContainsFunc(p, isLoose) {
		return nil, 0
	}
	if name := strings.TrimFunc(directiveName(p), isLoose); strings.ContainsFunc(name, isLoose) && squashed(name) != "" {
		return nil, 0
	}
	ws := words(p)
	for i := 0; i < len(ws); {
		start := i
		d := ws[i].text
		i++
		// A colon standing apart belongs to the name before it: "max-snippet : 50".
		for !strings.Contains(d, ":") && i < len(ws) && ws[i].sep&bySemicolon == 0 && strings.HasPrefix(ws[i].text, ":") {
			d += ws[i].text
			i++
		}
		if name, arg, ok := strings.Cut(d, ":"); ok {
			name = strings.ToLower(name)
			switch {
			case name == "unavailable_after":
				// A date has spaces ("25 Jun 2010 15:00:00 PST"): it runs on to the next directive.
				for i < len(ws) && ws[i].sep&bySemicolon == 0 && !startsDirective(ws[i].text) {
					d += " " + ws[i].text
					i++
				}
			case arg == "" && i < len(ws) && ws[i].sep&bySemicolon == 0 && !isFlag(name):
				// "max-snippet: 50", or an agent's name before its directive: "googlebot: noindex".
				d += " " + ws[i].text
				i++
			}
		}
		if start > 0 {
			how |= ws[start].sep
		}
		pieces = append(pieces, d)
	}
	// A semicolon or line break after the last directive ("noindex;") separates nothing, but was
	// written as a separator all the same.
	for rest := p; rest != ""; {
		r, n := utf8.DecodeLastRuneInString(rest)
		if !isLoose(r) {
			break
		}
		how |= looseKind(r) &^ bySpace
		rest = rest[:len(rest)-n]
	}
	if how == 0 || !slices.ContainsFunc(pieces, recognised) {
		return nil, 0
	}
	return pieces, how
}

// directiveName is d's name before any colon, trimmed, lower case.
func directiveName(d string) string {
	name, _, _ := strings.Cut(d, ":")
	return strings.ToLower(strings.TrimSpace(name))
}

// recognised reports whether d is a directive robotsmith knows, or a misspelling of one.
func recognised(d string) bool {
	name := directiveName(d)
	if isKnown(name) {
		return true
	}
	_, _, err := unknown(name, false)
	return err != nil
}

// startsDirective reports whether w, a word of a date, begins the next directive instead: a known
// directive, or a name and a colon (an agent's, in X-Robots-Tag). No word of a date begins with
// a letter and holds a colon: times begin with a digit, zones with a letter or a sign and hold
// none after a letter.
func startsDirective(w string) bool {
	if isKnown(directiveName(w)) {
		return true
	}
	return strings.Contains(w, ":") && w[0] < utf8.RuneSelf && unicode.IsLetter(rune(w[0]))
}

// endsInWeekday reports whether p ends with an unavailable_after directive whose date, so far, is
// a weekday: the comma after it belongs to the date.
func endsInWeekday(p string) bool {
	// Lower case by bytes, so that lp's indexes are p's: strings.ToLower may change a length.
	lp := []byte(p)
	for j, c := range lp {
		if 'A' <= c && c <= 'Z' {
			lp[j] = c + 'a' - 'A'
		}
	}
	i := bytes.LastIndex(lp, []byte("unavailable_after"))
	if i < 0 || i > 0 && !isLoose(rune(lp[i-1])) {
		return false
	}
	rest := strings.TrimSpace(p[i+len("unavailable_after"):])
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	return isWeekday(strings.TrimSpace(rest[1:]))
}
