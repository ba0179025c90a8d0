package pipeline

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// withHead is a page with extra lines in its head (from line 5 on).
func withHead(lines ...string) string {
	return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n" + strings.Join(lines, "\n") + "\n<title>t</title>\n</head>\n<body></body>\n</html>\n"
}

const noindexTag = `<meta name="robots" content="noindex">`

func sitemapOf(locs ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, l := range locs {
		b.WriteString("  <url><loc>https://example.org" + l + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// jekyllPosts is a small Jekyll site, its output written by hand as Jekyll 4.3 writes it (a post
// at /:year/:month/:day/:title.html), whose posts a kind rule makes noindex; files are added or
// replace its own.
func jekyllPosts(files map[string]string) map[string]string {
	site := map[string]string{
		"_config.yml":             "url: https://example.org\n",
		"robotsmith.yaml":         "rules:\n  - kind: posts\n    robots: noindex\n",
		"index.md":                "---\ntitle: Home\n---\nHello\n",
		"_posts/2020-01-01-a.md":  "---\ntitle: A\n---\nA post\n",
		"_site/index.html":        page,
		"_site/2020/01/01/a.html": page,
	}
	maps.Copy(site, files)
	return site
}

// TestFindings is the table of SPEC §7's findings on small plain sites: each is reported once (the
// others like it counted), as an error or a warning as SPEC says, naming both sides with
// file:line, with its code, and the other side as a related place. want are substrings of the one
// finding (or warning) expected, each list in order, as described (described: its text, then each
// related place after "←").
func TestFindings(t *testing.T) {
	rules := "rules:\n  - path: /private/**\n    robots: noindex\n"
	tests := []struct {
		desc   string
		files  map[string]string
		env    map[string]string
		errors [][]string
		warns  [][]string
	}{
		{
			desc: "1: noindex by a rule, disallowed for every crawler: once for the two pages",
			files: map[string]string{
				"robotsmith.yaml":      rules,
				"robots.txt":           "User-agent: *\nDisallow: /private/\n",
				"index.html":           page,
				"private/a/index.html": page,
				"private/b/index.html": page,
			},
			errors: [][]string{{"robotsmith.yaml:3: /private/a/ is noindex (rule 1 at ", "robots.txt:2 (Disallow: /private/) keeps robots, googlebot, bingbot from crawling it", "(and 1 more URL like it)",
				"[RS0103 noindex-blocked-by-robots-txt] ← ", "robots.txt:2: Disallow: /private/ keeps robots, googlebot, bingbot from crawling /private/a/"}},
		},
		{
			desc: "1: a theme's noindex, disallowed for googlebot alone",
			files: map[string]string{
				"robots.txt":          "User-agent: Googlebot\nDisallow: /hidden/\n\nUser-agent: *\nAllow: /\n",
				"hidden/x/index.html": withHead(noindexTag),
			},
			errors: [][]string{{"hidden/x/index.html:5: /hidden/x/ is noindex (tag at ", "robots.txt:2 (Disallow: /hidden/) keeps googlebot from crawling it", "[RS0103 noindex-blocked-by-robots-txt] ← ", "robots.txt:2: Disallow: /hidden/ keeps googlebot from crawling /hidden/x/"}},
		},
		{
			desc: "1: a group for a crawler that does not index for search hides nothing",
			files: map[string]string{
				"robots.txt":          "User-agent: GPTBot\nDisallow: /\n",
				"hidden/x/index.html": withHead(noindexTag),
			},
		},
		{
			desc: "2: sitemap: keep reports a noindex entry and one with no file, each at its line",
			files: map[string]string{
				"robotsmith.yaml":      rules + "sitemap: keep\n",
				"index.html":           page,
				"private/a/index.html": page,
				"sitemap.xml":          sitemapOf("/", "/private/a/", "/gone/"),
			},
			errors: [][]string{
				{"sitemap.xml:4: sitemap lists https://example.org/private/a/, which is noindex (rule 1 at ", "robotsmith.yaml:3 (path: /private/**))",
					"[RS0101 sitemap-lists-unindexable] ← ", "robotsmith.yaml:3: /private/a/ is noindex (rule 1 at "},
				{"sitemap.xml:5: sitemap lists https://example.org/gone/, which has no file in ", "[RS0101 sitemap-lists-unindexable]"},
			},
		},
		{
			desc: "2: a sitemap entry robots.txt disallows for every crawler, Sitemap: line followed",
			files: map[string]string{
				"robots.txt":          "User-agent: *\nDisallow: /drafts/\n\nUser-agent: Bingbot\nDisallow: /drafts/\nSitemap: https://example.org/maps/pages.xml\n",
				"index.html":          page,
				"drafts/x/index.html": page,
				"maps/pages.xml":      sitemapOf("/", "/drafts/x/"),
			},
			errors: [][]string{{"maps/pages.xml:4: sitemap lists https://example.org/drafts/x/, which robots.txt disallows for every crawler (", "robots.txt:2: Disallow: /drafts/)",
				"[RS0102 sitemap-lists-disallowed] ← ", "robots.txt:2: Disallow: /drafts/ disallows it for every crawler"}},
		},
		{
			desc: "2: not for every crawler when one group allows it",
			files: map[string]string{
				"robots.txt":          "User-agent: *\nDisallow: /drafts/\n\nUser-agent: Googlebot\nAllow: /\n",
				"index.html":          page,
				"drafts/x/index.html": page,
				"sitemap.xml":         sitemapOf("/", "/drafts/x/"),
			},
		},
		{
			desc: "2: sitemap: prune leaves out what it would report",
			files: map[string]string{
				"robotsmith.yaml":      rules,
				"index.html":           page,
				"private/a/index.html": page,
				"sitemap.xml":          sitemapOf("/", "/private/a/", "/gone/"),
			},
		},
		{
			desc: "3: canonical and hreflang links of an indexable page to a noindex URL and to no file",
			files: map[string]string{
				"robotsmith.yaml":      rules,
				"a/index.html":         withHead(`<link rel="canonical" href="/private/a/">`, `<link rel="alternate" hreflang="de" href="../de/a/">`, `<link rel="alternate" hreflang="en" href="/a/">`),
				"private/a/index.html": page,
			},
			errors: [][]string{
				{"a/index.html:5: the canonical link of /a/ points at /private/a/, which is noindex (rule 1 at ", "robotsmith.yaml:3 (path: /private/**))",
					"[RS0104 link-to-unindexable] ← ", "robotsmith.yaml:3: /private/a/ is noindex"},
				{"a/index.html:6: the hreflang de link of /a/ points at /de/a/, which has no file in ", "[RS0104 link-to-unindexable]"},
			},
			warns: [][]string{{"a/index.html:6: the hreflang de link of /a/ is a relative URL (to /de/a/): search engines ignore an hreflang link that is not absolute;", "(and 1 more URL like it)", "[RS0110 hreflang-relative]"}},
		},
		{
			desc: "relative hreflang links of a Jekyll site without url: one warning, set url",
			files: map[string]string{
				"_config.yml":         "title: Guide\n",
				"index.md":            "---\ntitle: Home\n---\nHello\n",
				"_site/index.html":    withHead(`<link rel="alternate" hreflang="de" href="/de/">`, `<link rel="alternate" hreflang="en" href="/">`),
				"_site/de/index.html": withHead(`<link rel="alternate" hreflang="de" href="/de/">`, `<link rel="alternate" hreflang="en" href="/">`),
			},
			warns: [][]string{{"_site/de/index.html:5: the hreflang de link of /de/ is a relative URL (to /de/): search engines ignore an hreflang link that is not absolute; set the site's base URL (url in _config.yml), from which Jekyll writes absolute URLs", "(and 3 more URLs like it)", "[RS0110 hreflang-relative]"}},
		},
		{
			desc: "absolute hreflang links are fine",
			files: map[string]string{
				"index.html":    withHead(`<link rel="alternate" hreflang="de" href="https://example.org/de/">`, `<link rel="alternate" hreflang="en" href="https://example.org/">`),
				"de/index.html": page,
			},
		},
		{
			desc: "relative <loc>s of a Hugo site without baseURL: one warning a sitemap, set baseURL",
			files: map[string]string{
				"hugo.toml":           "title = \"Guide\"\n",
				"public/index.html":   page,
				"public/a/index.html": page,
				"public/sitemap.xml":  "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>/</loc></url>\n<url><loc>/a/</loc></url>\n</urlset>\n",
			},
			warns: [][]string{{"public/sitemap.xml:3: sitemap lists / as a relative URL: search engines take only absolute URLs in a sitemap; set the site's base URL (baseURL in Hugo's configuration), from which Hugo writes absolute URLs", "(and 1 more URL like it)", "[RS0604 sitemap-relative-url]"}},
		},
		{
			desc: "a relative Sitemap: line of robots.txt, on a site with a base URL",
			files: map[string]string{
				"hugo.toml":          "baseURL = \"https://example.org/\"\n",
				"public/robots.txt":  "User-agent: *\nAllow: /\n\nSitemap: /sitemap.xml\nSitemap: https://example.org/sitemap.xml\n",
				"public/index.html":  page,
				"public/sitemap.xml": sitemapOf("/"),
			},
			warns: [][]string{{"public/robots.txt:4: Sitemap: /sitemap.xml is a relative URL: search engines take only an absolute URL there; write it absolute, under the site's base URL https://example.org/ [RS0710 robots-sitemap-relative]"}},
		},
		{
			desc: "a relative Sitemap: line of robots.txt, on a plain site",
			files: map[string]string{
				"robots.txt":  "User-agent: *\nAllow: /\nSitemap: sitemap.xml\n",
				"index.html":  page,
				"sitemap.xml": sitemapOf("/"),
			},
			warns: [][]string{{"robots.txt:3: Sitemap: sitemap.xml is a relative URL: search engines take only an absolute URL there; write it absolute (https://your.site/...) [RS0710 robots-sitemap-relative]"}},
		},
		{
			desc: "3: an hreflang link to a page a kind rule makes noindex names the rule and its selector",
			files: jekyllPosts(map[string]string{
				"_site/index.html": withHead(`<link rel="alternate" hreflang="de" href="https://example.org/2020/01/01/a.html">`),
			}),
			errors: [][]string{{"_site/index.html:5: the hreflang de link of / points at /2020/01/01/a.html, which is noindex (rule 1 at ", "robotsmith.yaml:3 (kind: posts))"}},
		},
		{
			desc: "1: a page a kind rule makes noindex, disallowed: the rule and its selector",
			files: jekyllPosts(map[string]string{
				"_site/robots.txt": "User-agent: *\nDisallow: /2020/\n",
			}),
			errors: [][]string{{"robotsmith.yaml:3: /2020/01/01/a.html is noindex (rule 1 at ", "robotsmith.yaml:3 (kind: posts)), but "}},
		},
		{
			desc: "2: sitemap: keep, an entry a kind rule makes noindex: the rule and its selector",
			files: jekyllPosts(map[string]string{
				"robotsmith.yaml":   "rules:\n  - kind: posts\n    robots: noindex\nsitemap: keep\n",
				"_site/sitemap.xml": sitemapOf("/", "/2020/01/01/a.html"),
			}),
			errors: [][]string{{"_site/sitemap.xml:4: sitemap lists https://example.org/2020/01/01/a.html, which is noindex (rule 1 at ", "robotsmith.yaml:3 (kind: posts))"}},
		},
		{
			desc: "3: links to other sites and a redirect stub's canonical are not checked",
			files: map[string]string{
				"a/index.html":   withHead(`<link rel="canonical" href="https://elsewhere.example/a/">`),
				"old/index.html": withHead(`<link rel="canonical" href="/gone/">`, `<meta http-equiv="refresh" content="0; url=/gone/">`),
			},
		},
		{
			desc: "4: a noindex page canonical to another URL; a self-canonical is fine",
			files: map[string]string{
				"a/index.html":    withHead(noindexTag, `<link rel="canonical" href="/b/">`),
				"self/index.html": withHead(noindexTag, `<link rel="canonical" href="/self/">`),
				"b/index.html":    page,
				"index.html":      page,
			},
			warns: [][]string{{"a/index.html:5: /a/ is noindex (tag at ", "but its canonical (", "a/index.html:6) points at /b/: mixed signals",
				"[RS0105 noindex-canonical-elsewhere] ← ", "a/index.html:6: the canonical link, to /b/"}},
		},
		{
			desc: "5: the home page noindex",
			files: map[string]string{
				"index.html":   withHead(noindexTag),
				"a/index.html": page,
			},
			warns: [][]string{{"index.html:5: the home page / is noindex (tag at ", "in a build that is not a preview", "[RS0106 noindex-in-production]"}},
		},
		{
			desc: "5: every page noindex, said once",
			files: map[string]string{
				"robotsmith.yaml": "rules:\n  - path: /**\n    robots: noindex\n",
				"index.html":      page,
				"a/index.html":    page,
			},
			warns: [][]string{{"robotsmith.yaml:3: every page of the site (2) is noindex, / by rule 1 at "}},
		},
		{
			desc: "5: not in a preview",
			files: map[string]string{
				"index.html":   withHead(noindexTag),
				"a/index.html": page,
			},
			env: map[string]string{"CONTEXT": "deploy-preview"},
		},
		{
			desc: "6: a rule of the site's own _headers says noindex for indexable pages",
			files: map[string]string{
				"_headers":       "/a/*\n  X-Robots-Tag: noindex\n/b/*\n  X-Robots-Tag: noarchive\n",
				"a/index.html":   page,
				"a/x/index.html": page,
				"b/index.html":   page,
				"index.html":     page,
			},
			warns: [][]string{{"_headers:2: rule /a/* sends X-Robots-Tag: noindex for /a/ (", "whose robots tags say index, follow", "(and 1 more URL like it)",
				"[RS0107 tags-disagree-with-header] ← ", "a/index.html: its robots tags say index, follow"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			rep, err := Run(context.Background(), Options{Root: dir, Env: func(k string) string { return tc.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, ps []problem.Problem, want [][]string) {
				t.Helper()
				var got []string
				for _, p := range ps {
					got = append(got, described(p))
				}
				if len(got) != len(want) {
					t.Errorf("%s: got %d, want %d:\n%s", what, len(got), len(want), strings.Join(got, "\n"))
					return
				}
				for i, parts := range want {
					for _, p := range parts {
						if !strings.Contains(got[i], p) {
							t.Errorf("%s %d: got %q, want it to hold %q", what, i+1, got[i], p)
						}
					}
				}
			}
			check("findings", rep.Findings, tc.errors)
			check("warnings", rep.Warnings, tc.warns)
		})
	}
}

// TestStrict: with Strict (check --strict) every warning is a finding, and check fails on it: the
// same problem, its code kept, its severity raised.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"index.html": withHead(noindexTag), "a/index.html": page})
	for _, strict := range []bool{false, true} {
		rep, err := Run(context.Background(), Options{Root: dir, Strict: strict})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(rep.Findings), map[bool]int{false: 0, true: 1}[strict]; got != want || len(rep.Findings)+len(rep.Warnings) != 1 {
			t.Errorf("strict %v: %d findings, %d warnings; want %d findings and 1 message in all", strict, got, len(rep.Warnings), want)
			continue
		}
		p := append(rep.Findings, rep.Warnings...)[0]
		want := map[bool]problem.Severity{false: problem.Warning, true: problem.Finding}[strict]
		if p.Code != problem.NoindexInProduction || p.Severity != want {
			t.Errorf("strict %v: %s of severity %v, want %s of severity %v", strict, p.Code, p.Severity, problem.NoindexInProduction, want)
		}
	}
}

// described is a problem as TestFindings matches it: its text (problem.Problem.Text), then each
// related place and what is there, after "←".
func described(p problem.Problem) string {
	s := p.Text()
	for _, r := range p.Related {
		s += " ← " + r.Position.String() + ": " + r.Msg
	}
	return s
}
