package rewrite

import (
	"bytes"
	"reflect"
	"testing"
)

// TestScanLinks: the head's canonical and hreflang links and its <base>, read in the scan's one pass
// over the page, as an HTML parser sees them (the first attribute of a name wins, rel is a list of
// keywords in any case, entities are unescaped, links in the body or in inert content are not the
// head's).
func TestScanLinks(t *testing.T) {
	tests := []struct {
		desc  string
		src   string
		links []Link
		base  string
	}{
		{
			desc: "canonical and alternates with lines",
			src: "<!DOCTYPE html>\n<html><head>\n<link rel=\"canonical\" href=\"https://example.org/a/\">\n" +
				"<link rel=\"alternate\" hreflang=\"de\" href=\"/de/a/\">\r\n<link rel=alternate hreflang=x-default href=/a/>\n</head><body></body></html>",
			links: []Link{
				{Rel: "canonical", Href: "https://example.org/a/", Line: 3},
				{Rel: "alternate", Hreflang: "de", Href: "/de/a/", Line: 4},
				{Rel: "alternate", Hreflang: "x-default", Href: "/a/", Line: 5},
			},
		},
		{
			desc:  "rel in any case, among other keywords",
			src:   `<html><head><LINK REL="Alternate Canonical" HREF="/x/"></head>`,
			links: []Link{{Rel: "canonical", Href: "/x/", Line: 1}},
		},
		{
			desc:  "an alternate without hreflang (a feed) is not an hreflang link",
			src:   `<html><head><link rel="alternate" type="application/rss+xml" href="/index.xml"><link rel=alternate hreflang=" " href=/y/></head>`,
			links: nil,
		},
		{
			desc:  "a link without href is nothing",
			src:   `<html><head><link rel="canonical"></head>`,
			links: nil,
		},
		{
			desc:  "the first href wins, entities unescaped, hreflang trimmed",
			src:   `<html><head><link rel="alternate" hreflang=" fr " href="/a?x=1&amp;y=2" href="/b/"></head>`,
			links: []Link{{Rel: "alternate", Hreflang: "fr", Href: "/a?x=1&y=2", Line: 1}},
		},
		{
			desc:  "in <noscript> of the head it counts",
			src:   `<html><head><noscript><link rel="canonical" href="/n/"></noscript></head>`,
			links: []Link{{Rel: "canonical", Href: "/n/", Line: 1}},
		},
		{
			desc:  "in the body, a template, a script or a comment it does not",
			src:   `<html><head><template><link rel=canonical href=/t/></template><script>"<link rel=canonical href=/s/>"</script><!--<link rel=canonical href=/c/>--></head><body><link rel="canonical" href="/b/"></body>`,
			links: nil,
		},
		{
			desc:  "after an element that ends the head it does not",
			src:   "<html><head><title>t</title>\n<p>text\n<link rel=canonical href=/late/>",
			links: nil,
		},
		{
			desc:  "the first <base> with an href",
			src:   `<html><head><base target="_blank"><base href="https://cdn.example/root/"><base href="/other/"><link rel=canonical href="a/"></head>`,
			links: []Link{{Rel: "canonical", Href: "a/", Line: 1}},
			base:  "https://cdn.example/root/",
		},
		{
			desc:  "not an HTML document: nothing",
			src:   `<link rel="canonical" href="/x/">`,
			links: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			p, err := Scan(bytes.NewReader([]byte(tc.src)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Links, tc.links) {
				t.Errorf("links:\ngot  %+v\nwant %+v", p.Links, tc.links)
			}
			if p.Base != tc.base {
				t.Errorf("base: got %q, want %q", p.Base, tc.base)
			}
		})
	}
}
