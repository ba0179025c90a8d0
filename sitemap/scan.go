package sitemap

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
)

// Kind is what a file is, by its root element.
type Kind uint8

const (
	NotSitemap Kind = iota // not a sitemap: no root element, or another one (an RSS feed, a text file)
	URLSet                 // a sitemap: <urlset> of <url> entries
	Index                  // a sitemap index: <sitemapindex> of <sitemap> entries
)

func (k Kind) String() string {
	switch k {
	case URLSet:
		return "urlset"
	case Index:
		return "sitemapindex"
	}
	return "not a sitemap"
}

// XHTMLSpace is the namespace of the <xhtml:link> elements that carry hreflang alternates.
const XHTMLSpace = "http://www.w3.org/1999/xhtml"

// recorder hands the decoder one byte at a time and keeps what it handed, so that each token's
// raw bytes can be copied or left out exactly. buf[0] is the byte at offset base; bytes before a
// point no longer needed are dropped with discard, which keeps buf to about one entry.
type recorder struct {
	r    *bufio.Reader
	buf  []byte
	base int64
	err  error // the reader's error other than io.EOF, which the decoder passes on
}

// maxHeld is the most the recorder holds: one entry and the token being read. A sitemap entry is a
// few kilobytes (a <loc> is at most 2,048 characters); a run of text or a comment longer than this
// would otherwise be held whole, and a 50 MB file of one such token would take several times its
// size in memory.
const maxHeld = 4 << 20

// errTooLong is the recorder's answer past maxHeld.
var errTooLong = errors.New("an entry or a piece of text longer than 4 MiB")

func (c *recorder) ReadByte() (byte, error) {
	if len(c.buf) >= maxHeld {
		c.err = errTooLong
		return 0, errTooLong
	}
	b, err := c.r.ReadByte()
	if err == nil {
		c.buf = append(c.buf, b)
	} else if err != io.EOF {
		c.err = err
	}
	return b, err
}

// Read is there for xml.NewDecoder's signature; the Decoder reads with ReadByte.
func (c *recorder) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.buf = append(c.buf, p[:n]...)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

func (c *recorder) bytes(from, to int64) []byte { return c.buf[from-c.base : to-c.base] }

// discard drops the bytes before offset to.
func (c *recorder) discard(to int64) {
	n := copy(c.buf, c.buf[to-c.base:])
	c.buf = c.buf[:n]
	c.base = to
}

// token is one XML token with where it is in the file.
type token struct {
	xml.Token
	start, end int64
	line       int // line of its first byte
}

// scanner reads tokens and keeps count of lines. A line ends at LF, CRLF or a lone CR, as XML's
// end-of-line handling reads them.
type scanner struct {
	dec    *xml.Decoder
	rec    *recorder
	line   int  // line of the next token's first byte
	col    int  // its column, in bytes, 0-based
	prevCR bool // the last byte counted was CR
	kind   Kind
	space  string // the root element's namespace: the sitemap's own elements are in it
	depth  int    // elements open
	// charsetErr is the error for a declared encoding other than UTF-8, which the decoder
	// wraps in words of its own.
	charsetErr error
}

func newScanner(r io.Reader) *scanner {
	rec := &recorder{r: bufio.NewReaderSize(r, 64<<10)}
	s := &scanner{dec: xml.NewDecoder(rec), rec: rec, line: 1}
	s.dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l == "us-ascii" || l == "ascii" {
			return in, nil // a subset of UTF-8; handing back the recorder itself keeps offsets exact
		}
		s.charsetErr = fmt.Errorf("encoding %q declared: sitemaps are UTF-8", label)
		return nil, s.charsetErr
	}
	return s
}

// next returns the next token, io.EOF at the end, or an *Error for XML that is not
// well-formed (File left empty for the caller).
func (s *scanner) next() (token, error) {
	start := s.dec.InputOffset()
	t, err := s.dec.Token()
	if err != nil {
		if err == io.EOF {
			return token{}, io.EOF
		}
		return token{}, s.error(err)
	}
	end := s.dec.InputOffset()
	tok := token{Token: t, start: start, end: end, line: s.line}
	s.count(s.rec.bytes(start, end))
	switch t := t.(type) {
	case xml.StartElement:
		if s.depth == 0 && s.kind == NotSitemap {
			switch t.Name.Local {
			case "urlset":
				s.kind = URLSet
			case "sitemapindex":
				s.kind = Index
			}
			s.space = t.Name.Space
		}
		s.depth++
	case xml.EndElement:
		s.depth--
	}
	return tok, nil
}

func (s *scanner) count(b []byte) {
	for _, c := range b {
		switch {
		case c == '\n' && s.prevCR:
			// the LF of a CRLF: the CR ended the line
		case c == '\n' || c == '\r':
			s.line++
			s.col = 0
		default:
			s.col++
		}
		s.prevCR = c == '\r'
	}
}

// error turns a decoder error into an *Error at the start of the token the decoder
// was reading: the tag, comment or text that is wrong or unclosed. The reader's own errors are
// returned as they are.
func (s *scanner) error(err error) error {
	if errors.Is(s.rec.err, errTooLong) {
		return &Error{Line: s.line, Col: s.col + 1, Code: problem.SitemapTokenTooLong, Err: fmt.Errorf("sitemap: %w", errTooLong)}
	}
	if s.rec.err != nil && errors.Is(err, s.rec.err) {
		return err
	}
	msg, code := err.Error(), problem.SitemapNotWellFormed
	if syn, ok := err.(*xml.SyntaxError); ok {
		msg = syn.Msg
	}
	if s.charsetErr != nil {
		msg, code = s.charsetErr.Error(), problem.SitemapNotUTF8
	}
	return &Error{Line: s.line, Col: s.col + 1, Code: code, Err: fmt.Errorf("sitemap: %s", msg)}
}

// own reports whether name is one of the sitemap's own elements, in the root's namespace.
func (s *scanner) own(name xml.Name, local string) bool {
	return name.Local == local && name.Space == s.space
}

// isEntry reports whether t starts an entry: a <url> of a urlset or a <sitemap> of an index,
// directly in the root.
func (s *scanner) isEntry(t token) bool {
	st, ok := t.Token.(xml.StartElement)
	if !ok || s.depth != 2 {
		return false
	}
	return s.kind == URLSet && s.own(st.Name, "url") || s.kind == Index && s.own(st.Name, "sitemap")
}

// link is an <xhtml:link rel="alternate"> of an entry.
type link struct {
	Alternate
	start, end int64
}

// entry reads the rest of the entry that first starts, filling e, and returns the offset just
// past its end tag. Only the first <loc> counts; links are only read in a urlset.
func (s *scanner) entry(first token, e *Entry, links *[]link) (int64, error) {
	var loc strings.Builder
	inLoc, haveLoc := false, false
	open := -1 // index in links of the link whose end tag is next at depth 2
	for {
		t, err := s.next()
		if err == io.EOF {
			err = s.error(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return 0, err
		}
		switch tok := t.Token.(type) {
		case xml.StartElement:
			if s.depth != 3 {
				continue
			}
			switch {
			case !haveLoc && s.own(tok.Name, "loc"):
				inLoc, haveLoc = true, true
				e.Line = t.line
			case s.kind == URLSet && tok.Name.Local == "link" && (tok.Name.Space == XHTMLSpace || tok.Name.Space == "xhtml"):
				a, ok := alternateOf(tok)
				if ok {
					a.Line = t.line
					*links = append(*links, link{Alternate: a, start: t.start})
					open = len(*links) - 1
				}
			}
		case xml.CharData:
			if inLoc {
				loc.Write(tok)
			}
		case xml.EndElement:
			switch s.depth {
			case 1:
				e.Loc = strings.Trim(loc.String(), " \t\r\n")
				return t.end, nil
			case 2:
				inLoc = false
				if open >= 0 {
					(*links)[open].end = t.end
					open = -1
				}
			}
		}
	}
}

// alternateOf reads an <xhtml:link>: an alternate when rel is "alternate" (ignoring case) and
// it has an href.
func alternateOf(st xml.StartElement) (Alternate, bool) {
	var a Alternate
	var rel, href bool
	for _, at := range st.Attr {
		if at.Name.Space != "" {
			continue
		}
		switch at.Name.Local {
		case "rel":
			rel = strings.EqualFold(strings.TrimSpace(at.Value), "alternate")
		case "hreflang":
			a.Hreflang = at.Value
		case "href":
			a.Href, href = strings.TrimSpace(at.Value), true
		}
	}
	return a, rel && href
}
