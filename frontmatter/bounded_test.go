package frontmatter

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestJekyllDialect checks the rules Jekyll finds front matter by: `---` only, closed by `---` or
// `...`, and a block its YAML reader refuses is a warning unless it holds a robots key.
func TestJekyllDialect(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		format    Format
		keys      int
		warn, err string
	}{
		{desc: "closed by ...", src: "---\ntitle: x\nrobots: noindex\n...\nbody\n", format: YAML, keys: 2},
		{desc: "toml is content", src: "+++\ntitle = 'x'\n+++\n"},
		{desc: "json is content", src: "{\"title\": \"x\"}\n"},
		{desc: "blank line first is content", src: "\n---\ntitle: x\n---\n"},
		{desc: "duplicate keys", src: "---\ntitle: a\ntitle: b\n---\n", format: YAML, keys: 1},
		{
			desc: "unreadable yaml is a warning", src: "---\ntitle: [x\ndate: 2020\n---\n", format: YAML,
			warn: "p.md:2: front matter: yaml: did not find expected ',' or ']' in the list that starts on this line (Jekyll builds the page without its front matter)",
		},
		{
			// Jekyll 4.3.1: "YAML Exception reading p.md: (<unknown>): found unexpected end of
			// stream while scanning a quoted scalar at line 2 column 8", and the page is built.
			desc: "a quote left open is a warning at its line", src: "---\ntitle: \"unclosed\nlayout: default\n---\nbody\n", format: YAML,
			warn: "p.md:2: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)",
		},
		{
			desc: "a robots key's name inside a broken value is not a robots key", src: "---\ntitle: \"Why noindex: a guide\n---\n", format: YAML,
			warn: "p.md:2: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)",
		},
		{
			desc: "unreadable yaml with a robots key is an error", src: "---\ntitle: [x\nrobots: noindex\n---\n",
			err: "p.md:2: front matter: yaml: did not find expected ',' or ']' in the list that starts on this line; " +
				"the block sets robots at line 3, which robotsmith cannot read (Jekyll would build the page without it)",
		},
		{
			desc: "a robots key before the fault", src: "---\nNoIndex: true\ntitle: \"unclosed\n---\n",
			err: "p.md:3: front matter: yaml: the quoted value that starts on this line is not closed; " +
				"the block sets NoIndex at line 2, which robotsmith cannot read (Jekyll would build the page without it)",
		},
		{
			desc: "a robots key quoted, in a list, at any indentation", src: "---\nlist:\n  - 'unavailable_after' : 2027-01-01\ntitle: \"x\n---\n",
			err: "p.md:4: front matter: yaml: the quoted value that starts on this line is not closed; " +
				"the block sets unavailable_after at line 3, which robotsmith cannot read (Jekyll would build the page without it)",
		},
		{
			desc: "a robots key in a flow map", src: "---\n{title: \"x, nofollow: true}\n---\n",
			err: "p.md:2: front matter: yaml: the quoted value that starts on this line is not closed; " +
				"the block sets nofollow at line 2, which robotsmith cannot read (Jekyll would build the page without it)",
		},
		{
			desc: "a key that looks like a robots key, with a value that would not hide the page", src: "---\nrobot: true\nno_follow: yes\ntitle: \"x\n---\n", format: YAML,
			warn: "p.md:4: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)",
		},
		{
			desc: "a misspelt robots key", src: "---\nrobtos: noindex\ntitle: \"x\n---\n",
			err: "p.md:3: front matter: yaml: the quoted value that starts on this line is not closed; " +
				"the block sets robtos at line 2, which robotsmith cannot read (Jekyll would build the page without it)",
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), Jekyll)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.err {
				t.Fatalf("error = %q, want %q", gotErr, tc.err)
			}
			if err != nil {
				return
			}
			if d.Format != tc.format {
				t.Errorf("Format = %q, want %q", d.Format, tc.format)
			}
			if d.Root != nil && len(d.Root.Keys) != tc.keys {
				t.Errorf("%d keys, want %d", len(d.Root.Keys), tc.keys)
			}
			gotWarn := fmt.Sprint(errors.Join(d.Warnings...))
			if tc.warn == "" && len(d.Warnings) > 0 || tc.warn != "" && gotWarn != tc.warn {
				t.Errorf("warnings = %q, want %q", gotWarn, tc.warn)
			}
			if d.Unreadable != (tc.warn != "") {
				t.Errorf("Unreadable = %v, want %v", d.Unreadable, tc.warn != "")
			}
		})
	}
}

// TestBoundedInput checks that no front matter can make the reader use time or memory out of
// proportion to its size, and that an error quotes only a short excerpt (SPEC §10). Time is
// measured by BenchmarkManyKeys, not here.
func TestBoundedInput(t *testing.T) {
	deep := 10000
	for _, tc := range []struct{ desc, src string }{
		{"yaml flow", "---\na: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n---\n"},
		{"yaml block", "---\n" + strings.Repeat("- ", deep) + "x\n---\n"},
		{"toml", "+++\na = " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n+++\n"},
		{"toml tables", "+++\n[" + strings.Repeat("a.", deep) + "b]\n+++\n"},
		{"json", "{\"a\": " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "}\n"},
	} {
		t.Run("nesting "+tc.desc, func(t *testing.T) {
			_, err := Parse("p.md", []byte(tc.src), Hugo)
			if err == nil {
				t.Fatal("no error for 10,000 levels of nesting")
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.Line == 0 {
				t.Errorf("error %v has no line", err)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error is %d bytes long: %.100s...", len(err.Error()), err)
			}
		})
	}
	t.Run("long values are quoted short", func(t *testing.T) {
		_, err := Parse("p.md", []byte("---\nrobots: {a: ["+strings.Repeat("x", 100000)+", 1]}\n---\n"), Hugo)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := Parse("p.md", []byte("---\nnoindex: "+strings.Repeat("y", 100000)+"\n---\n"), Hugo)
		_, err = d.Robots()
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("error = %.300v (%d bytes), want a short one", err, len(fmt.Sprint(err)))
		}
	})
	t.Run("alias expansion", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n")
		prev := "a"
		for i := 0; i < 12; i++ {
			name := fmt.Sprintf("l%d", i)
			fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
			prev = name
		}
		b.WriteString("robots: noindex\n---\n")
		d, err := Parse("p.md", []byte(b.String()), Hugo)
		if err != nil {
			t.Fatal(err)
		}
		if in, err := d.Robots(); err != nil || len(in) != 1 {
			t.Errorf("Robots() = %v, %v", in, err)
		}
		if n := countAny(d.Root.Any(true)); n > 1<<21 {
			t.Errorf("Any expanded %d values, more than its budget", n)
		}
	})
	t.Run("values nested in a robots value are described once", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n")
		prev := "a"
		for i := 0; i < 12; i++ {
			name := fmt.Sprintf("l%d", i)
			fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
			prev = name
		}
		for _, tc := range []struct{ desc, key, want string }{
			{"an alias bomb", "robots: [*l11]", "p.md:15: front matter: robots: want a string, a list of strings or a map of agent to directives, got a list of values that are not all strings (a list)"},
			{"an agent's", "robots: {googlebot: *l11}", "p.md:15: front matter: robots: googlebot: want a string or a list of strings, got a list of values that are not all strings (a list)"},
			{"a long string in a list", "noindex: [[" + strings.Repeat("y", 1000) + "]]", "p.md:15: front matter: noindex: want true or false, got a list of values that are not all strings (a list)"},
			{"a long string first", "unavailable_after: [" + strings.Repeat("y", 1000) + ", {a: b}]", "p.md:15: front matter: unavailable_after: want a date, got a list of values that are not all strings (a map)"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				d, err := Parse("p.md", []byte(b.String()+tc.key+"\n---\n"), Hugo)
				if err != nil {
					t.Fatal(err)
				}
				_, err = d.Robots()
				if got := fmt.Sprint(err); got != tc.want {
					t.Errorf("error (%d bytes):\n got %.300q\nwant %q", len(got), got, tc.want)
				}
			})
		}
	})
	t.Run("40,000 keys", func(t *testing.T) {
		d, err := Parse("p.md", manyKeys(40000), Hugo)
		if err != nil {
			t.Fatal(err)
		}
		k, ok := d.Root.Fold("K39999")
		if len(d.Root.Keys) != 40001 || !ok || d.Line(k.Off) != 40001 {
			t.Errorf("%d keys, k39999 at line %d", len(d.Root.Keys), d.Line(k.Off))
		}
	})
}

func countAny(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 1
		for _, e := range v {
			n += countAny(e)
		}
		return n
	case []any:
		n := 1
		for _, e := range v {
			n += countAny(e)
		}
		return n
	}
	return 1
}

func manyKeys(n int) []byte {
	var b strings.Builder
	b.WriteString("---\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	b.WriteString("robots: noindex\n---\n")
	return []byte(b.String())
}

// BenchmarkManyKeys shows that reading grows linearly with the number of keys: compare the
// ns/op of the sizes (the time per key stays flat).
func BenchmarkManyKeys(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		src := manyKeys(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				d, err := Parse("p.md", src, Hugo)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := d.Robots(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
