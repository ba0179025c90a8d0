package frontmatter

import (
	"errors"
	"strings"
	"testing"
)

// TestKeyRepeat: a key a map writes twice keeps the last write's value and offset, as the
// generators do, and remembers where the first write was, so that a reader that owns the key
// (robotsmith's configuration) can name both lines. Keys that differ in case are two keys.
func TestKeyRepeat(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		format    Format
		key       string
		line      int // of the last write
		first     int // of the first write; 0 when written once
	}{
		{"yaml", "tags: three\nsitemap: keep\ntags: single\n", YAML, "tags", 3, 1},
		{"yaml three times", "tags: a\ntags: b\ntags: c\n", YAML, "tags", 3, 1},
		{"yaml once", "tags: a\nTags: b\n", YAML, "tags", 1, 0},
		{"toml", "tags = \"a\"\n\n[headers]\nhtml = true\nhtml = false\n", TOML, "headers.html", 5, 4},
		{"json", "{\"tags\": \"a\",\n \"tags\": \"b\"}", JSON, "tags", 2, 1},
		{"the first write at the file's first byte", "tags: a\ntags: b\n", YAML, "tags", 2, 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Decode("c", []byte(tc.src), tc.format)
			if err != nil {
				t.Fatal(err)
			}
			m, name := d.Root, tc.key
			if before, after, ok := strings.Cut(tc.key, "."); ok {
				m, name = m.Get(before), after
			}
			k, ok := m.Key(name)
			if !ok {
				t.Fatalf("no key %q", name)
			}
			if got := d.Line(k.Off); got != tc.line {
				t.Errorf("line: got %d, want %d", got, tc.line)
			}
			first, again := k.Repeat()
			switch {
			case tc.first == 0 && again:
				t.Errorf("Repeat: got first write at line %d, want a key written once", d.Line(first))
			case tc.first > 0 && (!again || d.Line(first) != tc.first):
				t.Errorf("Repeat: got %d, %v, want line %d", d.Line(first), again, tc.first)
			}
		})
	}
}

// TestDecodeWholeFile: a configuration file is one map. What follows a JSON file's object is an
// error, as encoding/json (Hugo's reader of hugo.json) makes it; a top level that is not a map
// wraps ErrNotMap and nesting past the reader's limit ErrDepth, whatever the format, for readers
// that word them their own way; a JSON syntax error names the byte the tokenizer could not take.
func TestDecodeWholeFile(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		format    Format
		err       string
		is        error
	}{
		{"json after the object", "{\"a\": 1}\n{}\n", JSON, "c:2:1: config: json: more after the object's closing brace", nil},
		{"json blanks after the object", "{\"a\": 1}\n \n", JSON, "", nil},
		{"json literal misspelt", "{\n  \"a\": 1,\n  \"b\": three\n}\n", JSON, "c:3:9: config: json: invalid character 'h' in literal true (expecting 'r')", nil},
		{"json list", "[1, 2]\n", JSON, "c:1:1: config: json: want an object of keys to values", ErrNotMap},
		{"yaml list", "- a\n", YAML, "c:1:1: config: yaml: want a mapping of keys to values, got a list", ErrNotMap},
		{"yaml value", "just words\n", YAML, "", ErrNotMap},
		{"yaml deep", "a: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n", YAML, "", ErrDepth},
		{"toml deep", "a = " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n", TOML, "", ErrDepth},
		{"json deep", "{\"a\": " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}\n", JSON, "", ErrDepth},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Decode("c", []byte(tc.src), tc.format)
			if tc.err == "" && tc.is == nil {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("got no error, want %q", tc.err)
			}
			if tc.err != "" && !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("got %q, want %q", err, tc.err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("got %v, want it to wrap %v", err, tc.is)
			}
		})
	}
}
