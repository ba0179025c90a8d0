package llmstxt

import (
	"fmt"
	"strings"
	"testing"
)

// linkForms are the forms a link takes in an llms.txt, each with what Parse must find. The
// forms llmstxt.org writes (`- [name](url)`, `- [name](url): notes`, H2 sections) come first,
// then every other form CommonMark (and GitHub Flavored Markdown's extended autolinks) gives.
// Each want is "kind URL | text | title | label | notes | section | bytes", one per link.
var linkForms = []struct {
	desc, in string
	want     []string
}{
	{"list item", "## Docs\n\n- [Guide](https://example.com/guide/)\n",
		[]string{"inline https://example.com/guide/ | Guide |  |  |  | Docs | [Guide](https://example.com/guide/)"}},
	{"list item with notes", "- [Guide](/guide/): how to use it\n  over two lines\n",
		[]string{"inline /guide/ | Guide |  |  | how to use it\nover two lines |  | [Guide](/guide/)"}},
	{"list item with notes, no space", "* [Guide](/guide/):notes\n",
		[]string{"inline /guide/ | Guide |  |  | notes |  | [Guide](/guide/)"}},
	{"ordered list item", "1. [Guide](/guide/) - notes\n",
		[]string{"inline /guide/ | Guide |  |  | - notes |  | [Guide](/guide/)"}},
	{"a second link in an item has no notes", "- [A](/a/) and [B](/b/): notes\n",
		[]string{"inline /a/ | A |  |  | and [B](/b/): notes |  | [A](/a/)", "inline /b/ | B |  |  |  |  | [B](/b/)"}},
	{"the optional section", "## Optional\n\n- [Extra](/extra/)\n",
		[]string{"inline /extra/ | Extra |  |  |  | Optional | [Extra](/extra/)"}},
	{"link with a title", `[a](/a/ "The A")`,
		[]string{`inline /a/ | a | The A |  |  |  | [a](/a/ "The A")`}},
	{"link with a title in parentheses", "[a](/a/ (The A))",
		[]string{"inline /a/ | a | The A |  |  |  | [a](/a/ (The A))"}},
	{"angle-bracket destination with a space", "[a](<https://example.com/a b/>)",
		[]string{"inline https://example.com/a b/ | a |  |  |  |  | [a](<https://example.com/a b/>)"}},
	{"destination with balanced parentheses", "[a](/wiki/A_(letter))",
		[]string{"inline /wiki/A_(letter) | a |  |  |  |  | [a](/wiki/A_(letter))"}},
	{"escapes and entities in the destination", `[a](/a\_b/&amp;c)`,
		[]string{`inline /a_b/&c | a |  |  |  |  | [a](/a\_b/&amp;c)`}},
	{"emphasis and code in the text", "[*the* `code` ]](/a/)",
		nil},
	{"emphasis and code in the text, bracket escaped", "[*the* `code` \\]](/a/)",
		[]string{"inline /a/ | *the* `code` \\] |  |  |  |  | [*the* `code` \\]](/a/)"}},
	{"nested brackets in the text", "[a [b] c](/a/)",
		[]string{"inline /a/ | a [b] c |  |  |  |  | [a [b] c](/a/)"}},
	{"a link over two lines", "[a\nb](/a/)",
		[]string{"inline /a/ | a\nb |  |  |  |  | [a\nb](/a/)"}},
	{"relative URLs", "[a](a/) [b](../b) [c](./c) [d](#d) [e](?e)",
		[]string{"inline a/ | a |  |  |  |  | [a](a/)", "inline ../b | b |  |  |  |  | [b](../b)",
			"inline ./c | c |  |  |  |  | [c](./c)", "inline #d | d |  |  |  |  | [d](#d)", "inline ?e | e |  |  |  |  | [e](?e)"}},
	{"empty destination", "[a]()",
		[]string{"inline  | a |  |  |  |  | [a]()"}},
	{"image", "![alt](/i.png)",
		[]string{"image inline /i.png | alt |  |  |  |  | ![alt](/i.png)"}},
	{"image inside a link", "[![b](/b.svg)](/a/)",
		[]string{"inline /a/ | ![b](/b.svg) |  |  |  |  | [![b](/b.svg)](/a/)", "image inline /b.svg | b |  |  |  |  | ![b](/b.svg)"}},
	{"full reference", "[a][r]\n\n[r]: /r/\n",
		[]string{"reference /r/ | a |  | r |  |  | [a][r]", "definition /r/ | r |  | r |  |  | [r]: /r/"}},
	{"collapsed reference", "[r][]\n\n[r]: /r/\n",
		[]string{"reference /r/ | r |  | r |  |  | [r][]", "definition /r/ | r |  | r |  |  | [r]: /r/"}},
	{"shortcut reference, labels without case", "[R]\n\n[r]: /r/ 'T'\n",
		[]string{"reference /r/ | R | T | R |  |  | [R]", "definition /r/ | r | T | r |  |  | [r]: /r/ 'T'"}},
	{"definition over three lines", "[r]:\n  /r/\n  \"T\"\n",
		[]string{"definition /r/ | r | T | r |  |  | [r]:\n  /r/\n  \"T\""}},
	{"the first of two definitions wins", "[a][r]\n\n[r]: /one/\n[r]: /two/\n",
		[]string{"reference /one/ | a |  | r |  |  | [a][r]", "definition /one/ | r |  | r |  |  | [r]: /one/", "definition /two/ | r |  | r |  |  | [r]: /two/"}},
	{"undefined reference is text", "[a][nowhere] and [b]", nil},
	{"autolink", "<https://example.com/a>",
		[]string{"autolink https://example.com/a | https://example.com/a |  |  |  |  | <https://example.com/a>"}},
	{"email autolink", "<me@example.com>",
		[]string{"autolink mailto:me@example.com | me@example.com |  |  |  |  | <me@example.com>"}},
	{"bare URL", "see https://example.com/a. Then",
		[]string{"bare https://example.com/a | https://example.com/a |  |  |  |  | https://example.com/a"}},
	{"bare www", "at www.example.com/a",
		[]string{"bare http://www.example.com/a | www.example.com/a |  |  |  |  | www.example.com/a"}},
	{"link in a heading", "## [Docs](/docs/)\n",
		[]string{"inline /docs/ | Docs |  |  |  | [Docs](/docs/) | [Docs](/docs/)"}},
	{"link in a blockquote", "# T\n\n> See [a](/a/).\n",
		[]string{"inline /a/ | a |  |  |  |  | [a](/a/)"}},
	{"list in a blockquote", "> - [a](/a/): n\n",
		[]string{"inline /a/ | a |  |  | n |  | [a](/a/)"}},
	{"byte order mark and CRLF", "\xef\xbb\xbf# T\r\n\r\n- [a](/a/): n\r\n",
		[]string{"inline /a/ | a |  |  | n |  | [a](/a/)"}},
	{"code span, fence, indented code, HTML and escapes are not links",
		"`[a](/a/)`\n\n```\n[b](/b/)\n```\n\n    [c](/c/)\n\n<div>\n[d](/d/)\n</div>\n\n\\[e](/e/)\n", nil},
}

func TestLinkForms(t *testing.T) {
	for _, tc := range linkForms {
		t.Run(tc.desc, func(t *testing.T) {
			f, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range f.Links {
				kind := l.Kind.String()
				if l.Image {
					kind = "image " + kind
				}
				got = append(got, fmt.Sprintf("%s %s | %s | %s | %s | %s | %s | %s",
					kind, l.URL, l.Text, l.Title, l.Label, l.Notes, l.Section, tc.in[l.Start:l.End]))
			}
			if strings.Join(got, "\n---\n") != strings.Join(tc.want, "\n---\n") {
				t.Errorf("Parse(%q):\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	src := "\xef\xbb\xbf# Example *Docs*\n\n> A site.\n> On two lines.\n\nIntro.\n\n## Docs\n\n- [a](/a/)\n\n## Optional\n\n- [b](/b/)\n"
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !f.BOM || f.Title != "Example *Docs*" || f.TitleLine != 1 || f.Summary != "A site.\nOn two lines." {
		t.Errorf("BOM %v, title %q at %d, summary %q", f.BOM, f.Title, f.TitleLine, f.Summary)
	}
	if got := fmt.Sprint(f.Sections); got != "[{Docs 8 56} {Optional 12 77}]" {
		t.Errorf("sections %s", got)
	}
	if len(f.Links) != 2 || f.Links[0].Line != 10 || !f.Links[0].InItem || f.Links[1].Section != "Optional" {
		t.Errorf("links %+v", f.Links)
	}
	if f, _ := Parse([]byte("No heading.\n\n# Late title\n")); f.Title != "Late title" || f.TitleLine != 3 || f.Summary != "" {
		t.Errorf("late title: %q at %d", f.Title, f.TitleLine)
	}
}

// TestLinkBytes checks, over every fixture, that each link's bytes are what its kind says.
func TestLinkBytes(t *testing.T) {
	srcs := fixtures(t)
	for _, tc := range linkForms {
		srcs[tc.desc] = []byte(tc.in)
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			f, err := Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			checkLinks(t, src, f)
		})
	}
}

// checkLinks fails t for a link whose bytes are not where its kind puts them.
func checkLinks(t testing.TB, src []byte, f File) {
	t.Helper()
	for _, l := range f.Links {
		if l.Start < 0 || l.End > len(src) || l.Start > l.End || l.TextStart < l.Start || l.TextEnd > l.End {
			t.Fatalf("link %+v: range out of %d bytes", l, len(src))
		}
		b := string(src[l.Start:l.End])
		ok := true
		switch l.Kind {
		case Inline:
			ok = strings.HasSuffix(b, ")") && src[l.TextEnd] == ']'
		case Reference:
			ok = strings.HasSuffix(b, "]") && src[l.TextEnd] == ']'
		case Autolink:
			ok = strings.HasPrefix(b, "<") && strings.HasSuffix(b, ">")
		case Bare:
			ok = b == l.Text
		case Definition:
			ok = strings.HasPrefix(b, "[") && !strings.ContainsAny(b[len(b)-1:], "\r\n")
		}
		if (l.Kind == Inline || l.Kind == Reference) && !strings.HasPrefix(b, "[") && !strings.HasPrefix(b, "![") {
			ok = false
		}
		if !ok || l.Line != Line(src, l.Start) {
			t.Errorf("%s link at line %d has bytes %q", l.Kind, l.Line, b)
		}
	}
}
