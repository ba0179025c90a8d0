package plan

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestResolve: a page's link is resolved as a browser resolves it (the WHATWG URL Standard) against
// the page's URL under the site's base URL and the page's <base href>, and matched to the site by
// host and the base URL's path; want is the URL path within the site, "" for a URL that is not
// the site's.
func TestResolve(t *testing.T) {
	for _, tc := range resolveCases {
		t.Run(tc.desc, func(t *testing.T) {
			u := newURLs(tc.baseURL)
			_, got, ours := u.Resolve(u.Page(tc.page), tc.base, tc.href)
			if !ours {
				got = ""
			}
			if got != tc.want {
				t.Errorf("base URL %q, page %s, <base href=%q>: %q resolves to site path %q, want %q", tc.baseURL, tc.page, tc.base, tc.href, got, tc.want)
			}
			if q, ok := u.quickPath(tc.base, tc.href); ok && q != tc.want {
				t.Errorf("base URL %q, <base href=%q>: quickPath(%q) = %q, want %q", tc.baseURL, tc.base, tc.href, q, tc.want)
			}
		})
	}
}

// TestQuickPath: the links quickPath answers, and those it leaves to the parser.
func TestQuickPath(t *testing.T) {
	tests := []struct {
		baseURL, base, href string
		ok                  bool
	}{
		{"https://example.org/", "", "https://example.org/posts/a/", true},
		{"https://example.org/", "", "/posts/a/", true},
		{"https://example.org/", "", "/posts/a/?q=1#x", true},
		{"https://example.org/", "", "/posts/my-post_2.v~1/index.html", true},
		{"https://example.org/docs/", "", "https://example.org/docs/a/", true},
		{"https://example.org/docs/", "", "/docs/a/", true},
		{"", "", "/a/", true},
		{"https://example.org/", "/root/", "https://example.org/a/", true},
		{"https://example.org/", "/root/", "/a/", false},
		{"https://example.org/", "", "a/", false},
		{"https://example.org/", "", "//example.org/a/", false},
		{"https://example.org/", "", "https://EXAMPLE.org/a/", false},
		{"https://example.org/", "", "/caf%C3%A9/", false},
		{"https://example.org/", "", "/café/", false},
		{"https://example.org/", "", "/a/../b/", false},
		{"https://example.org/", "", "/a/.", false},
		{"https://example.org/", "", "/a\\b/", false},
		{"https://example.org/", "", "/a b/", false},
		{"https://example.org/", "", "/a/\t", false},
		{"https://example.org/docs/", "", "/other/", false},
		{"", "", "https://robotsmith.invalid/a/", false},
		{"https://example.org/?x", "", "https://example.org/?x/a/", false},
		{"https://example.org/#top", "", "https://example.org/#top/a/", false},
	}
	for _, tc := range tests {
		u := newURLs(tc.baseURL)
		if _, ok := u.quickPath(tc.base, tc.href); ok != tc.ok {
			t.Errorf("base URL %q, <base href=%q>: quickPath(%q) answers %v, want %v", tc.baseURL, tc.base, tc.href, ok, tc.ok)
		}
	}
}

// FuzzQuickPath: whatever quickPath answers, resolve answers the same.
func FuzzQuickPath(f *testing.F) {
	for _, tc := range resolveCases {
		f.Add(tc.baseURL, tc.page, tc.base, tc.href)
	}
	f.Fuzz(func(t *testing.T, baseURL, page, base, href string) {
		u := newURLs(baseURL)
		q, ok := u.quickPath(base, href)
		if !ok {
			return
		}
		_, p, ours := u.Resolve(u.Page("/"+strings.TrimLeft(page, "/")), base, href)
		if !ours || p != q {
			t.Errorf("base URL %q, page %q, <base href=%q>: quickPath(%q) = %q, resolve: %q (the site's: %v)", baseURL, page, base, href, q, p, ours)
		}
		if base != "" || strings.ContainsAny(href, "?#") {
			return
		}
		// As a sitemap's <loc>: the path a crawler asks for too.
		abs, err := u.base.Parse(href)
		if err != nil {
			t.Fatalf("base URL %q: quickPath answers %q, which does not parse: %v", baseURL, href, err)
		}
		if _, crawl, _ := u.Loc(href); crawl != CrawlPath(abs.Pathname()) {
			t.Errorf("base URL %q: <loc>%s</loc> crawled as %q, want %q", baseURL, href, crawl, CrawlPath(abs.Pathname()))
		}
	})
}

// resolveCases are TestResolve's table, and FuzzQuickPath's seeds.
var resolveCases = []struct {
	desc, baseURL, page, base, href, want string
}{
	{"root-relative", "https://example.org/", "/posts/a/", "", "/b/", "/b/"},
	{"relative, up a folder", "https://example.org/", "/posts/a/", "", "../b/", "/posts/b/"},
	{"relative, down", "https://example.org/", "/posts/a/", "", "b/", "/posts/a/b/"},
	{"relative to a file's URL", "https://example.org/", "/about.html", "", "team.html", "/team.html"},
	{"absolute, the site's host", "https://example.org/", "/a/", "", "https://example.org/c/", "/c/"},
	{"host in upper case", "https://example.org/", "/a/", "", "https://EXAMPLE.org/c/", "/c/"},
	{"http for an https site", "https://example.org/", "/a/", "", "http://example.org/c/", "/c/"},
	{"default port", "https://example.org/", "/a/", "", "https://example.org:443/c/", "/c/"},
	{"scheme-relative", "https://example.org/", "/a/", "", "//example.org/d/", "/d/"},
	{"another host", "https://example.org/", "/a/", "", "https://elsewhere.example/c/", ""},
	{"another port", "https://example.org/", "/a/", "", "https://example.org:8443/c/", ""},
	{"a subdomain", "https://example.org/", "/a/", "", "https://www.example.org/c/", ""},
	{"a backslash for the first slash", "https://example.org/", "/a/", "", `\e\f/`, "/e/f/"},
	{"backslashes in a relative path", "https://example.org/", "/a/", "", `e\f\`, "/a/e/f/"},
	{"a tab and a newline inside", "https://example.org/", "/a/", "", "/g\t/h\n/", "/g/h/"},
	{"spaces around", "https://example.org/", "/a/", "", "  /i/ \n", "/i/"},
	{"dot segments", "https://example.org/", "/a/", "", "/x/./y/../z/", "/x/z/"},
	{"percent-encoded dot segment", "https://example.org/", "/a/", "", "/x/%2e%2E/z/", "/z/"},
	{"above the root", "https://example.org/", "/a/", "", "../../../z/", "/z/"},
	{"percent-encoded UTF-8", "https://example.org/", "/a/", "", "/caf%C3%A9/", "/café/"},
	{"raw UTF-8", "https://example.org/", "/a/", "", "/café/", "/café/"},
	{"a space in the path", "https://example.org/", "/a/", "", "/my page/", "/my page/"},
	{"query and fragment", "https://example.org/", "/a/", "", "/j/?q=1#top", "/j/"},
	{"fragment only", "https://example.org/", "/a/", "", "#top", "/a/"},
	{"empty href: the page itself", "https://example.org/", "/a/", "", "", "/a/"},
	{"mailto", "https://example.org/", "/a/", "", "mailto:me@example.org", ""},
	{"javascript", "https://example.org/", "/a/", "", "javascript:void(0)", ""},
	{"not a URL", "https://example.org/", "/a/", "", "https://[::1/", ""},
	{"base URL with a path: the page's URL is under it", "https://example.org/docs/", "/a/", "", "b/", "/a/b/"},
	{"base URL with a path: root-relative under it", "https://example.org/docs/", "/a/", "", "/docs/b/", "/b/"},
	{"base URL with a path: its own root without the slash", "https://example.org/docs/", "/a/", "", "/docs", "/"},
	{"base URL with a path: outside it", "https://example.org/docs/", "/a/", "", "/other/", ""},
	{"base URL with a path: up past it", "https://example.org/docs/", "/a/", "", "../../x/", ""},
	{"base URL without its final slash", "https://example.org/docs", "/a/", "", "/docs/b/", "/b/"},
	{"<base href> root-relative", "https://example.org/", "/posts/a/", "/root/", "x/", "/root/x/"},
	{"<base href> relative to the page", "https://example.org/", "/posts/a/", "../", "x/", "/posts/x/"},
	{"<base href> to another host", "https://example.org/", "/a/", "https://cdn.example/", "x/", ""},
	{"<base href> that does not resolve is ignored", "https://example.org/", "/a/", "https://[::1/", "x/", "/a/x/"},
	{"no base URL: relative links are the site's", "", "/a/", "", "../x/", "/x/"},
	{"no base URL: absolute links are not", "", "/a/", "", "https://example.org/x/", ""},
	{"a Jekyll baseurl without url: its path", "/blog", "/a/", "", "/blog/x/", "/x/"},
	{"a Jekyll baseurl without url: outside it", "/blog", "/a/", "", "/x/", ""},
	{"a base URL that is not http(s)", "ftp://example.org/", "/a/", "", "/x/", "/x/"},
}

// TestSitemapLoc: a sitemap's <loc> is matched to the site by its path whatever its host, under
// the base URL's path; crawl is the path and query robots.txt is asked about.
func TestSitemapLoc(t *testing.T) {
	tests := []struct{ baseURL, loc, want, crawl string }{
		{"https://example.org/", "https://example.org/a/", "/a/", "/a/"},
		{"https://example.org/", "https://staging.example.net/a/", "/a/", "/a/"},
		{"https://example.org/", "/a/", "/a/", "/a/"},
		{"https://example.org/", "https://example.org/a/?page=2", "/a/", "/a/?page=2"},
		{"https://example.org/docs/", "https://example.org/docs/a/", "/a/", "/docs/a/"},
		{"https://example.org/docs/", "https://localhost:1313/docs/a/", "/a/", "/docs/a/"},
		{"https://example.org/docs/", "https://example.org/a/", "", ""},
		{"https://example.org/", "ftp://example.org/a/", "", ""},
		{"https://example.org/", "https://example.org/caf%C3%A9/", "/café/", "/caf%C3%A9/"},
		{"", "https://example.org/café/", "/café/", "/caf%C3%A9/"},
	}
	for _, tc := range tests {
		t.Run(tc.loc, func(t *testing.T) {
			got, crawl, ok := newURLs(tc.baseURL).Loc(tc.loc)
			if !ok {
				got, crawl = "", ""
			}
			if got != tc.want || crawl != tc.crawl {
				t.Errorf("base URL %q: <loc>%s</loc> matched to %q, crawled as %q; want %q, %q", tc.baseURL, tc.loc, got, crawl, tc.want, tc.crawl)
			}
		})
	}
}

// TestAbsoluteURL: what search engines take as an absolute URL in a sitemap's <loc>, a Sitemap:
// line and an hreflang link: a scheme first (the URL Standard's "scheme start state"), after the
// spaces a parser trims.
func TestAbsoluteURL(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"https://example.org/a/", true},
		{"HTTP://example.org/", true},
		{" \n https://example.org/", true},
		{"git+ssh://host/x", true},
		{"mailto:a@example.org", true},
		{"/a/", false},
		{"a/", false},
		{"../a/", false},
		{"//example.org/a/", false},
		{"sitemap.xml", false},
		{"a/b:c", false},
		{"1http://x/", false},
		{":x", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := AbsoluteURL(tc.s); got != tc.want {
			t.Errorf("AbsoluteURL(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestURLsShared: the workers resolve every page against the one base URL at once; under the race
// detector (as .ci/run runs the tests) this failed, the base's search parameters made by the first
// parses at the same time.
func TestURLsShared(t *testing.T) {
	for _, baseURL := range []string{"", "https://example.org/docs/", "https://example.org/?q=1"} {
		u := newURLs(baseURL)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				if p := u.Page(fmt.Sprintf("/p%d/", i)); !strings.HasSuffix(p.Pathname(), fmt.Sprintf("/p%d/", i)) {
					t.Errorf("Page(/p%d/) = %s", i, p.Href(false))
				}
			})
		}
		wg.Wait()
	}
}
