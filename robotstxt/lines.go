package robotstxt

import (
	"bytes"
	"iter"
	"strconv"
)

// Kind is what a line of robots.txt is, by its key.
type Kind uint8

const (
	Blank     Kind = iota // nothing but white space
	Comment               // nothing but a comment
	UserAgent             // user-agent, and the misspellings Google accepts
	Allow                 // allow
	Disallow              // disallow, and the misspellings Google accepts
	Sitemap               // sitemap, and site-map
	Other                 // a key Google does not read: Crawl-delay, Content-Signal, Content-Usage, …
	Invalid               // text Google cannot split into a key and a value, and so skips
)

var kindNames = [...]string{"blank", "comment", "user-agent", "allow", "disallow", "sitemap", "other", "invalid"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// MaxLineBytes is how much of a line Google reads (8 times the 2083 bytes of the longest URL
// browsers take, less one); the rest of a longer line is ignored.
const MaxLineBytes = 2083*8 - 1

// Line is one line of robots.txt, as Google reads it.
type Line struct {
	Num     int    // 1-based; CR, LF and CRLF each end a line
	Kind    Kind   // what the key says
	Key     string // the key as written, white space trimmed; "" for Blank, Comment and Invalid
	Value   string // as written, trimmed, without the comment and not percent-encoded; for Invalid, the line's text
	Comment string // the text after the first '#', if there is one
	Typo    bool   // the key is a misspelling Google accepts ("useragent", "disalow", "site-map", …)
	NoColon bool   // white space stands for the missing colon ("Disallow /x"), which Google accepts
	TooLong bool   // the line is longer than MaxLineBytes; Value is cut where Google cuts it
}

// utf8BOM is skipped at the start of the file, whole or in part, as Google does.
var utf8BOM = [3]byte{0xEF, 0xBB, 0xBF}

// Lines yields every line of a robots.txt body in order, blank ones included, with the numbers
// Google gives them: a final line is yielded even when it is empty (so "a\n" has two lines). It
// splits lines as Google's parser does: the leading bytes of a UTF-8 byte order mark are skipped,
// CR, LF and CRLF each end a line, only the first MaxLineBytes bytes of a line are read, and a
// line ends at a NUL byte (Google's parser handles lines as C strings).
func Lines(body []byte) iter.Seq[Line] {
	return func(yield func(Line) bool) {
		i := 0
		for i < len(body) && i < len(utf8BOM) && body[i] == utf8BOM[i] {
			i++
		}
		num := 0
		for {
			start := i
			for i < len(body) && body[i] != '\n' && body[i] != '\r' {
				i++
			}
			text, tooLong := body[start:i], false
			if len(text) > MaxLineBytes {
				text, tooLong = text[:MaxLineBytes], true
			}
			num++
			if !yield(lineOf(num, text, tooLong)) {
				return
			}
			if i == len(body) {
				return
			}
			// A CR followed by LF ends one line, not two.
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			i++
		}
	}
}

// lineOf splits one line into key and value as Google's parser does.
func lineOf(num int, text []byte, tooLong bool) Line {
	l := Line{Num: num, TooLong: tooLong}
	if n := bytes.IndexByte(text, 0); n >= 0 {
		text = text[:n]
	}
	hasComment := false
	if n := bytes.IndexByte(text, '#'); n >= 0 {
		l.Comment, text, hasComment = string(text[n+1:]), text[:n], true
	}
	text = trimASCII(text)
	if len(text) == 0 {
		if hasComment {
			l.Kind = Comment
		}
		return l
	}
	sep := bytes.IndexByte(text, ':')
	if sep < 0 {
		// Google accepts white space for a missing colon, but only between exactly two words.
		sep = bytes.IndexAny(text, " \t")
		if sep < 0 || bytes.ContainsAny(bytes.TrimLeft(text[sep:], " \t"), " \t") {
			l.Kind, l.Value = Invalid, string(text)
			return l
		}
		l.NoColon = true
	}
	key := trimASCII(text[:sep])
	if len(key) == 0 {
		l.Kind, l.Value, l.NoColon = Invalid, string(text), false
		return l
	}
	l.Key, l.Value = string(key), string(trimASCII(text[sep+1:]))
	l.Kind, l.Typo = kindOf(key)
	return l
}

// kindOf classifies a key by its prefix, case-insensitively, as Google does: "Disallowed" is a
// disallow line and "User-agents" a user-agent line. Allow has no accepted misspellings.
func kindOf(key []byte) (k Kind, typo bool) {
	switch {
	case hasPrefixFold(key, "user-agent"):
		return UserAgent, false
	case hasPrefixFold(key, "useragent"), hasPrefixFold(key, "user agent"):
		return UserAgent, true
	case hasPrefixFold(key, "allow"):
		return Allow, false
	case hasPrefixFold(key, "disallow"):
		return Disallow, false
	case hasPrefixFold(key, "dissallow"), hasPrefixFold(key, "dissalow"), hasPrefixFold(key, "disalow"),
		hasPrefixFold(key, "diasllow"), hasPrefixFold(key, "disallaw"):
		return Disallow, true
	case hasPrefixFold(key, "sitemap"):
		return Sitemap, false
	case hasPrefixFold(key, "site-map"):
		return Sitemap, true
	}
	return Other, false
}

// hasPrefixFold reports whether b starts with the lower-case ASCII prefix, ignoring ASCII case.
func hasPrefixFold(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// isASCIISpace is C's isspace in the "C" locale, which Google's parser trims with. It is narrower
// than unicode.IsSpace: a no-break space (U+00A0) is part of a value, not white space around it.
func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimASCII(b []byte) []byte {
	for len(b) > 0 && isASCIISpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isASCIISpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
