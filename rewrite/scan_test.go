package rewrite

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

func TestScan(t *testing.T) {
	tests := []struct {
		desc   string
		src    string
		agents []string
		want   Page
	}{
		{
			desc: "head tag with offsets and line",
			src:  "<!DOCTYPE html>\n<head>\n<META Name=\"Robots\" content=\"NoIndex\">\n</head>",
			want: Page{HTML: true, Tags: []Found{{Name: "robots", Content: "NoIndex", Line: 3, Start: 23, End: 61, Head: true}}},
		},
		{
			desc: "CRLF and lone CR count as line ends",
			src:  "<html>\r\n<head>\r<meta name=googlebot content=x>",
			want: Page{HTML: true, Tags: []Found{{Name: "googlebot", Content: "x", Line: 3, Start: 15, End: 46, Head: true}}},
		},
		{
			desc: "body and noscript tags are reported, not head",
			src:  "<html><head><noscript><meta name=robots content=a></noscript></head><body><meta name=bingbot content=b>",
			want: Page{HTML: true, Tags: []Found{
				{Name: "robots", Content: "a", Line: 1, Start: 22, End: 50},
				{Name: "bingbot", Content: "b", Line: 1, Start: 74, End: 103},
			}},
		},
		{
			desc: "script, style, comment, template, textarea and attributes hide tags",
			src: `<html><head><script>"<meta name=robots>"</script><style>/*<meta name=robots>*/</style>` +
				`<!--<meta name=robots>--><template><meta name=robots></template></head>` +
				`<body><textarea><meta name=robots></textarea><p title="<meta name=robots>">`,
			want: Page{HTML: true},
		},
		{
			desc: "robotsmith block is not reported",
			src:  "<html><head><!-- robotsmith --><meta name=robots content=x><!-- /robotsmith --></head>",
			want: Page{HTML: true, Block: true},
		},
		{
			desc: "markers around other content are no block",
			src:  "<html><head><!-- robotsmith --><title>t</title><meta name=robots content=x><!-- /robotsmith --></head>",
			want: Page{HTML: true, Tags: []Found{{Name: "robots", Content: "x", Line: 1, Start: 47, End: 75, Head: true}}},
		},
		{
			desc: "redirect stub",
			src:  `<!DOCTYPE html><html><head><meta http-equiv="Refresh" content="0; url=/x/"></head></html>`,
			want: Page{HTML: true, Redirect: true},
		},
		{
			desc: "refresh in noscript or body is no redirect stub",
			src:  `<html><head><noscript><meta http-equiv=refresh content=0></noscript></head><body><meta http-equiv=refresh content=0>`,
			want: Page{HTML: true},
		},
		{
			desc:   "extra agents",
			src:    `<html><meta name=" MyBot " content="noindex"><meta name=description content=robots>`,
			agents: []string{"mybot"},
			want:   Page{HTML: true, Tags: []Found{{Name: "mybot", Content: "noindex", Line: 1, Start: 6, End: 45, Head: true}}},
		},
		{
			desc: "property and description are not robots",
			src:  `<html><meta property=robots content=noindex><meta name=description content=noindex>`,
			want: Page{HTML: true},
		},
		{
			desc: "fragment is not HTML",
			src:  `<div><meta name=robots content=noindex></div>`,
			want: Page{},
		},
		{
			desc: "verification file is not HTML",
			src:  "google-site-verification: google123.html",
			want: Page{},
		},
		{
			desc: "body tag after head content makes a document",
			src:  "<title>t</title><meta name=robots content=x><body>",
			want: Page{HTML: true, Tags: []Found{{Name: "robots", Content: "x", Line: 1, Start: 16, End: 44, Head: true}}},
		},
		{
			// In <svg> and <math> nothing is raw text (an HTML parser tells the tokenizer so): a
			// self-closed <title/> must not hide the rest of the page, and <meta> breaks out of
			// foreign content into the body even inside <style> (x/net/html Parse agrees).
			desc: "svg title and style are not raw text",
			src:  `<html><body><svg><title/><path/></svg><meta name=robots content=a><svg><style>/*<meta name=robots content=b>*/</style></svg>`,
			want: Page{HTML: true, Tags: []Found{
				{Name: "robots", Content: "a", Line: 1, Start: 38, End: 66},
				{Name: "robots", Content: "b", Line: 1, Start: 80, End: 108},
			}},
		},
		{
			desc: "html in an svg integration point is raw text again",
			src:  `<html><body><svg><foreignObject><textarea><meta name=robots></textarea></foreignObject><desc><title><meta name=robots></title></desc></svg><math><mi><style><meta name=robots></style></mi></math>`,
			want: Page{HTML: true},
		},
		{
			desc: "after svg closes, html raw text is back",
			src:  `<html><body><svg><g></g></svg><title><meta name=robots></title><math><mtext></mtext><ms/></math><textarea><meta name=robots></textarea>`,
			want: Page{HTML: true},
		},
		{
			desc: "entities unescaped",
			src:  `<html><meta name="&#114;obots" content="a&amp;b">`,
			want: Page{HTML: true, Tags: []Found{{Name: "robots", Content: "a&b", Line: 1, Start: 6, End: 49, Head: true}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := Scan(strings.NewReader(tc.src), tc.agents)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Scan(%q)\ngot  %+v\nwant %+v", tc.src, got, tc.want)
			}
			for _, f := range got.Tags {
				if raw := tc.src[f.Start:f.End]; !strings.HasPrefix(raw, "<") || !strings.HasSuffix(raw, ">") {
					t.Errorf("offsets [%d,%d) give %q, want a whole tag", f.Start, f.End, raw)
				}
			}
		})
	}
}

func TestLastCandidate(t *testing.T) {
	tests := []struct {
		desc string
		rest string
		want int
	}{
		{"nothing", "<p>text</p><div>more</div>", -1},
		{"microdata meta is no candidate", `<meta itemprop="position" content="1">`, -1},
		{"description meta is no candidate", `<meta name="description" content="robots">`, -1},
		{"robots meta", `<p>x</p><META NAME=ROBOTS>`, 8},
		{"last of several", `<meta name=robots><p><meta name=googlebot><meta name=x>`, 21},
		{"marker comment", `<p><!-- /robotsmith --></p>`, 3},
		{"a kept-tag record", `<!-- robotsmith: from the page, line 7: robots="noindex" -->`, 0},
		{"marker after white space TrimSpace skips", "<p><!--\u00a0\trobotsmith-->", 3},
		{"the word in text is no candidate", `<p>robotsmith writes this</p><!-- built by robotsmith -->`, -1},
		{"in a script still counts (context comes later)", `<script>"<meta name=bingbot>"</script>`, 9},
		{"unfinished tag at the end", `<p><meta name=robots`, -1},
		{"tag longer than the window", "<meta " + strings.Repeat("a ", candidateWindow) + "name=robots>", 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := lastCandidate([]byte(tc.rest), rules.IsAgent); got != tc.want {
				t.Errorf("lastCandidate(%.40q) = %d, want %d", tc.rest, got, tc.want)
			}
		})
	}
}

// TestBodySkip checks that the byte search lets Scan stop early yet lose no
// body tag: a page whose body has a robots tag far down, behind many
// candidates that are not.
func TestBodySkip(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html><html><head><title>t</title></head><body>\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "<p>para %d <meta itemprop=x content=y></p>\n", i)
	}
	b.WriteString("<script>'<meta name=robots content=fake>'</script>\n<meta name=robots content=real>\n</body></html>\n")
	p, err := Scan(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tags) != 1 || p.Tags[0].Content != "real" || p.Tags[0].Line != 1003 {
		t.Errorf("got %+v, want the one real tag on line 1003", p.Tags)
	}
}

func ExampleRewrite() {
	src := `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>Post</title>
  <meta name="robots" content="noindex">
</head>
<body><p>Hi</p></body>
</html>
`
	page, _ := Scan(strings.NewReader(src), nil)
	fmt.Println(page.HTML, page.Tags[0].Name, page.Tags[0].Content, page.Tags[0].Line)

	d := rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: "noindex, follow"}}}
	if err := Rewrite(os.Stdout, strings.NewReader(src), d); err != nil {
		fmt.Println(err)
	}
	// Output:
	// true robots noindex 6
	// <!DOCTYPE html>
	// <html>
	// <head>
	//   <meta charset="utf-8">
	//   <title>Post</title>
	//   <!-- robotsmith -->
	//   <meta name="robots" content="noindex, follow">
	//   <!-- robotsmith: from the page, line 6: robots="noindex" -->
	//   <!-- /robotsmith -->
	// </head>
	// <body><p>Hi</p></body>
	// </html>
}

func ExampleProcess() {
	src := []byte(`<html><head><meta name=robots content=noindex></head><body></body></html>`)
	out, changed, err := Process(src, nil, func(p Page) rules.Directives {
		if p.Redirect {
			return rules.Directives{Clear: true}
		}
		return rules.Directives{Tags: []rules.Tag{{Name: "robots", Content: p.Tags[0].Content + ", follow"}}}
	})
	fmt.Printf("%s\n%v %v\n", out, changed, err)
	// Output:
	// <html><head><!-- robotsmith -->
	// <meta name="robots" content="noindex, follow">
	// <!-- robotsmith: from the page, line 1: robots="noindex" -->
	// <!-- /robotsmith --></head><body></body></html>
	// true <nil>
}

// TestMetaAttributeNames: a meta's attributes are read only when its text names one that the
// scan reads (name, http-equiv, charset), in any case; one that names none is a meta of no
// interest.
func TestMetaAttributeNames(t *testing.T) {
	isName := nameSet(nil, rules.Directives{})
	for _, tc := range []struct {
		desc, src  string
		charsetEnd int
		redirect   bool
		tags       int
	}{
		{"capitals", `<html><head><META CHARSET=utf-8><META HTTP-EQUIV=Refresh CONTENT=0><META NAME=robots CONTENT=x>`, 32, true, 1},
		{"mixed case", `<html><head><meta ChArSeT=utf-8><meta Http-Equiv=refresh content=0><meta nAmE=robots content=x>`, 32, true, 1},
		{"content-type charset", `<html><head><meta http-equiv=Content-Type content="text/html; charset=utf-8">`, 77, false, 0},
		{"none of them", `<html><head><meta property=og:title content="name charset http-equiv"><meta itemprop=robots content=x>`, -1, false, 0},
		{"a NUL is not a name", "<html><head><meta na\x00me=robots content=x>", -1, false, 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			res := scan([]byte(tc.src), isName, nil)
			if res.charsetEnd != tc.charsetEnd || res.redirect != tc.redirect || len(res.tags) != tc.tags {
				t.Errorf("got charsetEnd %d, redirect %v, %d tags; want %d, %v, %d",
					res.charsetEnd, res.redirect, len(res.tags), tc.charsetEnd, tc.redirect, tc.tags)
			}
		})
	}
}

func TestContainsFold(t *testing.T) {
	for _, tc := range []struct {
		b, word string
		want    bool
	}{
		{"<meta NAME=x>", "name", true},
		{"<meta nAmE=x>", "name", true},
		{"<meta na me=x>", "name", false},
		{"nam", "name", false},
		{"<meta http-EQUIV=x>", "equiv", true},
		{"", "name", false},
	} {
		if got := containsFold([]byte(tc.b), tc.word); got != tc.want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", tc.b, tc.word, got, tc.want)
		}
	}
}
