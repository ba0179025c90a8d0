// Package rules is robotsmith's directive model: it parses robots directives
// as users write them, merges every source of them (SPEC §3) into one decision
// per crawler (SPEC §4), and says which tags a page gets (SPEC §5) and which
// X-Robots-Tag lines a file gets (SPEC §6). It is pure: it reads no files and
// does no I/O; callers hand it values with their sources.
//
// Usage:
//
//	r, err := rules.New(rules.Config{Rules: []rules.Rule{{
//		Paths:  []string{"/tags/**"},
//		Values: []rules.Input{{Agent: "robots", Value: "noindex, follow"}},
//		Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 14, Rule: 1},
//	}}})
//	if err != nil { ... }               // bad globs and malformed values, errors.Join-ed
//	d, warns, err := r.Decide(rules.Item{
//		Path:   "/blog/post/",
//		Inputs: []rules.Input{{Agent: "robots", Value: "nosnippet", Source: fm}},
//	})
//	tags := d.Directives()             // for rewrite
//	lines := d.HeaderLines()           // for _headers, as data: {Agent: "googlebot", Content: "nosnippet"}
//
// A site decides thousands of files from far fewer sources, and most files
// alike. Compile parses a source's inputs once (its problems are reported
// then, once), and a Memo hands out one shared Verdict, a Decision's compact
// form without sources, for every file whose inputs say the same thing:
//
//	page, warns, err := rules.Compile(frontMatterAndCascadeInputs) // once per source page
//	m := r.Memo()                                                 // once per run
//	v, warns, err := m.Verdict(rules.Item{Path: "/blog/post/page/2/", Compiled: []*rules.Compiled{page}})
//	r.IsAgent("acme-indexer", page)                               // the names a scan of the page looks for
//
// # Values
//
// A value is a comma list, any case, extra spaces allowed: index, noindex,
// follow, nofollow, none (= noindex, nofollow), all (adds nothing), noarchive,
// nocache, nosnippet, noimageindex, notranslate, indexifembedded, noai and
// noimageai (advisory: no AI vendor documents honouring them),
// max-snippet:N and max-video-preview:N (N an integer >= -1, -1 meaning no
// limit), max-image-preview:none|standard|large and unavailable_after:DATE —
// the union of Google's and Bing's current lists. DATE is ISO 8601 (a date, or
// a date-time with or without zone), RFC 822/1123 or RFC 850, with zone names
// UT, UTC, GMT, Z, EST, EDT, CST, CDT, MST, MDT, PST, PDT, CET, CEST or a
// numeric zone; a date without a zone is UTC. A weekday's comma inside the date
// ("unavailable_after: Friday, 25-Jun-10 15:00:00 PST") does not split the list.
// Dates are written as ISO 8601 UTC: unavailable_after:2010-06-25T23:00:00Z.
// Spaces, semicolons and line breaks between known directives separate them
// too ("noindex nofollow", a YAML block scalar), with a warning saying to use
// commas (SplitDirectives, which headers reads X-Robots-Tag values with).
//
// An *Error quotes the value once, at most about 80 characters of it: the
// value when it is one directive, else the directive at fault. A page's front
// matter with its cascades, and the config, name at most MaxAgents agents
// besides the well-known ones.
//
// Every *Error and Warning carries its problem.Code (MalformedDirective, MisspeltDirective,
// UnknownDirective, LooseSeparators, ...) and gives its problem.Problem, which prints as the error
// or warning does. A value with several problems is one *Error, a line for each, of the first
// one's code.
//
// rules panics on no input: a panic is a bug, and is left to crash with its stack rather than be
// recovered into an error that would read as a problem of the site.
//
// Typos fail closed: an unknown value within two edits of a known one
// (noindx, no-index, nofolow, max_snippet) or holding characters outside
// ASCII (a Cyrillic і in noіndex), and an agent name that is not a well-known
// crawler's but within two edits of one (googlebto, bingbott; one edit for
// names under six letters) or not ASCII, are errors (*Error wrapping
// ErrMisspelt) naming their source and what they resemble, so that a typo can
// never publish a page its author meant to hide. Robots tags already in the
// page are the theme's, not the user's: there the same typos are warnings, and
// dropped. Obsolete (noodp, noydir, nositelinkssearchbox) and other unknown
// values are warnings naming their source and are dropped; any other agent
// name (otherbot) is accepted. Malformed values (max-snippet:abc,
// max-image-preview:huge, a bad date) are errors (*Error, wrapping
// ErrMalformed) naming their source.
//
// # Merging
//
// Decide reads the defaults (built-in, SPEC §3.1, or the config's), then every
// rule that matches the item, in order, then the item's own inputs
// (cascade or front matter defaults, front matter, tags already in the page,
// environment). Merging is additive per agent: an agent's set is the "robots"
// set plus its own values. In each slot the most restrictive value wins
// regardless of its source: noindex over index, nofollow over follow, the
// smallest max-snippet and max-video-preview (-1 loses to any limit), the
// smallest max-image-preview (none < standard < large), the earliest
// unavailable_after. So a rule's noindex beats the front matter's index.
//
// Inheritance is the generator's, not a merge (SPEC §3.3): a page's own robots
// key replaces the value of the same key that a Hugo cascade or a Jekyll
// defaults scope passes down, as the generator gives the page its own value.
// Which inherited input the generator replaces is the caller's to say, in its
// generator's terms (Input.ReplacedBy names the key that replaces it): such an
// input is read for its problems but not merged, and Decision.Replaced lists it
// with both places, for explain.
//
// Provenance is data: every candidate carries its Source and a priority
// (Kind, reading order). When several sources give the same value, the one
// comparison priority.beats picks the reported source: the higher Kind wins
// (default < rule < cascade, front matter defaults < front matter < page tag <
// environment), and on equal Kind the input read first wins. The merge is thus
// commutative, associative and idempotent.
//
// Output is de-duplicated, lower case, joined with ", ", in the fixed order
// index|noindex, follow|nofollow, noarchive, nocache, nosnippet,
// noimageindex, notranslate, indexifembedded, noai, noimageai, max-snippet, max-image-preview,
// max-video-preview, unavailable_after. When both noarchive and nocache are
// set only noarchive is written (Bing reads the pair as the weaker nocache);
// since Bing reads the robots tag (and the X-Robots-Tag line without a prefix)
// together with its bingbot and msnbot ones, a robots nocache beside a Bing
// agent's noarchive is written as noarchive there too. nosnippet drops
// max-snippet.
//
// # Forms
//
// A public page (robots has no noindex) gets, in the Three style, tags for
// robots, googlebot and bingbot (each agent tag being the robots set plus the
// agent's own values) and one tag for every other agent an input names. In
// the Single style it gets one robots tag holding the robots set plus the
// googlebot and bingbot defaults; an agent then gets its own tag only when a
// non-default source gives it values (or, for agents other than googlebot and
// bingbot, when the config's defaults give it values, which cannot be folded
// into the robots tag). A non-public page gets only the robots tag. Error
// pages (Config.ErrorPages, never for assets; a glob matches a .html page by
// either URL a host serves it at, "/404.html" or "/404": Resolver.ErrorPage)
// and redirect stubs get Directives{Clear: true}: no tags, existing ones
// removed.
//
// # Selecting
//
// A rule selects with Paths, Kinds and Langs; it needs one at least, and matches an item when
// every selector it has matches (any of its values). Kinds are the item's Kinds in the
// generator's words ("taxonomy", "posts"; a pager page and another output format have their
// page's) or, for any site, KindFile (Item.Asset: a non-HTML file) and KindHTML (a page); Langs
// are the item's Lang. Both compare without case. rules knows no generator: which kinds and
// languages a site has is checked by the caller (package config, once the site is open).
// Matching says which rules match an item and with what: "rule 2 at robotsmith.yaml:14 (kind:
// taxonomy, lang: fr)".
//
//	r, err := rules.New(rules.Config{Rules: []rules.Rule{{
//		Kinds:  []string{"taxonomy", "term"},
//		Values: []rules.Input{{Agent: "robots", Value: "noindex, follow"}},
//	}}})
//	d, _, err := r.Decide(rules.Item{Path: "/fr/frtags/", Kinds: []string{"taxonomy"}, Lang: "fr"}) // noindex
//
// # Paths
//
// Rule globs are matched against URL paths as served, with doublestar: '*'
// stays within a segment, '**' crosses segments and may match nothing, so
// "/drafts/**" matches "/drafts/" itself. A page path ending in "/" also
// matches a glob written without it: "/blog/*" matches "/blog/post/". A '*'
// may match an empty segment, so "/blog/*" also matches the list page
// "/blog/". Globs must start with "/"; doublestar's ?, [abc], {a,b} and \
// escapes work too.
package rules
