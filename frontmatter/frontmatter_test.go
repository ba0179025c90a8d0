package frontmatter

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// parseCases is the table TestParse checks and FuzzFrontmatter starts from.
var parseCases = []struct {
	desc   string
	src    string
	format Format
	fields map[string]any
	body   string
	lines  map[string]int // key (any case) -> Line(key)
	err    string         // the whole *Error message; "" when Parse succeeds
}{
	{
		desc:   "yaml",
		src:    "---\ntitle: Hello\nRobots: noindex\ncount: 3\n---\n# Body\n",
		format: "yaml",
		fields: map[string]any{"title": "Hello", "Robots": "noindex", "count": int64(3)},
		body:   "# Body\n",
		lines:  map[string]int{"title": 2, "robots": 3, "ROBOTS": 3, "count": 4, "missing": 0},
	},
	{
		desc:   "yaml date",
		src:    "---\ndate: 2024-01-02\n---\n",
		format: "yaml",
		fields: map[string]any{"date": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
		body:   "",
		lines:  map[string]int{"date": 2},
	},
	{
		desc:   "yaml nested list and map",
		src:    "---\nrobots:\n  googlebot: [nosnippet, noarchive]\n  1: x\ntags: [a, b]\n---\nbody",
		format: "yaml",
		fields: map[string]any{
			"robots": map[string]any{"googlebot": []any{"nosnippet", "noarchive"}, "1": "x"},
			"tags":   []any{"a", "b"},
		},
		body:  "body",
		lines: map[string]int{"robots": 2, "tags": 5},
	},
	{
		desc:   "yaml with a BOM, CRLF and blank lines before it",
		src:    "\uFEFF\r\n\r\n---\r\ntitle: x\r\nnoindex: true\r\n---\r\nbody\r\n",
		format: "yaml",
		fields: map[string]any{"title": "x", "noindex": true},
		body:   "body\r\n",
		lines:  map[string]int{"title": 4, "noindex": 5},
	},
	{
		desc:   "yaml body holding another ---",
		src:    "---\na: 1\n---\ntext\n---\nmore\n",
		format: "yaml",
		fields: map[string]any{"a": int64(1)},
		body:   "text\n---\nmore\n",
		lines:  map[string]int{"a": 2},
	},
	{
		desc:   "yaml closing line without a newline",
		src:    "---\na: 1\n---",
		format: "yaml",
		fields: map[string]any{"a": int64(1)},
		body:   "",
		lines:  map[string]int{"a": 2},
	},
	{
		desc:   "yaml merge key",
		src:    "---\nbase: &b\n  noindex: true\n  title: x\n<<: *b\ntitle: y\n---\n",
		format: "yaml",
		fields: map[string]any{"base": map[string]any{"noindex": true, "title": "x"}, "noindex": true, "title": "y"},
		body:   "",
		lines:  map[string]int{"base": 2, "noindex": 3, "title": 6},
	},
	{
		desc:   "json duplicate key takes the last",
		src:    "{\"a\": 1,\n\"A\": 2,\n\"a\": 3}\n",
		format: "json",
		fields: map[string]any{"a": int64(3), "A": int64(2)},
		body:   "",
		lines:  map[string]int{"a": 3},
	},
	{
		desc:   "yaml empty",
		src:    "---\n---\nbody\n",
		format: "yaml",
		fields: map[string]any{},
		body:   "body\n",
	},
	{
		desc:   "yaml only a comment",
		src:    "---\n# nothing yet\n---\n",
		format: "yaml",
		fields: map[string]any{},
		body:   "",
	},
	{
		desc:   "toml",
		src:    "+++\ntitle = \"Hello\"\nexpiryDate = 2027-01-31\n[robots]\ngooglebot = \"nosnippet\"\n+++\nbody\n",
		format: "toml",
		fields: map[string]any{
			"title":      "Hello",
			"expiryDate": time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), // compared by instant and layout below
			"robots":     map[string]any{"googlebot": "nosnippet"},
		},
		body:  "body\n",
		lines: map[string]int{"title": 2, "expirydate": 3, "robots": 4, "googlebot": 0},
	},
	{
		desc:   "toml with a BOM, CRLF, dotted keys and multi-line values",
		src:    "\uFEFF+++\r\ndescription = '''\r\nnoindex = true\r\n'''\r\nlist = [\r\n  \"x = 1\",\r\n]\r\nrobots.googlebot = \"noarchive\"\r\n+++\r\n",
		format: "toml",
		fields: map[string]any{
			"description": "noindex = true\r\n",
			"list":        []any{"x = 1"},
			"robots":      map[string]any{"googlebot": "noarchive"},
		},
		body:  "",
		lines: map[string]int{"description": 2, "list": 5, "robots": 8, "noindex": 0, "x": 0},
	},
	{
		desc:   "toml empty",
		src:    "+++\n+++\n",
		format: "toml",
		fields: map[string]any{},
		body:   "",
	},
	{
		desc:   "json",
		src:    "{\n  \"title\": \"Hello\",\n  \"noindex\": true,\n  \"n\": 1.5\n}\nbody\n",
		format: "json",
		fields: map[string]any{"title": "Hello", "noindex": true, "n": 1.5},
		body:   "body\n",
		lines:  map[string]int{"title": 2, "noindex": 3, "n": 4},
	},
	{
		desc:   "json on one line with a BOM and CRLF",
		src:    "\uFEFF{\"Title\": \"x\", \"robots\": [\"noindex\"]}\r\nbody",
		format: "json",
		fields: map[string]any{"Title": "x", "robots": []any{"noindex"}},
		body:   "body",
		lines:  map[string]int{"title": 1, "robots": 1},
	},
	{
		desc:   "json empty object",
		src:    "{}\n",
		format: "json",
		fields: map[string]any{},
		body:   "",
	},
	{
		desc: "no front matter",
		src:  "# Title\n\ntext\n",
		body: "# Title\n\ntext\n",
	},
	{
		desc: "empty file",
		src:  "",
		body: "",
	},
	{
		desc: "a template opening the page is not json",
		src:  "{{< notice >}}\nhi\n{{< /notice >}}\n",
		body: "{{< notice >}}\nhi\n{{< /notice >}}\n",
	},
	{
		desc: "liquid opening the page is not json",
		src:  "{% include head.html %}\n",
		body: "{% include head.html %}\n",
	},
	{
		desc: "unclosed yaml: Hugo refuses the page",
		src:  "---\ntitle: x\n",
		err:  `a.md:1:1: front matter: no closing "---" line after this one (Hugo refuses the page)`,
	},
	{
		desc: "unclosed toml after blank lines",
		src:  "\n\n+++\ntitle = \"x\"\n---\n",
		err:  `a.md:3:1: front matter: no closing "+++" line after this one (Hugo refuses the page)`,
	},
	{
		desc: "yaml syntax error",
		src:  "---\ntitle: x\n  bad: y\n---\n",
		err:  "a.md:3: front matter: yaml: mapping values are not allowed in this context",
	},
	{
		desc: "yaml list left open after a BOM and blank lines: the line that opens it",
		src:  "\uFEFF\n\n---\r\ntitle: x\r\nrobots: [noindex\r\n---\r\n",
		err:  "a.md:5: front matter: yaml: did not find expected ',' or ']' in the list that starts on this line",
	},
	{
		desc: "yaml list left open on the block's first line",
		src:  "---\ntags: [a, b\ndate: 2020\n---\n",
		err:  "a.md:2: front matter: yaml: did not find expected ',' or ']' in the list that starts on this line",
	},
	{
		desc: "yaml list left open at the end",
		src:  "---\ntitle: x\ntags: [\n\n# more to come\n---\n",
		err:  "a.md:3: front matter: yaml: did not find expected node content where the YAML ends",
	},
	{
		desc: "yaml map left open",
		src:  "---\nt: x\nb: {a: 1, b: 2\n---\n",
		err:  "a.md:3: front matter: yaml: did not find expected ',' or '}' in the map that starts on this line",
	},
	{
		desc: "yaml parser error",
		src:  "---\ntitle: x\nlist:\n  - a\n b: c\n---\n",
		err:  "a.md:5: front matter: yaml: did not find expected key",
	},
	{
		desc: "yaml parser error in a nested list names the bad line, not the list's",
		src:  "---\ntitle: x\nitems:\n  - name: a\n    url: b\n   x: c\n---\n",
		err:  "a.md:6: front matter: yaml: did not find expected '-' indicator",
	},
	{
		desc: "yaml tab indentation",
		src:  "---\na:\n\tb: 1\n---\n",
		err:  "a.md:3: front matter: yaml: a tab indents this line: YAML allows only spaces there",
	},
	{
		desc: "yaml tab indentation of a list item",
		src:  "---\ntitle: a\nrobots:\n\t- noindex\n---\n",
		err:  "a.md:4: front matter: yaml: a tab indents this line: YAML allows only spaces there",
	},
	{
		desc: "yaml tab after a value on a later line",
		src:  "---\ntitle: x\na: 1\n\tb: 1\n---\n",
		err:  "a.md:4: front matter: yaml: a tab indents this line: YAML allows only spaces there",
	},
	{
		desc: "yaml tab in a block scalar",
		src:  "---\nt: x\nb: |\n  x\n\ty\n---\n",
		err:  "a.md:5: front matter: yaml: a tab indents this line: YAML allows only spaces there",
	},
	{
		desc: "yaml quote left open on the block's first line: the line that opens it",
		src:  "\n---\n\"open: x\n---\n",
		err:  "a.md:3: front matter: yaml: the quoted value that starts on this line is not closed",
	},
	{
		desc: "yaml quote left open in a value",
		src:  "---\ntitle: \"unclosed\ndate: 2020-01-01\n---\n",
		err:  "a.md:2: front matter: yaml: the quoted value that starts on this line is not closed",
	},
	{
		desc: "yaml quote left open on a later line",
		src:  "---\ntitle: x\ndesc: 'open\nmore: 1\n---\n",
		err:  "a.md:3: front matter: yaml: the quoted value that starts on this line is not closed",
	},
	{
		desc: "yaml key without a colon",
		src:  "---\na: x\nfoo\nbar: y\nz\n---\n",
		err:  "a.md:3: front matter: yaml: could not find expected ':' after the key that starts on this line",
	},
	{
		desc: "yaml unknown escape on the block's first line",
		src:  "---\na: \"x\\qy\"\n---\n",
		err:  "a.md:2: front matter: yaml: found unknown escape character",
	},
	{
		desc: "yaml unknown escape on a later line of a quoted value",
		src:  "---\nt: x\na: \"x\n  \\qy\"\n---\n",
		err:  "a.md:4: front matter: yaml: found unknown escape character",
	},
	{
		desc: "yaml bytes that are not UTF-8",
		src:  "---\ntitle: x\nd: ab\xff\n---\n",
		err:  "a.md:3:6: front matter: yaml: invalid leading UTF-8 octet",
	},
	{
		desc: "yaml NUL",
		src:  "---\ntitle: \"a\x00b\"\n---\n",
		err:  "a.md:2:10: front matter: yaml: control characters are not allowed",
	},
	{
		desc: "yaml error on the block's first line",
		src:  "---\n: x\n---\n",
		err:  "a.md:2: front matter: yaml: did not find expected key",
	},
	{
		desc:   "yaml duplicate key: the last wins, as in Jekyll",
		src:    "---\na: 1\nb: 2\na: 3\n---\n",
		format: "yaml",
		fields: map[string]any{"a": int64(3), "b": int64(2)},
		body:   "",
		lines:  map[string]int{"a": 4, "b": 3},
	},
	{
		desc: "yaml list at the top",
		src:  "---\n- a\n- b\n---\n",
		err:  "a.md:2:1: front matter: yaml: want a mapping of keys to values, got a list",
	},
	{
		desc: "toml syntax error",
		src:  "+++\ntitle = \"x\"\nrobots = \n+++\n",
		err:  "a.md:3:10: front matter: toml: unexpected character U+000A at start of value",
	},
	{
		desc:   "toml duplicate key: the last wins",
		src:    "\uFEFF+++\na = 1\na = 2\n+++\n",
		format: "toml",
		fields: map[string]any{"a": int64(2)},
		body:   "",
		lines:  map[string]int{"a": 3},
	},
	{
		desc: "json syntax error",
		src:  "{\n  \"a\": 1,\n  \"b\": }\n",
		err:  "a.md:3:8: front matter: json: invalid character '}' looking for beginning of value",
	},
	{
		desc: "json not closed",
		src:  "{\n  \"a\": 1,\n",
		err:  "a.md:3:1: front matter: json: object not closed before the end of the file",
	},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("a.md", []byte(tc.src), Hugo)
			if tc.err != "" {
				var fe *Error
				if !errors.As(err, &fe) {
					t.Fatalf("Parse error = %v (%T), want *Error %q", err, err, tc.err)
				}
				if got := err.Error(); got != tc.err {
					t.Errorf("Parse error:\n got %q\nwant %q", got, tc.err)
				}
				if d != nil {
					t.Errorf("Parse returned a document with an error: %+v", d)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if d.File != "a.md" {
				t.Errorf("File = %q, want a.md", d.File)
			}
			if d.Format != tc.format {
				t.Errorf("Format = %q, want %q", d.Format, tc.format)
			}
			if got := string(d.Body); got != tc.body {
				t.Errorf("Body = %q, want %q", got, tc.body)
			}
			if got := fieldsOf(d); !equalFields(got, tc.fields) {
				t.Errorf("Fields = %#v, want %#v", got, tc.fields)
			}
			for k, want := range tc.lines {
				if got := keyLine(d, k); got != want {
					t.Errorf("Line(%q) = %d, want %d", k, got, want)
				}
			}
		})
	}
}

// fieldsOf is the front matter as plain values, keys as written; nil without front matter.
func fieldsOf(d *Document) map[string]any {
	if d.Root == nil {
		return nil
	}
	return d.Root.Any(false).(map[string]any)
}

// keyLine is the line of a top-level key (any case), 0 when absent.
func keyLine(d *Document, key string) int {
	k, ok := d.Root.Fold(key)
	if !ok {
		return 0
	}
	return d.Line(k.Off)
}

// equalFields compares decoded fields, times by instant (TOML's local dates
// carry their own zone).
func equalFields(got, want map[string]any) bool {
	if (got == nil) != (want == nil) || len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		if wt, ok := w.(time.Time); ok {
			gt, ok := g.(time.Time)
			if !ok || gt.Format("2006-01-02T15:04:05") != wt.Format("2006-01-02T15:04:05") {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			return false
		}
	}
	return true
}

func TestNoFrontMatter(t *testing.T) {
	d, err := Parse("static.html", []byte("<p>hi</p>"), Hugo)
	if err != nil {
		t.Fatal(err)
	}
	if d.Root != nil || d.Format != "" {
		t.Errorf("Root, Format = %v, %q; want nil, \"\"", d.Root, d.Format)
	}
	if d.Root.Get("title") != nil || keyLine(d, "title") != 0 || d.Root.FoldValue("title").String() != "" {
		t.Error("a document without front matter answers a lookup")
	}
	in, err := d.Robots()
	if err != nil || len(in) != 0 {
		t.Errorf("Robots() = %v, %v; want none", in, err)
	}
	c, err := d.Cascades()
	if err != nil || len(c) != 0 {
		t.Errorf("Cascades() = %v, %v; want none", c, err)
	}
}

func TestBodyIsTheFilesTail(t *testing.T) {
	for _, tc := range parseCases {
		if tc.err != "" {
			continue
		}
		t.Run(tc.desc, func(t *testing.T) {
			src := []byte(tc.src)
			d, err := Parse("a.md", src, Hugo)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasSuffix(src, d.Body) {
				t.Errorf("Body %q is not the end of the file %q", d.Body, src)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	base := errors.New("front matter: boom")
	for _, tc := range []struct {
		desc string
		err  *Error
		want string
	}{
		{"line and col", &Error{File: "a.md", Line: 3, Col: 9, Err: base}, "a.md:3:9: front matter: boom"},
		{"line only", &Error{File: "a.md", Line: 3, Err: base}, "a.md:3: front matter: boom"},
		{"file only", &Error{File: "a.md", Col: 4, Err: base}, "a.md: front matter: boom"},
		{"no file", &Error{Line: 2, Col: 1, Err: base}, "2:1: front matter: boom"},
		{"nothing", &Error{Err: base}, "front matter: boom"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
			if !errors.Is(tc.err, base) {
				t.Error("errors.Is does not reach the wrapped error")
			}
		})
	}
}

func TestErrorWrapsDecoderError(t *testing.T) {
	_, err := Parse("a.md", []byte("+++\na = \n+++\n"), Hugo)
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not *Error", err)
	}
	if fe.File != "a.md" || fe.Line != 2 || fe.Col != 5 {
		t.Errorf("File, Line, Col = %q, %d, %d; want a.md, 2, 5", fe.File, fe.Line, fe.Col)
	}
	if !strings.Contains(fe.Err.Error(), "toml") {
		t.Errorf("Err = %v, want a toml message", fe.Err)
	}
}

// TestUnclosedDialects: an opening line with no closing line is an error for Hugo, which refuses
// such a page, and no front matter for Jekyll, which builds the file as content.
func TestUnclosedDialects(t *testing.T) {
	src := []byte("---\ntitle: x\nrobots: noindex\n")
	if _, err := Parse("a.md", src, Hugo); err == nil || !strings.HasPrefix(err.Error(), "a.md:1:1: ") {
		t.Errorf("Hugo: got %v, want an error at a.md:1:1", err)
	}
	d, err := Parse("a.md", src, Jekyll)
	if err != nil || d.Format != "" || !bytes.Equal(d.Body, src) {
		t.Errorf("Jekyll: got %+v, %v; want no front matter, the whole file as the body", d, err)
	}
}

// TestYAMLError checks the error YAMLError makes of yaml.v3's for a whole file (as the
// configuration's reader has it) or a part of one: the line of the fault in the file, the message
// once, without yaml.v3's "line N".
func TestYAMLError(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		src   string
		first int
		want  string
	}{
		{"a quote left open on the first line", "a: \"x\nb: 1\n", 1, "robotsmith.yaml:1: yaml: the quoted value that starts on this line is not closed"},
		{"after a byte order mark", "\uFEFFa: 1\nb: \"x\n", 1, "robotsmith.yaml:2: yaml: the quoted value that starts on this line is not closed"},
		{"a block that starts at line 10", "a: 1\nb:\n\t- x\n", 10, "robotsmith.yaml:12: yaml: a tab indents this line: YAML allows only spaces there"},
		{"a parser error", "rules:\n  - path: /a\n    robots: x\n   kind: page\n", 1, "robotsmith.yaml:4: yaml: did not find expected '-' indicator"},
		{"a directive", "%YAML 1.1\n---\na: [\n", 1, "robotsmith.yaml:3: yaml: did not find expected node content where the YAML ends"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(tc.src), &n)
			if err == nil {
				t.Fatal("yaml.v3 read it")
			}
			if got := YAMLError("robotsmith.yaml", []byte(tc.src), tc.first, err).Error(); got != tc.want {
				t.Errorf("YAMLError(%q):\n got %q\nwant %q", err, got, tc.want)
			}
		})
	}
}
