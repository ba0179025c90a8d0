package indexability

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
)

// Writer writes a record file: the header, then one line per Write.
type Writer struct {
	w      *bufio.Writer
	enc    *json.Encoder
	last   string // the URL written last
	n      int    // records written
	header bool   // the header is written
	err    error  // the first error; every call after it returns it
}

// NewWriter writes a record file to w, buffered: Close flushes it.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false) // a URL's & stays &: the file is read by tools, not put in a page
	return &Writer{w: bw, enc: enc}
}

// Write writes r as the next line. r's URL must come after the last one written, in byte order
// (ErrOrder otherwise); a record that Reader would refuse is refused here, and nothing of it is
// written.
func (w *Writer) Write(r *Record) error {
	if w.err != nil {
		return w.err
	}
	if err := r.check(w.last, w.n == 0); err != nil {
		return err
	}
	w.writeHeader()
	if w.err == nil {
		w.err = w.enc.Encode(normalized(r))
	}
	w.last = r.URL
	w.n++
	return w.err
}

// Close writes the header if no record came (an empty site has a record too), and flushes. It does
// not close the writer NewWriter was given.
func (w *Writer) Close() error {
	w.writeHeader()
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

func (w *Writer) writeHeader() {
	if w.header || w.err != nil {
		return
	}
	w.header = true
	w.err = w.enc.Encode(Header{Format: Format, Version: Version})
}

// normalized is r with an empty list where it has none: no field of a record is ever null. The
// caller's record is left as it was.
func normalized(r *Record) *Record {
	c := *r
	if c.Agents == nil {
		c.Agents = []Agent{}
	}
	if slices.ContainsFunc(c.Agents, func(a Agent) bool { return a.From == nil }) {
		c.Agents = slices.Clone(c.Agents)
		for i := range c.Agents {
			if c.Agents[i].From == nil {
				c.Agents[i].From = []From{}
			}
		}
	}
	if c.Sitemaps == nil {
		c.Sitemaps = []Source{}
	}
	if c.XRobotsTag == nil {
		c.XRobotsTag = []Value{}
	}
	return &c
}

// MaxLine is the longest line Reader reads: a record lists each agent the site names, and a page
// may name 10,000 of them (rules.MaxAgents), a few MB of directives and sources; past this the file
// is not one robotsmith wrote.
const MaxLine = 16 << 20

// Reader reads a record file, one record at a time.
type Reader struct {
	br     *bufio.Reader
	name   string // the file's name in messages
	line   int    // the line last read, 1-based
	buf    []byte
	last   string
	n      int
	header bool
	err    error
}

// NewReader reads the record file r, naming it name in its errors ("old.jsonl:12: ...").
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), name: name}
}

// Name is the name NewReader was given.
func (r *Reader) Name() string { return r.name }

// Next is the next record, or io.EOF after the last. A file that does not begin with the header of
// this version, a line that is not a record (an unknown field, a value of the wrong type, trailing
// data), a record Writer would refuse, or a URL out of order is an error (*frontmatter.Error: the
// file and line, then what is wrong), and so is every call after it: a record is read whole or
// not at all.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return rec, nil
}

func (r *Reader) next() (*Record, error) {
	for {
		line, err := r.readLine()
		if err == io.EOF {
			if !r.header {
				return nil, r.errorf("empty: not a robotsmith indexability record (its first line is the header %s)", headerLine())
			}
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !r.header {
			if err := r.readHeader(line); err != nil {
				return nil, err
			}
			r.header = true
			continue
		}
		var rec Record
		if err := decodeStrict(line, &rec); err != nil {
			return nil, r.errorf("%v", err)
		}
		if err := rec.check(r.last, r.n == 0); err != nil {
			return nil, r.errorf("%w", err)
		}
		r.last = rec.URL
		r.n++
		return &rec, nil
	}
}

func (r *Reader) readHeader(line []byte) error {
	var h Header
	if err := decodeStrict(line, &h); err != nil || h.Format != Format {
		return r.errorf("not a robotsmith indexability record: its first line is not the header %s", headerLine())
	}
	if h.Version != Version {
		return r.errorf("a record of version %d; this robotsmith reads version %d (write both records with the same robotsmith)", h.Version, Version)
	}
	return nil
}

func headerLine() string {
	b, _ := json.Marshal(Header{Format: Format, Version: Version})
	return string(b)
}

// readLine reads the next line, without its line break, into r.buf; io.EOF when none is left.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if len(r.buf) > MaxLine {
			r.line++
			return nil, r.errorf("a line longer than %d MiB: not a record robotsmith wrote", MaxLine>>20)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(r.buf) == 0:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, &frontmatter.Error{File: r.name, Err: err, Code: problem.IOError}
		}
		r.line++
		return bytes.TrimSuffix(r.buf, []byte("\n")), nil
	}
}

func (r *Reader) errorf(format string, args ...any) error {
	return &frontmatter.Error{File: r.name, Line: r.line, Err: fmt.Errorf(format, args...), Code: problem.RecordUnreadable}
}

// decodeStrict reads one JSON object into v, refusing fields v does not have and anything after
// the object: a field this robotsmith does not know is something it would not compare.
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("not JSON at byte %d: %v", se.Offset, se)
		case errors.As(err, &te):
			return fmt.Errorf("field %s: a JSON %s where the record has %s", excerpt.Quote(te.Field), te.Value, jsonKind(te.Type.Kind()))
		case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
			return errors.New("the line ends inside a JSON value (a record cut short)")
		}
		// `json: unknown field "x"`, which quotes the field whole: at most an excerpt of it.
		return fmt.Errorf("%s (a field this robotsmith does not read)", excerpt.Cut(strings.TrimPrefix(err.Error(), "json: ")))
	}
	if rest := bytes.TrimSpace(line[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("%s after the record's JSON object", excerpt.Quote(string(rest)))
	}
	return nil
}

// jsonKind names what a Go kind is in JSON, for messages.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a number"
}
