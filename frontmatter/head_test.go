package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robotsmith/robotsmith/rules"
)

// headCases is the table TestReadHead checks and FuzzReadHead starts from: head is what ReadHead
// reads of src.
var headCases = []struct {
	desc    string
	dialect Dialect
	src     string
	head    string
}{
	{desc: "yaml", src: "---\ntitle: x\n---\nbody\nmore\n", head: "---\ntitle: x\n---\n"},
	{desc: "toml", src: "+++\ntitle = 'x'\n+++\nbody\n", head: "+++\ntitle = 'x'\n+++\n"},
	{desc: "json", src: "{\"title\": \"x\"}\nbody {\n", head: "{\"title\": \"x\"}\n"},
	{desc: "json over lines, braces and quotes in strings", src: "{\n \"a\": \"}\\\"{\",\n \"b\": {\"c\": [1, {}]}\n} body\n", head: "{\n \"a\": \"}\\\"{\",\n \"b\": {\"c\": [1, {}]}\n}"},
	{desc: "json not closed", src: "{\"title\": \"x\",\nbody\n", head: "{\"title\": \"x\",\nbody\n"},
	{desc: "json with brackets crossed", src: "{\"a\": [}\nbody }\n", head: "{\"a\": [}\n"},
	{desc: "a template is not json", src: "{{ .Title }}\nbody\n", head: "{{ .Title }}\n"},
	{desc: "a brace and blank lines", src: "{\n\n\n\"a\": 1}\nbody", head: "{\n\n\n\"a\": 1}\n"},
	{desc: "a lone brace", src: "{\n\n", head: "{\n"},
	{desc: "no front matter", src: "# Title\n\nbody\n---\n", head: "# Title\n"},
	{desc: "empty", src: "", head: ""},
	{desc: "bom, crlf and blank lines", src: "\uFEFF\r\n\r\n---\r\ntitle: x\r\n---\r\nbody\r\n", head: "\uFEFF\r\n\r\n---\r\ntitle: x\r\n---\r\n"},
	{desc: "a bom alone", src: "\uFEFF", head: "\uFEFF"},
	{desc: "closing line with spaces", src: "---\na: 1\n---  \nbody", head: "---\na: 1\n---  \n"},
	{desc: "a longer line is not a closing line", src: "---\na: 1\n----\nb: 2\n---\nbody", head: "---\na: 1\n----\nb: 2\n---\n"},
	{desc: "not closed", src: "---\ntitle: x\nbody\n", head: "---\ntitle: x\nbody\n"},
	{desc: "closed on the last line", src: "---\ntitle: x\n---", head: "---\ntitle: x\n---"},
	{desc: "bad yaml", src: "---\ntitle: [x\n---\nbody\n", head: "---\ntitle: [x\n---\n"},
	{desc: "longer than a chunk", src: "---\nlong: " + strings.Repeat("x", 3*headChunk) + "\n---\nbody\n", head: "---\nlong: " + strings.Repeat("x", 3*headChunk) + "\n---\n"},
	{desc: "jekyll, closed by ...", dialect: Jekyll, src: "---\ntitle: x\n...\nbody\n", head: "---\ntitle: x\n...\n"},
	{desc: "jekyll, a blank line first", dialect: Jekyll, src: "\n---\ntitle: x\n---\n", head: "\n"},
	{desc: "jekyll, toml is content", dialect: Jekyll, src: "+++\ntitle = 'x'\n+++\n", head: "+++\n"},
	{desc: "jekyll, json is content", dialect: Jekyll, src: "{\"a\": 1}\nbody\n", head: "{\"a\": 1}\n"},
}

func TestReadHead(t *testing.T) {
	for _, tc := range headCases {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ReadHead(strings.NewReader(tc.src), tc.dialect, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.head {
				t.Errorf("ReadHead = %q, want %q", got, tc.head)
			}
			checkHead(t, []byte(tc.src), tc.dialect)
		})
	}
}

// TestReadHeadError checks that a read error is returned, with what was read before it.
func TestReadHeadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("---\ntitle: x\n"), iotest.ErrReader(boom))
	got, err := ReadHead(r, Hugo, nil)
	if !errors.Is(err, boom) || string(got) != "---\ntitle: x\n" {
		t.Errorf("ReadHead = %q, %v; want what was read and %v", got, err, boom)
	}
}

// TestReadHeadReusesBuffer checks that a buffer large enough serves the next file without growing.
func TestReadHeadReusesBuffer(t *testing.T) {
	buf := make([]byte, 0, 64<<10)
	for _, src := range []string{"---\na: 1\n---\nbody\n", "+++\nb = 2\n+++\n"} {
		got, err := ReadHead(strings.NewReader(src), Hugo, buf)
		if err != nil {
			t.Fatal(err)
		}
		if &got[:1][0] != &buf[:1][0] {
			t.Errorf("ReadHead(%q) did not read into the buffer it was given", src)
		}
	}
}

// FuzzReadHead checks, on any file, that what ReadHead reads is a beginning of the file that Parse
// reads exactly as it reads the whole file, however the reader splits it.
func FuzzReadHead(f *testing.F) {
	for _, tc := range headCases {
		f.Add([]byte(tc.src), tc.dialect == Jekyll)
	}
	for _, tc := range parseCases {
		f.Add([]byte(tc.src), false)
	}
	for _, tc := range cascadeCases {
		f.Add([]byte(tc.src), false)
	}
	f.Fuzz(func(t *testing.T, src []byte, jekyll bool) {
		dialect := Hugo
		if jekyll {
			dialect = Jekyll
		}
		checkHead(t, src, dialect)
	})
}

// checkHead reads src's head through readers that return it whole, a byte at a time and half a
// buffer at a time, and checks that each is a beginning of src that Parse reads as it reads src:
// the same error, or the same format, values, warnings, robots inputs and cascades, and a Body
// that begins the whole file's.
func checkHead(t *testing.T, src []byte, dialect Dialect) {
	t.Helper()
	whole, wholeErr := Parse("f.md", src, dialect)
	var wantWarnings string
	var wantIn []rules.Input
	var wantCs []Cascade
	var wantInErr, wantCsErr error
	if wholeErr == nil {
		wantIn, wantInErr = whole.Robots()
		wantCs, wantCsErr = whole.Cascades()
		wantWarnings = fmt.Sprint(whole.Warnings)
	}
	readers := map[string]func() io.Reader{
		"whole":       func() io.Reader { return bytes.NewReader(src) },
		"byte a time": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(src)) },
		"half":        func() io.Reader { return iotest.HalfReader(bytes.NewReader(src)) },
	}
	for name, r := range readers {
		head, err := ReadHead(r(), dialect, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.HasPrefix(src, head) {
			t.Fatalf("%s: head %q does not begin %q", name, head, src)
		}
		d, err := Parse("f.md", head, dialect)
		if fmt.Sprint(err) != fmt.Sprint(wholeErr) {
			t.Fatalf("%s: Parse(head %q) = %v, Parse(file) = %v", name, head, err, wholeErr)
		}
		if err != nil {
			continue
		}
		if d.Format != whole.Format || !reflect.DeepEqual(d.Root, whole.Root) {
			t.Fatalf("%s: Parse(head %q) = %s %v, Parse(file) = %s %v", name, head, d.Format, d.Root.Any(false), whole.Format, whole.Root.Any(false))
		}
		if !bytes.HasPrefix(whole.Body, d.Body) {
			t.Fatalf("%s: Body %q does not begin %q", name, d.Body, whole.Body)
		}
		gotIn, gotErr := d.Robots()
		if !reflect.DeepEqual(gotIn, wantIn) || fmt.Sprint(gotErr) != fmt.Sprint(wantInErr) {
			t.Fatalf("%s: Robots = %v, %v; want %v, %v", name, gotIn, gotErr, wantIn, wantInErr)
		}
		gotCs, gotErr := d.Cascades()
		if !reflect.DeepEqual(gotCs, wantCs) || fmt.Sprint(gotErr) != fmt.Sprint(wantCsErr) {
			t.Fatalf("%s: Cascades = %v, %v; want %v, %v", name, gotCs, gotErr, wantCs, wantCsErr)
		}
		if got := fmt.Sprint(d.Warnings); got != wantWarnings {
			t.Fatalf("%s: warnings %s, want %s", name, got, wantWarnings)
		}
	}
}
