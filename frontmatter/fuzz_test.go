package frontmatter

import (
	"bytes"
	"errors"
	"strings"
	"testing"
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
		d, err := Parse("f.md", src)
		checkErr("Parse", err)
		if err != nil {
			if d != nil {
				t.Fatal("Parse returned a document and an error")
			}
			return
		}
		if d.Line("") < 0 || !bytes.HasSuffix(src, d.Body) {
			t.Fatalf("Body %q is not the tail of %q", d.Body, src)
		}
		if d.Format == "" {
			if d.Fields != nil || !bytes.Equal(d.Body, src) {
				t.Fatalf("no front matter, yet Fields = %v, Body = %q", d.Fields, d.Body)
			}
		} else if d.Fields == nil {
			t.Fatalf("%s front matter with nil Fields", d.Format)
		}
		for k := range d.Fields {
			if _, ok := d.Get(strings.ToUpper(k)); !ok {
				t.Fatalf("Get(%q) misses a key of Fields", strings.ToUpper(k))
			}
			if n := d.Line(k); n < 0 || n > lines {
				t.Fatalf("Line(%q) = %d outside %d lines", k, n, lines)
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
	})
}
