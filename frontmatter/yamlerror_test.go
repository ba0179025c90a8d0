package frontmatter

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

var lineNumber = regexp.MustCompile(`line \d`)

// TestYAMLFaultLine: a YAML error names the line of the fault, as the file's line, where yaml.v3
// names the line where the mapping or list it was reading began; a tab in a line's indentation
// says so. Each case is front matter after a `---` line and a configuration file, whose lines
// start at the file's first. The message is yaml.v3's, or says more; has is a word it holds.
func TestYAMLFaultLine(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		line      int // in src, counted from 1
		has       string
	}{
		{"a key indented one space too few in a list item", "a: 1\nrules:\n  - path: /a\n    robots: x\n   bad: y\n", 5, "did not find expected '-' indicator"},
		{"a key outdented out of a list item", "a: 1\nrules:\n  - path: /a\n    robots: x\n  bad: y\n", 5, "did not find expected '-' indicator"},
		{"a third item's key indented one space too many", "rules:\n  - path: /a\n    robots: x\n  - path: /b\n    robots: y\n  - path: /c\n     robots: z\n", 7, "mapping values are not allowed"},
		{"a key outdented out of a nested map", "a:\n  b: 1\n  c: 2\n d: 3\n", 4, "did not find expected key"},
		{"a list item in a map", "a: 1\nb: 2\n- c\n", 3, "did not find expected key"},
		{"a key far below the map's first line", "a:\n" + strings.Repeat("  k: v\n", 40) + " x: y\n", 42, "did not find expected key"},
		{"a key outdented out of the 20th item of a list", "tags: three\nrules:\n" + strings.Repeat("  - path: /a/**\n    robots: noindex\n", 20) + "   sitemap: keep\n", 43, "did not find expected '-' indicator"},
		{"a tab", "a: 1\nb:\n\tc: 2\n", 3, "tab"},
		{"a tab in a list item", "rules:\n  - path: /a\n\trobots: x\n", 3, "tab"},
		{"a quote never closed names its line", "a: 1\nb: \"unclosed\nc: 2\nd: 3\n", 2, ""},
		{"a flow list never closed names its line", "a: 1\nb: [1, 2\nc: 3\n", 2, "did not find expected ',' or ']'"},
		{"a key without a colon", "a: 1\nb: 2\nc\nd: 4\n", 3, "could not find expected ':'"},
		{"a fault on the first line", "a: b: c\n", 1, "mapping values are not allowed"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, form := range []struct {
				name  string
				read  func() error
				shift int
			}{
				{"front matter", func() error { _, err := Parse("a.md", []byte("---\n"+tc.src+"---\nbody\n"), Hugo); return err }, 1},
				{"config", func() error { _, err := Decode("c.yaml", []byte(tc.src), YAML); return err }, 0},
			} {
				var fe *Error
				if err := form.read(); !errors.As(err, &fe) {
					t.Fatalf("%s: got %v, want an *Error", form.name, err)
				}
				if got, want := fe.Line, tc.line+form.shift; got != want {
					t.Errorf("%s: got line %d (%v), want %d", form.name, got, fe, want)
				}
				if got := fe.Err.Error(); !strings.Contains(got, tc.has) || strings.Count(got, "yaml:") != 1 || lineNumber.MatchString(got) {
					t.Errorf("%s: got message %q, want one with %q, with yaml's prefix once and no line of its own", form.name, got, tc.has)
				}
			}
		})
	}
}
