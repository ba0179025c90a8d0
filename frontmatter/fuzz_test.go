package frontmatter

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzFrontmatter checks, on any input, that Parse, Robots and Cascades do
// not fail inside (a recovered panic shows as "internal error"), that every
// error is an *Error inside the file, and that Body is the file's tail.
func FuzzFrontmatter(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range robotsCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range cascadeCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range misspeltKeyCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range givenTwiceCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := 1 + bytes.Count(src, []byte{'\n'})
		checkErr := func(what string, err error) {
			if err == nil {
				return
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%s: %v", what, err)
			}
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("%s: error %v (%T) is not *Error", what, err, err)
			}
			if fe.File != "f.md" || fe.Line < 0 || fe.Line > lines {
				t.Fatalf("%s: error %v outside f.md's %d lines", what, err, lines)
			}
		}
		for _, dialect := range []Dialect{Hugo, Jekyll} {
			d, err := Parse("f.md", src, dialect)
			checkErr("Parse", err)
			if err != nil {
				if d != nil {
					t.Fatal("Parse returned a document and an error")
				}
				continue
			}
			checkDocument(t, d, src, lines, checkErr)
		}
	})
}

// checkDocument checks what a parsed document answers, on any input.
func checkDocument(t *testing.T, d *Document, src []byte, lines int, checkErr func(string, error)) {
	if !bytes.HasSuffix(src, d.Body) {
		t.Fatalf("Body %q is not the tail of %q", d.Body, src)
	}
	if d.Format == "" {
		if d.Root != nil || !bytes.Equal(d.Body, src) {
			t.Fatalf("no front matter, yet Root = %v, Body = %q", d.Root, d.Body)
		}
		return
	}
	if d.Root == nil || d.Root.Kind != KindMap {
		t.Fatalf("%s front matter with Root %v", d.Format, d.Root)
	}
	for _, k := range d.Root.Keys {
		if _, ok := d.Root.Fold(strings.ToUpper(k.Name)); !ok {
			t.Fatalf("Fold(%q) misses a key", strings.ToUpper(k.Name))
		}
		if n := d.Line(k.Off); n < 1 || n > lines {
			t.Fatalf("key %q at line %d outside %d lines", k.Name, n, lines)
		}
	}
	in, err := d.Robots()
	checkErr("Robots", err)
	for _, i := range in {
		if i.Agent == "" || i.Agent != strings.ToLower(i.Agent) || i.Value == "" || i.Value != strings.TrimSpace(i.Value) {
			t.Fatalf("Robots gave a bad input %+v", i)
		}
		if i.Source.File != "f.md" || i.Source.Line < 1 || i.Source.Line > lines {
			t.Fatalf("Robots gave a bad source %+v", i.Source)
		}
	}
	cs, err := d.Cascades()
	checkErr("Cascades", err)
	for _, c := range cs {
		if c.Line < 1 || c.Line > lines {
			t.Fatalf("cascade line %d outside %d lines", c.Line, lines)
		}
	}
	for _, w := range d.Warnings { // Robots' and Cascades' too
		checkErr("Warnings", w)
	}
}

// FuzzYAMLError checks, on any text yaml.v3 refuses, that YAMLError names a line of the text (never
// one past its end), says the problem without yaml.v3's "line N", and keeps it short.
func FuzzYAMLError(f *testing.F) {
	for _, tc := range parseCases {
		if tc.err != "" {
			f.Add([]byte(tc.src))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var root yaml.Node
		err := yaml.Unmarshal(src, &root)
		if err == nil {
			return
		}
		e := YAMLError("f.yaml", src, 1, err)
		lines := max(1, bytes.Count(src, []byte{'\n'})+1)
		if e.Line < 1 || e.Line > lines {
			t.Fatalf("error %v at a line outside the %d lines of %q", e, lines, src)
		}
		if msg := e.Err.Error(); yamlLineRE.MatchString(strings.TrimPrefix(msg, "yaml: ")) || len(msg) > maxMessage+len("yaml: ")+len("…") {
			t.Fatalf("message %q for %q", msg, src)
		}
	})
}
