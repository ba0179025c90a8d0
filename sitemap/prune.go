package sitemap

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
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
	return prune(w, r, keep, nil)
}

// PruneLayout is Prune that also returns the sitemap's Layout, to prune the same bytes again with
// Layout.Prune. The Layout holds every entry's URLs and place, about as much memory as the file
// itself: it is for a caller that prunes one sitemap many times (watch mode), not for a build.
func PruneLayout(w io.Writer, r io.Reader, keep func(Ref) bool) (Pruned, *Layout, error) {
	l := &Layout{}
	p, err := prune(w, r, keep, l)
	if err != nil {
		return p, nil, err
	}
	l.kind = p.Kind
	return p, l, nil
}

// Layout is what reading a sitemap learned of its bytes: where each token is, and of each entry
// what keep is asked about. Pruning the same bytes again from it gives what Prune gives, byte for
// byte and with the same questions to keep in the same order, without the XML decoder, which is
// nearly all of Prune's time.
type Layout struct {
	kind   Kind
	size   int64
	pieces []piece
}

// piece is one token outside the entries, or one entry, of a Layout.
type piece struct {
	what       pieceKind
	start, end int64
	loc        string // an entry's <loc>
	line       int    // its line
	links      []link // a <url>'s alternates
}

type pieceKind uint8

const (
	otherPiece pieceKind = iota // any token outside the entries but text
	textPiece                   // character data: the white space after an entry left out can go with it
	urlPiece                    // a <url>
	indexPiece                  // a <sitemap> of an index
)

// Prune prunes src, the bytes the Layout was read from, again: what Prune(w,
// bytes.NewReader(src), keep) does, asking keep the same questions. src of another length is an
// error; the caller makes sure that src is those bytes (a hash of them, say).
func (l *Layout) Prune(w io.Writer, src []byte, keep func(Ref) bool) (Pruned, error) {
	if int64(len(src)) != l.size {
		return Pruned{}, fmt.Errorf("sitemap: %d bytes to prune again, and the layout is of %d", len(src), l.size)
	}
	pr := newPruner(w, keep)
	for i := range l.pieces {
		pc := &l.pieces[i]
		raw := src[pc.start:pc.end]
		switch pc.what {
		case otherPiece, textPiece:
			pr.token(raw, pc.what == textPiece)
		case indexPiece:
			pr.index(raw, pc.loc, pc.line)
		case urlPiece:
			pr.url(raw, pc.start, pc.loc, pc.line, pc.links)
		}
		if pr.ed.err != nil {
			return pr.p, pr.ed.err
		}
	}
	return pr.finish(l.kind)
}

// prune is Prune, recording the sitemap's layout in l when l is not nil.
func prune(w io.Writer, r io.Reader, keep func(Ref) bool, l *Layout) (Pruned, error) {
	s := newScanner(r)
	pr := newPruner(w, keep)
	var links []link
	for {
		t, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return pr.p, err
		}
		if !s.isEntry(t) {
			_, text := t.Token.(xml.CharData)
			pr.token(s.rec.bytes(t.start, t.end), text)
			if l != nil {
				what := otherPiece
				if text {
					what = textPiece
				}
				l.pieces = append(l.pieces, piece{what: what, start: t.start, end: t.end})
			}
			s.rec.discard(t.end)
			if pr.ed.err != nil {
				return pr.p, pr.ed.err
			}
			continue
		}
		var e Entry
		links = links[:0]
		end, err := s.entry(t, &e, &links)
		if err != nil {
			return pr.p, err
		}
		raw := s.rec.bytes(t.start, end)
		if s.kind == Index {
			pr.index(raw, e.Loc, e.Line)
		} else {
			pr.url(raw, t.start, e.Loc, e.Line, links)
		}
		if l != nil {
			pc := piece{what: urlPiece, start: t.start, end: end, loc: e.Loc, line: e.Line}
			if s.kind == Index {
				pc.what = indexPiece
			} else if len(links) > 0 {
				pc.links = slices.Clone(links)
			}
			l.pieces = append(l.pieces, pc)
		}
		s.rec.discard(end)
		if pr.ed.err != nil {
			return pr.p, pr.ed.err
		}
	}
	if l != nil {
		l.size = s.dec.InputOffset()
	}
	return pr.finish(s.kind)
}

// pruner is Prune's editing of a sitemap, token by token and entry by entry, whoever reads them
// (the XML decoder, or a Layout).
type pruner struct {
	bw      *bufio.Writer
	ed      *editor
	keep    func(Ref) bool
	p       Pruned
	dropped bool // the entry before this token was left out; the white space after it is open
}

func newPruner(w io.Writer, keep func(Ref) bool) *pruner {
	bw := bufio.NewWriterSize(w, 64<<10)
	return &pruner{bw: bw, ed: &editor{w: bw}, keep: keep}
}

// open closes the white space after an entry left out, before the token raw (text when it is
// character data), and returns what of raw is left to write.
func (pr *pruner) open(raw []byte, text bool) []byte {
	if !pr.dropped {
		return raw
	}
	pr.dropped = false
	var after []byte
	if text {
		after = raw
	}
	return raw[pr.ed.drop(after):]
}

// token copies a token outside the entries.
func (pr *pruner) token(raw []byte, text bool) {
	pr.ed.write(pr.open(raw, text))
}

// index copies an index's <sitemap> entry, telling keep its <loc>.
func (pr *pruner) index(raw []byte, loc string, line int) {
	pr.open(raw, false)
	if loc != "" {
		pr.keep(Ref{URL: loc, Line: line, Index: true})
	}
	pr.ed.write(raw)
}

// url copies or leaves out a <url> entry, raw, which starts at offset start of the file, and of
// one kept its alternates keep rejects.
func (pr *pruner) url(raw []byte, start int64, loc string, line int, links []link) {
	pr.open(raw, false)
	pr.p.URLs++
	if loc != "" && !pr.keep(Ref{URL: loc, Line: line}) {
		pr.p.Removed++
		pr.dropped = true
		return
	}
	from := 0
	for _, l := range links {
		pr.p.Alternates++
		if pr.keep(Ref{URL: l.Href, Line: l.Line, Alternate: true, Hreflang: l.Hreflang, Entry: loc}) {
			continue
		}
		pr.p.AlternatesRemoved++
		pr.ed.write(raw[from : l.start-start])
		from = int(l.end-start) + pr.ed.drop(raw[l.end-start:])
	}
	pr.ed.write(raw[from:])
}

// finish ends the output of a sitemap of kind k.
func (pr *pruner) finish(k Kind) (Pruned, error) {
	if pr.dropped {
		pr.ed.drop(nil)
	}
	pr.ed.flush()
	if pr.ed.err == nil {
		pr.ed.err = pr.bw.Flush()
	}
	pr.p.Kind = k
	return pr.p, pr.ed.err
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
