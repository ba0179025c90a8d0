package llmstxt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/markers"
)

var (
	site  = Info{Title: "Example Docs", Description: "Example is a static site\nabout examples."}
	pages = []Page{
		{URL: "https://example.com/", Title: "Home", Description: "The start page."},
		{URL: "https://example.com/guide/", Markdown: "https://example.com/guide/index.md", Title: "Guide", Description: "How to use Example.", Section: "Docs"},
		{URL: "https://example.com/about/", Title: "About [us]", Description: "Who we are: `team` <b>and</b> \\ more."},
		{URL: "https://example.com/docs/a b (draft)/", Title: "Spaces and\nparentheses", Section: "Docs"},
		{URL: "https://example.com/untitled/", Section: "Docs"},
		{URL: "https://example.com/blog/first/", Title: "First post", Description: "Hello.", Section: "Blog"},
	}
)

// TestGenerateGolden writes the block for a site and its pages into each
// testdata/generate/NAME.input.md (an llms.txt as the owner left it; "missing" is no file):
// NAME.golden.md is the result, byte for byte.
func TestGenerateGolden(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "generate", "*.input.md"))
	names = append(names, filepath.Join("testdata", "generate", "missing.input.md"))
	for _, n := range names {
		name := strings.TrimSuffix(filepath.Base(n), ".input.md")
		t.Run(name, func(t *testing.T) {
			var existing []byte
			if name != "missing" {
				b, err := os.ReadFile(n)
				if err != nil {
					t.Fatal(err)
				}
				existing = b
			}
			out, err := Update(existing, site, pages)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("generate", name+".golden.md"), out)
			// The owner's text outside the block is kept, byte for byte.
			if got, want := outside(out), outside(existing); strings.TrimSpace(strings.TrimPrefix(got, "\xef\xbb\xbf")) != strings.TrimSpace(strings.TrimPrefix(want, "\xef\xbb\xbf")) {
				t.Errorf("the owner's text changed:\n got %q\nwant %q", got, want)
			}
			// Generating again changes nothing.
			again, err := Update(out, site, pages)
			if err != nil || string(again) != string(out) {
				t.Errorf("a second Update changed the file (err %v):\n%s", err, again)
			}
			// The result reads back: one H1 first, every page linked once.
			f, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			if f.Title == "" {
				t.Errorf("no H1")
			}
			checkLinks(t, out, f)
			for _, p := range pages {
				want := p.URL
				if p.Markdown != "" {
					want = p.Markdown
				}
				n := 0
				for _, l := range f.Links {
					if l.URL == strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(want) {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s is linked %d times, want once", want, n)
				}
			}
		})
	}
}

// outside is the text of a file outside robotsmith's blocks.
func outside(b []byte) string {
	var s strings.Builder
	prev := 0
	for _, sp := range markers.HTML.Find(b) {
		s.Write(b[prev:sp.Start])
		prev = sp.End
	}
	s.Write(b[prev:])
	return s.String()
}

func TestGenerateTitles(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Page
		want string
	}{
		{"plain", Page{URL: "/a/", Title: "A", Description: "About A."}, "- [A](/a/): About A."},
		{"no description", Page{URL: "/a/", Title: "A"}, "- [A](/a/)"},
		{"no title: the URL", Page{URL: "/a/"}, "- [/a/](/a/)"},
		{"brackets, backslash, backtick, angle", Page{URL: "/a/", Title: "[x] \\ `y` <z>"}, "- [\\[x\\] \\\\ \\`y\\` \\<z>](/a/)"},
		{"link syntax in the description stays text", Page{URL: "/a/", Title: "A", Description: "see [b](/b/)"}, "- [A](/a/): see \\[b\\](/b/)"},
		{"line breaks collapse", Page{URL: "/a/", Title: "A\n  B", Description: "one\r\ntwo"}, "- [A B](/a/): one two"},
		{"destination encoded", Page{URL: "/a b/(c)/<d>\\"}, "- [/a b/(c)/\\<d>\\\\](/a%20b/%28c%29/%3Cd%3E%5C)"},
		{"Markdown twin linked", Page{URL: "/a/", Markdown: "/a/index.md", Title: "A"}, "- [A](/a/index.md)"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := string(Generate(Info{}, []Page{tc.p}))
			want := markers.HTMLBegin + "\n## Pages\n\n" + tc.want + "\n" + markers.HTMLEnd + "\n"
			if got != want {
				t.Errorf("Generate\n got %q\nwant %q", got, want)
			}
			f, err := Parse([]byte(got))
			if err != nil || len(f.Links) != 1 {
				t.Fatalf("reads back as %d links (%v)", len(f.Links), err)
			}
			if l := f.Links[0]; strings.Join(strings.Fields(tc.p.Title), " ") != "" && unescapeText(l.Text) != strings.Join(strings.Fields(tc.p.Title), " ") {
				t.Errorf("text reads back as %q", l.Text)
			}
		})
	}
	if got := string(Generate(Info{Title: "C# #"}, nil)); !strings.Contains(got, "# C# \\#\n") {
		t.Errorf("a heading ending in # keeps it: %q", got)
	}
}

func unescapeText(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\[`, `[`, `\]`, `]`, "\\`", "`", `\<`, `<`).Replace(s)
}

func TestUpdateUnclosed(t *testing.T) {
	_, err := Update([]byte("# T\n\n"+markers.HTMLBegin+"\nold\n"), site, pages)
	var me *markers.Error
	if !errors.As(err, &me) || me.Line != 3 {
		t.Errorf("err = %v, want a *markers.Error at line 3", err)
	}
}
