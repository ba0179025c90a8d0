package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/problem"
)

// Format is how a block is written.
type Format string

// The formats read.
const (
	YAML Format = "yaml"
	TOML Format = "toml"
	JSON Format = "json"
)

// Dialect is whose rules find the front matter block in a file.
type Dialect uint8

const (
	// Hugo: after a byte order mark and blank lines, YAML between `---` lines, TOML between `+++`
	// lines, or a JSON object; robots keys are read at the top and under `params`, and
	// expiryDate/unpublishDate give unavailable_after.
	Hugo Dialect = iota
	// Jekyll: YAML only, opened by `---` on the first line and closed by `---` or `...`. A block
	// its YAML reader cannot read is a warning, as Jekyll builds such a page without its data.
	Jekyll
)

// Document is one file's front matter (or one whole configuration file).
type Document struct {
	File   string // as given to Parse (slash path relative to the site root)
	Format Format // "" when the file has no front matter
	// Root is the front matter, always a map (empty when the block is); nil without front matter.
	Root *Node
	Body []byte // the content after the front matter (the whole file without one)
	// Warnings are problems the generator lets pass, each an *Error: Jekyll builds a page whose
	// YAML it cannot read with no data at all, so robotsmith says so and reads no keys.
	Warnings []error
	// Unreadable says the block is one Jekyll's YAML reader refuses: Jekyll builds the page
	// without its front matter (Root is empty, and a warning says why), so its mapping must not
	// use what its front matter would have given it either (a post's date from its file name).
	Unreadable bool

	dialect Dialect
	what    string // "front matter" or "config", the start of every message
	src     []byte // the file up to the end of the block, for turning offsets into lines
	lines   []int  // offsets of the lines of src, built on first use
}

const bom = "\uFEFF"

// Parse reads the front matter of src with dialect's rules. A file with no front matter is not an
// error (Format ""). Malformed front matter is an *Error at the file's line and column (not the
// block's); every message quotes at most a short excerpt of the input.
func Parse(file string, src []byte, dialect Dialect) (*Document, error) {
	d := &Document{File: file, Body: src, dialect: dialect, what: "front matter"}
	b, ok := split(src, dialect)
	if b.unclosed != "" {
		d.src = src
		return nil, d.errAt(problem.FrontMatterUnclosed, b.start, true, fmt.Errorf("no closing %q line after this one (Hugo refuses the page)", b.unclosed))
	}
	if !ok {
		return d, nil
	}
	d.Format = b.format
	d.src = src[:b.end]
	var root *Node
	var err error
	switch b.format {
	case JSON:
		var end int
		d.src = src
		root, end, err = d.decodeJSON(src, b.start)
		if err == nil {
			d.Body = src[skipNewline(src, end):]
			d.src, d.lines = src[:end], nil
		}
	default:
		root, err = d.decode(b.format, src[b.start:b.stop], b.start)
		d.Body = src[b.end:]
	}
	if err != nil {
		if dialect != Jekyll {
			return nil, err // Hugo refuses the page
		}
		// Jekyll prints a warning and builds the page without its front matter, unless the block
		// holds a robots key, which robotsmith cannot read then: the page its author meant to
		// restrict must not be published.
		var fe *Error
		if name, off, ok := robotsKeyLine(src[b.start:b.stop]); ok {
			if errors.As(err, &fe) {
				fe.Code = problem.RobotsKeyUnreadable
				fe.Err = fmt.Errorf("%w; the block sets %s at line %d, which robotsmith cannot read (Jekyll would build the page without it)",
					fe.Err, excerpt(name), d.Line(b.start+off))
				fe.Related = []problem.Related{{Position: problem.Position{File: d.File, Line: d.Line(b.start + off)}, Msg: "the robots key"}}
			}
			return nil, err
		}
		// The warning is the reader's error, said as Jekyll's: the same place, its own code.
		if w, ok := err.(*Error); ok {
			w.Code = problem.FrontMatterSkipped
			w.Err = fmt.Errorf("%w (Jekyll builds the page without its front matter)", w.Err)
			d.Warnings = append(d.Warnings, w)
		} else {
			d.Warnings = append(d.Warnings, fmt.Errorf("%w (Jekyll builds the page without its front matter)", err))
		}
		d.Root = newMap(b.start)
		d.Unreadable = true
		return d, nil
	}
	d.Root = root
	return d, nil
}

// Decode reads a whole configuration file (hugo.toml, _config.yml, ...) of the given format.
func Decode(file string, src []byte, format Format) (*Document, error) {
	d := &Document{File: file, Format: format, Body: nil, what: "config", src: src}
	var root *Node
	var err error
	if format == JSON {
		var end int
		root, end, err = d.decodeJSON(src, 0)
		if err == nil && len(bytes.TrimSpace(src)) == 0 {
			root = newMap(0)
		}
		// A file is one object, as encoding/json, which Hugo reads hugo.json with, takes it.
		if rest := bytes.TrimLeft(src[min(end, len(src)):], " \t\r\n"); err == nil && len(rest) > 0 {
			err = d.errAt(problem.SourceSyntax, len(src)-len(rest), true, errors.New("json: more after the object's closing brace"))
		}
	} else {
		root, err = d.decode(format, src, 0)
	}
	if err != nil {
		return nil, err
	}
	d.Root = root
	return d, nil
}

func (d *Document) decode(f Format, block []byte, base int) (*Node, error) {
	switch f {
	case YAML:
		return d.decodeYAML(block, base)
	case TOML:
		return d.decodeTOML(block, base)
	}
	return nil, d.errAt(problem.SourceSyntax, base, false, fmt.Errorf("unknown format %q", f))
}

// block is where split found the front matter: the block's bytes are src[start:stop], and the
// content starts at end (after the closing line).
type block struct {
	format           Format
	start, stop, end int
	// unclosed is the opening line of a Hugo block that has no closing line, which starts at
	// start; "" otherwise.
	unclosed string
}

// split finds the front matter block. An opening `---` or `+++` with no closing line is an error
// for Hugo, which refuses such a page ("EOF looking for end YAML front matter delimiter"), and not
// front matter for Jekyll, which takes the file as content.
func split(src []byte, dialect Dialect) (block, bool) {
	off := 0
	if bytes.HasPrefix(src, []byte(bom)) {
		off = len(bom)
	}
	start, next := off, lineEnd(src, off)
	if dialect == Hugo {
		start, next = firstLine(src, off)
		if start < len(src) && src[start] == '{' && looksLikeJSON(src[start+1:]) {
			return block{format: JSON, start: start}, true
		}
	}
	open := string(bytes.TrimRight(src[start:next], " \t\r\n"))
	var format Format
	switch {
	case open == "---":
		format = YAML
	case open == "+++" && dialect == Hugo:
		format = TOML
	default:
		return block{}, false
	}
	for off := next; off < len(src); {
		end := lineEnd(src, off)
		line := string(bytes.TrimRight(src[off:end], " \t\r\n"))
		if line == open || (dialect == Jekyll && line == "...") {
			return block{format: format, start: next, stop: off, end: end}, true
		}
		off = end
	}
	if dialect == Hugo {
		return block{start: start, unclosed: open}, false
	}
	return block{}, false
}

// lineEnd is the offset after the line starting at off (after its newline, or len(src)).
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// firstLine returns the start of the first line at or after off that is not blank, and the start
// of the line after it (len(src) at the end).
func firstLine(src []byte, off int) (start, next int) {
	for off < len(src) {
		next = lineEnd(src, off)
		if len(bytes.TrimSpace(src[off:next])) > 0 {
			return off, next
		}
		off = next
	}
	return len(src), len(src)
}

func skipNewline(src []byte, off int) int {
	if bytes.HasPrefix(src[off:], []byte("\r\n")) {
		return off + 2
	}
	if bytes.HasPrefix(src[off:], []byte("\n")) {
		return off + 1
	}
	return off
}

// looksLikeJSON reports whether the bytes after an opening `{` begin a JSON object ("key" or `}`
// after optional space), so that a Liquid or Go template opening a page is not taken for front
// matter.
func looksLikeJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '"' || b[0] == '}')
}

// robotsKeyLine finds, in a block the YAML reader refused, a key that is one of robotsmith's in
// Jekyll (robots, noindex, nofollow, unavailable_after, in any case), or looks like one misspelt
// and has a value on its line that would hide the page (typos.go's policy, the value read as
// text): its name and offset in the block. A key is the text before a ':' back to the start of its
// line, a list's `- `, a flow map's `{` or `,`, or a quote around it, at any indentation. Text
// inside a broken value can look like a key: the block is then an error where Jekyll builds the
// page, which is the side to err on.
func robotsKeyLine(b []byte) (name string, off int, ok bool) {
	for start := 0; start < len(b); {
		end := lineEnd(b, start)
		line := b[start:end]
		for i := bytes.IndexByte(line, ':'); i >= 0; {
			key := bytes.TrimRight(line[:i], " \t")
			if n := len(key); n > 0 && (key[n-1] == '"' || key[n-1] == '\'') {
				if j := bytes.LastIndexByte(key[:n-1], key[n-1]); j >= 0 {
					key = key[j+1 : n-1]
				}
			} else if j := bytes.LastIndexAny(key, "{,[:\"'"); j >= 0 {
				key = key[j+1:]
			}
			key = bytes.TrimSpace(key)
			for len(key) > 1 && (key[0] == '-' || key[0] == '?') && (key[1] == ' ' || key[1] == '\t') {
				key = bytes.TrimSpace(key[1:])
			}
			k := string(key)
			if slices.ContainsFunc(robotsKeys(Jekyll), func(r string) bool { return strings.EqualFold(r, k) }) {
				return k, start + bytes.Index(line, key), true
			}
			if near, ok := resemblesRobotsKey(k); ok {
				v := line[i+1:]
				if c := bytes.Index(v, []byte(" #")); c >= 0 {
					v = v[:c]
				}
				v = bytes.Trim(v, " \t\r\n\"'[]{}")
				if hides, _ := misspeltEffect(near, &Node{Kind: KindString, Text: string(v)}); hides {
					return k, start + bytes.Index(line, key), true
				}
			}
			next := bytes.IndexByte(line[i+1:], ':')
			if next < 0 {
				break
			}
			i += 1 + next
		}
		start = end
	}
	return "", 0, false
}

// LineCol turns an offset in the file into a 1-based line and column (counting runes; a byte
// order mark is not a column).
func (d *Document) LineCol(off int) (line, col int) {
	line, off = d.lineOf(off)
	ls := d.lines[line-1]
	if ls == 0 && bytes.HasPrefix(d.src, []byte(bom)) && off >= len(bom) {
		ls = len(bom)
	}
	return line, 1 + utf8.RuneCount(d.src[ls:off])
}

// Line is the 1-based line of an offset. It does not count the line's characters up to the
// offset, as LineCol does, which on a file of one long line (a JSON object of 40,000 keys) would
// make naming every key's line quadratic.
func (d *Document) Line(off int) int {
	l, _ := d.lineOf(off)
	return l
}

// lineOf is the 1-based line of an offset, and the offset kept within the file.
func (d *Document) lineOf(off int) (line, clamped int) {
	if d.lines == nil {
		d.lines = make([]int, 1, 1+bytes.Count(d.src, []byte{'\n'})) // sized once: no regrowth
		for i := 0; i < len(d.src); {
			j := bytes.IndexByte(d.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			d.lines = append(d.lines, i)
		}
	}
	off = min(max(off, 0), len(d.src))
	return sort.SearchInts(d.lines, off+1), off // lines starting at or before off
}

// offAt turns a 1-based line and column (in runes) counted from the line holding base into an
// offset in the file.
func (d *Document) offAt(base, line, col int) int {
	d.LineCol(0)
	first := d.Line(base)
	idx := first - 1 + max(line, 1) - 1
	if idx >= len(d.lines) {
		return len(d.src)
	}
	off := d.lines[idx]
	if line <= 1 {
		off = base
	}
	for i := 1; i < col && off < len(d.src) && d.src[off] != '\n'; i++ {
		_, n := utf8.DecodeRune(d.src[off:])
		off += n
	}
	return off
}

// errAt returns an *Error at offset off of the file, its message starting with the document's
// kind ("front matter: ...").
func (d *Document) errAt(code problem.Code, off int, withCol bool, err error) *Error {
	line, col := d.LineCol(off)
	if !withCol {
		col = 0
	}
	return &Error{File: d.File, Line: line, Col: col, Code: code, Err: fmt.Errorf("%s: %w", d.what, err)}
}

// ErrDepth is wrapped by the error for values nested deeper than maxDepth, so that a reader with
// a lower limit of its own (robotsmith's configuration) can report both alike.
var ErrDepth = errors.New("values nested too deep")

// ErrNotMap is wrapped by the error for a block or file whose top level is a list or a single
// value, not a map of keys, so that a reader can say what it wants instead.
var ErrNotMap = errors.New("not a map of keys")

// notMap is the message of an ErrNotMap, as each format words it.
type notMap string

func (e notMap) Error() string { return string(e) }
func (e notMap) Unwrap() error { return ErrNotMap }

// maxDepth is how deep values may nest; no front matter or configuration comes near it, and the
// limit keeps a hostile file from costing time or stack.
const maxDepth = 100
