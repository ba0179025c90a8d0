package sitemap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// TestErrors checks that XML that is not well-formed is an *Error at the right line
// and column, from Reader and Prune alike, and that a file that is not a sitemap is no error.
func TestErrors(t *testing.T) {
	const head = `<?xml version="1.0"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	for _, tc := range []struct {
		desc, src string
		want      string // the error printed; "" for none
		kind      Kind
		code      problem.Code // the error's; 0 for none
	}{
		{"mismatched end tag", head + "<url>\n<loc>https://a/</lo>\n</url>\n</urlset>\n", "4:16: sitemap: element <loc> closed by </lo>", URLSet, problem.SitemapNotWellFormed},
		{"unknown entity", head + "<url><loc>https://a/&nbsp;</loc></url>\n</urlset>\n", "3:11: sitemap: invalid character entity &nbsp;", URLSet, problem.SitemapNotWellFormed},
		{"unclosed comment", head + "<!-- never closed\n</urlset>\n", "3:1: sitemap: unexpected EOF", URLSet, problem.SitemapNotWellFormed},
		{"truncated", head + "<url><loc>https://a/", "3:21: sitemap: unexpected EOF", URLSet, problem.SitemapNotWellFormed},
		{"CR line ends count", "<urlset>\r<url>\r<loc>x</loc>\r</url>\r</urlset>\r<a>", "6:4: sitemap: unexpected EOF", URLSet, problem.SitemapNotWellFormed},
		{"not UTF-8", `<?xml version="1.0" encoding="ISO-8859-1"?><urlset/>`, `1:1: sitemap: encoding "ISO-8859-1" declared: sitemaps are UTF-8`, NotSitemap, problem.SitemapNotUTF8},
		{"US-ASCII is UTF-8", `<?xml version="1.0" encoding="US-ASCII"?><urlset/>`, "", URLSet, 0},
		{"RSS feed", `<?xml version="1.0"?><rss version="2.0"><channel><link>https://a/</link></channel></rss>`, "", NotSitemap, 0},
		{"text sitemap", "https://example.org/\nhttps://example.org/a\n", "", NotSitemap, 0},
		{"empty", "", "", NotSitemap, 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var readErr error
			r := NewReader(strings.NewReader(tc.src))
			for readErr == nil {
				_, readErr = r.Next()
			}
			var out bytes.Buffer
			p, pruneErr := Prune(&out, strings.NewReader(tc.src), func(Ref) bool { return false })
			for _, got := range []struct {
				who string
				err error
			}{{"Next", readErr}, {"Prune", pruneErr}} {
				if tc.want == "" {
					if got.err != nil && got.err != io.EOF {
						t.Errorf("%s: %v, want no error", got.who, got.err)
					}
					continue
				}
				var fe *Error
				if !errors.As(got.err, &fe) {
					t.Fatalf("%s: error %v (%T) is not *Error", got.who, got.err, got.err)
				}
				if got.err.Error() != tc.want {
					t.Errorf("%s: got %q, want %q", got.who, got.err, tc.want)
				}
				if p, _ := problem.Of(got.err); p.Code != tc.code || p.Error() != got.err.Error() {
					t.Errorf("%s: Problem %s %q, want %s %q", got.who, p.Code, p.Error(), tc.code, got.err)
				}
			}
			if tc.want == "" {
				if p.Kind != tc.kind || r.Kind() != tc.kind {
					t.Errorf("kind: Prune %s, Reader %s; want %s", p.Kind, r.Kind(), tc.kind)
				}
				if tc.kind != URLSet && out.String() != tc.src {
					t.Errorf("a %s was changed:\n%s", tc.kind, out.String())
				}
			}
		})
	}
}

// TestReaderError checks that the reader's own error comes back as it is, not as a position.
func TestReaderError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("<urlset><url><loc>https://a/</loc></url>"), iotest{boom})
	_, err := Prune(io.Discard, r, func(Ref) bool { return true })
	var fe *Error
	if !errors.Is(err, boom) || errors.As(err, &fe) {
		t.Errorf("got %v (%T), want %v itself", err, err, boom)
	}
}

type iotest struct{ err error }

func (r iotest) Read([]byte) (int, error) { return 0, r.err }

// failWriter fails after n bytes.
type failWriter struct {
	n, wrote int
}

var errFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if w.wrote+len(p) > w.n {
		return 0, errFull
	}
	w.wrote += len(p)
	return len(p), nil
}

// TestWriteError checks that Prune stops at the first write error and returns it.
func TestWriteError(t *testing.T) {
	src := genSitemap(2000, 1)
	calls := 0
	_, err := Prune(&failWriter{n: 100}, bytes.NewReader(src), func(Ref) bool { calls++; return true })
	if !errors.Is(err, errFull) {
		t.Fatalf("got %v, want %v", err, errFull)
	}
	// The writer is buffered (64 KiB): Prune may read on until the first flush, not to the end.
	if total := 2000 * 2; calls >= total {
		t.Errorf("keep asked %d times after the writer failed; want Prune to stop early", calls)
	}
}

// TestAsked checks what keep is asked, in which order: each loc, then the alternates of a kept
// entry only.
func TestAsked(t *testing.T) {
	src := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="http://www.w3.org/1999/xhtml">
<url><loc> https://a/1 </loc><x:link rel="alternate" hreflang="de" href="https://a/de/1"/></url>
<url><loc>https://a/drop</loc><x:link rel="alternate" hreflang="de" href="https://a/de/drop"/></url>
<url><x:link rel="alternate" hreflang="de" href="https://a/de/none"/></url>
</urlset>`
	var got []string
	p, err := Prune(io.Discard, strings.NewReader(src), func(r Ref) bool {
		got = append(got, describeRef(r))
		return !strings.Contains(r.URL, "drop")
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"line 2 https://a/1",
		"line 2 alternate de https://a/de/1 (of https://a/1)",
		"line 3 https://a/drop",
		"line 4 alternate de https://a/de/none (of )",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("asked:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if want := (Pruned{Kind: URLSet, URLs: 3, Removed: 1, Alternates: 2}); p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
}

// genSitemap writes a Hugo-like sitemap of n URLs, each with alts alternates.
func genSitemap(n, alts int) []byte {
	var b bytes.Buffer
	writeSitemap(&b, n, alts)
	return b.Bytes()
}

func writeSitemap(w io.Writer, n, alts int) {
	fmt.Fprint(w, `<?xml version="1.0" encoding="utf-8" standalone="yes"?>`+"\n"+
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`+"\n"+
		`  xmlns:xhtml="http://www.w3.org/1999/xhtml">`+"\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "  <url>\n    <loc>https://example.org/posts/post-%d/</loc>\n    <lastmod>2026-01-10T00:00:00+00:00</lastmod>\n", i)
		for a := 0; a < alts; a++ {
			fmt.Fprintf(w, "    <xhtml:link\n                rel=\"alternate\"\n                hreflang=\"l%d\"\n                href=\"https://example.org/l%d/posts/post-%d/\"\n                />\n", a, a, i)
		}
		fmt.Fprint(w, "  </url>\n")
	}
	fmt.Fprint(w, "</urlset>\n")
}

// lazySitemap produces the sitemap of writeSitemap as it is read, so that the input is never
// in memory as a whole.
func lazySitemap(n, alts int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		bw := &chunkWriter{w: pw}
		writeSitemap(bw, n, alts)
		bw.flush()
		pw.Close()
	}()
	return pr
}

type chunkWriter struct {
	w   io.Writer
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	if len(c.buf) >= 32<<10 {
		c.flush()
	}
	return len(p), nil
}

func (c *chunkWriter) flush() {
	c.w.Write(c.buf)
	c.buf = c.buf[:0]
}

// TestMemoryBounded prunes a 50,000-URL sitemap (about 28 MB, read as it is produced) and checks
// that the live heap, sampled as it goes, does not grow with the file: the most it holds late in
// the file is close to what it held early on.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 28 MB")
	}
	const n = 50000
	var samples []uint64
	i := 0
	sample := func() {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		samples = append(samples, m.HeapAlloc)
	}
	counter := &countWriter{}
	p, err := Prune(counter, lazySitemap(n, 3), func(r Ref) bool {
		if !r.Alternate {
			if i%5000 == 0 {
				sample()
			}
			i++
		}
		return !strings.HasSuffix(r.URL, "7/")
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.URLs != n || p.Removed != n/10 {
		t.Fatalf("got %+v", p)
	}
	first, most := samples[1], uint64(0)
	for _, s := range samples[1:] {
		most = max(most, s)
	}
	t.Logf("%d MB written; live heap at 5,000 URLs %d KB, at most %d KB after", counter.n>>20, first>>10, most>>10)
	if most > first+1<<20 {
		t.Errorf("live heap grew from %d KB to %d KB while streaming", first>>10, most>>10)
	}
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// TestTooLong: a piece of text longer than the recorder holds is an error at its line, not a
// sitemap held whole in memory.
func TestTooLong(t *testing.T) {
	src := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<!--" + strings.Repeat("x", maxHeld) + "-->\n</urlset>\n"
	_, err := Prune(io.Discard, strings.NewReader(src), func(Ref) bool { return true })
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 2 || !errors.Is(err, errTooLong) {
		t.Errorf("got %v, want an error at line 2 saying the text is too long", err)
	}
	if got := problem.CodeOf(err); got != problem.SitemapTokenTooLong {
		t.Errorf("code %s, want %s", got, problem.SitemapTokenTooLong)
	}
}
