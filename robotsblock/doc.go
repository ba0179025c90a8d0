// Package robotsblock writes robotsmith's block of a site's robots.txt: the
// lines between "# robotsmith: begin" and "# robotsmith: end" (SPEC §9).
// Everything outside the block is the user's or the theme's; Merge keeps it
// byte for byte and creates the file when it is missing.
//
// The block is rendered from the config alone, in this order:
//
//  1. the `ai` policy's Content-Signal and Content-Usage lines (package
//     aipref), in the first robots_txt group that names "*", or else in a
//     `User-agent: *` group of their own, with a comment naming the draft
//     versions followed; only where ai.placement writes them in robots.txt
//     (aipref.Policy.InRobotsTxt: not with placement: headers, which sends
//     the Content-Usage header alone). With ai.reserve, the reservation of
//     rights (aipref.Policy.Reservation) as comment lines above them, or in a
//     paragraph of its own when robots.txt carries no preference line;
//  2. robots_txt.groups in order: User-agent lines, then Disallow, then
//     Allow lines, each path percent-encoded as a crawler requests it (robotstxt.EscapePattern);
//  3. one group per crawler that ai.block names by category, from the
//     crawler catalogue (package crawlers), each listed once, Disallow: /;
//  4. one Sitemap: line per sitemap of the site, absolute URLs from the
//     base URL the caller passes.
//
// Every group the block writes holds an Allow or Disallow line. Parsers
// such as Google's end a group only at a User-agent line that follows a
// rule, and skip lines they do not know: a `User-agent: *` group holding
// only Content-Signal would run into the next group and take its
// `Disallow: /` for every crawler. A group robotsmith writes for the AI
// lines alone therefore ends with an empty `Disallow:`, which allows
// everything and, unlike `Allow: /`, cannot cancel a user's own Disallow
// for "*" elsewhere in the file (RFC 9309 merges groups of the same agent,
// and on a tie Allow wins).
//
// The config's values are checked by package config when it reads them; Render writes what it is
// given and checks only what depends on the site, the base URL its Sitemap: lines need (see
// Render).
//
// Usage:
//
//	in := robotsblock.Input{
//		AI:       cfg.AI, // ai, as config read and checked it
//		Sitemaps: []string{"/sitemap.xml"},
//		BaseURL:  "https://example.com/",
//	}
//	for _, g := range cfg.RobotsTxt.Groups { // robots_txt.groups, likewise
//		in.Groups = append(in.Groups, robotsblock.Group{Agents: g.Agents, Disallow: g.Disallow, Allow: g.Allow})
//	}
//	b, err := robotsblock.Render(in) // a sitemap without a base URL: *robotsblock.Error, with its config line
//	if err != nil {
//		return err
//	}
//	old, _ := os.ReadFile("public/robots.txt") // nil when missing
//	out, err := robotsblock.Merge(old, b)      // the block replaced, or appended; nothing else touched
//	if err != nil {
//		return err // a begin marker without an end marker: *markers.Error naming its line
//	}
//
// Block.Rules lists every Allow and Disallow line written, with its line in
// the block and its agents, so that a caller with a robots.txt matcher can
// check the block against the rest of the file (a group of the block that
// the user's groups cancel) and against the pages (a Disallow over a page
// that is noindex for that agent).
//
// The package is pure: it reads no files.
package robotsblock
