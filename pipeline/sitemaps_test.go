package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
