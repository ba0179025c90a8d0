package rewrite

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// synthPage is a generated page of about size bytes: a realistic head with a
// theme robots tag, then paragraphs, scripts, comments and microdata metas
// (which the body byte search must look at and reject). With bodyTag, a
// robots tag near the end forces the body to be tokenized.
func synthPage(size int, bodyTag bool) []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Benchmark</title>
  <meta name="robots" content="index, follow">
  <link rel="stylesheet" href="/css/main.css">
  <script>window.dataLayer = window.dataLayer || []; var s = "</head>";</script>
</head>
<body>
`)
	for i := 0; b.Len() < size-200; i++ {
		fmt.Fprintf(&b, `<article class="post"><h2><a href="/posts/%d/">Post %d</a></h2>
<div itemscope itemtype="https://schema.org/ListItem"><meta itemprop="position" content="%d"></div>
<p>Lorem ipsum dolor sit amet, <em>consectetur</em> adipiscing elit &amp; more text for post %d.</p>
<!-- card %d --><script>console.log("<p>%d</p>")</script></article>
`, i, i, i, i, i, i)
	}
	if bodyTag {
		b.WriteString(`<meta name="robots" content="noindex">` + "\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}

func BenchmarkRewrite(b *testing.B) {
	for _, bc := range []struct {
		desc    string
		size    int
		bodyTag bool
	}{
		{"1MB", 1 << 20, false},
		{"10MB", 10 << 20, false},
		{"1MB-body-tag", 1 << 20, true},
		{"10MB-body-tag", 10 << 20, true},
	} {
		src := synthPage(bc.size, bc.bodyTag)
		b.Run(bc.desc, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := Rewrite(io.Discard, bytes.NewReader(src), public); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScan(b *testing.B) {
	src := synthPage(10<<20, false)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Scan(bytes.NewReader(src), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSynthPage keeps the benchmark's page honest: the rewrite changes the
// head tag, and the body tag only when there is one.
func TestSynthPage(t *testing.T) {
	for _, bodyTag := range []bool{false, true} {
		src := synthPage(64<<10, bodyTag)
		p, err := Scan(bytes.NewReader(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if bodyTag {
			want = 2
		}
		if len(p.Tags) != want {
			t.Errorf("bodyTag=%v: got %d tags, want %d", bodyTag, len(p.Tags), want)
		}
	}
}

// themeHead is the head a PaperMod-like theme writes (the sample site's stand-in theme): metas
// named and not (Open Graph properties), links, an inline script.
const themeHead = `<!DOCTYPE html>
<html lang="en" dir="auto">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1, shrink-to-fit=no">
<meta name="robots" content="index, follow">
<title>A post | A site</title>
<meta name="keywords" content="go, static sites">
<meta name="description" content="A post about static sites and how to keep crawlers where they belong.">
<meta name="author" content="Someone">
<link rel="canonical" href="https://example.org/posts/a-post/">
<link crossorigin="anonymous" href="/css/style.css" rel="preload stylesheet" as="style">
<link rel="icon" href="/images/logo.png">
<meta property="og:title" content="A post">
<meta property="og:description" content="A post about static sites and how to keep crawlers where they belong.">
<meta property="og:type" content="article">
<meta property="og:url" content="https://example.org/posts/a-post/">
<script>
  var themeFallback = '<link rel="stylesheet" href="/css/style.css"></head>';
</script>
</head>
<body class="single" id="top">
`

// BenchmarkProcessor is the step's rewrite of a typical generated page (25 KB, a theme's robots tag
// in the head), with one buffer and one Processor reused from page to page (Scan, then Splice): the
// first build, which writes the block, and every later build, which finds it already right and
// writes nothing. Run: go test -run '^$' -bench Processor -benchmem ./rewrite
func BenchmarkProcessor(b *testing.B) {
	src := synthPage(25<<10, false)
	var built bytes.Buffer
	if err := Rewrite(&built, bytes.NewReader(src), public); err != nil {
		b.Fatal(err)
	}
	// The same page with a theme's head (themeHead) instead of the short one.
	theme := append([]byte(themeHead), src[bytes.Index(src, []byte("<body>\n"))+len("<body>\n"):]...)
	isAgent := nameSet(nil, public)
	for _, bc := range []struct {
		desc    string
		page    []byte
		changed bool
	}{
		{"first-build", src, true},
		{"rebuild", built.Bytes(), false},
		{"theme-head", theme, true},
	} {
		b.Run(bc.desc, func(b *testing.B) {
			var (
				dst  bytes.Buffer
				proc Processor
			)
			b.SetBytes(int64(len(bc.page)))
			for b.Loop() {
				page, err := proc.Scan(bc.page, isAgent)
				if err != nil || !page.HTML {
					b.Fatalf("scan: %v, HTML %v", err, page.HTML)
				}
				changed, err := proc.Splice(&dst, public)
				if err != nil || changed != bc.changed {
					b.Fatalf("changed %v, err %v; want changed %v", changed, err, bc.changed)
				}
			}
		})
	}
}
