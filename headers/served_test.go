package headers

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestServed: the headers each host sends for a path, from a whole `_headers` file. The cases
// are the hosts' behaviour as reference/hosts-headers.md records it, checked with netlify dev
// and wrangler pages dev: Netlify's later rule replaces an earlier rule's header and its paths
// match whatever their case, "/folder/*" matching "/folder" too; Cloudflare joins every matching
// rule's values, removes with "! Name", matches case and fills placeholders in values.
func TestServed(t *testing.T) {
	const file = `/*
  X-Robots-Tag: noarchive
  Content-Usage: train-ai=y
/*.pdf
  X-Robots-Tag: noindex
  X-Robots-Tag: googlebot: nofollow
# robotsmith: begin
/files/my%20report.pdf
  X-Robots-Tag: none
# robotsmith: end
/img/*
  ! X-Robots-Tag
  X-Robots-Tag: noimageindex
/blog/:slug/*
  X-Robots-Tag: max-snippet: :slug
/a/*/b/*
  X-Robots-Tag: nofollow
https://:hash.:project.pages.dev/*
  X-Robots-Tag: noindex
`
	tests := []struct {
		format     Format
		host, path string
		want       string
	}{
		{Netlify, "localhost", "/", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
		{Cloudflare, "localhost", "/", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
		// Netlify: the later rule replaces; Cloudflare: joined.
		{Netlify, "localhost", "/x/a.pdf", "Content-Usage=train-ai=y X-Robots-Tag=noindex, googlebot: nofollow"},
		{Cloudflare, "localhost", "/x/a.pdf", "Content-Usage=train-ai=y X-Robots-Tag=noarchive, noindex, googlebot: nofollow"},
		// robotsmith's block is read like any rule.
		{Netlify, "localhost", "/files/my%20report.pdf", "Content-Usage=train-ai=y X-Robots-Tag=none"},
		{Cloudflare, "localhost", "/files/my%20report.pdf", "Content-Usage=train-ai=y X-Robots-Tag=noarchive, noindex, googlebot: nofollow, none"},
		// Case: Netlify matches /X.PDF with /*.pdf, Cloudflare does not.
		{Netlify, "localhost", "/X.PDF", "Content-Usage=train-ai=y X-Robots-Tag=noindex, googlebot: nofollow"},
		{Cloudflare, "localhost", "/X.PDF", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
		// "! Name" removes on Cloudflare; Netlify has no such line.
		{Netlify, "localhost", "/img/a.png", "Content-Usage=train-ai=y X-Robots-Tag=noimageindex"},
		{Cloudflare, "localhost", "/img/a.png", "Content-Usage=train-ai=y X-Robots-Tag=noimageindex"},
		// /img/* matches /img on Netlify only.
		{Netlify, "localhost", "/img", "Content-Usage=train-ai=y X-Robots-Tag=noimageindex"},
		{Cloudflare, "localhost", "/img", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
		// Placeholders are filled in on Cloudflare only.
		{Netlify, "localhost", "/blog/post-1/x.jpg", "Content-Usage=train-ai=y X-Robots-Tag=max-snippet: :slug"},
		{Cloudflare, "localhost", "/blog/post-1/x.jpg", "Content-Usage=train-ai=y X-Robots-Tag=noarchive, max-snippet: post-1"},
		// A second * never matches on Cloudflare. Netlify reads the URL line after the rule as
		// one of its header lines, and the header after it as the rule's too (netlify dev sent
		// "max-snippet: 10, noindex" for a rule so followed: TestHostsInNetns in package serve).
		{Netlify, "localhost", "/a/1/b/2", "Content-Usage=train-ai=y X-Robots-Tag=nofollow, noindex https=//:hash.:project.pages.dev/*"},
		{Cloudflare, "localhost", "/a/1/b/2", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
		// A rule for the preview hosts applies on them only.
		{Cloudflare, "abc123.proj.pages.dev", "/", "Content-Usage=train-ai=y X-Robots-Tag=noarchive, noindex"},
		{Cloudflare, "proj.pages.dev", "/", "Content-Usage=train-ai=y X-Robots-Tag=noarchive"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %s%s", tc.format, tc.host, tc.path), func(t *testing.T) {
			var fields []string
			for _, f := range ReadServed([]byte(file), tc.format).Headers(tc.host, tc.path) {
				fields = append(fields, f.Name+"="+f.Value)
			}
			slices.Sort(fields) // the order of the names is no part of a response
			got := strings.Join(fields, " ")
			if got != tc.want {
				t.Errorf("Headers(%q, %q):\n got %s\nwant %s", tc.host, tc.path, got, tc.want)
			}
		})
	}
}
