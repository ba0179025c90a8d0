package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/watch"
)

// liveSitemap is a sitemap as a generator writes one for liveSite's pages: an entry on several
// lines, entries sharing a line, a comment, the PDF that a rule makes noindex.
func liveSitemap(extra string) string {
	return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- pages -->
  <url>
    <loc>https://example.org/</loc>
    <lastmod>2026-01-01T00:00:00+00:00</lastmod>
  </url>
  <url><loc>https://example.org/blog/</loc></url> <url><loc>https://example.org/blog/a/</loc></url>
  <url>
    <loc>https://example.org/blog/b/</loc>
  </url>` + extra + `
  <url><loc>https://example.org/files/x.pdf</loc></url>
</urlset>
`
}

// TestLiveSitemapAgain: watch mode prunes a sitemap again from what it kept of it (its bytes as
// the generator wrote them, and their layout) when only decisions changed; after each batch the
// sitemap must be, byte for byte, what build makes of the generator's last sitemap with the
// site's sources as they are then (a full prune). A page flipped back to index comes back, which a
// prune of robotsmith's own write, without the entry, cannot give; a sitemap the generator or an
// author wrote is read again.
func TestLiveSitemapAgain(t *testing.T) {
	dir := liveSite(t)
	gen := liveSitemap("")
	writeTree(t, dir, map[string]string{"public/sitemap.xml": gen})
	l, _ := startLive(t, dir)
	ctx := context.Background()
	sitemap := filepath.Join(dir, "public", "sitemap.xml")

	// want is what build makes of the generator's sitemap gen, on a copy of the site as it is.
	want := func(t *testing.T, gen string) string {
		t.Helper()
		cp := t.TempDir()
		copyTree(t, dir, cp)
		writeTree(t, cp, map[string]string{"public/sitemap.xml": gen})
		if _, err := Run(ctx, Options{Root: cp, Write: true}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(cp, "public", "sitemap.xml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	source := func(name, robots string) watch.Change {
		fm := "---\ntitle: " + strings.ToUpper(name) + "\n" + robots + "---\n" + name + "\n"
		writeTree(t, dir, map[string]string{"content/blog/" + name + ".md": fm})
		return change(t, l, contentRoot, "blog/"+name+".md", watch.Write)
	}
	generator := func(s string) watch.Change {
		gen = s
		writeTree(t, dir, map[string]string{"public/sitemap.xml": s})
		return change(t, l, outputRoot, "sitemap.xml", watch.Write)
	}

	for _, tc := range []struct {
		desc   string
		edit   func() []watch.Change
		listed []string // what the sitemap lists after, of the blog's pages
		wrote  bool     // the batch writes the sitemap
	}{
		{
			desc:   "a flips to noindex",
			edit:   func() []watch.Change { return []watch.Change{source("a", "robots: noindex\n")} },
			listed: []string{"/blog/", "/blog/b/"}, wrote: true,
		},
		{
			desc:   "b flips to noindex too, the sitemap robotsmith's own write",
			edit:   func() []watch.Change { return []watch.Change{source("b", "robots: noindex\n")} },
			listed: []string{"/blog/"}, wrote: true,
		},
		{
			desc:   "a flips back to index: its entry comes back",
			edit:   func() []watch.Change { return []watch.Change{source("a", "")} },
			listed: []string{"/blog/", "/blog/a/"}, wrote: true,
		},
		{
			desc: "a page comes that changes no decision the sitemap reads: no write",
			edit: func() []watch.Change {
				writeTree(t, dir, map[string]string{"public/blog/d/index.html": themePage("D")})
				return []watch.Change{change(t, l, outputRoot, "blog/d/index.html", watch.Create)}
			},
			listed: []string{"/blog/", "/blog/a/"},
		},
		{
			desc: "the generator writes its sitemap again in the batch that flips b back",
			edit: func() []watch.Change {
				return []watch.Change{source("b", ""), generator(liveSitemap("\n  <url><loc>https://example.org/blog/d/</loc></url>"))}
			},
			listed: []string{"/blog/", "/blog/a/", "/blog/b/", "/blog/d/"}, wrote: true,
		},
		{
			desc: "an author edits the sitemap by hand",
			edit: func() []watch.Change {
				return []watch.Change{generator(strings.Replace(gen, "  <!-- pages -->\n", "", 1))}
			},
			listed: []string{"/blog/", "/blog/a/", "/blog/b/", "/blog/d/"}, wrote: true,
		},
		{
			desc: "the generator writes its sitemap while the batch that flips b processes its page: the new one is read",
			edit: func() []watch.Change {
				l.afterStep = func() {
					l.afterStep = nil
					generator(liveSitemap(""))
				}
				return []watch.Change{source("b", "robots: noindex\n")}
			},
			listed: []string{"/blog/", "/blog/a/"}, wrote: true,
		},
		{
			desc:   "then a flips to noindex again",
			edit:   func() []watch.Change { return []watch.Change{source("a", "robots: noindex\n")} },
			listed: []string{"/blog/"}, wrote: true,
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			u := l.Apply(ctx, watch.Batch{Changes: tc.edit()})
			t.Log(u.Line())
			if len(u.Errs) > 0 {
				t.Fatalf("errors: %v", u.Errs)
			}
			b, err := os.ReadFile(sitemap)
			if err != nil {
				t.Fatal(err)
			}
			if w := want(t, gen); string(b) != w {
				t.Errorf("the sitemap after the batch:\n%s\nwant, as build prunes the generator's:\n%s", b, w)
			}
			var listed []string
			for _, p := range []string{"/blog/", "/blog/a/", "/blog/b/", "/blog/c/", "/blog/d/"} {
				if strings.Contains(string(b), "https://example.org"+p+"<") {
					listed = append(listed, p)
				}
			}
			if !slices.Equal(listed, tc.listed) {
				t.Errorf("the sitemap lists %q, want %q", listed, tc.listed)
			}
			if got := slices.Contains(u.Wrote, "sitemap.xml"); got != tc.wrote {
				t.Errorf("the batch wrote the sitemap: %v, want %v (wrote %q)", got, tc.wrote, u.Wrote)
			}
		})
	}
}

// TestLiveCrawlPaths: watch mode keeps the crawl path of each URL from one batch to the next
// (crawlPaths), which depends on the site's base URL: a new base URL must not leave finding 1
// (a noindex page that robots.txt keeps crawlers from) on the paths of the old one.
func TestLiveCrawlPaths(t *testing.T) {
	dir := liveSite(t)
	writeTree(t, dir, map[string]string{
		"content/blog/b.md":  "---\ntitle: B\nrobots: noindex\n---\nbeta\n",
		"public/robots.txt":  "User-agent: *\nDisallow: /docs/blog/\n",
		"public/sitemap.xml": liveSitemap(""),
	})
	l, _ := startLive(t, dir)
	ctx := context.Background()
	config := func(base string) watch.Change {
		writeTree(t, dir, map[string]string{"hugo.toml": "baseURL = \"" + base + "\"\ntitle = \"t\"\ndisableKinds = [\"taxonomy\", \"term\"]\n"})
		return change(t, l, configRoot, "hugo.toml", watch.Write)
	}
	for _, tc := range []struct {
		desc    string
		base    string
		blocked bool // finding 1 for /blog/b/
	}{
		{"the base URL at the root: /docs/blog/ is not the blog", "https://example.org/", false},
		{"the base URL in /docs/: robots.txt keeps crawlers from the blog", "https://example.org/docs/", true},
		{"back at the root", "https://example.org/", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			u := l.Apply(ctx, watch.Batch{Changes: []watch.Change{config(tc.base)}})
			if len(u.Errs) > 0 {
				t.Fatalf("errors: %v", u.Errs)
			}
			if u.Report == nil {
				t.Fatalf("no full pass: %s", u.Line())
			}
			got := false
			for _, f := range u.Report.Findings {
				if f.Code == problem.NoindexBlockedByRobotsTxt && strings.Contains(f.Msg, "/blog/b/") {
					got = true
				}
			}
			if got != tc.blocked {
				t.Errorf("finding 1 for /blog/b/: %v, want %v (findings %v)", got, tc.blocked, u.Report.Findings)
			}
		})
	}
}
