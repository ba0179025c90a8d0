package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// decodeJSON reads one JSON object starting at start in src, token by token (encoding/json's
// Decoder gives each token's end offset), and returns it with the offset after it. Hugo ends JSON
// front matter where the object ends, wherever that is on the line.
func (d *Document) decodeJSON(src []byte, start int) (*Node, int, error) {
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
		return nil, 0, d.errAt(n.Off, true, fmt.Errorf("json: want an object of keys to values, got %s", n.describe()))
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
		return j.d.errAt(deep.off, true, fmt.Errorf("json: %w (more than %d levels)", errDepth, maxDepth))
	case errors.As(err, &se):
		off := min(j.base+int(se.Offset), len(j.src))
		return j.d.errAt(max(off, j.base), true, fmt.Errorf("json: %s", shortMessage(strings.TrimPrefix(se.Error(), "json: "))))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return j.d.errAt(len(j.src), true, errors.New("json: object not closed before the end of the file"))
	}
	return j.d.errAt(j.base, true, fmt.Errorf("json: %s", shortMessage(err.Error())))
}
