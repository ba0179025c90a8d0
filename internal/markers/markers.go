// Package markers finds and replaces robotsmith's own block in a text file
// that takes '#' comments, such as a host's `_headers` or a site's
// robots.txt: the lines from "# robotsmith: begin" through
// "# robotsmith: end". Everything outside the block belongs to the user or
// the theme and is kept byte for byte.
//
// Usage:
//
//	old, _ := os.ReadFile("public/robots.txt") // nil when the file is missing
//	out, err := markers.Merge(old, block)      // block runs from Begin through End and its line break
//	if err != nil {
//		return err // a begin marker without an end marker: *markers.Error, "robots.txt:3: ..."
//	}
//
// A marker is a line that reads exactly Begin or End once surrounding white
// space is trimmed (a CR before the line break included). A begin marker
// without an end marker after it is an error, not a block that runs to the
// end of the file: where robotsmith's block ends cannot be told from the
// user's lines that follow it, and replacing them would delete them.
package markers

import (
	"bytes"
	"fmt"

	"github.com/robotsmith/robotsmith/problem"
)

// The marker lines, without their line breaks.
const (
	Begin = "# robotsmith: begin"
	End   = "# robotsmith: end"
	// HTMLBegin and HTMLEnd mark robotsmith's block in a Markdown file such
	// as llms.txt, where a line starting with '#' is a heading: an HTML
	// comment is valid Markdown that renders as nothing.
	HTMLBegin = "<!-- robotsmith: begin -->"
	HTMLEnd   = "<!-- robotsmith: end -->"
)

// Style is the kind of marker lines a file takes: Hash ("# robotsmith:
// begin", for files with '#' comments) or HTML (HTMLBegin and HTMLEnd, for
// Markdown files). The package's functions use Hash.
type Style int8

// The styles.
const (
	Hash Style = iota
	HTML
)

// Lines returns the style's begin and end marker lines.
func (st Style) Lines() (begin, end string) {
	if st == HTML {
		return HTMLBegin, HTMLEnd
	}
	return Begin, End
}

// ErrUnclosed is a begin marker with no end marker after it; the error is an
// *Error. It is of code problem.UnclosedBlock.
var ErrUnclosed error = problem.New(problem.UnclosedBlock, problem.Position{}, `"`+Begin+`" has no "`+End+`" after it`)

// Error is a begin marker without an end marker: Merge cannot tell where
// robotsmith's block ends and the user's lines begin, so it refuses rather
// than replace everything after the marker.
type Error struct {
	File string // the file as the caller names it ("public/_headers"); Merge leaves it ""
	Line int    // 1-based line of the begin marker
	// Style is the file's kind of marker lines.
	Style Style
}

func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "the file"
	}
	return fmt.Sprintf("%s:%d: %s", file, e.Line, e.msg())
}

// msg is the message without the place.
func (e *Error) msg() string {
	begin, end := e.Style.Lines()
	unclosed := error(ErrUnclosed)
	if e.Style != Hash {
		unclosed = fmt.Errorf("%q has no %q after it", begin, end)
	}
	return fmt.Sprintf("%v; add %q after robotsmith's lines (or delete this line), so that the lines after it stay yours", unclosed, end)
}

// Problem is the error as a problem.Problem of code problem.UnclosedBlock at the begin marker's
// line; its Error() is Error() once File is set.
func (e *Error) Problem() problem.Problem {
	return *problem.New(problem.UnclosedBlock, problem.Position{File: e.File, Line: e.Line}, e.msg())
}

// Unwrap returns ErrUnclosed.
func (e *Error) Unwrap() error { return ErrUnclosed }

// Span is one robotsmith block of a file.
type Span struct {
	// Start and End are the block's bytes [Start, End): from the first byte
	// of the begin marker's line through the end marker's line break (the
	// end of the file when the block is not closed).
	Start, End int
	Line       int  // 1-based line of the begin marker
	EndLine    int  // 1-based line of the end marker; 0 when not closed
	Closed     bool // an end marker was found
}

// Contains reports whether byte offset off lies inside the block.
func (s Span) Contains(off int) bool { return off >= s.Start && off < s.End }

var bom = []byte("\xef\xbb\xbf")

// Find returns the robotsmith blocks of data in file order. A begin marker
// inside a block and an end marker outside one are ordinary lines.
func Find(data []byte) []Span { return Hash.Find(data) }

// Find is the package's Find for the marker lines of st.
func (st Style) Find(data []byte) []Span {
	begin, end := st.Lines()
	var spans []Span
	inBlock := false
	for off, n := 0, 1; off < len(data); n++ {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		line := data[off:next]
		if off == 0 {
			line = bytes.TrimPrefix(line, bom) // a file may start with a byte order mark
		}
		switch string(bytes.TrimSpace(line)) {
		case begin:
			if !inBlock {
				inBlock = true
				spans = append(spans, Span{Start: off, End: len(data), Line: n})
			}
		case end:
			if inBlock {
				inBlock = false
				s := &spans[len(spans)-1]
				s.End, s.EndLine, s.Closed = next, n, true
			}
		}
		off = next
	}
	return spans
}

// Merge returns existing with its first robotsmith block replaced by block
// and any later blocks removed; existing may be nil (a missing file). With no
// block in existing, block is appended, after a blank line when existing has
// text. An empty block removes the blocks, and leaves a file without one
// as it was. Every byte outside the blocks is kept. A begin marker without an
// end marker is an *Error, and nothing is merged.
func Merge(existing, block []byte) ([]byte, error) { return Hash.Merge(existing, block) }

// Merge is the package's Merge for the marker lines of st.
func (st Style) Merge(existing, block []byte) ([]byte, error) {
	spans := st.Find(existing)
	for _, s := range spans {
		if !s.Closed {
			return nil, &Error{Line: s.Line, Style: st}
		}
	}
	if len(spans) == 0 {
		out := append([]byte(nil), existing...)
		if len(block) == 0 {
			return out, nil
		}
		switch {
		case len(out) == 0:
		case bytes.HasSuffix(out, []byte("\n\n")), bytes.HasSuffix(out, []byte("\r\n\r\n")):
		case bytes.HasSuffix(out, []byte("\n")):
			out = append(out, '\n')
		default:
			out = append(out, '\n', '\n')
		}
		return append(out, block...), nil
	}
	var out []byte
	prev := 0
	for i, s := range spans {
		out = append(out, existing[prev:s.Start]...)
		if i == 0 {
			out = append(out, block...)
		}
		prev = s.End
	}
	return append(out, existing[prev:]...), nil
}
