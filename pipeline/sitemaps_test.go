package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// TestPruneSitemaps: build leaves out of the sitemap the <url> of a noindex page and of a URL with no
// file, and the hreflang alternates that point at them, keeping every other byte (an index and the
// sitemap it lists, percent-encoded and host-less matching); check then finds nothing to change, and
// with `sitemap: keep` nothing is written.
func TestPruneSitemaps(t *testing.T) {
	index := "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"  <sitemap>\n    <loc>https://example.org/en/sitemap.xml</loc>\n  </sitemap>\n</sitemapindex>\n"
	en := "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" +
		"  <!-- pages -->\n" +
		"  <url>\n    <loc>https://example.org/en/caf%C3%A9/</loc>\n" +
		"    <xhtml:link\n                rel=\"alternate\"\n                hreflang=\"de\"\n                href=\"https://example.org/de/cafe/\"\n                />\n" +
		"    <xhtml:link\n                rel=\"alternate\"\n                hreflang=\"en\"\n                href=\"https://example.org/en/caf%C3%A9/\"\n                />\n  </url><url>\n" +
		"    <loc>https://other.example/en/private/</loc>\n  </url>\r\n  <url>\n    <loc>/en/gone/</loc>\n  </url>\n</urlset>\n"
	want := "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" +
		"  <!-- pages -->\n" +
		"  <url>\n    <loc>https://example.org/en/caf%C3%A9/</loc>\n" +
		"    <xhtml:link\n                rel=\"alternate\"\n                hreflang=\"en\"\n                href=\"https://example.org/en/caf%C3%A9/\"\n                />\n  </url>\r\n</urlset>\n"
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		cfg := "rules:\n  - path: /en/private/**\n    robots: noindex\n"
		if keep {
			cfg += "sitemap: keep\n"
		}
		writeTree(t, dir, map[string]string{
			"robotsmith.yaml":       cfg,
			"index.html":            page,
			"en/café/index.html":    page,
			"en/private/index.html": page,
			"sitemap.xml":           index,
			"en/sitemap.xml":        en,
		})
		rep, err := Run(context.Background(), Options{Root: dir, Write: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "en", "sitemap.xml"))
		if err != nil {
			t.Fatal(err)
		}
		wantHere := want
		if keep {
			wantHere = en
			if len(rep.Findings) != 3 {
				t.Errorf("keep: %d findings, want 3 (de alternate, noindex, no file):\n%q", len(rep.Findings), rep.Findings)
			}
		}
		if string(got) != wantHere {
			t.Errorf("keep %v: en/sitemap.xml:\ngot  %q\nwant %q", keep, got, wantHere)
		}
		if idx, _ := os.ReadFile(filepath.Join(dir, "sitemap.xml")); string(idx) != index {
			t.Errorf("the index changed:\n%s", idx)
		}
		again, err := Run(context.Background(), Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		if again.Changed != 0 {
			t.Errorf("keep %v: check after build would change %v", keep, again.ChangedFiles)
		}
	}
}

// TestPruneLargeSitemap: a sitemap of 10 MB whose first entry goes is pruned byte for byte, with
// the live heap bounded the while (the new bytes spill to a temporary file past spillAt, which is
// gone after the run); and one that is not well-formed after its first pruned entry is left as it
// is, with a warning, and nothing of it written.
func TestPruneLargeSitemap(t *testing.T) {
	if testing.Short() {
		t.Skip("prunes a 10 MB sitemap")
	}
	t.Setenv("TMPDIR", t.TempDir())
	// n entries, each with alts hreflang alternates: the alternates make the bytes, the entries
	// the model's listings (12 bytes each, which a sitemap of 50,000 URLs is allowed).
	const n, alts = 20000, 7
	// bigSitemap is a sitemap of n entries, after one for a URL with no file (gone) unless pruned,
	// and closed or not.
	bigSitemap := func(gone, closed bool) []byte {
		var b bytes.Buffer
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n")
		if gone {
			b.WriteString("  <url><loc>https://example.org/gone/</loc></url>\n")
		}
		for range n {
			b.WriteString("  <url>\n    <loc>https://example.org/</loc>\n")
			for range alts {
				b.WriteString("    <xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"https://example.org/\"/>\n")
			}
			b.WriteString("  </url>\n")
		}
		if closed {
			b.WriteString("</urlset>\n")
		}
		return b.Bytes()
	}
	tests := []struct {
		desc    string
		closed  bool
		warning string // the start of the warning expected, after the sitemap's name
	}{
		{"well-formed", true, ""},
		{"not well-formed after the pruned entry", false, fmt.Sprintf(":%d:1: sitemap: ", n*(alts+3)+4)},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			if src := bigSitemap(true, tc.closed); len(src) < 10<<20 {
				t.Fatalf("the sitemap is %d bytes, want 10 MB or more", len(src))
			} else {
				writeTree(t, dir, map[string]string{"index.html": page, "sitemap.xml": string(src)})
			}
			peak, base := heapDuring(t, func() {
				rep, err := Run(context.Background(), Options{Root: dir, Write: true})
				if err != nil {
					t.Fatal(err)
				}
				warned := false
				for _, w := range texts(rep.Warnings) {
					warned = warned || tc.warning != "" && strings.Contains(w, "sitemap.xml"+tc.warning) && strings.HasSuffix(w, "(left as it is)")
				}
				if tc.warning != "" && !warned {
					t.Errorf("no warning sitemap.xml%s... (left as it is): %q", tc.warning, rep.Warnings)
				}
			})
			got, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
			if err != nil {
				t.Fatal(err)
			}
			if want := bigSitemap(tc.warning != "", tc.closed); !bytes.Equal(got, want) {
				t.Errorf("sitemap.xml after build: %d bytes, want %d (the first 200: %q)", len(got), len(want), got[:min(200, len(got))])
			}
			t.Logf("live heap: %d KiB before the run, at most %d KiB during it", base>>10, peak>>10)
			if peak > base+6<<20 {
				t.Errorf("the live heap grew by %d KiB while a 10 MB sitemap was pruned, want less than 6 MiB", (peak-base)>>10)
			}
			if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "robotsmith-sitemap-*")); len(left) > 0 {
				t.Errorf("the run left %s in the temporary folder", left)
			}
		})
	}
}

// heapDuring runs f with the garbage collector made eager and returns the largest live heap
// (what the last collection found still reachable, so garbage not yet collected does not count)
// seen while it ran, sampled, and the live heap before it.
func heapDuring(t *testing.T, f func()) (peak, base uint64) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(live)
		return live[0].Value.Uint64()
	}
	runtime.GC()
	base = read()
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		most := uint64(0)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sampled <- most
				return
			case <-tick.C:
				most = max(most, read())
			}
		}
	}()
	f()
	close(done)
	return <-sampled, base
}
