package rewrite

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/rules"
)

// Page is what Scan learned about one page.
type Page struct {
	HTML     bool    // an HTML document (doctype, <html>, <head> or <body> seen); false => Rewrite leaves it byte-identical
	Redirect bool    // <meta http-equiv="refresh"> in the head
	Block    bool    // robotsmith's own block is present
	Tags     []Found // robots-family meta tags OUTSIDE robotsmith's block, in document order (head and body)
	// Links are the head's <link rel="canonical"> and <link rel="alternate" hreflang> (in
	// <noscript> too), in document order; Base is the href of the head's first <base>, "" for none.
	// Both are as written: resolving them is the caller's.
	Links []Link
	Base  string
}

// Link is a <link rel="canonical"> or <link rel="alternate" hreflang="..."> of the head.
type Link struct {
	Rel      string // "canonical" or "alternate"
	Hreflang string // for an alternate: the hreflang value, white space trimmed, as written
	Href     string // the href attribute, entities unescaped, as written
	Line     int    // 1-based line of the tag's '<'
}

// Found is one robots-family meta tag in the input.
type Found struct {
	Name    string // lower-cased meta name
	Content string // content attribute, as written (entities unescaped)
	Line    int    // 1-based line of the tag's '<'
	Start   int64  // byte offset of the tag's '<' in the input
	End     int64  // byte offset just past the tag's '>'
	Head    bool   // directly in the head; false in <noscript> or in the body
	// Kept marks a record in robotsmith's block of a tag an earlier run took from the page (see
	// kept.go); Line is then the tag's line as the generator wrote it, Start and End the record's.
	Kept bool
}

// Error is an I/O failure (Op "read" or "write"), or an invariant of
// rewrite's own found broken, a bug, before a page was written from it (Op
// "internal").
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string { return "rewrite: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Scan reads a page. agents are extra robots-family names beyond rules.IsAgent.
// The only errors are read errors (and an *Error with Op "internal": see
// Error).
func Scan(r io.Reader, agents []string) (p Page, err error) {
	src, err := readAll(r)
	if err != nil {
		return Page{}, &Error{Op: "read", Err: err}
	}
	defer catch(&err)
	return pageOf(src, scan(src, nameSet(agents, rules.Directives{}), nil)), nil
}

// Rewrite copies r to w, applying d (SPEC §5). Only I/O errors are returned;
// malformed HTML passes through. It stops at the first write error.
func Rewrite(w io.Writer, r io.Reader, d rules.Directives) (err error) {
	if !d.Touches() {
		rr := &readRecorder{r: r}
		if _, err := io.Copy(w, rr); err != nil {
			if rr.err != nil {
				return &Error{Op: "read", Err: err}
			}
			return &Error{Op: "write", Err: err}
		}
		return nil
	}
	src, err := readAll(r)
	if err != nil {
		return &Error{Op: "read", Err: err}
	}
	defer catch(&err)
	return write(w, src, plan(src, scan(src, nameSet(nil, d), nil), d))
}

// Process is Scan, decide and Rewrite on a page held in memory, for a caller
// with one page: it scans src once with agents, asks decide for the page's
// Directives (decide is not called for a page that is not HTML) and applies
// them (Processor.Scan and Processor.Splice). out is src itself when nothing
// changes. The result equals Rewrite's for the same Directives.
func Process(src []byte, agents []string, decide func(Page) rules.Directives) (out []byte, changed bool, err error) {
	var p Processor
	page, err := p.Scan(src, nameSet(agents, rules.Directives{}))
	switch {
	case err != nil:
		return nil, false, err
	case !page.HTML:
		return src, false, nil
	}
	var buf bytes.Buffer
	changed, err = p.Splice(&buf, decide(page))
	switch {
	case err != nil:
		return nil, false, err
	case !changed:
		return src, false, nil
	}
	return buf.Bytes(), true, nil
}

// A Processor processes page after page in three calls each, the package's
// call sequence with the caller's buffers kept from page to page: Scan says
// what the page carries, the caller decides its Directives, and Splice writes
// the page with them applied. It keeps the page it last scanned, and what it
// reuses for the next: a caller that processes many pages keeps one for each
// goroutine (it is not safe for concurrent use). The zero value is ready to
// use.
type Processor struct {
	tz      tokenizer
	src     []byte            // the page last scanned
	isAgent func(string) bool // the robots-family test it was scanned with
	res     scanResult        // what the scan found; html false before the first
}

// Scan reads the page src: what it carries, as the package's Scan reports
// it. isAgent tells a robots-family meta name (given lower-cased and trimmed)
// instead of a list of extra agents. The Processor keeps src, which must not
// change before Splice.
func (p *Processor) Scan(src []byte, isAgent func(string) bool) (page Page, err error) {
	p.src, p.isAgent, p.res = src, isAgent, scanResult{}
	defer catch(&err)
	p.res = scan(src, isAgent, &p.tz)
	return pageOf(src, p.res), nil
}

// Splice writes the page last scanned, with d applied, to dst (reset first)
// only when it differs from the page; changed reports that. A page that is
// not an HTML document is never changed. The page is scanned once more only
// when d names an agent or tag that isAgent does not report (never when both
// come from the same resolver).
func (p *Processor) Splice(dst *bytes.Buffer, d rules.Directives) (changed bool, err error) {
	defer catch(&err)
	dst.Reset()
	if !p.res.html || !d.Touches() {
		return false, nil
	}
	res := p.res
	if extra := missingNames(p.isAgent, d); extra != nil {
		isAgent := p.isAgent
		res = scan(p.src, func(name string) bool { return isAgent(name) || extra[name] }, &p.tz)
	}
	edits := plan(p.src, res, d)
	if unchanged(p.src, edits) {
		return false, nil
	}
	dst.Grow(len(p.src) + 512)
	if err := write(dst, p.src, edits); err != nil {
		return false, err
	}
	return true, nil
}

// missingNames returns the agent and tag names of d that isAgent does not
// report, or nil when there are none.
func missingNames(isAgent func(string) bool, d rules.Directives) map[string]bool {
	var extra map[string]bool
	add := func(name string) {
		if n := norm(name); n != "" && !isAgent(n) {
			if extra == nil {
				extra = map[string]bool{}
			}
			extra[n] = true
		}
	}
	for _, a := range d.Agents {
		add(a)
	}
	for _, t := range d.Tags {
		add(t.Name)
	}
	return extra
}

// unchanged reports whether applying edits to src gives src again: every
// edit writes back the bytes it replaces.
func unchanged(src []byte, edits []edit) bool {
	for _, e := range edits {
		if e.end-e.start != len(e.text) || string(src[e.start:e.end]) != e.text {
			return false
		}
	}
	return true
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// nameSet is the robots-family test for a scan: rules.IsAgent, agents, and
// the agents and tag names of d.
func nameSet(agents []string, d rules.Directives) func(string) bool {
	extra := map[string]bool{}
	for _, a := range agents {
		extra[norm(a)] = true
	}
	for _, a := range d.Agents {
		extra[norm(a)] = true
	}
	for _, t := range d.Tags {
		extra[norm(t.Name)] = true
	}
	return func(name string) bool { return name != "" && (extra[name] || rules.IsAgent(name)) }
}

// readRecorder notes a read error, so that an io.Copy error can be told a
// read or a write failure (Error.Op).
type readRecorder struct {
	r   io.Reader
	err error
}

func (rr *readRecorder) Read(p []byte) (int, error) {
	n, err := rr.r.Read(p)
	if err != nil && err != io.EOF {
		rr.err = err
	}
	return n, err
}

// readAll is io.ReadAll that sizes its buffer once when r knows its length
// (bytes.Reader, strings.Reader), as the pipeline's readers do.
func readAll(r io.Reader) ([]byte, error) {
	if l, ok := r.(interface{ Len() int }); ok {
		b := bytes.NewBuffer(make([]byte, 0, l.Len()+1))
		_, err := b.ReadFrom(r)
		return b.Bytes(), err
	}
	return io.ReadAll(r)
}

// failure is the panic rewrite raises on purpose: an invariant of its own
// found broken, which no page must be written from.
type failure struct{ err error }

// catch, deferred at the package's boundary, returns a failure as an *Error
// with Op "internal". Every other panic goes on: a runtime error is a bug
// that a recover would turn into a page written wrongly, and a value rewrite
// did not raise is not rewrite's to answer (text/template's parser recovers
// its own errors alone, likewise).
func catch(err *error) {
	p := recover()
	if p == nil {
		return
	}
	f, ok := p.(failure)
	if !ok {
		panic(p)
	}
	*err = &Error{Op: "internal", Err: f.err}
}

func pageOf(src []byte, res scanResult) Page {
	if !res.html {
		return Page{}
	}
	p := Page{HTML: true, Redirect: res.redirect, Block: len(res.blocks) > 0, Base: res.base}
	if len(res.links) > 0 {
		p.Links = make([]Link, len(res.links))
		line, at := 1, 0
		for i, l := range res.links {
			line += lineBreaks(src[at:l.start])
			at = l.start
			p.Links[i] = Link{Rel: l.rel, Hreflang: l.hreflang, Href: l.href, Line: line}
		}
	}
	if n := len(res.tags) + len(res.kept); n > 0 {
		p.Tags = make([]Found, 0, n)
	}
	line, at := 1, 0
	for _, t := range res.tags {
		line += lineBreaks(src[at:t.start])
		at = t.start
		p.Tags = append(p.Tags, Found{
			Name: t.name, Content: t.content, Line: line,
			Start: int64(t.start), End: int64(t.end), Head: t.head,
		})
	}
	for _, k := range res.kept {
		p.Tags = append(p.Tags, Found{
			Name: k.name, Content: k.content, Line: k.line,
			Start: int64(k.start), End: int64(k.end), Head: true, Kept: true,
		})
	}
	slices.SortStableFunc(p.Tags, func(a, b Found) int { return cmp.Compare(a.Start, b.Start) })
	return p
}

// lineBreaks counts line ends in b: "\n", "\r\n" and a lone "\r", as HTML
// reads them.
func lineBreaks(b []byte) int {
	n := bytes.Count(b, []byte("\n")) + bytes.Count(b, []byte("\r")) - bytes.Count(b, []byte("\r\n"))
	return n
}

// edit replaces src[start:end] by text.
type edit struct {
	span
	text string
}

// removal is one span to delete, and whether the new block may stand there.
type removal struct {
	span
	target   bool
	breakout bool // a tag of it ended foreign content (hit.breakout)
}

// plan computes the edits that apply d to a page scanned as res.
func plan(src []byte, res scanResult, d rules.Directives) []edit {
	if !res.html || !d.Touches() {
		return nil
	}
	rs := make([]removal, 0, len(res.tags)+len(res.blocks)+len(res.orphans))
	for _, t := range res.tags {
		rs = append(rs, removal{t.span, t.head, t.breakout})
	}
	for i, b := range res.blocks {
		rs = append(rs, removal{b, res.blockHead[i], false})
	}
	for _, o := range res.orphans {
		rs = append(rs, removal{o, false, false})
	}
	slices.SortFunc(rs, func(a, b removal) int { return cmp.Compare(a.start, b.start) })

	// Group removals that only blanks separate: they go as one. The groups are written over rs,
	// never past the removal being read.
	groups := rs[:0]
	for _, r := range rs {
		if n := len(groups); n > 0 && onlyBlanks(src[groups[n-1].end:r.start]) {
			groups[n-1].end = r.end
			groups[n-1].target = groups[n-1].target || r.target
			groups[n-1].breakout = groups[n-1].breakout || r.breakout
			continue
		}
		groups = append(groups, r)
	}

	nb := newBlock{tags: d.Tags, nl: lineEnding(src), tagEnd: ">"}
	if selfClosingStyle(res) {
		nb.tagEnd = " />"
	}
	placed := len(d.Tags) == 0
	if !placed {
		nb.keep = records(src, res)
	}
	edits := make([]edit, 0, len(groups)+1)
	for _, g := range groups {
		ls := lineStart(src, g.start)
		indent := leadingBlanks(src[ls:])
		if !placed && g.target {
			placed = true
			edits = append(edits, edit{g.span, nb.text("", indent, "")})
			continue
		}
		if g.breakout && !g.target {
			// A bare <meta>, which says nothing, stands in its place and ends the foreign
			// content as the tag did: what follows is read as it was, and the next run, reading
			// the page as this one did, changes nothing.
			edits = append(edits, edit{g.span, "<meta>"})
			continue
		}
		if le, ok := lineEnd(src, g.end); ok && onlyBlanks(src[ls:g.start]) {
			edits = append(edits, edit{span{ls, le}, ""})
			continue
		}
		// A '<' the tokenizer read as text right before the tag must not meet what follows
		// it and open a tag there; it is written as the reference it read as, so the page
		// shows the same text and its head ends where it ended.
		start := g.start
		for start > 0 && src[start-1] == '<' {
			start--
		}
		edits = append(edits, edit{span{start, g.end}, strings.Repeat("&lt;", g.start-start)})
	}
	if !placed {
		ins := insertion(src, res, nb, edits)
		if i := covering(src, edits, ins.start); i >= 0 {
			// The block would go on a line that a removal takes away (an unpaired
			// marker that the head ends with): it takes that line's place, with the
			// line's indent, where the next run finds it as a block of ours and
			// writes it back the same. Inserted after the removal, its first line
			// lost the indent the others kept, and the next run changed it again.
			// A removal that starts inside its line (the marker had text after
			// it) leaves the line's indent where it was; one that takes the
			// whole line writes the indent back first.
			r := edits[i]
			ls := lineStart(src, r.start)
			indent := leadingBlanks(src[ls:])
			lead := ""
			if r.start == ls {
				lead = indent
			}
			tail := ""
			if src[r.end-1] == '\n' {
				tail = nb.nl
			}
			edits[i].text = nb.text(lead, indent, tail)
		} else {
			if left, changed := leftOfLine(src, edits, lineStart(src, ins.start), ins.start); changed && onlyBlanks([]byte(left)) {
				// The removals leave only blanks before the block on its line: the next run
				// reads them as the block's indent and writes the block with it, so this run
				// does, and nothing comes between the block and what follows it.
				ins.text = nb.text("", left, "")
			}
			edits = append(edits, ins)
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(a.end, b.end) // an insertion before a removal at the same place
	})
	return edits
}

// leftOfLine is what the edits leave of src[ls:p], the start of a line up to p, and whether any
// edit touched it. p is in no edit's span.
func leftOfLine(src []byte, edits []edit, ls, p int) (left string, changed bool) {
	var b strings.Builder
	at := ls
	for _, e := range edits {
		if e.end <= ls || e.start >= p {
			continue
		}
		if e.start > at {
			b.Write(src[at:e.start])
		}
		b.WriteString(e.text)
		at = max(at, e.end)
		changed = true
	}
	if at < p {
		b.Write(src[at:p])
	}
	return b.String(), changed
}

// covering returns the index of the removal among edits that p falls in, or
// -1: p is inside its span, or at its end when the span does not end a line
// (then p is on the line the removal takes away).
func covering(src []byte, edits []edit, p int) int {
	for i, e := range edits {
		if e.text == "" && e.start < p && (p < e.end || p == e.end && src[e.end-1] != '\n') {
			return i
		}
	}
	return -1
}

// insertion places the block where no old tag or block stood: after
// <meta charset>, else at the start of the head. Its indent is the leading blanks of its line as
// the edits (the removals) leave it, which is what the next run reads as the block's indent: a
// removal at the start of the line may leave other blanks there than the line had.
func insertion(src []byte, res scanResult, nb newBlock, edits []edit) edit {
	indentAt := func(p int) string {
		left, _ := leftOfLine(src, edits, lineStart(src, p), p)
		return leadingBlanks([]byte(left))
	}
	if p := res.charsetEnd; p >= 0 {
		indent := indentAt(p)
		j := p
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if le, ok := lineEnd(src, p); ok && j < len(src) {
			// The tag ends its line: the block goes on lines of its own below,
			// after a copy of that line's own ending.
			return edit{span{j, j}, nb.text(string(src[j:le])+indent, indent, "")}
		}
		return edit{span{p, p}, nb.text("", indent, "")}
	}
	p := res.headStart
	ls := lineStart(src, p)
	indent := indentAt(p)
	if onlyBlanks(src[ls:p]) {
		// At the start of a line: the block takes lines of its own above.
		return edit{span{p, p}, nb.text("", indent, nb.nl+indent)}
	}
	return edit{span{p, p}, nb.text("", indent, "")}
}

func selfClosingStyle(res scanResult) bool {
	switch {
	case res.voidStyle != 0:
		return res.voidStyle > 0
	case len(res.tags) > 0:
		return res.tags[0].selfClosing
	default:
		return res.blockStyle > 0
	}
}

// newBlock is the robotsmith block plan writes: the Directives' tags, the records it keeps of
// the page's own, and the page's tag style and line ending.
type newBlock struct {
	tags       []rules.Tag
	keep       []kept
	tagEnd, nl string
}

// text is the block with its lines after the first indented by indent, between lead and tail (what
// the edit writes before and after it). It is written into one string sized up front, as the
// pipeline writes a block into every page of a site.
func (nb newBlock) text(lead, indent, tail string) string {
	line := len(nb.nl) + len(indent)
	n := len(lead) + len("<!-- "+markOpen+" -->") + line + len("<!-- "+markClose+" -->") + len(tail)
	for _, t := range nb.tags {
		n += line + len(`<meta name="" content=""`) + len(t.Name) + len(t.Content) + len(nb.tagEnd)
	}
	for _, k := range nb.keep {
		n += line + keptSize(k)
	}
	var b strings.Builder
	b.Grow(n) // escaped characters may need more: the builder grows then
	b.WriteString(lead)
	b.WriteString("<!-- " + markOpen + " -->")
	for _, t := range nb.tags {
		b.WriteString(nb.nl)
		b.WriteString(indent)
		b.WriteString(`<meta name="`)
		b.WriteString(html.EscapeString(t.Name))
		b.WriteString(`" content="`)
		b.WriteString(html.EscapeString(t.Content))
		b.WriteString(`"`)
		b.WriteString(nb.tagEnd)
	}
	for _, k := range nb.keep {
		b.WriteString(nb.nl)
		b.WriteString(indent)
		writeKept(&b, k)
	}
	b.WriteString(nb.nl)
	b.WriteString(indent)
	b.WriteString("<!-- " + markClose + " -->")
	b.WriteString(tail)
	return b.String()
}

// lineEnding is the page's: CRLF when its first line ends so, else LF.
func lineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func lineStart(src []byte, p int) int {
	return bytes.LastIndexByte(src[:p], '\n') + 1
}

// lineEnd reports whether only blanks follow p up to a line end or the end
// of src, and returns the offset after that line end.
func lineEnd(src []byte, p int) (int, bool) {
	for ; p < len(src); p++ {
		switch src[p] {
		case ' ', '\t':
		case '\n':
			return p + 1, true
		case '\r':
			if p+1 < len(src) && src[p+1] == '\n' {
				return p + 2, true
			}
			return 0, false
		default:
			return 0, false
		}
	}
	return p, true
}

func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func leadingBlanks(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return string(b[:i])
}

// write copies src to w with edits applied (sorted, not overlapping), and
// stops at the first write error.
func write(w io.Writer, src []byte, edits []edit) error {
	at := 0
	put := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		if _, err := w.Write(b); err != nil {
			return &Error{Op: "write", Err: err}
		}
		return nil
	}
	for _, e := range edits {
		if e.start < at || e.end < e.start {
			// plan's edits are sorted and apart: written over one another, a byte would go
			// twice, or be lost.
			panic(failure{fmt.Errorf("edit [%d, %d) overlaps the one before, which ends at %d", e.start, e.end, at)})
		}
		if err := put(src[at:e.start]); err != nil {
			return err
		}
		if e.text != "" {
			// io.WriteString: a bytes.Buffer takes the string as it is, where []byte(e.text) copied it.
			if _, err := io.WriteString(w, e.text); err != nil {
				return &Error{Op: "write", Err: err}
			}
		}
		at = e.end
	}
	return put(src[at:])
}
