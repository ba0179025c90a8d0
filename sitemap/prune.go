package sitemap

import (
	"bufio"
	"encoding/xml"
	"io"
)

// Ref is what Prune asks about: the <loc> of a <url>, or the href of one of its alternates.
type Ref struct {
	URL       string // as Entry.Loc and Alternate.Href give it
	Line      int
	Alternate bool   // an <xhtml:link rel="alternate"> of a kept <url>; false for a <url>'s <loc>
	Hreflang  string // for an alternate
	Entry     string // for an alternate, the Loc of its <url>
	// Index marks the <loc> of a <sitemap> in a sitemap index: the caller learns the sitemaps it
	// lists in the same pass, and the index is copied unchanged whatever keep answers.
	Index bool
}

// Pruned counts what Prune read and left out.
type Pruned struct {
	Kind              Kind
	URLs              int // <url> entries read
	Removed           int // <url> entries left out
	Alternates        int // alternates of the kept entries
	AlternatesRemoved int
}

// Changed reports whether Prune left anything out.
func (p Pruned) Changed() bool { return p.Removed+p.AlternatesRemoved > 0 }

// Prune copies the sitemap r to w, leaving out each <url> whose <loc> keep rejects and, of the
// <url> entries kept, each <xhtml:link rel="alternate"> whose href keep rejects. keep is asked
// in file order, about the <loc> of every <url> whose <loc> is not empty (one without is kept),
// then about the alternates of that <url> if it is kept. Every other byte is copied as it was.
// An element left out takes its line with it when it stands alone on that line (the indentation
// before it and the line end after it); otherwise it takes the white space on one side of it, so
// that what follows takes its place. A sitemap index is copied unchanged: keep is told each of its
// <sitemap> entries' <loc> (Ref.Index), and its answer is not used. A file that is not a sitemap
// is copied unchanged and keep is not asked.
//
// Errors are those of Reader.Next, and w's. On an error, w holds part of the output: write to a
// temporary file and keep it only when Prune returns nil.
func Prune(w io.Writer, r io.Reader, keep func(Ref) bool) (Pruned, error) {
	s := newScanner(r)
	bw := bufio.NewWriterSize(w, 64<<10)
	ed := &editor{w: bw}
	var p Pruned
	var links []link
	dropped := false // the entry before this token was left out; the white space after it is open
	for {
		t, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p, err
		}
		raw := s.rec.bytes(t.start, t.end)
		if dropped {
			var after []byte
			if _, ok := t.Token.(xml.CharData); ok {
				after = raw
			}
			raw = raw[ed.drop(after):]
			dropped = false
		}
		if ed.err != nil {
			return p, ed.err
		}
		if s.kind == Index && s.isEntry(t) {
			var e Entry
			links = links[:0]
			end, err := s.entry(t, &e, &links)
			if err != nil {
				return p, err
			}
			if e.Loc != "" {
				keep(Ref{URL: e.Loc, Line: e.Line, Index: true})
			}
			ed.write(s.rec.bytes(t.start, end))
			s.rec.discard(end)
			continue
		}
		if s.kind != URLSet || !s.isEntry(t) {
			ed.write(raw)
			s.rec.discard(t.end)
			continue
		}
		var e Entry
		links = links[:0]
		end, err := s.entry(t, &e, &links)
		if err != nil {
			return p, err
		}
		p.URLs++
		if e.Loc != "" && !keep(Ref{URL: e.Loc, Line: e.Line}) {
			p.Removed++
			dropped = true
			s.rec.discard(end)
			continue
		}
		// A kept entry: copy it, leaving out the alternates keep rejects.
		buf, from := s.rec.bytes(t.start, end), 0
		for _, l := range links {
			p.Alternates++
			if keep(Ref{URL: l.Href, Line: l.Line, Alternate: true, Hreflang: l.Hreflang, Entry: e.Loc}) {
				continue
			}
			p.AlternatesRemoved++
			ed.write(buf[from : l.start-t.start])
			from = int(l.end-t.start) + ed.drop(buf[l.end-t.start:])
		}
		ed.write(buf[from:])
		s.rec.discard(end)
	}
	if dropped {
		ed.drop(nil)
	}
	ed.flush()
	if ed.err == nil {
		ed.err = bw.Flush()
	}
	p.Kind = s.kind
	return p, ed.err
}

// editor writes the output, holding back the spaces and tabs at its end (the indentation of
// whatever comes next) until it knows whether that is left out.
type editor struct {
	w       io.Writer
	pending []byte // spaces and tabs written last, not yet passed on
	last    byte   // the last byte passed on; 0 before the first
	err     error
}

func (e *editor) write(b []byte) {
	k := len(b) - 1
	for k >= 0 && (b[k] == ' ' || b[k] == '\t') {
		k--
	}
	if k < 0 {
		e.pending = append(e.pending, b...)
		return
	}
	e.put(e.pending)
	e.pending = e.pending[:0]
	e.put(b[:k+1])
	e.last = b[k]
	e.pending = append(e.pending, b[k+1:]...)
}

func (e *editor) put(b []byte) {
	if e.err == nil && len(b) > 0 {
		_, e.err = e.w.Write(b)
	}
}

func (e *editor) flush() {
	e.put(e.pending)
	e.pending = e.pending[:0]
}

// drop is called where an element was left out: the white space before it is pending, after is
// what follows it in the input (nil when that is not text). It returns how many bytes of after
// go with the element:
//   - alone on its line: the indentation before it, and the spaces and line end after it;
//   - first on its line, with more after it: the spaces after it, so that the next element
//     takes its indentation;
//   - after something on its line: the spaces before it, or, if there are none, those after it.
func (e *editor) drop(after []byte) int {
	sp := 0
	for sp < len(after) && (after[sp] == ' ' || after[sp] == '\t') {
		sp++
	}
	eol := 0
	if sp < len(after) {
		switch after[sp] {
		case '\n':
			eol = 1
		case '\r':
			eol = 1
			if sp+1 < len(after) && after[sp+1] == '\n' {
				eol = 2
			}
		}
	}
	lineStart := e.last == 0 || e.last == '\n' || e.last == '\r'
	switch {
	case lineStart && eol > 0:
		e.pending = e.pending[:0]
		return sp + eol
	case lineStart:
		return sp
	case len(e.pending) > 0:
		e.pending = e.pending[:0]
		return 0
	default:
		return sp
	}
}
