package frontmatter

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// jsonWalked are objects that walkJSON reads itself: escapes, text that is not ASCII or not
// UTF-8, numbers of every form, keys written twice, nesting to the limit.
var jsonWalked = []string{
	`{"title": "A post", "tags": ["a", "b"], "draft": false, "robots": null}` + "\nbody {x}",
	`{"a\"b": "c\\d\u00e9\/", "\u0041": "\ud83d\ude00", "é": "ü"}`,
	"{\"bad\": \"\xff\xfe\", \"k\xc3\": 1}\r\n",
	`{"n": [0, -1, 1.5, 1e3, -2.5E-3, 123456789012345678901234567890, 9223372036854775807]}`,
	`{"a": 1, "A": 2, "a": {"b": [{"c": {}}, [], [[]]]}}`,
	`  {"after": "blanks"}`,
	strings.Repeat(`{"a": [`, maxDepth/2) + "1" + strings.Repeat("]}", maxDepth/2),
}

// jsonLeft are objects that walkJSON leaves to the token decoder: errors, an object never
// closed, one nested too deep.
var jsonLeft = []string{
	`{"a": 1,}`,
	`{"a": tru}`,
	`{"a": [1, 2}`,
	`{"a": "unclosed`,
	`{"a": "}"`,
	strings.Repeat(`{"a": `, maxDepth+2) + "1" + strings.Repeat("}", maxDepth+2),
}

// FuzzJSONWalk checks that walkJSON and the token decoder read the same Nodes and end from any
// input, and that walkJSON leaves nothing the token decoder reads without error to it but objects
// nested too deep.
func FuzzJSONWalk(f *testing.F) {
	for _, s := range append(jsonWalked, jsonLeft...) {
		f.Add([]byte(s))
	}
	for _, tc := range parseCases {
		if tc.format == "json" {
			f.Add([]byte(tc.src))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := bytes.IndexByte(src, '{')
		if start < 0 {
			return
		}
		d := &Document{File: "f.json", src: src, what: "front matter"}
		want, wantEnd, err := d.decodeJSONTokens(src, start)
		got, end, ok := walkJSON(src, start)
		if !ok {
			if err == nil && !deeperThan(want, maxDepth-1) {
				t.Fatalf("walkJSON left %q to the token decoder, which read it", src)
			}
			return
		}
		if err != nil {
			t.Fatalf("walkJSON read %q, the token decoder failed: %v", src, err)
		}
		if end != wantEnd {
			t.Fatalf("%q: got end %d, want %d", src, end, wantEnd)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: walkJSON and the token decoder differ:\ngot  %s\nwant %s", src, dump(got), dump(want))
		}
	})
}

func TestJSONWalk(t *testing.T) {
	for _, tc := range []struct {
		srcs []string
		want bool
	}{{jsonWalked, true}, {jsonLeft, false}} {
		for _, src := range tc.srcs {
			t.Run(excerpt(src), func(t *testing.T) {
				_, _, got := walkJSON([]byte(src), strings.IndexByte(src, '{'))
				if got != tc.want {
					t.Errorf("walkJSON ok = %v, want %v", got, tc.want)
				}
			})
		}
	}
}

// deeperThan reports whether n nests deeper than depth.
func deeperThan(n *Node, depth int) bool { return n != nil && int(n.depth) > depth }

// dump writes a Node tree for a failure message.
func dump(n *Node) string {
	if n == nil {
		return "nil"
	}
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		switch n.Kind {
		case KindMap:
			b.WriteString("{")
			for _, k := range n.Keys {
				fmt.Fprintf(&b, "%q@%d:", k.Name, k.Off)
				walk(k.Value)
				b.WriteString(" ")
			}
			b.WriteString("}")
		case KindList:
			b.WriteString("[")
			for _, e := range n.List {
				walk(e)
				b.WriteString(" ")
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "%d:%q@%d", n.Kind, n.Text, n.Off)
		}
	}
	walk(n)
	return b.String()
}
