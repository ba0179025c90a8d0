package robotsblock_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/robotsblock"
)

func Example() {
	in := robotsblock.Input{
		Groups:   []robotsblock.Group{{Agents: []string{"*"}, Disallow: []string{"/search/"}}},
		AI:       aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes},
		Sitemaps: []string{"/sitemap.xml"},
		BaseURL:  "https://example.com/",
	}
	b, err := robotsblock.Render(in)
	if err != nil {
		panic(err)
	}
	existing := []byte("User-agent: Googlebot\nDisallow: /nogoogle/\n")
	out, err := robotsblock.Merge(existing, b)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// User-agent: Googlebot
	// Disallow: /nogoogle/
	//
	// # robotsmith: begin
	// # Written by robotsmith on every build from robots_txt and ai in its config; edit those, not these lines.
	//
	// # AI preferences (ai in the config): Content-Signal as Cloudflare's Content Signals Policy (https://contentsignals.org/);
	// # Content-Usage as draft-ietf-aipref-vocab-08 (2026-09-14) and draft-ietf-aipref-attach-05 (2026-08-19).
	// User-agent: *
	// Disallow: /search/
	// Content-Signal: search=yes, ai-input=yes, ai-train=no
	// Content-Usage: train-ai=n, search=y
	//
	// Sitemap: https://example.com/sitemap.xml
	// # robotsmith: end
}
