package llmstxt

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Kind is the Markdown form of a link.
type Kind int8

// The link forms, as CommonMark names them (Bare is GitHub Flavored
// Markdown's extended autolink).
const (
	// Inline is [text](url) or [text](url "title"), and ![alt](src).
	Inline Kind = iota + 1
	// Reference is [text][label], [label][] or [label], resolved through a
	// Definition.
	Reference
	// Autolink is <https://example.com/> (or <me@example.com>).
	Autolink
	// Bare is a URL in text, https://example.com/ or www.example.com, which
	// GitHub Flavored Markdown and the readers of llms.txt take as a link.
	Bare
	// Definition is a link reference definition, [label]: url "title": it
	// renders as nothing, but the URL is in the file for a reader of the
	// raw text.
	Definition
)

func (k Kind) String() string {
	switch k {
	case Inline:
		return "inline"
	case Reference:
		return "reference"
	case Autolink:
		return "autolink"
	case Bare:
		return "bare"
	case Definition:
		return "definition"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Link is one link of an llms.txt, with its place in the source.
type Link struct {
	Kind  Kind
	Image bool // ![alt](src) or ![alt][label]
	// URL is the destination as a Markdown reader follows it: backslash
	// escapes and entity references resolved, nothing else changed (a
	// relative URL stays relative; percent-encoding stays as written).
	URL string
	// Text is the link text as written (Markdown, between the brackets), the
	// alt text of an image, the URL as written for Autolink and Bare, and
	// the label for a Definition.
	Text  string
	Title string // the link title, "" when none
	// Label is the reference label of a Reference or Definition, as written.
	Label string
	// Notes is, for a link that opens its list item
	// (`- [name](url): notes`), the rest of the item's first paragraph
	// after the link, with the colon and surrounding space removed.
	Notes string
	// Section is the text of the H2 the link is under ("" before the first
	// H2). llmstxt.org's "Optional" section holds links a reader may skip.
	Section string
	// Start and End are the link's bytes [Start, End) in the source: from
	// "[" (or "![", "<", the URL's first byte) through ")" ("]", ">", the
	// URL's last byte); for a Definition, from "[" through the end of its
	// last line, line break excluded. TextStart and TextEnd are the bytes
	// between the brackets (Inline and Reference), else equal to Start.
	Start, End         int
	TextStart, TextEnd int
	Line               int // 1-based line of Start
	// InItem is whether the link is in a list item.
	InItem bool
}

// Section is an H2 of the file.
type Section struct {
	Name  string // the heading's text as written
	Line  int    // 1-based
	Start int    // byte offset of the heading's line
}

// File is an llms.txt (or llms-full.txt) as llmstxt.org defines it.
type File struct {
	// BOM is whether the file starts with a UTF-8 byte order mark (offsets
	// count it).
	BOM bool
	// Title is the text of the first H1 ("" when the file has none: the one
	// part llmstxt.org requires); TitleLine its line, 0 when none.
	Title     string
	TitleLine int
	// Summary is the text of the blockquote that follows the H1, "" when
	// none.
	Summary  string
	Sections []Section
	// Links are every link of the file in source order (a Definition where
	// it is written).
	Links []Link
}

// Line returns the 1-based line of byte offset off in src.
func Line(src []byte, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// Parse reads an llms.txt. Markdown has no syntax errors: what is not a
// link is text. The errors are an input past the bounds (a *LimitError),
// and a link whose bytes Parse cannot place (a *LocateError), which no
// input is known to cause: Prune then refuses rather than leave a link it
// was asked to remove.
func Parse(src []byte) (File, error) {
	d, err := parse(src)
	if err != nil {
		return File{}, err
	}
	return d.file, nil
}

// LocateError is a link whose bytes in the source are not where goldmark's
// tree says they are.
type LocateError struct {
	Line int
	Msg  string
}

func (e *LocateError) Error() string { return fmt.Sprintf("llms.txt:%d: %s", e.Line, e.Msg) }

// doc is a parsed file with what Prune needs beyond File: the list items
// that hold links.
type doc struct {
	file  File
	items []item
	// item[i] is the index in items of the innermost list item holding
	// file.Links[i], -1 when none.
	item  []int
	lines []int // byte offset of each line's start
	// itemIndex finds a list item's index in items.
	itemIndex map[*ast.ListItem]int
	size      int // the source's length
}

// item is a list item (holding links or not).
type item struct {
	node   *ast.ListItem
	parent int // index in items of the enclosing list item, -1 when none
	// start and end are whole lines: from the start of the marker's line
	// through the line break of its last line. whole is false when the
	// marker's line holds more than container markers before it ("- - x"),
	// so the item's lines are not its own.
	start, end int
	whole      bool
}

// spans records where the links that goldmark's inline parsers find end:
// goldmark gives a link's start (Pos), not its end. Wrapping the parsers
// that goldmark itself uses, the end is read from goldmark's own reader
// after the parser consumed the link, so the bytes are exactly those
// goldmark took for it.
type spans struct {
	parser.InlineParser
	kind Kind
	rec  map[ast.Node]span
}

type span struct {
	kind    Kind
	at, end int // the reader's offset when the parser was called, and after it returned
}

func (s spans) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, at := block.Position()
	n := s.InlineParser.Parse(parent, block, pc)
	switch n.(type) {
	case *ast.Link, *ast.Image, *ast.AutoLink:
		_, after := block.Position()
		s.rec[n] = span{kind: s.kind, at: at.Start, end: after.Start}
	}
	return n
}

func (s spans) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := s.InlineParser.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// newParser is goldmark's CommonMark parser with GitHub Flavored Markdown's
// extended autolinks (at the priority the Linkify extension gives them),
// its link parsers wrapped to record where links end.
func newParser(rec map[ast.Node]span) parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(spans{parser.NewLinkParser(), Inline, rec}, 200),
			util.Prioritized(spans{parser.NewAutoLinkParser(), Autolink, rec}, 300),
			util.Prioritized(parser.NewRawHTMLParser(), 400),
			util.Prioritized(parser.NewEmphasisParser(), 500),
			util.Prioritized(spans{extension.NewLinkifyParser(), Bare, rec}, 999),
		),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}

var bom = []byte("\xef\xbb\xbf")

// The bounds of an input, so that no llms.txt can make Parse take time out
// of proportion to its size. goldmark's work grows with the square of the
// nesting of blockquotes and lists; and each "](" may open a link
// destination that goldmark reads up to the next ')' or the end of the
// line, so a line of unclosed "[](" costs the square of its length. Real
// files stay far below the bounds: a closed link costs its destination's
// length.
const (
	// MaxSize is the largest file Parse reads (llms-full.txt files run to
	// megabytes).
	MaxSize = 64 << 20
	// MaxIndent is the widest run of white space and '>' at the start of a
	// line, in bytes.
	MaxIndent = 256
	// MaxLinkWork bounds the sum, over the "](" of a file, of the bytes from
	// each to the next ')' or the end of its line.
	MaxLinkWork = 1 << 28
)

// LimitError is an input beyond one of the bounds (MaxSize, MaxIndent,
// MaxLinkWork).
type LimitError struct {
	Line int // 1-based line where the bound was passed
	Msg  string
}

func (e *LimitError) Error() string { return fmt.Sprintf("llms.txt:%d: %s", e.Line, e.Msg) }

// checkBounds returns a *LimitError for an input past the bounds.
func checkBounds(src []byte) error {
	if len(src) > MaxSize {
		return &LimitError{Line: 1, Msg: fmt.Sprintf("%d bytes; robotsmith reads llms.txt files of up to %d", len(src), MaxSize)}
	}
	for n, off := 1, 0; off < len(src); n++ {
		end := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		line := src[off:end]
		indent := 0
		for indent < len(line) && (line[indent] == ' ' || line[indent] == '\t' || line[indent] == '>') {
			indent++
		}
		if indent > MaxIndent && indent < len(bytes.TrimRight(line, "\r\n")) {
			return &LimitError{Line: n, Msg: fmt.Sprintf("the line starts with %d bytes of indentation and blockquote markers; robotsmith reads up to %d", indent, MaxIndent)}
		}
		off = end
	}
	// From the end: stop is where a destination opened before it ends at
	// the latest (the next ')', or the end of its line: goldmark reads a
	// destination on one line; a title after it, which may run over lines,
	// ends at the next quote or ')', and the next "[](x \"" holds one).
	work, stop := 0, len(src)
	for i := len(src) - 1; i >= 0; i-- {
		switch c := src[i]; {
		case c == ')', c == '\n':
			stop = i
		case c == ']' && i+1 < len(src) && src[i+1] == '(':
			work += stop - i
			if work > MaxLinkWork {
				return &LimitError{Line: Line(src, i), Msg: "too many unclosed link destinations, \"](\" with no ')' after them: past robotsmith's bound on the work of reading links"}
			}
		}
	}
	return nil
}

// parse reads src; it recovers the locateError panics that check raises,
// and no other.
func parse(src []byte) (d *doc, err error) {
	if err := checkBounds(src); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			le, ok := r.(locateError)
			if !ok {
				panic(r)
			}
			d, err = nil, &LocateError{Line: le.line, Msg: le.msg}
		}
	}()
	d = &doc{size: len(src)}
	off := 0
	if bytes.HasPrefix(src, bom) {
		d.file.BOM = true
		off = len(bom)
	}
	d.lines = append(d.lines, 0)
	for i, c := range src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	body := src[off:]
	rec := map[ast.Node]span{}
	root := newParser(rec).Parse(text.NewReader(body))

	d.itemIndex = map[*ast.ListItem]int{}
	w := walker{d: d, src: src, body: body, off: off, rec: rec}
	w.top(root)
	return d, nil
}

// walker turns goldmark's tree into a doc. Offsets in goldmark's tree are
// into body (the source after a BOM); off turns them into offsets of src.
type walker struct {
	d         *doc
	src, body []byte
	off       int
	rec       map[ast.Node]span
	section   string
}

func (d *doc) line(off int) int {
	return sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off })
}

// lineStart is the offset of the start of the line holding off.
func (d *doc) lineStart(off int) int { return d.lines[d.line(off)-1] }

// lineEnd is the offset just past the line break of the line holding off
// (the end of the source on the last line).
func (d *doc) lineEnd(off int) int {
	n := d.line(off)
	if n < len(d.lines) {
		return d.lines[n]
	}
	return d.size
}

// raw returns the source of a block's lines, trimmed.
func (w *walker) raw(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(w.body))
	}
	return strings.TrimSpace(b.String())
}

func (w *walker) top(root ast.Node) {
	f := &w.d.file
	afterTitle := false
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 && f.TitleLine == 0 {
			f.Title = w.raw(h)
			f.TitleLine = w.d.line(w.blockStart(h))
			afterTitle = true
			w.walk(n, -1)
			continue
		}
		if q, ok := n.(*ast.Blockquote); ok && afterTitle && f.Summary == "" {
			var parts []string
			for c := q.FirstChild(); c != nil; c = c.NextSibling() {
				if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
					parts = append(parts, w.raw(c))
				}
			}
			f.Summary = strings.Join(parts, "\n")
		}
		afterTitle = false
		if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
			w.section = w.raw(h)
			start := w.d.lineStart(w.blockStart(h))
			f.Sections = append(f.Sections, Section{Name: w.section, Line: w.d.line(start), Start: start})
		}
		w.walk(n, -1)
	}
}

// blockStart is the offset in src of a block node's first byte.
func (w *walker) blockStart(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p + w.off
	}
	if n.Lines().Len() > 0 {
		return n.Lines().At(0).Start + w.off
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			return w.blockStart(c)
		}
	}
	return w.off
}

// walk visits n and its descendants; it is the index in items of the
// innermost list item holding them, -1 when none.
func (w *walker) walk(n ast.Node, it int) {
	switch v := n.(type) {
	case *ast.ListItem:
		w.d.items = append(w.d.items, w.newItem(v, it))
		it = len(w.d.items) - 1
		w.d.itemIndex[v] = it
	case *ast.LinkReferenceDefinition:
		w.definition(v, it)
		return
	case *ast.Link, *ast.Image, *ast.AutoLink:
		w.link(n, it)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.walk(c, it)
	}
}

func (w *walker) newItem(li *ast.ListItem, parent int) item {
	start := w.blockStart(li)
	ls := w.d.lineStart(start)
	whole := true
	for _, c := range bytes.TrimPrefix(w.src[ls:start], bom) {
		if c != ' ' && c != '\t' && c != '>' {
			whole = false
		}
	}
	// The item runs until the next thing in document order starts: the next
	// item, or whatever follows its list (its closing fence and the lines an
	// HTML block ends with are not in any node's lines). Blank lines before
	// it are the separation, not the item's.
	next := len(w.src)
	for n := ast.Node(li); n != nil; n = n.Parent() {
		if s := n.NextSibling(); s != nil {
			next = w.d.lineStart(w.blockStart(s))
			break
		}
	}
	end := next
	for end > ls {
		prev := w.d.lineStart(end - 1)
		if !isBlank(w.src[prev:end]) || prev <= ls {
			break
		}
		end = prev
	}
	if end <= ls {
		end = w.d.lineEnd(start)
	}
	return item{node: li, parent: parent, start: ls, end: end, whole: whole}
}

// isBlank reports whether a line holds only white space and blockquote
// markers (a blank line inside a blockquote is "> ").
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '>' {
			return false
		}
	}
	return true
}

func destination(b []byte) string {
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b))))
}

func (w *walker) add(l Link, it int) {
	l.Line = w.d.line(l.Start)
	l.Section = w.section
	l.InItem = it >= 0
	w.d.file.Links = append(w.d.file.Links, l)
	w.d.item = append(w.d.item, it)
}

func (w *walker) link(n ast.Node, it int) {
	s, ok := w.rec[n]
	if !ok {
		panic(locateError{w.d.line(n.Pos() + w.off), fmt.Sprintf("a %T whose end goldmark's parsers did not record", n)})
	}
	end := s.end + w.off
	switch v := n.(type) {
	case *ast.AutoLink:
		label := v.Label(w.body)
		url := string(v.URL(w.body))
		if v.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
			url = "mailto:" + url // as a Markdown reader follows it
		}
		l := Link{Kind: s.kind, URL: url, Text: string(label), End: end}
		l.Start = end - len(label)
		if s.kind == Autolink {
			l.Start = s.at + w.off
		}
		l.TextStart, l.TextEnd = l.Start, l.Start
		w.check(l, n)
		w.add(l, it)
	case *ast.Link:
		w.add(w.bracketed(v.Pos(), s, end, v.Destination, v.Title, v.Reference, false, n), it)
	case *ast.Image:
		w.add(w.bracketed(v.Pos(), s, end, v.Destination, v.Title, v.Reference, true, n), it)
	}
	l := &w.d.file.Links[len(w.d.file.Links)-1]
	if it >= 0 {
		l.Notes = w.notes(w.d.items[it].node, n, end)
	}
}

func (w *walker) bracketed(pos int, s span, end int, dest, title []byte, ref *ast.ReferenceLink, image bool, n ast.Node) Link {
	l := Link{Kind: Inline, Image: image, URL: destination(dest), Title: string(title),
		Start: pos + w.off, End: end, TextEnd: s.at + w.off}
	l.TextStart = l.Start + 1
	if image {
		l.TextStart++
	}
	if ref != nil {
		l.Kind = Reference
		l.Label = string(ref.Value)
	}
	l.Text = string(w.src[l.TextStart:l.TextEnd])
	w.check(l, n)
	return l
}

// locateError is the panic check raises when a link's bytes are not where
// goldmark's tree says: parse recovers it at its one boundary (Prune).
type locateError struct {
	line int
	msg  string
}

// check verifies the bytes recorded for a link: a bracketed link runs from
// "[" (or "![") through "]" and, for an inline link, ")"; an autolink
// through ">"; a bare URL is the text of its node.
func (w *walker) check(l Link, n ast.Node) {
	bad := func(what string) {
		panic(locateError{w.d.line(l.Start), fmt.Sprintf("the %s link's bytes %q are not where goldmark found it (%s)", l.Kind, excerptBytes(w.src, l.Start, l.End), what)})
	}
	if l.Start < 0 || l.Start > l.End || l.End > len(w.src) || l.TextStart < l.Start || l.TextEnd > l.End || l.TextStart > l.TextEnd {
		bad("out of range")
	}
	b := w.src[l.Start:l.End]
	switch l.Kind {
	case Inline, Reference:
		open := "["
		if l.Image {
			open = "!["
		}
		if !bytes.HasPrefix(b, []byte(open)) || w.src[l.TextEnd] != ']' {
			bad("brackets")
		}
		if l.Kind == Inline && !bytes.HasSuffix(b, []byte(")")) {
			bad("no closing parenthesis")
		}
		if l.Kind == Reference && !bytes.HasSuffix(b, []byte("]")) {
			bad("no closing bracket")
		}
	case Autolink:
		if len(b) < 2 || b[0] != '<' || b[len(b)-1] != '>' {
			bad("angle brackets")
		}
	case Bare:
		if string(b) != l.Text {
			bad("text")
		}
	}
}

func excerptBytes(src []byte, start, end int) string {
	if start < 0 || start > len(src) {
		return ""
	}
	if end > len(src) {
		end = len(src)
	}
	if end-start > 80 {
		end = start + 80
	}
	return string(src[start:end])
}

// notes returns the text after a link that opens its list item's first
// paragraph, up to the end of that paragraph, with a leading colon and
// surrounding space removed; "" for any other link.
func (w *walker) notes(li *ast.ListItem, n ast.Node, end int) string {
	first := li.FirstChild()
	if first == nil || first.Lines().Len() == 0 {
		return ""
	}
	lead := first.FirstChild()
	for lead != nil {
		if t, ok := lead.(*ast.Text); ok && len(bytes.TrimSpace(t.Segment.Value(w.body))) == 0 {
			lead = lead.NextSibling()
			continue
		}
		break
	}
	if lead != n {
		return ""
	}
	lines := first.Lines()
	var b strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		s, e := seg.Start+w.off, seg.Stop+w.off
		if e <= end {
			continue
		}
		if s < end {
			s = end
		}
		b.Write(w.src[s:e])
	}
	notes := strings.TrimSpace(b.String())
	notes = strings.TrimSpace(strings.TrimPrefix(notes, ":"))
	return notes
}

func (w *walker) definition(v *ast.LinkReferenceDefinition, it int) {
	lines := v.Lines()
	if lines.Len() == 0 {
		panic(locateError{w.d.line(v.Pos() + w.off), "a link reference definition without lines"})
	}
	start := lines.At(0).Start + w.off
	last := lines.At(lines.Len() - 1)
	end := last.Stop + w.off
	// The end of the last line, without its line break.
	if le := w.d.lineEnd(end - 1); le <= len(w.src) {
		end = le
		for end > start && (w.src[end-1] == '\n' || w.src[end-1] == '\r') {
			end--
		}
	}
	l := Link{Kind: Definition, URL: destination(v.Destination), Title: string(v.Title), Label: string(v.Label),
		Text: string(v.Label), Start: start, End: end, TextStart: start, TextEnd: start}
	if start >= len(w.src) || w.src[start] != '[' {
		panic(locateError{w.d.line(start), "a link reference definition that does not start with ["})
	}
	w.add(l, it)
}
