package robotstxt

// MaxBytes is how much of a robots.txt Google reads (500 KiB); Parse ignores the rest, as Google
// does, and says so in File.Truncated.
const MaxBytes = 500 << 10

// File is a parsed robots.txt: every line that says something, in file order, with its number.
// Groups are kept as written; Crawler merges the groups of one crawler.
type File struct {
	Groups    []Group
	Sitemaps  []Line   // Sitemap lines, wherever they are (they belong to no group)
	Other     []Record // lines with keys Google does not read, in file order
	Stray     []Line   // Allow and Disallow lines before the first User-agent line: no crawler obeys them
	Invalid   []Line   // lines Google cannot read as key and value, and skips
	Comments  []Line   // lines that are only a comment
	NumLines  int      // as Lines counts them
	Truncated bool     // the body was longer than MaxBytes; what follows was not read
}

// Group is one group as written: one or more User-agent lines and the rules that follow them,
// up to the next User-agent line after a rule. Blank lines, comments, Sitemap and other lines do
// not end a group (Google's reading, which RFC 9309 allows).
type Group struct {
	Agents []Agent
	Rules  []Rule
}

// Agent is a User-agent line.
type Agent struct {
	Line
	// Token is the product token Google matches crawlers with: the leading run of ASCII letters,
	// '-' and '_' in Value ("Googlebot" for "Googlebot/2.1", "Foo" for "Foo Bar"). It is "" for
	// the global agent, and for a value that starts with any other character.
	Token string
	// Global is true for "*", and for "*" followed by white space and anything else.
	Global bool
}

// Rule is an Allow or Disallow line of a group.
type Rule struct {
	Line
	Group int // index in File.Groups
	// Pattern is Value as Google matches it: octets outside US-ASCII percent-encoded and the hex
	// digits of existing %XX escapes upper-cased. Its length is the rule's priority.
	Pattern string
	// dir is, for an Allow whose last segment starts with "index.htm", the pattern Google also
	// allows: the folder itself ("/a/index.html" allows "/a/$").
	dir string
}

// Allow reports whether r is an Allow line.
func (r *Rule) Allow() bool { return r.Kind == Allow }

// Record is a line whose key Google does not read (Crawl-delay, Content-Signal, Content-Usage, …;
// RFC 9309 section 2.2.4 calls them other records). It is kept so that other readers can; Group
// is the group it falls in, or -1 before the first.
type Record struct {
	Line
	Group int
}

// Parse reads a robots.txt body. It never fails: like Google, it skips what it cannot read, and
// records it in File.Invalid.
func Parse(body []byte) *File {
	f := &File{}
	if len(body) > MaxBytes {
		body, f.Truncated = body[:MaxBytes], true
	}
	// ruled is true once the current group has an Allow or Disallow line: the next User-agent line
	// then starts a new group.
	ruled := false
	for l := range Lines(body) {
		f.NumLines = l.Num
		g := len(f.Groups) - 1
		switch l.Kind {
		case UserAgent:
			if g < 0 || ruled {
				f.Groups = append(f.Groups, Group{})
				g, ruled = g+1, false
			}
			f.Groups[g].Agents = append(f.Groups[g].Agents, agentOf(l))
		case Allow, Disallow:
			if g < 0 {
				f.Stray = append(f.Stray, l)
				continue
			}
			ruled = true
			f.Groups[g].Rules = append(f.Groups[g].Rules, ruleOf(l, g))
		case Sitemap:
			f.Sitemaps = append(f.Sitemaps, l)
		case Other:
			f.Other = append(f.Other, Record{Line: l, Group: g})
		case Invalid:
			f.Invalid = append(f.Invalid, l)
		case Comment:
			f.Comments = append(f.Comments, l)
		}
	}
	return f
}

func agentOf(l Line) Agent {
	v := l.Value
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || isASCIISpace(v[1])) {
		return Agent{Line: l, Global: true}
	}
	return Agent{Line: l, Token: ProductToken(v)}
}

// tokenLen is the length of the product token at the start of s: ASCII letters, '-' and '_'
// (RFC 9309 section 2.2.1; Google reads no further, so "Foobot/2.1" and "Foo Bar" name
// "Foobot" and "Foo").
func tokenLen(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		i++
	}
	return i
}

// ProductToken is the product token Google's matcher reads in a User-agent value or a crawler's
// name: its leading run of ASCII letters, '-' and '_' ("Googlebot" for "Googlebot/2.1", "AI" for
// "AI2Bot", "archive" for "archive.org_bot"); "" when it starts with any other character. Tokens
// are compared ignoring ASCII case, so two names with the same ProductToken are one crawler to it.
func ProductToken(s string) string { return s[:tokenLen(s)] }

// ValidAgent reports whether name is a product token a crawler can be asked about: not empty, and
// only ASCII letters, '-' and '_' ("Googlebot", not "Googlebot/2.1"). A name with other characters
// never matches a group, as with Google's matcher.
func ValidAgent(name string) bool { return name != "" && tokenLen(name) == len(name) }

func ruleOf(l Line, g int) Rule {
	r := Rule{Line: l, Group: g, Pattern: Escape(l.Value)}
	if l.Kind == Allow {
		if i := lastSlash(r.Pattern); i >= 0 && hasPrefix(r.Pattern[i:], "/index.htm") {
			r.dir = r.Pattern[:i+1] + "$"
		}
	}
	return r
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
