package tomldepth

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

var tests = []struct {
	desc, src string
	max       int
	want      int // the line, 0 within max
}{
	{"flat", "a = 1\nb = \"x\"\n", 2, 0},
	{"arrays at the limit", "a = [[1]]\n", 2, 0},
	{"arrays past it", "\na = [[[1]]]\n", 2, 2},
	{"inline tables", "a = {b = {c = {d = 1}}}\n", 2, 1},
	{"dotted key", "x = 1\na.b.c.d = 1\n", 2, 2},
	{"dotted key at the limit", "a.b.c = 1\n", 2, 0},
	{"table header", "[a.b.c.d]\nx = 1\n", 2, 1},
	{"array of tables counts the array", "[[a.b]]\nx = 1\n", 2, 1},
	{"header plus dotted key", "[a.b]\nc.d = 1\n", 2, 2},
	{"dots in quoted keys are not levels", "\"a.b.c.d.e\" = 1\n['x.y.z.w']\n", 1, 0},
	{"dots in values are not levels", "a = 1.5\nb = 1979-05-27T07:32:00.999\nc = [1.5, 2.5, 3.5, 4.5]\n", 1, 0},
	{"brackets in strings are not levels", "a = \"[[[[\"\nb = '{{{{'\nc = \"\"\"\n[[[[\n\"\"\"\n", 1, 0},
	{"brackets in comments are not levels", "a = 1 # [[[[[[\n", 1, 0},
	{"multi-line strings keep the line count", "a = '''\n\n\n'''\nb = [[[1]]]\n", 2, 5},
	{"escaped quote", "a = \"\\\"[[[\"\nb = 1\n", 1, 0},
	{"keys after a comma in an inline table", "a = {b.c.d = 1, e.f.g.h = 2}\n", 3, 1},
	{"array elements are not keys", "a = [b.c, d]\n", 1, 0},
	{"10,000 deep", "a = " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n", 32, 1},
	{"unterminated string stops the scan", "a = \"[[[[\n", 1, 0},
}

func TestLine(t *testing.T) {
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Line([]byte(tc.src), tc.max); got != tc.want {
				t.Errorf("Line(%.60q, %d) = %d, want %d", tc.src, tc.max, got, tc.want)
			}
		})
	}
}

// depth is how deep maps and lists nest in v: 0 for a value, 1 for a table of values.
func depth(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	case []map[string]any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

// FuzzLine: Line never undercounts: a document it passes decodes no deeper
// than max (plus the root table).
func FuzzLine(f *testing.F) {
	for _, tc := range tests {
		if len(tc.src) < 1000 {
			f.Add(tc.src, uint8(tc.max))
		}
	}
	f.Fuzz(func(t *testing.T, src string, m uint8) {
		limit := int(m % 8)
		if Line([]byte(src), limit) > 0 {
			return
		}
		var v map[string]any
		if _, err := toml.Decode(src, &v); err != nil {
			return
		}
		if d := depth(v); d > limit+1 {
			t.Fatalf("Line passed a document %d deep for max %d: %q", d, limit, src)
		}
	})
}
