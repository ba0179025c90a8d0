package robotstxt_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/robotstxt"
)

func ExampleParse() {
	body := []byte(`# robotsmith: begin
User-agent: GPTBot
Disallow: /
# robotsmith: end

User-agent: *
Content-Signal: search=yes, ai-train=no
Disallow: /search/
Allow: /search/about$

User-agent: GPTBot
Allow: /blog/

Sitemap: https://example.org/sitemap.xml
`)
	f := robotstxt.Parse(body)
	for _, q := range []struct{ agent, path string }{
		{"Googlebot", "/search/?q=x"},
		{"Googlebot", "/search/about"},
		{"GPTBot", "/notes/"},
		{"GPTBot", "/blog/café/"},
	} {
		d := f.Crawler(q.agent).Decide(robotstxt.Escape(q.path))
		line := "no rule"
		if d.Rule != nil {
			line = fmt.Sprintf("line %d %s: %s", d.Rule.Num, d.Rule.Key, d.Rule.Value)
		}
		fmt.Printf("%-9s %-15s allowed=%-5v %s\n", q.agent, q.path, d.Allowed, line)
	}
	for _, s := range f.Sitemaps {
		fmt.Printf("sitemap on line %d: %s\n", s.Num, s.Value)
	}
	for _, o := range f.Other {
		fmt.Printf("line %d, group %d: %s: %s\n", o.Num, o.Group, o.Key, o.Value)
	}
	// Output:
	// Googlebot /search/?q=x    allowed=false line 8 Disallow: /search/
	// Googlebot /search/about   allowed=true  line 9 Allow: /search/about$
	// GPTBot    /notes/         allowed=false line 3 Disallow: /
	// GPTBot    /blog/café/     allowed=true  line 12 Allow: /blog/
	// sitemap on line 14: https://example.org/sitemap.xml
	// line 7, group 1: Content-Signal: search=yes, ai-train=no
}
