package pipeline

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestExplainLookup: explain takes the URL a user copies, from the address bar, a sitemap or a
// canonical link: percent-encoded, absolute (the base URL's host or any other), or with the base
// URL's path; each names the file a host serves it from, and a URL of no file is still unknown.
func TestExplainLookup(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                         "baseURL = \"https://x.github.io/hugo-book/\"\n",
		"public/index.html":                 page,
		"public/he/docs/index.html":         page,
		"public/a b/index.html":             page,
		"public/2020/01/18/Ün.html":         page,
		"public/hugo-book/inner/index.html": page,
	})
	tests := []struct {
		desc, query, want string // want: the output file, "" for none
	}{
		{"a URL path within the site", "/he/docs/", "public/he/docs/index.html"},
		{"the base URL's path before it", "/hugo-book/he/docs/", "public/he/docs/index.html"},
		{"the base URL's path alone", "/hugo-book/", "public/index.html"},
		{"a file of the output named like the base URL's path, as before", "/hugo-book/inner/", "public/hugo-book/inner/index.html"},
		{"percent-encoded space", "/a%20b/", "public/a b/index.html"},
		{"percent-encoded UTF-8, as sitemaps write it", "/2020/01/18/%C3%9Cn.html", "public/2020/01/18/Ün.html"},
		{"percent-encoded, pretty", "/2020/01/18/%C3%9Cn", "public/2020/01/18/Ün.html"},
		{"absolute, the base URL's host", "https://x.github.io/hugo-book/he/docs/", "public/he/docs/index.html"},
		{"absolute, another host", "https://example.org/hugo-book/a%20b/", "public/a b/index.html"},
		{"absolute, with a query and a fragment", "https://x.github.io/hugo-book/he/docs/?x=1#top", "public/he/docs/index.html"},
		{"absolute, no file", "https://x.github.io/hugo-book/gone/", ""},
		{"absolute, outside the base URL's path", "https://x.github.io/elsewhere/", ""},
		{"no file", "/gone/", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			es, err := Explain(context.Background(), Options{Root: dir}, []string{tc.query})
			if tc.want == "" {
				if !errors.Is(err, ErrUnknownPath) {
					t.Errorf("explain %s: got %v, want %v", tc.query, err, ErrUnknownPath)
				}
				return
			}
			if err != nil {
				t.Fatalf("explain %s: %v", tc.query, err)
			}
			if got := strings.TrimPrefix(es[0].File, dir+"/"); got != tc.want || es[0].Query != tc.query {
				t.Errorf("explain %s: got file %s (query %q), want %s", tc.query, got, es[0].Query, tc.want)
			}
		})
	}
}

// TestExplainRobotsTxt: robots.txt itself is always crawlable (RFC 9309 section 2.2.2), whatever
// its rules say; explain says so for every crawler, and names the RFC, not a line.
func TestExplainRobotsTxt(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"robots.txt": "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /\nDisallow: /robots.txt\n",
		"index.html": page,
	})
	es, err := Explain(context.Background(), Options{Root: dir, Agents: []string{"GPTBot"}}, []string{"/robots.txt", "/"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc    string
		e       Explanation
		allowed bool
		rule    string // the start of each crawler's Rule
	}{
		{"/robots.txt", es[0], true, "RFC 9309 §2.2.2"},
		{"the home page", es[1], false, "robots.txt:"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, c := range tc.e.Crawl {
				if c.Allowed != tc.allowed || !strings.Contains(c.Rule, tc.rule) {
					t.Errorf("%s: got allowed %v by %q, want %v by %s...", c.Agent, c.Allowed, c.Rule, tc.allowed, tc.rule)
				}
			}
			for _, c := range tc.e.Crawlers {
				if c.Allowed != tc.allowed || !strings.Contains(c.Rule, tc.rule) {
					t.Errorf("--agent %s: got allowed %v by %q, want %v by %s...", c.Agent, c.Allowed, c.Rule, tc.allowed, tc.rule)
				}
			}
		})
	}
}

// TestExplainCrawlBasePath: on a site under a base URL's path, explain asks robots.txt about the
// path a crawler requests, the base URL's path included, for the search crawlers and for the
// crawlers --agent names alike.
func TestExplainCrawlBasePath(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                 "baseURL = \"https://x.github.io/hugo-book/\"\n",
		"public/robots.txt":         "User-agent: *\nDisallow: /hugo-book/he/\n",
		"public/index.html":         page,
		"public/he/docs/index.html": page,
	})
	es, err := Explain(context.Background(), Options{Root: dir, Agents: []string{"GPTBot"}}, []string{"/he/docs/", "/"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{false, true} {
		for _, c := range es[i].Crawl {
			if c.Allowed != want {
				t.Errorf("%s, %s: got allowed %v by %q, want %v", es[i].URL, c.Agent, c.Allowed, c.Rule, want)
			}
		}
		for _, c := range es[i].Crawlers {
			if c.Allowed != want {
				t.Errorf("%s, --agent %s: got allowed %v by %q, want %v", es[i].URL, c.Agent, c.Allowed, c.Rule, want)
			}
		}
	}
}

// TestExplainRelativeLinks: on a site without a base URL, a relative link resolves against a
// host robotsmith makes up, which explain never prints: it prints the URL's path (with its query
// and fragment), as the link meant it; a site with a base URL gets the full URL.
func TestExplainRelativeLinks(t *testing.T) {
	links := withHead(`<link rel="canonical" href="/a/?x=1#top">`, `<link rel="alternate" hreflang="de" href="../de/a/">`,
		`<link rel="alternate" hreflang="fr" href="/fr/a/">`, `<link rel="alternate" hreflang="en" href="https://elsewhere.example/a/">`)
	tests := []struct {
		desc  string
		files map[string]string
		want  []string // each link's URL, in order
	}{
		{"a plain site", map[string]string{"a/index.html": links, "de/a/index.html": page},
			[]string{"/a/?x=1#top", "/de/a/", "/fr/a/", "https://elsewhere.example/a/"}},
		{"a Jekyll site without url", map[string]string{"_config.yml": "title: Guide\n", "_site/a/index.html": links, "_site/de/a/index.html": page},
			[]string{"/a/?x=1#top", "/de/a/", "/fr/a/", "https://elsewhere.example/a/"}},
		{"a Jekyll site with url", map[string]string{"_config.yml": "url: https://example.org\n", "_site/a/index.html": links, "_site/de/a/index.html": page},
			[]string{"https://example.org/a/?x=1#top", "https://example.org/de/a/", "https://example.org/fr/a/", "https://elsewhere.example/a/"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			es, err := Explain(context.Background(), Options{Root: dir}, []string{"/a/"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range es[0].Links {
				got = append(got, l.URL)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("links' URLs:\ngot  %q\nwant %q", got, tc.want)
			}
			if text := es[0].Text(); strings.Contains(text, "robotsmith.invalid") {
				t.Errorf("explain prints the placeholder host:\n%s", text)
			}
		})
	}
}

// TestExplainHosts: explain shows the header fields each host of headers.format sends for a path
// (Netlify and Vercel one folded X-Robots-Tag field, nginx one field per line), and, with none,
// why no host sends them.
func TestExplainHosts(t *testing.T) {
	const rulesYAML = "rules:\n  - path: /**/*.pdf\n    robots: noindex\n    googlebot: nosnippet\n"
	for _, tc := range []struct {
		desc, format string
		want         []HostFields
		none         string
		text         []string
	}{
		{"netlify, vercel and nginx", "[netlify, vercel, nginx]", []HostFields{
			{"netlify", "_headers", []string{"X-Robots-Tag: noindex, follow, googlebot: nosnippet"}},
			{"vercel", "vercel.json", []string{"X-Robots-Tag: noindex, follow, googlebot: nosnippet"}},
			{"nginx", "robotsmith.nginx.conf", []string{"X-Robots-Tag: noindex, follow", "X-Robots-Tag: googlebot: nosnippet"}},
		}, "", []string{"  nginx sends (robotsmith.nginx.conf): X-Robots-Tag: googlebot: nosnippet\n"}},
		{"none", "none", []HostFields{}, "headers.format is none", []string{"  no host sends X-Robots-Tag: headers.format is none\n"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{
				"robotsmith.yaml": "headers: {format: " + tc.format + "}\n" + rulesYAML,
				"index.html":      page, "files/x.pdf": "%PDF-1.4\n",
			})
			es, err := Explain(context.Background(), Options{Root: dir}, []string{"/files/x.pdf"})
			if err != nil {
				t.Fatal(err)
			}
			e := es[0]
			if !reflect.DeepEqual(e.Hosts, tc.want) || e.HeadersNone != tc.none {
				t.Errorf("hosts: got %q, %q; want %q, %q", e.Hosts, e.HeadersNone, tc.want, tc.none)
			}
			text := e.Text()
			for _, w := range tc.text {
				if !strings.Contains(text, w) {
					t.Errorf("text: got\n%s\nwant it to hold %q", text, w)
				}
			}
		})
	}
}
