package rewrite

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// span is a byte range [start, end) of the input.
type span struct{ start, end int }

// hit is one robots-family tag the scan found.
type hit struct {
	name, content string
	span
	head        bool // directly in the head: not in <noscript>, not in the body
	selfClosing bool // written as <meta ... />
	// breakout says the tag ended <svg> or <math> content (a <meta> there is HTML again, and so
	// is what follows it): taken away, it would leave what follows foreign, read otherwise.
	breakout bool
}

// scanResult is everything one pass over a page learns. Offsets index src.
type scanResult struct {
	html, redirect bool
	tags           []hit     // robots tags outside robotsmith blocks, document order
	kept           []kept    // what complete blocks record of the page's own tags
	blocks         []span    // complete robotsmith blocks
	blockHead      []bool    // blocks[i] starts directly in the head
	orphans        []span    // marker comments without a partner
	charsetEnd     int       // end of the first <meta charset> in the head, or -1
	headStart      int       // where the head's content starts (or is implied)
	voidStyle      int       // head's non-robots void tags: 1 " />", -1 ">", 0 none seen
	blockStyle     int       // style of the tags inside an old block, likewise
	links          []linkHit // the head's canonical and hreflang links, document order
	base           string    // href of the head's first <base href>, "" for none
	haveBase       bool
}

// linkHit is a <link rel="canonical"> or <link rel="alternate" hreflang> of the head.
type linkHit struct {
	rel, hreflang, href string
	start               int
}

const (
	phaseBefore = iota // before the head: doctype, <html>, comments, blanks
	phaseHead          // in the head
	phaseAfter         // after the head
)

// rawTextTags are the elements whose content the x/net/html tokenizer
// returns as one text token.
var rawTextTags = map[string]bool{
	"iframe": true, "noembed": true, "noframes": true, "plaintext": true,
	"script": true, "style": true, "textarea": true, "title": true, "xmp": true,
}

// voidTags whose written form shows the page's tag style.
var voidTags = map[string]bool{"meta": true, "link": true, "base": true}

const (
	markOpen  = "robotsmith"
	markClose = "/robotsmith"
)

// tokenizer is a tokenizer that a caller keeps from page to page (Processor).
// x/net/html's Tokenizer cannot be reset, and a new one allocates a 4 KiB
// buffer: at 100,000 pages that was 550 MB, a quarter of all a run allocated,
// and the collector's work grows with what is allocated. So a Tokenizer just
// as NewTokenizer returns it is kept, never read from, and each page is read
// with a copy of it: the copy is in the state of a new tokenizer, reading the
// same reader (reset to the page) into the same buffer, which nothing of the
// previous page holds (the scan keeps offsets into src, and copies of the
// values it keeps, never the tokenizer's bytes).
type tokenizer struct {
	rd    bytes.Reader
	fresh *html.Tokenizer
	z     html.Tokenizer
}

// reset returns a tokenizer of src: t's, or a new one when t is nil.
func (t *tokenizer) reset(src []byte) *html.Tokenizer {
	if t == nil {
		return html.NewTokenizer(bytes.NewReader(src))
	}
	t.rd.Reset(src)
	if t.fresh == nil {
		t.fresh = html.NewTokenizer(&t.rd)
	}
	t.z = *t.fresh
	return &t.z
}

// scanner holds the state of one pass. It is created per call: the package
// has no mutable state.
type scanner struct {
	src    []byte
	isName func(string) bool
	res    scanResult

	phase     int
	template  int      // depth of <template>: content is inert
	noscript  int      // depth of <noscript>: tokenized as markup
	foreign   []string // open elements inside <svg> or <math>, innermost last (see foreignTag)
	open      span
	isOpen    bool
	openHead  bool
	pending   []hit  // tags seen while a block is open
	keeping   []kept // kept-tag records seen while a block is open
	keptHit   bool   // the current token is a kept-tag record
	rawText   bool   // the next text token is a raw-text element's content
	robotsHit bool   // the current token is a robots tag
}

// scan tokenizes src. isName reports whether a lower-cased, trimmed meta name
// is robots-family. tz is the caller's tokenizer kept from page to page; nil
// for a new one.
func scan(src []byte, isName func(string) bool, tz *tokenizer) scanResult {
	s := &scanner{src: src, isName: isName}
	s.res.charsetEnd = -1
	s.res.headStart = -1
	z := tz.reset(src)
	off := 0
	cut := -1  // start of the last token if EOF cut it short (<!-- x, <!DOCTYPE x)
	last := -1 // in the body: stop after the token that covers this offset
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		start := off
		off += len(z.Raw())
		cut = -1
		if (tt == html.CommentToken || tt == html.DoctypeToken) && !closed(src[start:off]) {
			cut = start
		}
		wasHead := s.phase != phaseAfter
		s.token(z, tt, span{start, off})
		if wasHead && s.phase == phaseAfter {
			if !s.res.html {
				return scanResult{}
			}
			last = lastCandidate(src[off:], s.isName)
			if last < 0 {
				break
			}
			last += off
		}
		if s.phase == phaseAfter && off > last {
			break
		}
	}
	if s.phase != phaseAfter {
		if !s.res.html {
			return scanResult{}
		}
		// Nothing may be inserted after a token that EOF cut short, nor
		// after trailing bytes that made no token (an unfinished tag).
		if cut >= 0 {
			off = cut
		}
		s.endHead(off)
	}
	s.finish()
	return s.res
}

// endHead records that the head ends at off.
func (s *scanner) endHead(off int) {
	s.phase = phaseAfter
	if s.res.headStart < 0 {
		s.res.headStart = off
	}
}

// beginHead records the first token of the head's content.
func (s *scanner) beginHead(off int) {
	if s.res.headStart < 0 {
		s.res.headStart = off
	}
}

func (s *scanner) token(z *html.Tokenizer, tt html.TokenType, sp span) {
	rawText := s.rawText
	s.rawText = false
	if s.isOpen {
		// A robotsmith block holds only what Rewrite writes: blank text and
		// robots tags. Anything else means the markers are not a block of
		// ours, and the bytes between them are the page's.
		defer func(open span) {
			if s.isOpen && s.open == open && !s.blockish(tt, z) {
				s.orphan()
			}
		}(s.open)
	}
	s.robotsHit, s.keptHit = false, false
	if s.template > 0 {
		// Inert content: only track nesting.
		if tt == html.StartTagToken || tt == html.EndTagToken {
			var buf nameBuf
			if string(tagName(z, tt, &buf)) == "template" {
				if tt == html.StartTagToken {
					s.template++
				} else {
					s.template--
				}
			}
		}
		return
	}
	switch tt {
	case html.DoctypeToken:
		if s.phase != phaseAfter && s.noscript == 0 {
			s.res.html = true
		}
	case html.CommentToken:
		s.comment(z, sp)
	case html.TextToken:
		if rawText || s.noscript > 0 || s.phase == phaseAfter || blank(z.Raw()) {
			return
		}
		// Text implies the body.
		if s.phase == phaseHead {
			s.beginHead(sp.start)
		}
		s.endHead(sp.start)
	case html.StartTagToken, html.SelfClosingTagToken:
		s.startTag(z, tt, sp)
	case html.EndTagToken:
		var buf nameBuf
		name := tagName(z, tt, &buf)
		if len(s.foreign) > 0 {
			// Close the innermost open element of that name, if any.
			for i := len(s.foreign) - 1; i >= 0; i-- {
				if s.foreign[i] == string(name) {
					s.foreign = s.foreign[:i]
					break
				}
			}
		}
		if string(name) == "noscript" && s.noscript > 0 {
			s.noscript--
			return
		}
		if s.noscript > 0 || s.phase == phaseAfter {
			return
		}
		switch string(name) {
		case "head", "body", "html", "br":
			s.beginHead(sp.start)
			s.endHead(sp.start)
		}
	}
}

func (s *scanner) comment(z *html.Tokenizer, sp span) {
	raw := z.Raw()
	if !bytes.HasPrefix(raw, []byte("<!--")) || !closed(raw) || !bytes.Contains(raw, []byte(markOpen)) {
		return // a bogus comment (<!x>, <?x>) is never one of our markers
	}
	// The text as written: z.Text unescapes a comment's character references, which would undo
	// the escaping that keeps a record's content inside its quotes (and turn an entity-spelt
	// "robotsm&#105;th" into a marker).
	text := bytes.TrimSpace(commentText(raw))
	if s.isOpen && bytes.HasPrefix(text, []byte(keptPrefix)) {
		// Only a record is made a string: its name and content are kept.
		if k, ok := parseKept(string(text)); ok {
			k.span = sp
			s.keeping = append(s.keeping, k)
			s.keptHit = true
			return
		}
	}
	switch string(text) {
	case markOpen:
		if s.isOpen {
			s.orphan()
		}
		s.isOpen, s.open = true, sp
		s.openHead = s.phase != phaseAfter && s.noscript == 0
	case markClose:
		if !s.isOpen {
			s.res.orphans = append(s.res.orphans, sp)
			return
		}
		s.res.blocks = append(s.res.blocks, span{s.open.start, sp.end})
		s.res.blockHead = append(s.res.blockHead, s.openHead)
		for _, h := range s.pending {
			if s.res.blockStyle == 0 {
				s.res.blockStyle = style(h.selfClosing)
			}
		}
		s.res.kept = append(s.res.kept, s.keeping...)
		s.isOpen, s.pending, s.keeping = false, nil, nil
	}
}

// blockish reports whether the current token may stand inside a block.
func (s *scanner) blockish(tt html.TokenType, z *html.Tokenizer) bool {
	switch tt {
	case html.TextToken:
		return blank(z.Raw())
	case html.StartTagToken, html.SelfClosingTagToken:
		return s.robotsHit
	case html.CommentToken:
		return s.keptHit
	}
	return false
}

// orphan turns the open marker into an unpaired one: the tags after it are
// the page's own after all.
func (s *scanner) orphan() {
	s.res.orphans = append(s.res.orphans, s.open)
	s.res.tags = append(s.res.tags, s.pending...)
	// Kept-tag records between markers that are not a block are the page's own comments.
	s.isOpen, s.pending, s.keeping = false, nil, nil
}

func (s *scanner) finish() {
	if s.isOpen {
		s.orphan()
	}
	slices.SortFunc(s.res.tags, func(a, b hit) int { return cmp.Compare(a.start, b.start) })
	slices.SortFunc(s.res.orphans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
}

func style(selfClosing bool) int {
	if selfClosing {
		return 1
	}
	return -1
}

func (s *scanner) startTag(z *html.Tokenizer, tt html.TokenType, sp span) {
	var buf nameBuf
	name := tagName(z, tt, &buf)
	breakout := len(s.foreign) > 0 && !s.inIntegrationPoint() && breakoutTags[string(name)]
	if s.foreignTag(z, tt, name) {
		return
	}
	if string(name) == "meta" {
		s.meta(z, tt, sp, breakout)
		return
	}
	// The tokenizer reads these elements' content as text (SPEC raw text and
	// RCDATA elements); <noscript> is made an exception below.
	s.rawText = rawTextTags[string(name)]
	outer := s.noscript == 0 && s.phase != phaseAfter // directly in the prologue or head
	switch string(name) {
	case "template":
		if tt == html.StartTagToken {
			s.template++
		}
	case "noscript":
		if tt == html.StartTagToken {
			// With scripting off, as a crawler's first pass parses it, the
			// content is markup, not text.
			z.NextIsNotRawText()
			s.noscript++
		}
	}
	if s.phase != phaseAfter {
		// In the head, <noscript> included (a crawler's first pass parses it with scripting off).
		switch string(name) {
		case "link":
			s.link(z, sp)
		case "base":
			s.baseTag(z)
		}
	}
	if !outer {
		return
	}
	switch string(name) {
	case "html":
		s.res.html = true
	case "head":
		s.res.html = true
		s.phase = phaseHead
	case "body":
		s.res.html = true
		s.beginHead(sp.start)
		s.endHead(sp.start)
	case "base", "basefont", "bgsound", "link", "meta", "title", "noscript", "noframes", "style", "script", "template":
		// The start tags that HTML keeps in the head (WHATWG "in head" insertion mode); any
		// other start tag implies the body.
		s.phase = phaseHead
		s.beginHead(sp.start)
		if voidTags[string(name)] && s.res.voidStyle == 0 && !s.isOpen {
			s.res.voidStyle = style(tt == html.SelfClosingTagToken)
		}
	default:
		s.beginHead(sp.start)
		s.endHead(sp.start)
	}
}

func (s *scanner) meta(z *html.Tokenizer, tt html.TokenType, sp span, breakout bool) {
	inHead := s.phase != phaseAfter
	if inHead && s.noscript == 0 {
		s.phase = phaseHead
		s.beginHead(sp.start)
	}
	// Values stay bytes until the tag is known to be a robots tag.
	var name, content, equiv []byte
	var haveName, haveContent, haveEquiv, charset bool
	// TagAttr copies every attribute it returns, name and value. A tag whose text holds none of the
	// attribute names read here, in any case, has none of those attributes (the tokenizer
	// lower-cases names and never unescapes them), so its attributes are not read: most of a
	// theme's metas are Open Graph properties.
	raw := z.Raw()
	read := containsFold(raw, "name") || containsFold(raw, "equiv") || containsFold(raw, "charset")
	for more := read; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		// The first occurrence of an attribute wins, as in the HTML parser.
		switch string(k) {
		case "name":
			if !haveName {
				name, haveName = bytes.TrimSpace(v), true
			}
		case "content":
			if !haveContent {
				content, haveContent = v, true
			}
		case "http-equiv":
			if !haveEquiv {
				equiv, haveEquiv = bytes.TrimSpace(v), true
			}
		case "charset":
			charset = true
		}
	}
	selfClosing := tt == html.SelfClosingTagToken
	var buf [64]byte
	if haveName {
		if n := string(lower(buf[:0], name)); s.isName(n) {
			s.robotsHit = true
			h := hit{name: n, content: string(content), span: sp, head: inHead && s.noscript == 0, selfClosing: selfClosing, breakout: breakout}
			if s.isOpen {
				s.pending = append(s.pending, h)
			} else {
				s.res.tags = append(s.res.tags, h)
			}
			return
		}
	}
	if !inHead || s.noscript > 0 {
		return
	}
	if s.res.voidStyle == 0 && !s.isOpen {
		s.res.voidStyle = style(selfClosing)
	}
	equiv = lower(buf[:0], equiv)
	if string(equiv) == "refresh" {
		s.res.redirect = true
	}
	if s.res.charsetEnd < 0 && (charset || string(equiv) == "content-type" && bytes.Contains(bytes.ToLower(content), []byte("charset"))) {
		s.res.charsetEnd = sp.end
	}
}

// link records a <link> of the head when it is a canonical or an hreflang alternate: rel is a
// list of keywords, any case ("canonical", "alternate"), and an alternate counts only with an
// hreflang. Its values stay bytes until the link is known to be one of those.
func (s *scanner) link(z *html.Tokenizer, sp span) {
	var rel, href, lang []byte
	var haveRel, haveHref, haveLang bool
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		// The first occurrence of an attribute wins, as in the HTML parser.
		switch string(k) {
		case "rel":
			if !haveRel {
				rel, haveRel = v, true
			}
		case "href":
			if !haveHref {
				href, haveHref = v, true
			}
		case "hreflang":
			if !haveLang {
				lang, haveLang = v, true
			}
		}
	}
	if !haveHref {
		return
	}
	canonical, alternate := false, false
	for kw := range bytes.FieldsSeq(rel) { // as bytes.Fields splits, with no slice made
		canonical = canonical || bytes.EqualFold(kw, []byte("canonical"))
		alternate = alternate || bytes.EqualFold(kw, []byte("alternate"))
	}
	switch {
	case canonical:
		s.res.links = append(s.res.links, linkHit{rel: "canonical", href: string(href), start: sp.start})
	case alternate && haveLang && len(bytes.TrimSpace(lang)) > 0:
		s.res.links = append(s.res.links, linkHit{rel: "alternate", hreflang: string(bytes.TrimSpace(lang)), href: string(href), start: sp.start})
	}
}

// baseTag records the href of the first <base> that has one: the document's base URL, which its
// relative links are resolved against (HTML's "frozen base URL").
func (s *scanner) baseTag(z *html.Tokenizer) {
	if s.res.haveBase {
		return
	}
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == "href" {
			s.res.base, s.res.haveBase = string(v), true
			return
		}
	}
}

// nameBuf holds a tag name read by tagName.
type nameBuf [32]byte

// tagName is the current tag's name as z.TagName gives it (ASCII letters lower-cased), read from
// the tag's raw text into buf: TagName copies the name, and the scan reads every tag's. A name
// that does not fit buf, or holds a NUL (which TagName reads as U+FFFD), is left to TagName.
func tagName(z *html.Tokenizer, tt html.TokenType, buf *nameBuf) []byte {
	raw := z.Raw()
	i := 1 // after "<"
	if tt == html.EndTagToken {
		i = 2 // after "</"
	}
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return buf[:n]
		case 0:
			name, _ := z.TagName()
			return name
		}
		if n == len(buf) {
			name, _ := z.TagName()
			return name
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return buf[:n]
}

// lower appends b lower-cased as strings.ToLower does to dst: meta names and http-equiv values are
// compared so, and a short one needs no allocation when dst is on the stack.
func lower(dst, b []byte) []byte {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return bytes.ToLower(b)
		}
	}
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// commentText is the raw text of a closed "<!--" comment between its delimiters.
func commentText(raw []byte) []byte {
	b := raw[len("<!--"):]
	if t, ok := bytes.CutSuffix(b, []byte("--!>")); ok {
		return t
	}
	t, _ := bytes.CutSuffix(b, []byte("-->"))
	return t
}

// breakoutTags end foreign content: an HTML parser pops <svg> and <math> and
// reads them as HTML (WHATWG "in foreign content"; <font> with attributes is
// left out).
var breakoutTags = map[string]bool{
	"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true,
	"code": true, "dd": true, "div": true, "dl": true, "dt": true, "em": true, "embed": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "head": true,
	"hr": true, "i": true, "img": true, "li": true, "listing": true, "menu": true, "meta": true,
	"nobr": true, "ol": true, "p": true, "pre": true, "ruby": true, "s": true, "small": true,
	"span": true, "strong": true, "strike": true, "sub": true, "sup": true, "table": true,
	"tt": true, "u": true, "ul": true, "var": true,
}

// foreignTag follows <svg> and <math> content for a start tag named name, and
// reports whether the tag is a foreign element and nothing more. Inside them
// no element is raw text (the tokenizer is told so, as the HTML parser does:
// an icon's self-closed <title/> would otherwise hide the rest of the page),
// except within an HTML integration point (<foreignObject>, <desc>, <title>
// in SVG; <mi>, <mo>, <mn>, <ms>, <mtext> in MathML), whose content is HTML.
// This is a small stack, not a tree: enough to tell raw text from markup.
func (s *scanner) foreignTag(z *html.Tokenizer, tt html.TokenType, name []byte) bool {
	if len(s.foreign) > 0 && !s.inIntegrationPoint() {
		if breakoutTags[string(name)] {
			s.foreign = nil // an HTML tag again, handled as such
			return false
		}
		z.NextIsNotRawText()
		if tt == html.StartTagToken {
			s.foreign = append(s.foreign, string(name))
		}
		return true
	}
	if (string(name) == "svg" || string(name) == "math") && tt == html.StartTagToken {
		s.foreign = append(s.foreign, string(name))
	}
	return false
}

// inIntegrationPoint reports whether the innermost open foreign element holds
// HTML content.
func (s *scanner) inIntegrationPoint() bool {
	top := s.foreign[len(s.foreign)-1]
	for i := len(s.foreign) - 1; i >= 0; i-- {
		switch s.foreign[i] {
		case "svg":
			return top == "foreignobject" || top == "desc" || (top == "title" && i < len(s.foreign)-1)
		case "math":
			return top == "mi" || top == "mo" || top == "mn" || top == "ms" || top == "mtext"
		}
	}
	return false
}

// closed reports whether a comment or doctype token ends as it should, not
// at EOF.
func closed(raw []byte) bool {
	if bytes.HasPrefix(raw, []byte("<!--")) {
		return bytes.HasSuffix(raw, []byte("-->")) || bytes.HasSuffix(raw, []byte("--!>"))
	}
	return bytes.HasSuffix(raw, []byte(">"))
}

// tagEndAtMost returns an offset in w that the tag starting w ends at or
// before, skipping quoted attribute values. It is a cheap, conservative
// stand-in for running the tokenizer (which allocates a buffer per call): a
// quote counts as opening a value wherever the tokenizer might take it so,
// which can only make the answer later than the real end, never earlier.
func tagEndAtMost(w []byte) (int, bool) {
	var prev byte // last byte that is not white space
	for i := 1; i < len(w); i++ {
		switch c := w[i]; c {
		case '>':
			return i, true
		case '"', '\'':
			if prev == '=' {
				j := bytes.IndexByte(w[i+1:], c)
				if j < 0 {
					return 0, false
				}
				i += j + 1
				prev = c
				continue
			}
			prev = c
		case ' ', '\t', '\n', '\r', '\f':
		default:
			prev = c
		}
	}
	return 0, false
}

// containsFold reports whether b holds word (lower-case ASCII letters) in any ASCII case.
func containsFold(b []byte, word string) bool {
	for i := 0; i+len(word) <= len(b); i++ {
		if b[i]|0x20 != word[0] {
			continue
		}
		j := 1
		for j < len(word) && b[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// blank reports whether b is only HTML white space, allowing a leading BOM.
func blank(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return false
		}
	}
	return true
}

// candidateWindow bounds how far the body pre-check reads one <meta tag.
const candidateWindow = 4096

// lastCandidate is the cheap byte search over the rest of a page: it returns
// the offset in rest of the last "<meta" (any case) whose tag might name a
// robots agent, or of the last comment that might be one of robotsmith's
// markers, or -1 if there is neither and the rest need not be tokenized.
// Context (comments, scripts) is ignored here: a candidate only means
// "tokenize up to here".
func lastCandidate(rest []byte, isName func(string) bool) int {
	last := -1
	// One pass over the '<'s (a page has one every few dozen bytes): the test after each is
	// written out, not a call.
	for i := 0; i+5 <= len(rest); {
		j := bytes.IndexByte(rest[i:len(rest)-4], '<')
		if j < 0 {
			break
		}
		p := i + j
		i = p + 1
		if rest[p+1] == '!' {
			if markerComment(rest[p:]) {
				last = p
			}
			continue
		}
		if rest[p+1]|0x20 != 'm' || rest[p+2]|0x20 != 'e' || rest[p+3]|0x20 != 't' || rest[p+4]|0x20 != 'a' {
			continue
		}
		if p > last && metaMightMatch(rest[p:], isName) {
			last = p
		}
	}
	return last
}

// markerComment reports whether b starts a comment that may be one of robotsmith's markers or
// records: "<!--", white space as strings.TrimSpace reads it, then "robotsmith" or "/robotsmith"
// (what scanner.comment looks for in a comment's text).
func markerComment(b []byte) bool {
	b, ok := bytes.CutPrefix(b, []byte("<!--"))
	if !ok {
		return false
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if !unicode.IsSpace(r) {
			break
		}
		b = b[size:]
	}
	return bytes.HasPrefix(b, []byte(markOpen)) || bytes.HasPrefix(b, []byte(markClose))
}

// metaMightMatch tokenizes the one tag at the start of b (bounded by
// candidateWindow) and reports whether it is a robots-family meta, or cannot
// be told within the window.
func metaMightMatch(b []byte, isName func(string) bool) bool {
	w := b
	if len(w) > candidateWindow {
		w = w[:candidateWindow]
	}
	if end, ok := tagEndAtMost(w); ok && !containsFold(w[:end], "name") {
		return false // most body metas are microdata: <meta itemprop=...>
	}
	z := html.NewTokenizer(bytes.NewReader(w))
	tt := z.Next()
	if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
		return len(w) < len(b) // cut off inside the tag: cannot tell
	}
	if len(z.Raw()) == len(w) && len(w) < len(b) {
		return true // the tag may go on past the window
	}
	name, more := z.TagName()
	if string(name) != "meta" {
		return false
	}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == "name" {
			return isName(strings.ToLower(strings.TrimSpace(string(v))))
		}
	}
	return false
}
