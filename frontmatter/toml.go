package frontmatter

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/robotsmith/robotsmith/problem"
)

// decodeTOML reads a TOML block with go-toml's parser (the one Hugo uses), whose syntax tree keeps
// the byte range of every key and value, and builds the Nodes from its expressions: key/value
// lines, [tables] and [[arrays of tables]]. Semantic checks that the parser leaves to its decoder
// (a key defined twice) are not made: the last one wins, never stricter than the generator.
func (d *Document) decodeTOML(block []byte, base int) (*Node, error) {
	t := tomlConv{d: d, block: block, base: base}
	root := newMap(base)
	current := root
	p := tomlParsers.Get().(*unstable.Parser)
	defer func() {
		p.Reset(nil) // let go of the block
		tomlParsers.Put(p)
	}()
	p.Reset(block)
	for p.NextExpression() {
		e := p.Expression()
		var err error
		switch e.Kind {
		case unstable.KeyValue:
			err = t.keyValue(current, e, 0)
		case unstable.Table:
			current, err = t.table(root, e.Key(), false)
		case unstable.ArrayTable:
			current, err = t.table(root, e.Key(), true)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := p.Error(); err != nil {
		return nil, t.parseError(err)
	}
	return root, nil
}

// tomlParsers keeps go-toml's parsers from block to block. A parser's node buffer grows to hold
// the largest expression, and Reset keeps it: a fresh parser per page allocated it again, the
// largest share of what reading TOML front matter allocated. Nothing a caller can see is kept:
// every conversion is done before its parser goes back.
var tomlParsers = sync.Pool{New: func() any { return new(unstable.Parser) }}

type tomlConv struct {
	d     *Document
	block []byte
	base  int
}

func (t *tomlConv) off(n *unstable.Node) int { return t.base + int(n.Raw.Offset) }

func (t *tomlConv) parseError(err error) error {
	var pe *unstable.ParserError
	if !errors.As(err, &pe) {
		return t.d.errAt(problem.SourceSyntax, t.base, false, fmt.Errorf("toml: %s", shortMessage(err.Error())))
	}
	off := t.base
	// The highlight is a slice of the block: its offset is how much shorter its capacity is.
	if o := cap(t.block) - cap(pe.Highlight); pe.Highlight != nil && o >= 0 && o <= len(t.block) {
		off += o
	}
	return t.d.errAt(problem.SourceSyntax, off, true, fmt.Errorf("toml: %s", shortMessage(pe.Message)))
}

// walk follows the key parts of a table header from root, creating maps on the way; a part
// naming an array of tables goes into its last table, as TOML says.
func (t *tomlConv) walk(from *Node, parts []*unstable.Node) (*Node, error) {
	cur := from
	for _, k := range parts {
		name := string(k.Data)
		next := cur.Get(name)
		switch {
		case next == nil || next.Kind != KindMap && next.Kind != KindList:
			next = newMap(t.off(k))
			cur.set(name, t.off(k), next)
		case next.Kind == KindList && len(next.List) > 0 && next.List[len(next.List)-1].Kind == KindMap:
			next = next.List[len(next.List)-1]
		case next.Kind == KindList:
			m := newMap(t.off(k))
			next.List = append(next.List, m)
			next = m
		}
		cur = next
	}
	return cur, nil
}

func keyParts(it unstable.Iterator) []*unstable.Node {
	var parts []*unstable.Node
	for it.Next() {
		parts = append(parts, it.Node())
	}
	return parts
}

// table opens a [table] or an [[array of tables]] entry and returns the map that the following
// key/value lines fill.
func (t *tomlConv) table(root *Node, key unstable.Iterator, array bool) (*Node, error) {
	parts := keyParts(key)
	if len(parts) > maxDepth {
		return nil, t.d.errAt(problem.SourceTooDeep, t.off(parts[0]), true, fmt.Errorf("toml: %w (more than %d levels)", ErrDepth, maxDepth))
	}
	if !array {
		return t.walk(root, parts)
	}
	parent, err := t.walk(root, parts[:len(parts)-1])
	if err != nil {
		return nil, err
	}
	last := parts[len(parts)-1]
	name := string(last.Data)
	list := parent.Get(name)
	if list == nil || list.Kind != KindList {
		list = &Node{Kind: KindList, Off: t.off(last)}
		parent.set(name, t.off(last), list)
	}
	entry := newMap(t.off(last))
	list.List = append(list.List, entry)
	list.depth = max(list.depth, 1)
	return entry, nil
}

// keyValue sets a (possibly dotted) key of table m.
func (t *tomlConv) keyValue(m *Node, e *unstable.Node, depth int) error {
	parts := keyParts(e.Key())
	if len(parts) == 0 {
		return nil
	}
	owner, err := t.walk(m, parts[:len(parts)-1])
	if err != nil {
		return err
	}
	last := parts[len(parts)-1]
	v, err := t.value(e.Value(), t.off(last), depth+len(parts))
	if err != nil {
		return err
	}
	owner.set(string(last.Data), t.off(last), v)
	return nil
}

// value converts a value node; at is the offset of its key, for values whose own range the parser
// does not keep (arrays).
func (t *tomlConv) value(n *unstable.Node, at, depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, t.d.errAt(problem.SourceTooDeep, at, true, fmt.Errorf("toml: %w (more than %d levels)", ErrDepth, maxDepth))
	}
	switch n.Kind {
	case unstable.Array:
		out := &Node{Kind: KindList, Off: at}
		for it := n.Children(); it.Next(); {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			v, err := t.value(c, at, depth+1)
			if err != nil {
				return nil, err
			}
			out.List = append(out.List, v)
			out.depth = max(out.depth, v.depth+1)
		}
		return out, nil
	case unstable.InlineTable:
		out := newMap(t.off(n))
		for it := n.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				if err := t.keyValue(out, c, depth+1); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	return tomlScalar(n, t.off(n)), nil
}

// The zones of TOML's local dates and times, as BurntSushi/toml names them, so that formatTime
// writes them back as written.
var (
	tomlLocalDate     = time.FixedZone("date-local", 0)
	tomlLocalDateTime = time.FixedZone("datetime-local", 0)
	tomlLocalTime     = time.FixedZone("time-local", 0)
)

// tomlScalar converts a scalar the parser has checked. A literal that still does not convert
// stays a string.
func tomlScalar(n *unstable.Node, off int) *Node {
	raw := string(n.Data)
	out := &Node{Kind: KindString, Off: off, Text: raw}
	switch n.Kind {
	case unstable.Bool:
		out.Kind, out.Bool = KindBool, raw == "true"
	case unstable.Integer:
		if i, err := strconv.ParseInt(strings.ReplaceAll(raw, "_", ""), 0, 64); err == nil {
			out.Kind, out.Int = KindInt, i
		}
	case unstable.Float:
		if f, err := strconv.ParseFloat(strings.ReplaceAll(raw, "_", ""), 64); err == nil {
			out.Kind, out.Num = KindFloat, f
		}
	case unstable.DateTime, unstable.LocalDateTime, unstable.LocalDate, unstable.LocalTime:
		if t, ok := tomlTime(n.Kind, raw); ok {
			out.Kind, out.Time = KindTime, t
		}
	}
	return out
}

func tomlTime(k unstable.Kind, raw string) (time.Time, bool) {
	s := raw
	if len(s) > 10 && (s[10] == ' ' || s[10] == 't') {
		s = s[:10] + "T" + s[11:]
	}
	s = strings.Replace(s, "z", "Z", 1)
	var layout string
	loc := time.UTC
	switch k {
	case unstable.DateTime:
		layout = time.RFC3339Nano
	case unstable.LocalDateTime:
		layout, loc = "2006-01-02T15:04:05.999999999", tomlLocalDateTime
	case unstable.LocalDate:
		layout, loc = "2006-01-02", tomlLocalDate
	default:
		layout, loc = "15:04:05.999999999", tomlLocalTime
	}
	t, err := time.ParseInLocation(layout, s, loc)
	return t, err == nil
}
