package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/problem"
)

// decodeJSON reads one JSON object starting at start in src and returns it with the offset after
// it. Hugo ends JSON front matter where the object ends, wherever that is on the line.
//
// An object that encoding/json finds valid is read by walkJSON, which allocates only the Nodes and
// their text; anything else (an error to report, a value nested too deep) is read again token by
// token by decodeJSONTokens, whose messages and offsets are the ones reported. Both give the same
// Nodes for a valid object (FuzzJSONWalk checks it).
func (d *Document) decodeJSON(src []byte, start int) (*Node, int, error) {
	if n, end, ok := walkJSON(src, start); ok {
		return n, end, nil
	}
	return d.decodeJSONTokens(src, start)
}

// decodeJSONTokens is decodeJSON token by token: encoding/json's Decoder gives each token's end
// offset, and its errors.
func (d *Document) decodeJSONTokens(src []byte, start int) (*Node, int, error) {
	j := jsonConv{d: d, src: src, base: start}
	j.dec = json.NewDecoder(bytes.NewReader(src[start:]))
	j.dec.UseNumber()
	if len(bytes.TrimSpace(src[start:])) == 0 {
		return newMap(start), len(src), nil
	}
	n, err := j.value(0)
	if err != nil {
		return nil, 0, j.error(err)
	}
	if n.Kind != KindMap {
		return nil, 0, d.errAt(problem.SourceNotAMap, n.Off, true, notMap("json: want an object of keys to values, got "+n.describe()))
	}
	return n, start + int(j.dec.InputOffset()), nil
}

type jsonConv struct {
	d    *Document
	src  []byte
	base int
	dec  *json.Decoder
}

// next is the offset in the file of the next token.
func (j *jsonConv) next() int {
	i := j.base + int(j.dec.InputOffset())
	for i < len(j.src) && strings.IndexByte(" \t\r\n,:", j.src[i]) >= 0 {
		i++
	}
	return i
}

// errDeep carries the offset of a value nested too deep.
type errDeep struct{ off int }

func (e errDeep) Error() string { return "too deep" }

func (j *jsonConv) value(depth int) (*Node, error) {
	off := j.next()
	if depth > maxDepth {
		return nil, errDeep{off}
	}
	tok, err := j.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return j.object(off, depth)
		}
		return j.array(off, depth)
	case string:
		return &Node{Kind: KindString, Off: off, Text: t}, nil
	case bool:
		return &Node{Kind: KindBool, Off: off, Bool: t, Text: strconv.FormatBool(t)}, nil
	case json.Number:
		n := &Node{Kind: KindFloat, Off: off, Text: t.String()}
		if i, err := t.Int64(); err == nil {
			n.Kind, n.Int = KindInt, i
		} else if f, err := t.Float64(); err == nil {
			n.Num = f
		}
		return n, nil
	}
	return &Node{Kind: KindNull, Off: off}, nil
}

func (j *jsonConv) object(off, depth int) (*Node, error) {
	m := newMap(off)
	for j.dec.More() {
		koff := j.next()
		tok, err := j.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := j.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m.set(key, koff, v)
	}
	_, err := j.dec.Token() // }
	return m, err
}

func (j *jsonConv) array(off, depth int) (*Node, error) {
	l := &Node{Kind: KindList, Off: off}
	for j.dec.More() {
		v, err := j.value(depth + 1)
		if err != nil {
			return nil, err
		}
		l.List = append(l.List, v)
		l.depth = max(l.depth, v.depth+1)
	}
	_, err := j.dec.Token() // ]
	return l, err
}

func (j *jsonConv) error(err error) error {
	var se *json.SyntaxError
	var deep errDeep
	switch {
	case errors.As(err, &deep):
		return j.d.errAt(problem.SourceTooDeep, deep.off, true, fmt.Errorf("json: %w (more than %d levels)", ErrDepth, maxDepth))
	case errors.As(err, &se):
		off := min(j.base+int(se.Offset), len(j.src))
		// The Decoder's offset is where it began reading the value it failed on (the start of
		// `three` in "tags": three); Unmarshal's check of the same bytes stops right after the
		// byte it cannot take, and says what it was looking for.
		var exact *json.SyntaxError
		if errors.As(json.Unmarshal(j.src[j.base:], &struct{}{}), &exact) && exact.Offset > 0 {
			se, off = exact, min(j.base+int(exact.Offset)-1, len(j.src))
		}
		return j.d.errAt(problem.SourceSyntax, max(off, j.base), true, fmt.Errorf("json: %s", shortMessage(strings.TrimPrefix(se.Error(), "json: "))))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return j.d.errAt(problem.SourceSyntax, len(j.src), true, errors.New("json: object not closed before the end of the file"))
	}
	return j.d.errAt(problem.SourceSyntax, j.base, true, fmt.Errorf("json: %s", shortMessage(err.Error())))
}

// walkJSON reads the JSON object at src[start] when encoding/json finds it valid (json.Valid
// allocates nothing on valid input), and reports ok false otherwise: it then reads nothing. Being
// valid, the object needs no checks as it is walked, only its values' offsets and text; a string
// with an escape or a byte that is not ASCII is unquoted by encoding/json, as the token decoder
// does (invalid UTF-8 becomes U+FFFD). This walk is written by hand because encoding/json has no
// way to read a value's offsets short of its Decoder's tokens, which allocate for every value.
func walkJSON(src []byte, start int) (*Node, int, bool) {
	end, closed := jsonEnd(src, start)
	if !closed || !json.Valid(src[start:end]) {
		return nil, 0, false
	}
	w := jsonWalk{src: src[:end], at: start}
	n := w.value(0)
	if w.deep || n == nil || n.Kind != KindMap {
		return nil, 0, false
	}
	return n, w.at, true
}

// jsonWalk reads a valid JSON text; at is the offset of the next byte to read.
type jsonWalk struct {
	src  []byte
	at   int
	deep bool // a value is nested deeper than maxDepth: left to the token decoder's error
}

func (w *jsonWalk) skipSpace() {
	for w.at < len(w.src) {
		switch w.src[w.at] {
		case ' ', '\t', '\r', '\n', ',', ':':
			w.at++
		default:
			return
		}
	}
}

// value reads the value at the next non-space byte (after any ',' or ':' before it).
func (w *jsonWalk) value(depth int) *Node {
	w.skipSpace()
	off := w.at
	if depth > maxDepth {
		w.deep = true
		return nil
	}
	switch c := w.src[off]; c {
	case '{':
		m := newMap(off)
		w.at++
		for w.skipSpace(); w.src[w.at] != '}'; w.skipSpace() {
			koff := w.at
			key := w.string()
			v := w.value(depth + 1)
			if v == nil {
				return nil
			}
			m.set(key, koff, v)
		}
		w.at++
		return m
	case '[':
		l := &Node{Kind: KindList, Off: off}
		w.at++
		for w.skipSpace(); w.src[w.at] != ']'; w.skipSpace() {
			v := w.value(depth + 1)
			if v == nil {
				return nil
			}
			l.List = append(l.List, v)
			l.depth = max(l.depth, v.depth+1)
		}
		w.at++
		return l
	case '"':
		return &Node{Kind: KindString, Off: off, Text: w.string()}
	case 't':
		w.at += len("true")
		return &Node{Kind: KindBool, Off: off, Bool: true, Text: "true"}
	case 'f':
		w.at += len("false")
		return &Node{Kind: KindBool, Off: off, Text: "false"}
	case 'n':
		w.at += len("null")
		return &Node{Kind: KindNull, Off: off}
	}
	// A number: it runs to the next byte that cannot be in one.
	for w.at < len(w.src) && strings.IndexByte("+-.0123456789eE", w.src[w.at]) >= 0 {
		w.at++
	}
	t := json.Number(w.src[off:w.at])
	n := &Node{Kind: KindFloat, Off: off, Text: t.String()}
	if i, err := t.Int64(); err == nil {
		n.Kind, n.Int = KindInt, i
	} else if f, err := t.Float64(); err == nil {
		n.Num = f
	}
	return n
}

// string reads the string at w.at and returns its value.
func (w *jsonWalk) string() string {
	start := w.at
	plain := true // ASCII with no escape: the value is the text between the quotes
	w.at++
	for c := w.src[w.at]; c != '"'; c = w.src[w.at] {
		if c == '\\' {
			w.at++ // the escaped byte; a \uXXXX's digits are read as plain bytes
		}
		plain = plain && c != '\\' && c < utf8.RuneSelf
		w.at++
	}
	w.at++
	if plain {
		return string(w.src[start+1 : w.at-1])
	}
	var s string
	_ = json.Unmarshal(w.src[start:w.at], &s) // valid: json.Valid said so
	return s
}
