package frontmatter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/robotsmith/robotsmith/problem"
)

// decodeYAML decodes a YAML block with yaml.v3 into its node tree (which has the line and column
// of every key) and turns that into Nodes. yaml.v3's own decoding into maps is not used: it
// refuses a key written twice (Jekyll and Hugo's readers take the last), its duplicate check is
// quadratic in the number of keys, and it expands aliases.
func (d *Document) decodeYAML(block []byte, base int) (*Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(block, &root); err != nil {
		e := YAMLError(d.File, block, d.Line(base), err)
		e.Err = fmt.Errorf("%s: %w", d.what, e.Err)
		return nil, e
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return newMap(base), nil // empty
	}
	top := root.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return newMap(base), nil // only comments, or ~
	}
	if top.Kind != yaml.MappingNode {
		return nil, d.errAt(problem.SourceNotAMap, d.offAt(base, top.Line, top.Column), true,
			notMap("yaml: want a mapping of keys to values, got "+yamlKind(top)))
	}
	c := yamlConv{d: d, base: base}
	return c.node(top, 0)
}

// yamlConv turns yaml.v3 nodes into Nodes. A node an alias points to is converted once and shared,
// so aliases that fan out (a "billion laughs") cost nothing here; Node.Any bounds their expansion.
// Only an anchored node can be reached twice (through an alias), so only those are remembered, in
// seen, made on the first: most front matter has no anchor and needs no map.
type yamlConv struct {
	d    *Document
	base int
	seen map[*yaml.Node]*Node
}

func (c *yamlConv) off(n *yaml.Node) int { return c.d.offAt(c.base, n.Line, n.Column) }

func (c *yamlConv) node(n *yaml.Node, depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, c.d.errAt(problem.SourceTooDeep, c.off(n), true, fmt.Errorf("yaml: %w (more than %d levels)", ErrDepth, maxDepth))
	}
	if out, ok := c.seen[n]; ok {
		return out, nil
	}
	var out *Node
	var err error
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return &Node{Kind: KindNull, Off: c.off(n)}, nil
		}
		out, err = c.node(n.Alias, depth)
	case yaml.MappingNode:
		out, err = c.mapping(n, depth)
	case yaml.SequenceNode:
		out = &Node{Kind: KindList, Off: c.off(n)}
		if len(n.Content) > 0 {
			out.List = make([]*Node, 0, len(n.Content))
		}
		for _, e := range n.Content {
			v, err := c.node(e, depth+1)
			if err != nil {
				return nil, err
			}
			out.List = append(out.List, v)
			out.depth = max(out.depth, v.depth+1)
		}
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &Node{Kind: KindNull, Off: c.off(n)}, nil
		}
		out, err = c.node(n.Content[0], depth)
	default:
		out = yamlScalar(n, c.off(n))
	}
	if err != nil {
		return nil, err
	}
	if n.Anchor != "" {
		if c.seen == nil {
			c.seen = map[*yaml.Node]*Node{}
		}
		c.seen[n] = out
	}
	return out, nil
}

// mapping converts a mapping: keys in order, a key written again taking the later value, and the
// keys a merge (`<<: *anchor`) brings in only where the mapping does not write them itself.
func (c *yamlConv) mapping(n *yaml.Node, depth int) (*Node, error) {
	out := newMap(c.off(n))
	if len(n.Content) > 0 {
		out.Keys = make([]Key, 0, len(n.Content)/2) // one allocation, not one per doubling
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		val, err := c.node(v, depth+1)
		if err != nil {
			return nil, err
		}
		out.set(yamlKeyName(k), c.off(k), val)
	}
	for _, m := range merges {
		if err := c.merge(out, m, depth); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// merge adds the keys of a merged mapping (an alias, a mapping, or a list of them) that out does
// not have; of several merged mappings the first to write a key wins, as YAML says.
func (c *yamlConv) merge(out *Node, m *yaml.Node, depth int) error {
	if m.Kind == yaml.SequenceNode {
		for _, e := range m.Content {
			if err := c.merge(out, e, depth); err != nil {
				return err
			}
		}
		return nil
	}
	v, err := c.node(m, depth+1)
	if err != nil {
		return err
	}
	for _, k := range v.Keys {
		out.setIfAbsent(k.Name, k.Off, k.Value)
	}
	return nil
}

// yamlKeyName is a key's text; a key that is a list or a map (rare, and never one of robotsmith's)
// is named by its position so that it cannot match a real key.
func yamlKeyName(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	if k.Kind == yaml.AliasNode && k.Alias != nil && k.Alias.Kind == yaml.ScalarNode {
		return k.Alias.Value
	}
	return fmt.Sprintf("\x00%d:%d", k.Line, k.Column)
}

// yamlScalar resolves a scalar by the tag yaml.v3 gave it. Anything it cannot read as its tag
// says (an integer too large, a custom tag such as `!ruby/object`) stays a string: the value
// belongs to the generator, and only robotsmith's own keys are judged, by their readers.
func yamlScalar(n *yaml.Node, off int) *Node {
	out := &Node{Kind: KindString, Off: off, Text: n.Value}
	out.Plain = n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	switch n.ShortTag() {
	case "!!null":
		out.Kind = KindNull
	case "!!bool":
		if b, err := strconv.ParseBool(strings.ToLower(n.Value)); err == nil {
			out.Kind, out.Bool = KindBool, b
		}
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			out.Kind, out.Int = KindInt, i
		}
	case "!!float":
		if f, ok := yamlFloat(n.Value); ok {
			out.Kind, out.Num = KindFloat, f
		}
	case "!!timestamp":
		if t, ok := yamlTime(n.Value); ok {
			out.Kind, out.Time = KindTime, t
		}
	}
	return out
}

func yamlFloat(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case ".inf", "+.inf":
		return math.Inf(1), true
	case "-.inf":
		return math.Inf(-1), true
	case ".nan":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	return f, err == nil
}

// yamlTime reads the timestamp forms yaml.v3 resolves (a date, or a date and time with an
// optional zone); without a zone the time is UTC, as YAML says.
func yamlTime(s string) (time.Time, bool) {
	for _, l := range [...]struct{ sep, layout string }{
		{"T", "2006-1-2T15:4:5.999999999Z07:00"},
		{"t", "2006-1-2t15:4:5.999999999Z07:00"},
		{" ", "2006-1-2 15:4:5.999999999"},
		{"", "2006-1-2"},
	} {
		// A layout whose separator s lacks cannot match it, and time.Parse would allocate an
		// error to say so: a page's dates are mostly bare dates, tried last.
		if !strings.Contains(s, l.sep) {
			continue
		}
		if t, err := time.Parse(l.layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "something else"
}
