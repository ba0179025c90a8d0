// Package standin is a small stand-in for Hugo: it turns a Hugo-layout site
// (hugo.toml, content/, static/) into the HTML that Hugo's default output
// layout and a PaperMod-like theme would write to public/, so that the
// robotsmith sample site and robotsmith's tests can be built with nothing but
// Go installed.
//
// Usage:
//
//	// Build the site in dir, like `hugo` with a clean public/ folder.
//	if err := standin.Generate(dir); err != nil {
//		log.Fatal(err)
//	}
//
//	// Or first write a large synthetic site for a benchmark.
//	if err := standin.Synthetic(dir, 10000, 1); err != nil {
//		log.Fatal(err)
//	}
//	if err := standin.Generate(dir); err != nil {
//		log.Fatal(err)
//	}
//
// What is covered, with Hugo's rules (see Hugo's resources/page/page_paths.go):
//
//   - home, section and nested-section lists from _index.md (or implicit for
//     top-level folders), written to <dir>/index.html;
//   - regular pages to <dir>/<slug or name>/index.html and leaf bundles
//     (<dir>/index.md) to <dir>/index.html with their other files copied
//     beside them; paths are sanitised and lower-cased like Hugo's Sanitize;
//   - the slug, url, aliases, draft, publishDate, expiryDate, build.render
//     and headless front matter keys, and cascade (with target or _target);
//   - taxonomy lists and term pages; pagination of home, section and term
//     lists (page/1/ is an alias stub to the list); 404.html; sitemap.xml;
//   - YAML (---), TOML (+++) and JSON ({ ... }) front matter.
//
// Not covered: languages, permalinks, uglyURLs, output formats other than
// HTML and the sitemap (no RSS), shortcodes, menus from front matter.
//
// Every page the theme writes carries <meta name="robots" content="index,
// follow"> as PaperMod does in production (noindex, nofollow with the
// robotsNoIndex page parameter), and an inline script whose JavaScript
// string contains "</head>", as real themes' pages do.
package standin
