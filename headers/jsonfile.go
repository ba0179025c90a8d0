package headers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/problem"
)

// A JSON file that a user writes and robotsmith edits (vercel.json, firebase.json) is read into
// values that keep their place in the bytes, so that robotsmith can replace the entries it owns
// and keep every other byte: the user's entries, key order, spacing and comments (firebase.json
// may hold // and /* */ comments, which the Firebase CLI reads).

// jsonValue is one value of the file and where it is.
type jsonValue struct {
	kind       byte // '{', '[', '"', or 'x' for a number or literal
	start, end int  // the value's bytes, [start, end)
	str        string
	members    []jsonMember // an object's
	elems      []jsonElem   // an array's
}

// jsonMember is one member of an object. pre is the first byte after the '{' or ',' before it,
// post the ',' or '}' after its value.
type jsonMember struct {
	key       string
	keyStart  int
	val       *jsonValue
	pre, post int
}

// jsonElem is one element of an array, with pre and post as for jsonMember.
type jsonElem struct {
	val       *jsonValue
	pre, post int
}

// member returns the object's member named key (the last, as JSON readers keep), or nil.
func (v *jsonValue) member(key string) *jsonMember {
	var m *jsonMember
	for i := range v.members {
		if v.members[i].key == key {
			m = &v.members[i]
		}
	}
	return m
}

// jsonError is a JSON file robotsmith cannot read: a syntax error at a line and column.
type jsonError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *jsonError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Problem is the error as a problem.Problem of code problem.HostFileInvalid; its Error() is Error().
func (e *jsonError) Problem() problem.Problem {
	return *problem.New(problem.HostFileInvalid, problem.Position{File: e.File, Line: e.Line, Col: e.Col}, e.Msg)
}

// jsonMaxDepth bounds nesting, so that no file can make the reader recurse without end.
const jsonMaxDepth = 200

type jsonReader struct {
	data  []byte
	pos   int
	file  string
	depth int
}

// readJSON reads data, which must hold one object (after an optional byte order mark).
func readJSON(data []byte, file string) (*jsonValue, error) {
	r := &jsonReader{data: data, file: file}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		r.pos = 3
	}
	if err := r.space(); err != nil {
		return nil, err
	}
	if r.pos >= len(data) || data[r.pos] != '{' {
		return nil, r.fail("the file must hold a JSON object")
	}
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	if err := r.space(); err != nil {
		return nil, err
	}
	if r.pos < len(data) {
		return nil, r.fail("text after the JSON object")
	}
	return v, nil
}

func (r *jsonReader) fail(msg string) error {
	line, col := 1, 1
	for i := 0; i < r.pos && i < len(r.data); i++ {
		if r.data[i] == '\n' {
			line, col = line+1, 1
		} else if utf8.RuneStart(r.data[i]) {
			col++
		}
	}
	return &jsonError{File: r.file, Line: line, Col: col, Msg: msg}
}

// space skips white space and comments.
func (r *jsonReader) space() error {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			r.pos++
		case c == '/' && r.pos+1 < len(r.data) && r.data[r.pos+1] == '/':
			i := bytes.IndexByte(r.data[r.pos:], '\n')
			if i < 0 {
				r.pos = len(r.data)
			} else {
				r.pos += i + 1
			}
		case c == '/' && r.pos+1 < len(r.data) && r.data[r.pos+1] == '*':
			i := bytes.Index(r.data[r.pos+2:], []byte("*/"))
			if i < 0 {
				return r.fail("a /* comment without */")
			}
			r.pos += 2 + i + 2
		default:
			return nil
		}
	}
	return nil
}

func (r *jsonReader) value() (*jsonValue, error) {
	if r.pos >= len(r.data) {
		return nil, r.fail("the file ends where a value should be")
	}
	start := r.pos
	switch c := r.data[r.pos]; c {
	case '{', '[':
		r.depth++
		if r.depth > jsonMaxDepth {
			return nil, r.fail(fmt.Sprintf("nested more than %d deep", jsonMaxDepth))
		}
		defer func() { r.depth-- }()
		if c == '{' {
			return r.object()
		}
		return r.array()
	case '"':
		s, err := r.string()
		if err != nil {
			return nil, err
		}
		return &jsonValue{kind: '"', start: start, end: r.pos, str: s}, nil
	default:
		for r.pos < len(r.data) && strings.IndexByte("+-.0123456789eEtruefalsn", r.data[r.pos]) >= 0 {
			r.pos++
		}
		if !json.Valid(r.data[start:r.pos]) {
			r.pos = start
			return nil, r.fail("not a JSON value")
		}
		return &jsonValue{kind: 'x', start: start, end: r.pos}, nil
	}
}

func (r *jsonReader) string() (string, error) {
	start := r.pos
	r.pos++
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '\\':
			r.pos += 2
			continue
		case '"':
			r.pos++
			var s string
			if err := json.Unmarshal(r.data[start:r.pos], &s); err != nil {
				r.pos = start
				return "", r.fail("not a JSON string")
			}
			return s, nil
		case '\n':
			r.pos = start
			return "", r.fail("a string that runs past the end of its line")
		}
		r.pos++
	}
	r.pos = start
	return "", r.fail("a string without its closing quote")
}

func (r *jsonReader) object() (*jsonValue, error) {
	v := &jsonValue{kind: '{', start: r.pos}
	r.pos++
	for {
		pre := r.pos
		if err := r.space(); err != nil {
			return nil, err
		}
		if r.pos < len(r.data) && r.data[r.pos] == '}' && len(v.members) == 0 {
			r.pos++
			v.end = r.pos
			return v, nil
		}
		if r.pos >= len(r.data) || r.data[r.pos] != '"' {
			return nil, r.fail(`expected a member's name in "quotes"`)
		}
		m := jsonMember{keyStart: r.pos, pre: pre}
		k, err := r.string()
		if err != nil {
			return nil, err
		}
		m.key = k
		if err := r.space(); err != nil {
			return nil, err
		}
		if r.pos >= len(r.data) || r.data[r.pos] != ':' {
			return nil, r.fail("expected ':' after a member's name")
		}
		r.pos++
		if err := r.space(); err != nil {
			return nil, err
		}
		if m.val, err = r.value(); err != nil {
			return nil, err
		}
		if err := r.space(); err != nil {
			return nil, err
		}
		m.post = r.pos
		v.members = append(v.members, m)
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if r.pos < len(r.data) && r.data[r.pos] == '}' {
			r.pos++
			v.end = r.pos
			return v, nil
		}
		return nil, r.fail("expected ',' or '}' after a member")
	}
}

func (r *jsonReader) array() (*jsonValue, error) {
	v := &jsonValue{kind: '[', start: r.pos}
	r.pos++
	for {
		pre := r.pos
		if err := r.space(); err != nil {
			return nil, err
		}
		if r.pos < len(r.data) && r.data[r.pos] == ']' && len(v.elems) == 0 {
			r.pos++
			v.end = r.pos
			return v, nil
		}
		e := jsonElem{pre: pre}
		var err error
		if e.val, err = r.value(); err != nil {
			return nil, err
		}
		if err := r.space(); err != nil {
			return nil, err
		}
		e.post = r.pos
		v.elems = append(v.elems, e)
		if r.pos < len(r.data) && r.data[r.pos] == ',' {
			r.pos++
			continue
		}
		if r.pos < len(r.data) && r.data[r.pos] == ']' {
			r.pos++
			v.end = r.pos
			return v, nil
		}
		return nil, r.fail("expected ',' or ']' after an element")
	}
}

// lineOf is the 1-based line of byte offset off.
func lineOf(data []byte, off int) int { return bytes.Count(data[:off], []byte("\n")) + 1 }

// lineIndex gives the lines of many offsets of one file without counting from the start each time.
type lineIndex []int // the offsets of the file's line breaks

func newLineIndex(data []byte) lineIndex {
	var idx lineIndex
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, i)
		}
	}
	return idx
}

// line is the 1-based line of byte offset off.
func (idx lineIndex) line(off int) int { return sort.SearchInts(idx, off) + 1 }

// withoutComments is a JSON value's bytes with its comments blanked out, for decoding.
func withoutComments(b []byte) []byte {
	if !bytes.Contains(b, []byte("/")) {
		return b
	}
	out := append([]byte(nil), b...)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// canonical is the hash of a JSON value that does not change with spacing, comments or key
// order: robotsmith's record of an entry it wrote, which the user's formatter may reflow.
func canonical(b []byte) (string, bool) {
	var v any
	if err := json.Unmarshal(withoutComments(b), &v); err != nil {
		return "", false
	}
	c, err := json.Marshal(v) // maps are written with sorted keys
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), true
}

// jsonStyle is how a file is indented, so that new entries look like the user's.
type jsonStyle struct {
	unit    string // one level of indentation; "" for a file on one line
	compact bool
	nl      string // the line break: "\r\n" in a file that uses it, else "\n"
}

// styleOf finds the indentation of the first indented line of data, and its line break.
func styleOf(data []byte) jsonStyle {
	st := styleOfIndent(data)
	st.nl = "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	return st
}

func styleOfIndent(data []byte) jsonStyle {
	for rest := data; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		if n > 0 && n < len(rest) && rest[n] != '\n' && rest[n] != '\r' {
			return jsonStyle{unit: string(rest[:n])}
		}
	}
	if bytes.Contains(bytes.TrimSpace(data), []byte("\n")) {
		return jsonStyle{unit: "  "}
	}
	return jsonStyle{compact: true}
}

// indentAt is the white space that begins the line holding byte offset off.
func indentAt(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// render writes v as JSON at indentation ind (the first line without it), in style st.
func (st jsonStyle) render(v any, ind string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !st.compact {
		enc.SetIndent(ind, st.unit)
	}
	if err := enc.Encode(v); err != nil {
		panic("headers: encoding a host entry: " + err.Error()) // entries are strings only
	}
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "\n", st.nl)
}

// spliceArray returns the text of arr (from '[' through ']') with the elements keep[i] false left
// out and the entries added inserted before original element at (len(arr.elems) for the end).
// Kept elements keep their bytes, with the spacing and comments before them.
func spliceArray(data []byte, arr *jsonValue, keep []bool, added []any, at int, st jsonStyle) string {
	var lead, closing string
	switch {
	case st.compact:
		lead = ""
	case len(arr.elems) > 0:
		lead = st.nl + indentAt(data, arr.elems[0].val.start)
	default:
		lead = st.nl + indentAt(data, arr.start) + st.unit
	}
	ind := strings.TrimPrefix(lead, st.nl)
	if len(arr.elems) > 0 {
		last := arr.elems[len(arr.elems)-1]
		closing = string(data[last.val.end : arr.end-1])
	} else if !st.compact {
		closing = st.nl + indentAt(data, arr.start)
	}
	var items []string
	emitNew := func() {
		for _, a := range added {
			items = append(items, lead+st.render(a, ind))
		}
	}
	// The first element keeps the spacing after '[' that the first element had, where both are
	// only spacing.
	firstLead := ""
	if len(arr.elems) > 0 {
		firstLead = string(data[arr.elems[0].pre:arr.elems[0].val.start])
	}
	for i, e := range arr.elems {
		if i == at {
			emitNew()
		}
		if !keep[i] {
			continue
		}
		pre := string(data[e.pre:e.val.start])
		if len(items) == 0 && strings.TrimSpace(pre) == "" && strings.TrimSpace(firstLead) == "" {
			pre = firstLead
		}
		text := pre + string(data[e.val.start:e.val.end])
		if i < len(arr.elems)-1 {
			text += string(data[e.val.end:e.post])
		}
		items = append(items, text)
	}
	if at >= len(arr.elems) {
		emitNew()
	}
	if len(items) == 0 {
		return "[]"
	}
	return "[" + strings.Join(items, ",") + closing + "]"
}

// record is robotsmith's record of the entries it wrote into a JSON file.
type record struct {
	Robotsmith string   `json:"robotsmith"`
	Entries    []string `json:"sha256"`
}

// makeRecord writes the record of entries (as canonical hashes).
func makeRecord(file string, hashes []string) []byte {
	r := record{Robotsmith: "the entries robotsmith wrote into " + file + "; it replaces exactly these on its next build", Entries: hashes}
	if r.Entries == nil {
		r.Entries = []string{}
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// readRecord reads a record; ok is false when it cannot be read.
func readRecord(b []byte) (hashes map[string]int, ok bool) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil || r.Entries == nil {
		return nil, false
	}
	hashes = map[string]int{}
	for _, h := range r.Entries {
		hashes[h]++
	}
	return hashes, true
}

// owned tells which elements of arr robotsmith wrote: those the record lists (each hash as many
// times as listed), or, with no record to go by, those identical to an entry robotsmith writes
// now (the record was lost: an entry of the user's that robotsmith would write as it is can only
// mean the same). A finding says when the record cannot be read.
func owned(data []byte, arr *jsonValue, rec []byte, now []string, file string) ([]bool, []Finding) {
	var findings []Finding
	counts, ok := map[string]int(nil), false
	if rec != nil {
		counts, ok = readRecord(rec)
		if !ok {
			findings = append(findings, Finding{File: file, Line: 1, Code: problem.HostRecordUnreadable, Msg: "robotsmith's record of the entries it wrote here cannot be read; entries identical to the ones it writes now are taken as its own, and the others are kept"})
		}
	}
	if !ok {
		counts = map[string]int{}
		for _, h := range now {
			counts[h]++
		}
	}
	mine := make([]bool, 0)
	if arr != nil {
		mine = make([]bool, len(arr.elems))
		for i, e := range arr.elems {
			if h, ok := canonical(data[e.val.start:e.val.end]); ok && counts[h] > 0 {
				counts[h]--
				mine[i] = true
			}
		}
	}
	return mine, findings
}

// hashesOf returns the canonical hashes of entries as robotsmith writes them.
func hashesOf(entries []any) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			panic("headers: encoding a host entry: " + err.Error())
		}
		out[i], _ = canonical(b)
	}
	return out
}

// replaceEntries returns data with robotsmith's entries of the array member name of obj replaced
// by entries: in place of the first one it wrote before, else at the end. When obj has no such
// member, one is added after its last member. mine marks robotsmith's old entries.
func replaceEntries(data []byte, obj *jsonValue, name string, mine []bool, entries []any) []byte {
	st := styleOf(data)
	m := obj.member(name)
	if m == nil {
		if len(entries) == 0 {
			return data
		}
		var memberInd string
		var out []byte
		if len(obj.members) > 0 {
			last := obj.members[len(obj.members)-1]
			memberInd = indentAt(data, last.keyStart)
			text := `"` + name + `": ` + st.render(entries, memberInd)
			sep := "," + st.nl + memberInd
			if st.compact {
				sep = ","
			}
			out = append(out, data[:last.val.end]...)
			out = append(out, sep+text...)
			out = append(out, data[last.val.end:]...)
			return out
		}
		objInd := indentAt(data, obj.start)
		memberInd = objInd + st.unit
		text := `"` + name + `": ` + st.render(entries, memberInd)
		inner := st.nl + memberInd + text + st.nl + objInd
		if st.compact {
			inner = text
		}
		out = append(out, data[:obj.start]...)
		out = append(out, "{"+inner+"}"...)
		out = append(out, data[obj.end:]...)
		return out
	}
	arr := m.val
	keep := make([]bool, len(arr.elems))
	at := len(arr.elems)
	for i := range arr.elems {
		keep[i] = !mine[i]
		if mine[i] && at == len(arr.elems) {
			at = i
		}
	}
	text := spliceArray(data, arr, keep, entries, at, st)
	var out []byte
	out = append(out, data[:arr.start]...)
	out = append(out, text...)
	out = append(out, data[arr.end:]...)
	return out
}
