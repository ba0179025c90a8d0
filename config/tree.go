package config

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/robotsmith/robotsmith/internal/tomldepth"
	"gopkg.in/yaml.v3"
)

// node is a configuration value with the line it was written on, whatever the file format, so that
// every error can name file:line.
type node struct {
	line  int
	kind  nodeKind
	value any      // scalar: string, bool, int64, float64, nil
	keys  []string // map keys in file order
	klns  []int    // the line of each key, parallel to keys
	vals  []*node  // map values, parallel to keys
	items []*node  // list items
}

type nodeKind int

const (
	scalarNode nodeKind = iota
	mapNode
	listNode
)

func (k nodeKind) String() string {
	switch k {
	case mapNode:
		return "a map"
	case listNode:
		return "a list"
	}
	return "a value"
}

// parseYAML reads YAML, keeping lines. Aliases are expanded within
// aliasBudget, and nesting is bounded by maxDepth.
func parseYAML(src []byte) (*node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &node{kind: mapNode, line: 1}, nil
	}
	budget := aliasBudget(len(src))
	return fromYAML(doc.Content[0], 0, 0, &budget)
}

// fromYAML builds the tree of y at depth; via is the line of the alias being
// expanded (0 outside aliases), where an expansion over budget is reported.
func fromYAML(y *yaml.Node, depth, via int, budget *int) (*node, error) {
	for y.Kind == yaml.AliasNode {
		if via == 0 {
			via = y.Line
		}
		y = y.Alias
	}
	if *budget--; *budget < 0 {
		line := y.Line
		if via > 0 {
			line = via
		}
		return nil, &lineError{line, ErrAliases}
	}
	if depth > maxDepth {
		return nil, &lineError{y.Line, ErrTooDeep}
	}
	n := &node{line: y.Line}
	switch y.Kind {
	case yaml.MappingNode:
		n.kind = mapNode
		for i := 0; i+1 < len(y.Content); i += 2 {
			v, err := fromYAML(y.Content[i+1], depth+1, via, budget)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, y.Content[i].Value)
			n.klns = append(n.klns, y.Content[i].Line)
			n.vals = append(n.vals, v)
		}
	case yaml.SequenceNode:
		n.kind = listNode
		for _, c := range y.Content {
			v, err := fromYAML(c, depth+1, via, budget)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
	default:
		n.kind = scalarNode
		if y.Tag == "!!null" {
			return n, nil
		}
		var v any
		if err := y.Decode(&v); err != nil {
			return nil, &lineError{y.Line, err}
		}
		n.value = v
	}
	return n, nil
}

// lineError is a problem the tree builders found at a line.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }

// parseJSON reads JSON with encoding/json's tokenizer, keeping lines: a
// robotsmith.json is JSON, not the YAML that accepts most of it (and more),
// so its errors are JSON's and nothing that is not JSON passes.
func parseJSON(src []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	lines := newLineIndex(src)
	// The line of the token just read: tokens do not span lines.
	at := func() int { return lines.line(int(dec.InputOffset()) - 1) }
	var value func(tok json.Token, depth int) (*node, error)
	value = func(tok json.Token, depth int) (*node, error) {
		n := &node{line: at()}
		if depth > maxDepth {
			return nil, &lineError{n.line, ErrTooDeep}
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				n.kind = mapNode
			} else {
				n.kind = listNode
			}
			for dec.More() {
				if n.kind == mapNode {
					k, err := dec.Token()
					if err != nil {
						return nil, jsonError(err, lines)
					}
					key, _ := k.(string)
					n.keys = append(n.keys, key)
					n.klns = append(n.klns, at())
				}
				tok, err := dec.Token()
				if err != nil {
					return nil, jsonError(err, lines)
				}
				v, err := value(tok, depth+1)
				if err != nil {
					return nil, err
				}
				if n.kind == mapNode {
					n.vals = append(n.vals, v)
				} else {
					n.items = append(n.items, v)
				}
			}
			if _, err := dec.Token(); err != nil { // the closing delimiter
				return nil, jsonError(err, lines)
			}
		case json.Number:
			n.kind = scalarNode
			if i, err := t.Int64(); err == nil {
				n.value = i
			} else if f, err := t.Float64(); err == nil {
				n.value = f
			} else {
				n.value = t.String()
			}
		default: // string, bool, nil
			n.kind = scalarNode
			n.value = t
		}
		return n, nil
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return &node{kind: mapNode, line: 1}, nil
	}
	if err != nil {
		return nil, jsonError(err, lines)
	}
	root, err := value(tok, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = &lineError{at(), errors.New("json: more after the configuration's closing brace")}
		}
		return nil, jsonError(err, lines)
	}
	return root, nil
}

// jsonError puts the line of a syntax error's offset on it.
func jsonError(err error, lines lineIndex) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset is where the tokenizer stood: before the blanks in front
		// of the character it could not take.
		off := int(se.Offset)
		for off < len(lines.src) && strings.IndexByte(" \t\r\n", lines.src[off]) >= 0 {
			off++
		}
		return &lineError{lines.line(off), fmt.Errorf("json: %s", se.Error())}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &lineError{lines.line(len(lines.src) - 1), errors.New("json: the file ends before the configuration does")}
	}
	return err
}

// lineIndex turns offsets into 1-based lines.
type lineIndex struct {
	src    []byte
	starts []int
}

func newLineIndex(src []byte) lineIndex {
	li := lineIndex{src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

func (li lineIndex) line(off int) int {
	n, _ := slices.BinarySearch(li.starts, off+1)
	return max(n, 1)
}

// parseTOML reads TOML with BurntSushi/toml. That library keeps key positions private, so the lines
// come from tomlLines, a small scan of the source for table headers and `key =` lines.
func parseTOML(src []byte) (*node, error) {
	if line := tomldepth.Line(src, maxDepth); line > 0 {
		return nil, &lineError{line, ErrTooDeep}
	}
	var m map[string]any
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&m)
	if err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, k := range md.Keys() {
		order[k.String()] = i
	}
	return fromTOML(m, "", tomlLines(src), order, 1), nil
}

func fromTOML(v any, path string, lines map[string]int, order map[string]int, parent int) *node {
	line := lines[path]
	if line == 0 {
		line = parent
	}
	n := &node{line: line}
	switch v := v.(type) {
	case map[string]any:
		n.kind = mapNode
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// File order: by the line that defines the key, then by the decoder's key order (which does
		// not tell entries of an array of tables apart).
		sort.Slice(keys, func(i, j int) bool {
			li, lj := lines[join(path, keys[i])], lines[join(path, keys[j])]
			if li != lj {
				return li < lj
			}
			return order[join(path, keys[i])] < order[join(path, keys[j])]
		})
		for _, k := range keys {
			vn := fromTOML(v[k], join(path, k), lines, order, line)
			n.keys = append(n.keys, k)
			n.klns = append(n.klns, vn.line)
			n.vals = append(n.vals, vn)
		}
	case []map[string]any:
		n.kind = listNode
		for i, item := range v {
			n.items = append(n.items, fromTOML(item, join(path, strconv.Itoa(i)), lines, order, line))
		}
	case []any:
		n.kind = listNode
		for i, item := range v {
			n.items = append(n.items, fromTOML(item, join(path, strconv.Itoa(i)), lines, order, line))
		}
	default:
		n.kind = scalarNode
		n.value = v
	}
	return n
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// tomlLines maps dotted key paths ("headers.format", "rules.1.path") to the line that defines them.
// Array-of-tables entries are numbered from 0 in the order they appear.
func tomlLines(src []byte) map[string]int {
	lines := map[string]int{}
	count := map[string]int{}
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), len(src)+1)
	for n := 1; sc.Scan(); n++ {
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || strings.HasPrefix(s, "#"):
		case strings.HasPrefix(s, "[["):
			name := tomlKey(strings.TrimSuffix(strings.TrimPrefix(s, "[["), "]]"))
			if i := strings.Index(name, "]]"); i >= 0 {
				name = name[:i]
			}
			table = join(name, strconv.Itoa(count[name]))
			count[name]++
			lines[table] = n
			if _, ok := lines[name]; !ok {
				lines[name] = n
			}
		case strings.HasPrefix(s, "["):
			name := strings.TrimPrefix(s, "[")
			if i := strings.Index(name, "]"); i >= 0 {
				name = name[:i]
			}
			table = tomlKey(name)
			lines[table] = n
		default:
			if i := strings.Index(s, "="); i > 0 {
				lines[join(table, tomlKey(s[:i]))] = n
			}
		}
	}
	return lines
}

// tomlKey normalises a (possibly dotted or quoted) TOML key.
func tomlKey(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
