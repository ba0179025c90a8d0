package robotstxt

import (
	"slices"
	"strings"
)

// Crawler is what one crawler obeys in a File: the groups that name it, merged into one, or, when
// none names it, the groups of "*" merged into one. A group naming the crawler hides every "*"
// group, even when its rules say nothing about a path (RFC 9309 section 2.2.1).
type Crawler struct {
	Agents   []string // the product tokens asked for
	Specific bool     // some group names the crawler
	Groups   []int    // indexes in File.Groups of the groups it obeys, in file order
	file     *File
}

// Crawler returns the groups that the crawler known by the product tokens agents obeys (usually
// one, such as "GPTBot"; Google's crawlers that fall back to another's group pass both, such as
// "Googlebot-Image", "Googlebot"). Tokens are compared ignoring ASCII case.
func (f *File) Crawler(agents ...string) Crawler {
	c := Crawler{Agents: agents, file: f}
	var global []int
	for i, g := range f.Groups {
		named, star := false, false
		for _, a := range g.Agents {
			if a.Global {
				star = true
				continue
			}
			for _, name := range agents {
				if strings.EqualFold(a.Token, name) {
					named = true
				}
			}
		}
		switch {
		case named:
			c.Groups = append(c.Groups, i)
		case star:
			global = append(global, i)
		}
	}
	c.Specific = len(c.Groups) > 0
	if !c.Specific {
		c.Groups = global
	}
	return c
}

// Decision is the answer for one path.
type Decision struct {
	Allowed bool
	// Rule is the line that decided, nil when no rule matched (allowed). A rule with an empty
	// value matches every path but decides nothing: it is the Rule only when nothing longer
	// matched, and the path is then allowed ("Disallow:" allows everything).
	Rule *Rule
}

// Decide answers whether the crawler may fetch path, as Google's matcher does: of the rules of
// its groups that match, the longest pattern wins; on a tie Allow wins; among equal rules of one
// kind the first in the file is named. path is the URL's path and query, starting with "/" and
// percent-encoded as the crawler requests it (see PathOf and Escape); it is compared byte for
// byte, so case matters. robots.txt itself is always allowed, whatever the rules say (Implicit).
func (c Crawler) Decide(path string) Decision {
	if Implicit(path) {
		return Decision{Allowed: true}
	}
	var allow, disallow *Rule
	allowLen, disallowLen := -1, -1
	for _, gi := range c.Groups {
		rules := c.file.Groups[gi].Rules
		for i := range rules {
			r := &rules[i]
			n := -1
			switch {
			case Match(path, r.Pattern):
				n = len(r.Pattern)
			case r.dir != "" && Match(path, r.dir):
				n = len(r.dir)
			}
			if r.Kind == Allow && n > allowLen {
				allow, allowLen = r, n
			} else if r.Kind == Disallow && n > disallowLen {
				disallow, disallowLen = r, n
			}
		}
	}
	if disallowLen > allowLen {
		return Decision{Allowed: disallowLen <= 0, Rule: disallow}
	}
	return Decision{Allowed: true, Rule: allow}
}

// Implicit reports whether path is the one a crawler may always fetch, whatever the rules say:
// "/robots.txt" itself (RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed"). A
// query makes it another URI, and robots.txt below a folder is no robots.txt: the rules decide
// those.
func Implicit(path string) bool { return path == "/robots.txt" }

// Overruled returns the rule that decides the shortest path r matches (its pattern without '*'
// and the final '$') for this crawler, when that rule says the opposite of r: a Disallow that an
// Allow of another group for the same crawler cancels (the groups are merged, and Allow wins a
// tie), or an Allow that a longer Disallow overrides. It returns nil when r has its way there,
// when r's value is empty, and when the crawler does not obey r's group.
func (c Crawler) Overruled(r *Rule) *Rule {
	if r.Pattern == "" || !slices.Contains(c.Groups, r.Group) {
		return nil
	}
	path := strings.TrimSuffix(strings.ReplaceAll(r.Pattern, "*", ""), "$")
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if !Match(path, r.Pattern) {
		return nil // a pattern that matches no path starting with "/"
	}
	d := c.Decide(path)
	if d.Rule == nil || d.Allowed == r.Allow() {
		return nil
	}
	return d.Rule
}

// Decide is f.Crawler(agent).Decide(path).
func (f *File) Decide(agent, path string) Decision { return f.Crawler(agent).Decide(path) }

// Match reports whether a robots.txt pattern matches path, as RFC 9309 section 2.2.3 and Google
// say: the pattern matches from the start of the path, '*' stands for any run of bytes, and a
// '$' at the very end anchors it to the end of the path ('$' elsewhere is an ordinary byte).
// An empty pattern matches every path.
//
// Time is at most proportional to len(path)*len(pattern) and no memory is allocated: after a
// mismatch only the last '*' is tried again one byte further on, which suffices because an
// earlier '*' could only take bytes the last one can take as well.
func Match(path, pattern string) bool {
	anchored := false
	if n := len(pattern); n > 0 && pattern[n-1] == '$' {
		pattern, anchored = pattern[:n-1], true
	}
	p, s := 0, 0
	star, starS := -1, 0
	for {
		if p == len(pattern) {
			if !anchored || s == len(path) {
				return true
			}
		} else if pattern[p] == '*' {
			star, starS = p, s
			p++
			continue
		} else if s < len(path) && pattern[p] == path[s] {
			p++
			s++
			continue
		}
		if star < 0 || starS == len(path) {
			return false
		}
		starS++
		p, s = star+1, starS
	}
}

const upperHex = "0123456789ABCDEF"

// Escape returns s as Google compares it: each octet outside US-ASCII percent-encoded, and the
// hex digits of each %XX escape upper-cased ("/SanJoséSellers" is "/SanJos%C3%A9Sellers", "%aa"
// is "%AA"). Allow and Disallow values go through it; so should a site's paths, which a crawler
// requests percent-encoded. Nothing else is decoded or encoded: "%62%61%7A" stays as it is and
// does not match "baz".
func Escape(s string) string { return escape(s, false) }

// EscapePattern returns the value to write in an Allow or Disallow line for the pattern p as a
// config writes it (a URL path as served, "*" and a final "$" as wildcards, %XX escapes kept): in
// the form Escape gives, so that the line means what it says when Parse reads it back, and with
// the octets a line cannot hold as they are percent-encoded as well: space and other controls
// (a crawler requests "/a b/" as "/a%20b/", and a raw space would never match), '#' (which would
// start a comment) and a '%' that starts no escape ("/100%" is requested as "/100%25").
// Escape(EscapePattern(p)) is EscapePattern(p).
func EscapePattern(p string) string { return escape(p, true) }

// escape is Escape, and with line EscapePattern. s is copied only when something changes.
func escape(s string, line bool) string {
	var b strings.Builder
	from := 0 // s[from:] is not copied into b yet
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc [3]byte
		n := 1 // octets of s that esc replaces
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if !isLowerHex(s[i+1]) && !isLowerHex(s[i+2]) {
				i += 2 // an escape as Google compares it: kept
				continue
			}
			esc, n = [3]byte{'%', upper(s[i+1]), upper(s[i+2])}, 3
		case c >= 0x80, line && (c == '%' || c == '#' || c <= ' ' || c == 0x7f):
			esc = [3]byte{'%', upperHex[c>>4], upperHex[c&0xF]}
		default:
			continue
		}
		if from == 0 {
			b.Grow(len(s) + 8)
		}
		b.WriteString(s[from:i])
		b.Write(esc[:])
		i += n - 1
		from = i + 1
	}
	if from == 0 {
		return s
	}
	b.WriteString(s[from:])
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// PathOf returns the part of url a crawler matches against robots.txt: the path, parameters and
// query, without scheme, host and fragment, always starting with "/" ("http://a.b/x?y#z" gives
// "/x?y"; a URL without a path gives "/"). It does not escape: see Escape.
func PathOf(url string) string {
	from := 0
	if strings.HasPrefix(url, "//") {
		from = 2
	}
	// A "://" counts as the end of the scheme only when no path, parameter or query starts before it.
	early := indexAnyFrom(url, "/?;", from)
	proto := indexFrom(url, "://", from)
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = from
	} else {
		proto += 3
	}
	start := indexAnyFrom(url, "/?;", proto)
	if start < 0 {
		return "/"
	}
	end := len(url)
	if hash := indexFrom(url, "#", from); hash >= 0 {
		if hash < start {
			return "/"
		}
		end = hash
	}
	if url[start] != '/' {
		return "/" + url[start:end]
	}
	return url[start:end]
}

func indexFrom(s, sub string, from int) int {
	i := strings.Index(s[from:], sub)
	if i < 0 {
		return -1
	}
	return from + i
}

func indexAnyFrom(s, chars string, from int) int {
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return from + i
}
