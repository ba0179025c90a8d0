package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	adrg "github.com/adrg/frontmatter"
)

// Document is one source file's front matter.
type Document struct {
	File   string         // as given to Parse (slash path relative to the site root)
	Format string         // "yaml", "toml", "json"; "" when the file has no front matter
	Fields map[string]any // decoded front matter (nil without front matter); keys as written
	Body   []byte         // the content after the front matter (the whole file without one)

	src   []byte            // the whole file, for turning offsets into line:col
	start int               // offset of the front matter block's first byte in src
	lines []int             // offsets of the lines from start on (built by offAt)
	keys  map[string]keyPos // lower-case top-level key -> the key as written and where
	// cascade holds the offset of each `cascade` list entry, in order; nil
	// when cascade is a single map or absent (its key's offset is used).
	cascade []int
	// raw holds the scalar text of top-level values as written in YAML (for
	// dates the decoder turned into time.Time), by lower-case key.
	raw map[string]string
}

// keyPos is where a top-level key is written.
type keyPos struct {
	name string // the key as written
	off  int    // offset of the key in the file
}

const bom = "\uFEFF"

// capture is what the custom adrg formats fill in: adrg finds the front
// matter block and its delimiters, and we keep the block's raw bytes so that
// we can decode it ourselves with positions (adrg decodes with yaml.v2 and
// no positions).
type capture struct {
	format string
	raw    []byte
	found  bool
}

func captureAs(format string) adrg.UnmarshalFunc {
	return func(data []byte, v any) error {
		c, ok := v.(*capture)
		if !ok {
			return fmt.Errorf("frontmatter: internal error: capture into %T", v)
		}
		c.format, c.raw, c.found = format, data, true
		return nil
	}
}

// Parse reads src. A file with no front matter is not an error (Format "").
// Malformed front matter returns *Error with File, Line (1-based, in the file,
// not in the front matter block) and Col when known.
//
// Front matter is what Hugo reads: YAML between `---` lines, TOML between
// `+++` lines, or a JSON object at the start of the file. A UTF-8 byte order
// mark and blank lines before it are skipped. An opening `---` or `+++` with
// no closing line is not front matter (Jekyll copies such a file as is).
func Parse(file string, src []byte) (doc *Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, &Error{File: file, Err: fmt.Errorf("front matter: internal error: %v", r)}
		}
	}()
	d := &Document{File: file, Body: src, src: src}
	off := 0
	if bytes.HasPrefix(src, []byte(bom)) {
		off = len(bom)
	}
	lineStart, lineEnd := firstLine(src, off)
	if lineStart < len(src) && src[lineStart] == '{' && looksLikeJSON(src[lineStart+1:]) {
		if err := d.parseJSON(lineStart); err != nil {
			return nil, err
		}
		return d, nil
	}

	// Most files a site holds have no front matter: answer them without
	// adrg, which would copy the whole file into its buffer first.
	if open := string(bytes.TrimSpace(src[lineStart:lineEnd])); open != "---" && open != "+++" {
		return d, nil
	}
	// adrg finds the block; YAML and TOML only, see parseJSON for why JSON
	// is found by hand.
	var c capture
	rest, err := adrg.Parse(bytes.NewReader(src[off:]), &c,
		adrg.NewFormat("---", "---", captureAs("yaml")),
		adrg.NewFormat("+++", "+++", captureAs("toml")),
	)
	if err != nil {
		return nil, &Error{File: file, Err: fmt.Errorf("front matter: %w", err)}
	}
	if !c.found {
		return d, nil
	}
	// The block starts right after the opening delimiter's line, which is
	// the first non-blank line, as adrg reads it.
	d.start = lineEnd
	if d.start+len(c.raw) > len(src) || !bytes.Equal(src[d.start:d.start+len(c.raw)], c.raw) {
		return nil, &Error{File: file, Err: errors.New("front matter: internal error: block not found where expected")}
	}
	d.Body = src[len(src)-len(rest):]
	d.Format = c.format
	switch c.format {
	case "yaml":
		err = d.decodeYAML(c.raw)
	case "toml":
		err = d.decodeTOML(c.raw)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// firstLine returns the start of the first line at or after off that is not
// blank, and the start of the line after it (len(src) at the end).
func firstLine(src []byte, off int) (start, next int) {
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		next = len(src)
		if end >= 0 {
			next = off + end + 1
		}
		if len(bytes.TrimSpace(src[off:next])) > 0 {
			return off, next
		}
		off = next
	}
	return len(src), len(src)
}

// looksLikeJSON reports whether the bytes after an opening `{` begin a JSON
// object ("key" or `}` after optional space), so that a Liquid or Go template
// opening a page ({% ... %}, {{ ... }}) is not taken for front matter.
func looksLikeJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '"' || b[0] == '}')
}

// lineCol turns an offset in the file into a 1-based line and column
// (counting runes; a byte order mark is not a column).
func (d *Document) lineCol(off int) (line, col int) {
	return lineColIn(d.src, off)
}

func lineColIn(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	if ls == 0 && bytes.HasPrefix(src, []byte(bom)) && off >= len(bom) {
		ls = len(bom)
	}
	return line, 1 + utf8.RuneCount(src[ls:off])
}

// errAt returns an *Error at offset off of the file.
func (d *Document) errAt(off int, withCol bool, err error) *Error {
	line, col := d.lineCol(off)
	if !withCol {
		col = 0
	}
	return &Error{File: d.File, Line: line, Col: col, Err: err}
}

// setKey records where a top-level key is written. A key written again (a
// TOML table extended by a later header) keeps its first place; of keys that
// differ only in case the last one written wins, as a later key overrides an
// earlier one.
func (d *Document) setKey(name string, off int) {
	if d.keys == nil {
		d.keys = map[string]keyPos{}
	}
	lk := strings.ToLower(name)
	if old, ok := d.keys[lk]; ok && (old.name == name || old.off > off) {
		return
	}
	d.keys[lk] = keyPos{name: name, off: off}
}

// lookup finds a top-level key case-insensitively and returns it as written.
func (d *Document) lookup(key string) (string, bool) {
	if d == nil || d.Fields == nil {
		return "", false
	}
	if p, ok := d.keys[strings.ToLower(key)]; ok {
		if _, ok := d.Fields[p.name]; ok {
			return p.name, true
		}
	}
	return lookupFold(d.Fields, key)
}

// lookupFold finds key in m case-insensitively: the exact key if present,
// else the greatest of the keys that fold to it (a fixed, documented choice).
func lookupFold(m map[string]any, key string) (string, bool) {
	if _, ok := m[key]; ok {
		return key, true
	}
	var names []string
	for k := range m {
		if strings.EqualFold(k, key) {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	sort.Strings(names)
	return names[len(names)-1], true
}

// Get looks up a top-level key, case-insensitively.
func (d *Document) Get(key string) (any, bool) {
	k, ok := d.lookup(key)
	if !ok {
		return nil, false
	}
	return d.Fields[k], true
}

// String returns a top-level string or number as text, "" if absent or of
// another type.
func (d *Document) String(key string) string {
	v, _ := d.Get(key)
	return scalarString(v)
}

func scalarString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case time.Time:
		return formatTime(v)
	}
	return ""
}

// Bool reports whether a top-level key is true or a string strconv.ParseBool
// reads as true ("true", "TRUE", "1", ...).
func (d *Document) Bool(key string) bool {
	v, _ := d.Get(key)
	b, ok := toBool(v)
	return ok && b
}

// toBool reads a boolean front-matter value; ok is false for other types and
// for text that is not a boolean. Besides true and false it takes what
// strconv.ParseBool reads ("TRUE", "1", ...), YAML 1.1's yes/no/on/off
// (Jekyll's YAML reader makes them booleans; yaml.v3 leaves them strings),
// and the integers 0 and 1 (Hugo's cast.ToBool).
func toBool(v any) (b, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case int:
		return v == 1, v == 0 || v == 1
	case int64:
		return v == 1, v == 0 || v == 1
	case string:
		s := strings.TrimSpace(v)
		switch strings.ToLower(s) {
		case "yes", "on":
			return true, true
		case "no", "off":
			return false, true
		}
		b, err := strconv.ParseBool(s)
		return b, err == nil
	}
	return false, false
}

// Time returns a top-level date: a time the decoder produced (YAML and TOML
// dates), or a string in one of the forms front matter uses.
func (d *Document) Time(key string) (time.Time, bool) {
	v, _ := d.Get(key)
	return toTime(v)
}

func toTime(v any) (time.Time, bool) {
	switch v := v.(type) {
	case time.Time:
		return v, true
	case string:
		s := strings.TrimSpace(v)
		// The date forms Hugo and Jekyll accept in front matter.
		for _, layout := range [...]string{
			time.RFC3339Nano,
			"2006-01-02T15:04:05",
			"2006-01-02 15:04:05 -0700",
			"2006-01-02 15:04:05 -07:00",
			"2006-01-02 15:04:05Z07:00",
			"2006-01-02 15:04:05",
			"2006-01-02",
			time.RFC1123Z,
			time.RFC1123,
			time.RFC850,
		} {
			if t, err := time.Parse(layout, s); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// formatTime writes a decoded date: TOML's local dates and date-times as
// written (they carry no zone), anything else as RFC 3339.
func formatTime(t time.Time) string {
	switch t.Location().String() {
	case "date-local":
		return t.Format("2006-01-02")
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	case "time-local":
		return t.Format("15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}

// Line returns the 1-based line in the file of a top-level key
// (case-insensitive), 0 if absent.
func (d *Document) Line(key string) int {
	if d == nil {
		return 0
	}
	k, ok := d.lookup(key)
	if !ok {
		return 0
	}
	p, ok := d.keys[strings.ToLower(k)]
	if !ok || p.name != k {
		return 0
	}
	line, _ := d.lineCol(p.off)
	return line
}
