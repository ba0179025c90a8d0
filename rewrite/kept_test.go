package rewrite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

func TestParseKept(t *testing.T) {
	tests := []struct {
		desc, text string
		want       kept
		ok         bool
	}{
		{"plain", `robotsmith: from the page, line 7: robots="noindex, nofollow"`, kept{name: "robots", content: "noindex, nofollow", line: 7}, true},
		{"escaped content", `robotsmith: from the page, line 12: GoogleBot="a&#34;b&lt;c&gt;&amp;"`, kept{name: "googlebot", content: `a"b<c>&`, line: 12}, true},
		{"escaped name", `robotsmith: from the page, line 2: x--&gt;my bot="noindex"`, kept{name: "x-->my bot", content: "noindex", line: 2}, true},
		{"bare > in name", `robotsmith: from the page, line 2: x-->y="noindex"`, kept{}, false},
		{"empty content", `robotsmith: from the page, line 1: robots=""`, kept{name: "robots", line: 1}, true},
		{"no line", `robotsmith: from the page, line x: robots="noindex"`, kept{}, false},
		{"line zero", `robotsmith: from the page, line 0: robots="noindex"`, kept{}, false},
		{"unquoted", `robotsmith: from the page, line 3: robots=noindex`, kept{}, false},
		{"stray quote", `robotsmith: from the page, line 3: robots="a"b"`, kept{}, false},
		{"other comment", `robotsmith`, kept{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, ok := parseKept(tc.text)
			if ok != tc.ok || got != tc.want {
				t.Errorf("parseKept(%q): got %+v, %v; want %+v, %v", tc.text, got, ok, tc.want, tc.ok)
			}
			if ok {
				back, ok2 := parseKept(keptText(got)[len("<!-- ") : len(keptText(got))-len(" -->")])
				if !ok2 || back != got {
					t.Errorf("keptText round trip: got %+v, %v; want %+v", back, ok2, got)
				}
			}
		})
	}
}

// TestKeptSurvivesRuns: a theme's noindex, merged and removed by a first run, is still a source on a
// second run over the same output (SPEC §5: running build twice changes nothing), while a record
// outside a block is only a comment of the page's.
func TestKeptSurvivesRuns(t *testing.T) {
	src := []byte("<!DOCTYPE html>\n<html><head>\n<meta charset=\"utf-8\">\n<meta name=\"robots\" content=\"noindex, nofollow\">\n<title>x</title>\n</head><body></body></html>\n")
	d := rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "noindex, nofollow"}}}
	var once bytes.Buffer
	if err := Rewrite(&once, bytes.NewReader(src), d); err != nil {
		t.Fatal(err)
	}
	p, err := Scan(bytes.NewReader(once.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Found{{Name: "robots", Content: "noindex, nofollow", Line: 4, Kept: true, Head: true}}
	if len(p.Tags) != 1 || p.Tags[0].Name != want[0].Name || p.Tags[0].Content != want[0].Content || p.Tags[0].Line != 4 || !p.Tags[0].Kept {
		t.Fatalf("second scan: got %+v, want %+v", p.Tags, want)
	}

	outside := []byte("<!DOCTYPE html><html><head><!-- robotsmith: from the page, line 4: robots=\"noindex\" --></head></html>")
	p, err = Scan(bytes.NewReader(outside), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tags) != 0 {
		t.Errorf("record outside a block: got %+v, want no tags", p.Tags)
	}
}

// TestKeptContentSurvives: a record's content goes through the page as escaped comment text; the
// tokenizer's Text unescapes comments, so reading the record from it would see a bare quote (and
// reject the record, turning the block into stray markers) or unescape twice. Every content must
// come back from the output exactly as the page wrote it, and a second run must change nothing.
func TestKeptContentSurvives(t *testing.T) {
	d := rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "index, follow"}}}
	tests := []struct {
		desc, content string // content as the page's attribute value, in double quotes
		want          string // Found.Content
	}{
		{"plain", "noindex", "noindex"},
		{"quote", "noindex&quot;", `noindex"`},
		{"escaped ampersand-lt stays literal", "a&amp;lt;b", "a&lt;b"},
		{"comment end", "a --&gt; b --!&gt; c &lt;!-- d", "a --> b --!> c <!-- d"},
		{"all", `&lt;&gt;&amp;&#39;&quot;`, `<>&'"`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			src := []byte("<!DOCTYPE html>\n<html><head>\n<meta name=\"robots\" content=\"" + tc.content + "\">\n</head><body></body></html>\n")
			var once, twice bytes.Buffer
			if err := Rewrite(&once, bytes.NewReader(src), d); err != nil {
				t.Fatal(err)
			}
			p, err := Scan(bytes.NewReader(once.Bytes()), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Block || len(p.Tags) != 1 || !p.Tags[0].Kept || p.Tags[0].Content != tc.want || p.Tags[0].Line != 3 {
				t.Fatalf("scan of the output: got %+v, want Block and one kept robots=%q on line 3\n%s", p, tc.want, once.Bytes())
			}
			if err := Rewrite(&twice, bytes.NewReader(once.Bytes()), d); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(once.Bytes(), twice.Bytes()) {
				t.Errorf("second run changed the page\nonce:  %q\ntwice: %q", once.Bytes(), twice.Bytes())
			}
		})
	}
}

// TestKeptOddNames: Scan and Directives.Agents accept any agent name, and a record must hold it
// without leaving its comment ("x-->y" would end it) and be read back (a blank inside a name).
func TestKeptOddNames(t *testing.T) {
	tests := []struct{ desc, name string }{
		{"comment end", "x-->y"},
		{"comment end with bang", "x--!>y"},
		{"quote and equals", `x="y`},
		{"blank inside", "my bot"},
		{"ampersand", "a&amp;b"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			d := rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "index, follow"}}, Agents: []string{tc.name}}
			attr := strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(tc.name)
			src := []byte("<!DOCTYPE html>\n<html><head>\n<meta name=\"" + attr + "\" content=\"noindex\">\n<title>t</title>\n</head><body></body></html>\n")
			p, err := Scan(bytes.NewReader(src), d.Agents)
			if err != nil || len(p.Tags) != 1 || p.Tags[0].Name != tc.name {
				t.Fatalf("scan of the input: got %+v, %v; want the tag named %q", p.Tags, err, tc.name)
			}
			var once, twice bytes.Buffer
			if err := Rewrite(&once, bytes.NewReader(src), d); err != nil {
				t.Fatal(err)
			}
			p, err = Scan(bytes.NewReader(once.Bytes()), d.Agents)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Block || len(p.Tags) != 1 || !p.Tags[0].Kept || p.Tags[0].Name != tc.name || p.Tags[0].Content != "noindex" {
				t.Fatalf("scan of the output: got %+v, want Block and one kept %q=noindex\n%s", p, tc.name, once.Bytes())
			}
			if !bytes.Contains(once.Bytes(), []byte("-->\n<title>t</title>")) {
				t.Errorf("the head after the block changed:\n%s", once.Bytes())
			}
			if err := Rewrite(&twice, bytes.NewReader(once.Bytes()), d); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(once.Bytes(), twice.Bytes()) {
				t.Errorf("second run changed the page\nonce:  %q\ntwice: %q", once.Bytes(), twice.Bytes())
			}
		})
	}
}
