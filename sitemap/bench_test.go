package sitemap

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkPrune prunes a Hugo-like sitemap of 5,000 and of 50,000 URLs, each with 3 hreflang
// alternates, dropping one URL in ten. B/op and allocs/op grow with the file (encoding/xml
// allocates per token); per URL they stay the same from 5,000 to 50,000 URLs, and the live heap
// does not grow at all (TestMemoryBounded).
func BenchmarkPrune(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		src := genSitemap(n, 3)
		b.Run(strconv.Itoa(n)+"urls", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Prune(io.Discard, bytes.NewReader(src), func(r Ref) bool { return !strings.HasSuffix(r.URL, "7/") }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLayoutPrune prunes the same sitemaps again from their Layout (watch mode's next batch),
// dropping one URL in ten: no XML is read.
func BenchmarkLayoutPrune(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		src := genSitemap(n, 3)
		keep := func(r Ref) bool { return !strings.HasSuffix(r.URL, "7/") }
		_, l, err := PruneLayout(io.Discard, bytes.NewReader(src), keep)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(n)+"urls", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Prune(io.Discard, src, keep); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRead reads the same 50,000-URL sitemap with Reader.
func BenchmarkRead(b *testing.B) {
	src := genSitemap(50000, 3)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(src))
		for {
			if _, err := r.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}
