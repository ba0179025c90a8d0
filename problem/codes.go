package problem

import (
	"sort"
	"strings"
)

// The codes, by area (see the package doc). Each is in the table below, with its name, severity,
// summary and help.
const (
	// RS00xx: robotsmith's own.
	MoreErrors    Code = 1
	MoreWarnings  Code = 2
	Interrupted   Code = 3
	CommandFailed Code = 4
	InternalError Code = 5

	// RS01xx: signal findings (SPEC §7, §9).
	SitemapListsUnindexable   Code = 101
	SitemapListsDisallowed    Code = 102
	NoindexBlockedByRobotsTxt Code = 103
	LinkToUnindexable         Code = 104
	NoindexCanonicalElsewhere Code = 105
	NoindexInProduction       Code = 106
	TagsDisagreeWithHeader    Code = 107
	RobotsBlockCancelled      Code = 108
	DisallowHidesNoindex      Code = 109
	HreflangRelative          Code = 110
	LLMsTxtListsUnindexable   Code = 111

	// RS02xx: robotsmith's configuration.
	ConfigSyntax       Code = 201
	ConfigNotAMap      Code = 202
	ConfigTooLarge     Code = 203
	ConfigTooDeep      Code = 204
	ConfigAliases      Code = 205
	ConfigTwoFiles     Code = 206
	ConfigNotFound     Code = 207
	ConfigUnknownKey   Code = 208
	ConfigRepeatedKey  Code = 209
	ConfigWrongType    Code = 210
	ConfigUnknownValue Code = 211
	ConfigEmptyValue   Code = 212
	ConfigOutsideSite  Code = 213
	RuleNoSelector     Code = 214
	RuleNoDirectives   Code = 215
	BadPathGlob        Code = 216
	UnknownKind        Code = 217
	UnknownLang        Code = 218

	// RS03xx: front matter and the generator's sources.
	SourceSyntax             Code = 301
	FrontMatterUnclosed      Code = 302
	SourceTooDeep            Code = 303
	SourceNotAMap            Code = 304
	RobotsKeyRepeated        Code = 305
	RobotsKeyWrongType       Code = 306
	MisspeltRobotsKey        Code = 307
	UnreadRobotsKey          Code = 308
	FrontMatterSkipped       Code = 309
	RobotsKeyUnreadable      Code = 310
	CascadeInvalid           Code = 311
	CascadeTwoTargets        Code = 312
	DateUnreadable           Code = 313
	GeneratorConfigInvalid   Code = 314
	ModuleNotFound           Code = 315
	OutputFormatUnknown      Code = 316
	PermalinkInvalid         Code = 317
	CascadeTargetUnsupported Code = 318
	FileNameDateInvalid      Code = 319

	// RS04xx: directive values.
	MalformedDirective Code = 401
	MisspeltDirective  Code = 402
	UnknownDirective   Code = 403
	ObsoleteDirective  Code = 404
	MisspeltInPageTag  Code = 405
	MisspeltAgent      Code = 406
	InvalidAgentName   Code = 407
	TooManyAgents      Code = 408
	LooseSeparators    Code = 409
	AgentInsideValue   Code = 410

	// RS05xx: output files and pages.
	UnclosedBlock     Code = 501
	SecondBlock       Code = 502
	OutputNotFound    Code = 503
	NoPages           Code = 504
	PageOutputMissing Code = 505
	PathNotInOutput   Code = 506

	// RS06xx: sitemaps.
	SitemapNotWellFormed Code = 601
	SitemapTokenTooLong  Code = 602
	SitemapNotUTF8       Code = 603
	SitemapRelativeURL   Code = 604
	SitemapTooLarge      Code = 605

	// RS07xx: robots.txt and the AI preferences.
	RobotsGroupNoAgents    Code = 701
	RobotsGroupNoRules     Code = 702
	RobotsAgentInvalid     Code = 703
	RobotsAgentMisspelt    Code = 704
	RobotsAgentAlsoBlocked Code = 705
	RobotsPathInvalid      Code = 706
	SitemapsNeedBaseURL    Code = 707
	AIPreferenceInvalid    Code = 708
	AICategoryUnknown      Code = 709
	RobotsSitemapRelative  Code = 710
	RobotsTxtUnwritable    Code = 711
	AIBlockedUse           Code = 712
	AIPreferenceUnsaid     Code = 713
	AINothingReserved      Code = 714
	LLMsTxtUnreadable      Code = 715

	// RS08xx: headers and hosts.
	HeaderPathUnwritable  Code = 801
	HeaderLinesInvalid    Code = 802
	HeaderCaseConflict    Code = 803
	HeaderTooManyRules    Code = 804
	HeaderRuleOverlaps    Code = 805
	HeaderRuleUnmodelled  Code = 806
	ContentUsageOverlaps  Code = 807
	HostFileInvalid       Code = 808
	HostFileMissing       Code = 809
	HostRoutesConflict    Code = 810
	HostRecordUnreadable  Code = 811
	IncludePathInvalid    Code = 812
	HeaderFormatUnknown   Code = 813
	HeaderFormatsConflict Code = 814
	HeaderNotSent         Code = 815

	// RS09xx: safety, files and I/O.
	FileTooLarge      Code = 901
	NotARegularFile   Code = 902
	LinkOutside       Code = 903
	FileChanged       Code = 904
	UndoFailed        Code = 905
	JournalUnreadable Code = 906
	IOError           Code = 907
	LinkBroken        Code = 908
	LinkToFolder      Code = 909
	BuildRecovered    Code = 910
	LeftoverFiles     Code = 911
	FileKeepsChanging Code = 912
	WatchDegraded     Code = 913
	RecordUnreadable  Code = 914
)

// Info is one code of the table.
type Info struct {
	Code     Code
	Name     string   // kebab case, stable: "noindex-blocked-by-robots-txt"
	Severity Severity // the default
	Summary  string   // one line
	Help     string   // what it means and what to do about it
}

// All returns the table of every code, in code order.
func All() []Info { return append([]Info(nil), table[:]...) }

// Lookup is the table's entry for c.
func Lookup(c Code) (Info, bool) {
	i := sort.Search(len(table), func(i int) bool { return table[i].Code >= c })
	if i < len(table) && table[i].Code == c && c != 0 {
		return table[i], true
	}
	return Info{}, false
}

// Find is the table's entry for a code written "RS0103" (any case) or named
// "noindex-blocked-by-robots-txt", as `robotsmith explain` and the docs take either.
func Find(s string) (Info, bool) {
	for _, i := range table {
		if s == i.Name || len(s) == 6 && strings.EqualFold(s, i.Code.String()) {
			return i, true
		}
	}
	return Info{}, false
}

var table = [...]Info{
	{MoreErrors, "more-errors", Error,
		"more errors than robotsmith lists for one file or value",
		"A file, or one value, had more errors than robotsmith lists one by one; it lists the first and counts the rest. Fix those listed and run again to see the others."},
	{MoreWarnings, "more-warnings", Warning,
		"more warnings than robotsmith lists for one value",
		"One value had more dropped directives than robotsmith lists one by one; it lists the first and counts the rest. Fix those listed and run again to see the others."},
	{Interrupted, "interrupted", Error,
		"the run was stopped by a signal",
		"SIGINT (Ctrl-C) or SIGTERM stopped the run. A build stopped puts none of its files in place: every file of the output is as it was. Run it again."},
	{CommandFailed, "command-failed", Error,
		"the configured command failed",
		"build runs the configuration's command (the generator) first, and stops when it fails: nothing is written. Its output is printed before this (with -q, only when it fails). Fix what it reports, or run the generator yourself and then build --no-command."},
	{InternalError, "internal-error", Error,
		"an error robotsmith did not expect",
		"robotsmith met a failure it has no code for: a bug of its own, or an error of the system beneath it. The message says what failed; if it is not the system's (a full disk, a permission), please report it with the message."},

	{SitemapListsUnindexable, "sitemap-lists-unindexable", Finding,
		"a sitemap kept as it is lists a URL that is noindex or has no file",
		"With `sitemap: keep`, robotsmith leaves the site's sitemaps alone, and an entry for a URL that is noindex for every crawler, or whose file does not exist, asks search engines to index what they must not or cannot. Remove the entry from the sitemap (the generator's template or settings), or let robotsmith prune it with `sitemap: prune`, the default."},
	{SitemapListsDisallowed, "sitemap-lists-disallowed", Finding,
		"a sitemap lists a URL that robots.txt disallows for every crawler",
		"A sitemap asks crawlers to fetch a URL that robots.txt forbids them all to fetch: they cannot do both. Remove the URL from the sitemap, or allow it in robots.txt."},
	{NoindexBlockedByRobotsTxt, "noindex-blocked-by-robots-txt", Finding,
		"a noindex page is disallowed by robots.txt, so crawlers never see its noindex",
		"A crawler that robots.txt keeps out of a page never reads the page's noindex, and a search engine may still list the URL from links alone (Google's \"Indexed, though blocked by robots.txt\"). To keep the page out of search results, let the crawler in (remove or narrow the Disallow) so that it reads the noindex; to save crawling, drop the noindex instead."},
	{LinkToUnindexable, "link-to-unindexable", Finding,
		"a canonical or hreflang link points at a URL of the site that is noindex or has no file",
		"An indexable page hands its signals, through `<link rel=\"canonical\">` or `<link rel=\"alternate\" hreflang>`, to a URL that cannot take them: it is noindex, or nothing is published there. Point the link at the indexable URL meant, or make the target indexable."},
	{NoindexCanonicalElsewhere, "noindex-canonical-elsewhere", Warning,
		"a noindex page's canonical points at another URL",
		"The noindex says drop this URL, the canonical says index it as another: mixed signals, which search engines resolve as they see fit. Make the canonical point at the page itself, or drop the noindex."},
	{NoindexInProduction, "noindex-in-production", Warning,
		"the home page, or every page, is noindex in a build that is not a preview",
		"A staging setting shipped to production hides the whole site. If the build is a preview, say so in the environment robotsmith reads (previews: in the config); else remove the noindex."},
	{TagsDisagreeWithHeader, "tags-disagree-with-header", Warning,
		"a page's robots tags and the X-Robots-Tag its host sends disagree",
		"A rule of the site's own _headers (outside robotsmith's block) sends an X-Robots-Tag that says otherwise than the page's robots tags about noindex or nofollow. Crawlers obey the more restrictive of the two, so one of them is not what happens: remove or correct the rule."},
	{RobotsBlockCancelled, "robots-block-cancelled", Finding,
		"a group of robotsmith's block of robots.txt is cancelled by the rest of the file",
		"RFC 9309 merges every group that names a crawler, and on a tie Allow wins: a user's `Allow: /` for a crawler can cancel the `Disallow: /` that robotsmith's block writes for it. Remove the line of the rest of robots.txt that cancels it, or the rule from robots_txt in the config."},
	{DisallowHidesNoindex, "disallow-hides-noindex", Error,
		"a Disallow robotsmith would write covers a page that is noindex for that crawler",
		"robotsmith refuses to write a robots.txt rule that keeps a crawler from a page whose noindex it must read: the crawler would never see the noindex, and the URL could still be listed. Narrow the Disallow in robots_txt, or drop the page's noindex."},
	{HreflangRelative, "hreflang-relative", Warning,
		"an hreflang link of an indexable page is a relative URL",
		"Search engines ignore an hreflang link that is not an absolute URL. Set the site's base URL (Hugo's baseURL, Jekyll's url), from which the generator writes absolute URLs, or write the link absolute."},
	{LLMsTxtListsUnindexable, "llms-txt-lists-unindexable", Finding,
		"an llms.txt kept as it is links to a URL that is not to be listed",
		"With `llms_txt: keep`, robotsmith leaves llms.txt and llms-full.txt alone, and a link to a URL of the site that is noindex for every crawler, has no file, is disallowed for every AI crawler, or whose AI preferences say no to AI input points AI readers at what the other signals keep from them. Remove the link (the generator's template or the file), or let robotsmith prune it with `llms_txt: prune`, the default."},

	{ConfigSyntax, "config-syntax", Error,
		"robotsmith's configuration is not valid YAML, TOML or JSON",
		"The configuration file cannot be read in its format (by its extension: .toml is TOML, .json JSON, else YAML). Fix the syntax at the line and column given."},
	{ConfigNotAMap, "config-not-a-map", Error,
		"robotsmith's configuration is not a map of keys",
		"The top level of the configuration must be a map of keys (tags: three, rules: ...), not a list or a single value."},
	{ConfigTooLarge, "config-too-large", Error,
		"robotsmith's configuration file is larger than robotsmith reads",
		"A configuration is a few kilobytes; robotsmith reads at most 1 MiB of one, so that no input makes it use memory out of proportion. Check that the file named is the configuration."},
	{ConfigTooDeep, "config-too-deep", Error,
		"robotsmith's configuration nests deeper than robotsmith reads",
		"No key of the configuration nests more than a few levels; a file nested more than 32 levels deep is refused so that no input costs time or stack out of proportion."},
	{ConfigAliases, "config-aliases", Error,
		"YAML aliases in robotsmith's configuration expand to far more values than the file writes",
		"YAML aliases may repeat a part of the file a few times; a file whose aliases multiply it (a \"billion laughs\") is refused. Write the values out, or use fewer aliases."},
	{ConfigTwoFiles, "config-two-files", Error,
		"the site has more than one robotsmith configuration file",
		"robotsmith reads one of robotsmith.yaml, .yml, .toml and .json; reading either of two could ignore the rules meant. Remove one, or name the one to read with --config."},
	{ConfigNotFound, "config-not-found", Error,
		"the configuration file named with --config does not exist",
		"Check the path given to --config; a relative path is taken from the working directory."},
	{ConfigUnknownKey, "config-unknown-key", Error,
		"a key robotsmith's configuration does not have",
		"Every key of the configuration is checked, so that a misspelt one cannot silently change nothing. The message lists the keys known there and the nearest one; a rule's keys other than path, kind and lang name crawlers, and one that looks like a misspelt selector is this error."},
	{ConfigRepeatedKey, "config-repeated-key", Error,
		"a key of robotsmith's configuration is written twice",
		"The later one would silently win (and a second rules: block would drop the first). Keys are compared without case. Keep one."},
	{ConfigWrongType, "config-wrong-type", Error,
		"a configuration value of the wrong type",
		"The key wants another kind of value (a string, a list, a map, true or false); the message says which."},
	{ConfigUnknownValue, "config-unknown-value", Error,
		"a configuration value that is not one of the words its key takes",
		"The key takes one of a few words, which the message lists, with the nearest one."},
	{ConfigEmptyValue, "config-empty-value", Error,
		"an empty value in robotsmith's configuration",
		"An empty item means nothing robotsmith can act on (an empty Disallow would allow everything): give a value, or leave the item out."},
	{ConfigOutsideSite, "config-outside-site", Error,
		"output or content in the configuration leads outside the site's folder",
		"A configuration copied from another site must never make robotsmith rewrite that site's pages or read its sources. Name a folder inside the site, or give the output folder on the command line with --output."},
	{RuleNoSelector, "rule-no-selector", Error,
		"a rule has no path, kind or lang",
		"A rule selects the pages it applies to with path, kind and lang, and needs at least one (path: /tags/**, kind: [taxonomy, term], lang: fr)."},
	{RuleNoDirectives, "rule-no-directives", Error,
		"a rule, or an agent of it, gives no directives",
		"A rule gives directives to crawlers by name (robots: noindex, googlebot: nosnippet); one without any does nothing. Add them or remove the rule."},
	{BadPathGlob, "bad-path-glob", Error,
		"a path glob that is not a URL path or not a valid glob",
		"A rule's path and error_pages are globs over URL paths as served: they start with /, '*' stays in one segment and '**' crosses segments. Fix the glob the message quotes."},
	{UnknownKind, "unknown-kind", Error,
		"a rule's kind is not a kind the site's generator has",
		"kind takes the generator's own names (Hugo: home, section, page, taxonomy, term; Jekyll: pages, posts, drafts and each collection's label) and any site's html and file. The message lists the site's kinds and the nearest one."},
	{UnknownLang, "unknown-lang", Error,
		"a rule's lang is not a language of the site",
		"lang selects the languages the generator's configuration defines (Hugo's languages). A site that defines none selects a language's pages by path instead (path: /fr/**)."},

	{SourceSyntax, "source-syntax", Error,
		"a front matter block or a generator's configuration file is not valid YAML, TOML or JSON",
		"The generator refuses the file (Hugo), so robotsmith does too, naming the line and column. Fix the syntax there."},
	{FrontMatterUnclosed, "front-matter-unclosed", Error,
		"a front matter block has no closing line",
		"A block opened by --- (or +++) needs the same line after it; Hugo refuses the page without it. Add the closing line."},
	{SourceTooDeep, "source-too-deep", Error,
		"values in a front matter or a generator's configuration nest deeper than robotsmith reads",
		"No front matter comes near 100 levels of nesting; a file that does is refused so that no input costs time or stack out of proportion."},
	{SourceNotAMap, "source-not-a-map", Error,
		"a front matter block or a generator's configuration is not a map of keys",
		"Front matter is a map of keys (title: ..., robots: ...), not a list or a single value."},
	{RobotsKeyRepeated, "robots-key-repeated", Error,
		"a robots key is given twice in one front matter",
		"The generator keeps one of the two, and which one decides whether the page is public. Keys are compared without case, and Hugo merges params and Params. Keep one."},
	{RobotsKeyWrongType, "robots-key-wrong-type", Error,
		"a robots key of the front matter holds a value of the wrong type",
		"robots takes a string, a list of strings or a map of agent to those; noindex and nofollow take true or false; unavailable_after and Hugo's expiry dates take a date. The message says what the key holds instead."},
	{MisspeltRobotsKey, "misspelt-robots-key", Error,
		"a front matter key that looks like a misspelt robots key would hide the page",
		"robotsmith reads robots, noindex, nofollow and unavailable_after; as written (noindx: true), the key is not read, and the page its author meant to hide would be published. Correct the key."},
	{UnreadRobotsKey, "unread-robots-key", Warning,
		"a front matter key that looks like a misspelt robots key is not read",
		"The key (nofolow: true) is not one robotsmith reads, so the restriction it holds is not applied; it would not have hidden the page. Rename it if it is meant for robotsmith."},
	{FrontMatterSkipped, "front-matter-skipped", Warning,
		"Jekyll cannot read a page's front matter and builds the page without it",
		"Jekyll warns and builds such a page with no data at all; robotsmith reads no keys of it either, as Jekyll does. Fix the YAML at the line given."},
	{RobotsKeyUnreadable, "robots-key-unreadable", Error,
		"a front matter block that Jekyll cannot read sets a robots key",
		"Jekyll would build the page without its front matter, dropping the restriction the robots key holds, so the page its author meant to restrict would be published. robotsmith refuses it: fix the YAML."},
	{CascadeInvalid, "cascade-invalid", Error,
		"a cascade, or its target, is not as Hugo reads it",
		"A cascade is a map or a list of maps, its target a map of path, kind, lang, environment or sites; the message says what is wrong where."},
	{CascadeTwoTargets, "cascade-two-targets", Warning,
		"a cascade entry has both target and _target",
		"Hugo picks either of the two at random, so its choice changes from build to build; robotsmith uses target. Remove one."},
	{DateUnreadable, "date-unreadable", Warning,
		"a page's date robotsmith cannot read as the generator does",
		"The generator read the date; robotsmith reads the forms it reads in practice and uses the date in the file name where it cannot. If the page's URL holds its date, write the date in ISO 8601 (2026-01-31 10:00:00 +0100)."},
	{GeneratorConfigInvalid, "generator-config-invalid", Error,
		"a key of the generator's configuration that robotsmith needs holds a value it cannot read",
		"robotsmith maps every page to its output file from the generator's configuration (Jekyll's collections, defaults and permalinks, Hugo's permalinks); the message names the key and what it wants."},
	{ModuleNotFound, "module-not-found", Warning,
		"a Hugo module the site imports is not where Hugo looks for it",
		"Its output formats and media types are not read, so the files it defines may not take their page's decision. Vendor the module (hugo mod vendor), or replace it with a local folder."},
	{OutputFormatUnknown, "output-format-unknown", Error,
		"an output format is defined by no configuration robotsmith could read",
		"The files Hugo writes in that format cannot take their page's decision. The format is defined in a module or configuration robotsmith did not find: make it readable (vendor the module), or define the format in the site's configuration."},
	{PermalinkInvalid, "permalink-invalid", Error,
		"a permalink pattern robotsmith cannot expand as the generator does",
		"A page's output file is found from its permalink; the message names the pattern and the part at fault."},
	{CascadeTargetUnsupported, "cascade-target-unsupported", Error,
		"a cascade target that robotsmith cannot match as Hugo does",
		"robotsmith does not read a negation or a range in sites.matrix.languages; name the languages."},
	{FileNameDateInvalid, "file-name-date-invalid", Error,
		"a post's file name holds a date that is not one",
		"Jekyll takes a post's date from its file name (2026-01-31-title.md) and refuses a date that does not exist; so does robotsmith. Correct the file name."},

	{MalformedDirective, "malformed-directive", Error,
		"a robots directive with a malformed value",
		"max-snippet and max-video-preview take an integer from -1, max-image-preview none, standard or large, unavailable_after a date (ISO 8601, RFC 822 or RFC 850); a directive without a value takes none. The message quotes the directive."},
	{MisspeltDirective, "misspelt-directive", Error,
		"a robots directive that looks like a misspelt known one",
		"A directive within two edits of a known one (noindx, no-index), or holding characters outside ASCII (a Cyrillic і in noіndex), would silently publish what its author meant to hide, so it fails the run. Correct it to the directive the message suggests."},
	{UnknownDirective, "unknown-directive", Warning,
		"a robots directive robotsmith does not know, dropped",
		"robotsmith writes the union of Google's and Bing's directives; any other is dropped from the tags it writes. Remove it, or check the spelling."},
	{ObsoleteDirective, "obsolete-directive", Warning,
		"an obsolete robots directive, dropped",
		"noodp, noydir and nositelinkssearchbox are ignored by Google and Bing; robotsmith drops them. Remove them."},
	{MisspeltInPageTag, "misspelt-in-page-tag", Warning,
		"a robots tag already in a page holds what looks like a misspelling, dropped",
		"Tags the theme or the page's raw HTML wrote are not the author's front matter: there a misspelt directive or crawler name is dropped with this warning rather than failing the run. Correct the theme's template."},
	{MisspeltAgent, "misspelt-agent", Error,
		"a crawler name that looks like a misspelt well-known one",
		"A name within two edits of a well-known crawler's (googlebto; one edit for names under six letters), or holding characters outside ASCII, would give its directives to no crawler, so it fails the run. Correct it to the name the message suggests."},
	{InvalidAgentName, "invalid-agent-name", Error,
		"an agent name that cannot name a crawler",
		"A crawler's name is a robots.txt product token: letters, digits, '.', '-' and '_'. A name holding spaces, commas or colons is probably directives written where a name goes."},
	{TooManyAgents, "too-many-agents", Error,
		"more agent names than robotsmith reads in one page or the config",
		"A site names a few crawlers; robotsmith reads at most 10,000 agent names besides the well-known ones in one page's front matter with its cascades, and in the config, so that no input costs memory out of proportion."},
	{LooseSeparators, "loose-separators", Warning,
		"directives separated by spaces, semicolons or line breaks",
		"robotsmith reads spaces, semicolons and line breaks between known directives as separators, as the message says it read them; crawlers may not. Separate directives with commas."},
	{AgentInsideValue, "agent-inside-value", Warning,
		"a crawler's name inside a robots value",
		"A value such as robots: \"googlebot: noindex\" is read as X-Robots-Tag reads it, the directives after the name for that crawler alone. Give them under the crawler's own name (robots: {googlebot: noindex})."},

	{UnclosedBlock, "unclosed-block", Error,
		"robotsmith's begin marker has no end marker after it",
		"robotsmith owns the lines between \"# robotsmith: begin\" and \"# robotsmith: end\" of _headers and robots.txt; without the end marker it cannot tell its lines from the owner's that follow, and refuses rather than delete them. Add the end marker after robotsmith's lines, or delete the begin marker."},
	{SecondBlock, "second-block", Finding,
		"a file has a second robotsmith block",
		"robotsmith keeps only the first of its blocks in a file; remove the other."},
	{OutputNotFound, "output-not-found", Error,
		"the output folder does not exist",
		"robotsmith works on the files the generator wrote, in the output folder its configuration names (Hugo's publishDir, Jekyll's destination) or --output gives. Run the generator first (build runs the configured command), or name the folder it writes."},
	{NoPages, "no-pages", Warning,
		"the output folder holds no page (.html file)",
		"With no page there is no robots tag to write, and a run that did nothing must not pass for one that did. Check that the output folder is the one the generator writes, and that the generator ran."},
	{PageOutputMissing, "page-output-missing", Finding,
		"a page the generator publishes has no file in the output",
		"robotsmith maps every source page to the file the generator writes for it; this one's is not there, so its directives reach no file. Build the site again (an output folder left over from another build?), or check the page's permalink, url or output settings."},
	{PathNotInOutput, "path-not-in-output", Error,
		"a path explain was asked about is in no file of the output",
		"explain takes a URL path as served (/blog/post/) or an output file (public/blog/post/index.html). Check the path against the output folder, and that the site was built."},

	{SitemapNotWellFormed, "sitemap-not-well-formed", Warning,
		"a sitemap is not well-formed XML, and is left as it is",
		"The sitemap is the generator's or the site's: robotsmith leaves one it cannot read as it is, unpruned. Fix the XML at the line and column given."},
	{SitemapTokenTooLong, "sitemap-token-too-long", Warning,
		"a sitemap has an entry or a piece of text longer than 4 MiB, and is left as it is",
		"A sitemap entry is a few kilobytes; robotsmith holds at most 4 MiB of one, so that no input costs memory out of proportion, and leaves the sitemap unpruned."},
	{SitemapNotUTF8, "sitemap-not-utf8", Warning,
		"a sitemap declares an encoding other than UTF-8, and is left as it is",
		"Sitemaps are UTF-8 (sitemaps.org); write it in UTF-8."},
	{SitemapRelativeURL, "sitemap-relative-url", Warning,
		"a sitemap lists a relative URL",
		"Search engines take only absolute URLs in a sitemap's `<loc>`. Set the site's base URL (Hugo's baseURL, Jekyll's url), from which the generator writes absolute URLs, or write them absolute."},
	{SitemapTooLarge, "sitemap-too-large", Warning,
		"a sitemap larger than robotsmith reads, left as it is",
		"The protocol allows 50 MB; robotsmith reads a sitemap of up to 100 MB and leaves a larger one as it is, unpruned. Split it with a sitemap index."},

	{RobotsGroupNoAgents, "robots-group-no-agents", Error,
		"a robots_txt group names no agents",
		"Each group of robots_txt.groups names the crawlers it is for; write agents: [\"*\"] for every crawler."},
	{RobotsGroupNoRules, "robots-group-no-rules", Error,
		"a robots_txt group has no disallow or allow",
		"Parsers end a group only at a User-agent line that follows a rule: a group without rules would run into the next group and take its rules. Give it a disallow or an allow."},
	{RobotsAgentInvalid, "robots-agent-invalid", Error,
		"a robots_txt agent that is not a user-agent token",
		"A robots.txt product token holds letters, digits, '.', '-' and '_' only, or is \"*\" for every crawler."},
	{RobotsAgentMisspelt, "robots-agent-misspelt", Error,
		"a robots_txt agent that looks like a misspelt well-known crawler",
		"A group for a misspelt name applies to no crawler. Correct it to the crawler the message suggests."},
	{RobotsAgentAlsoBlocked, "robots-agent-also-blocked", Error,
		"a crawler named in robots_txt.groups is also blocked by ai.block",
		"RFC 9309 merges every group that names a crawler, so the two groups would change each other. Name the crawler in one place only."},
	{RobotsPathInvalid, "robots-path-invalid", Error,
		"a robots_txt disallow or allow that is not a path",
		"A rule's path starts with / (or *) and holds no control character."},
	{SitemapsNeedBaseURL, "sitemaps-need-base-url", Error,
		"robots_txt.sitemaps needs the site's absolute base URL",
		"Sitemap: lines take absolute URLs, made from the generator's base URL (Hugo's baseURL, Jekyll's url). Set it to an absolute http or https URL, or set robots_txt.sitemaps to false."},
	{AIPreferenceInvalid, "ai-preference-invalid", Error,
		"an ai preference that is not yes or no",
		"ai.train, ai.search and ai.input take yes or no. A label of the IETF drafts or of Content Signals is not a value here; the message says which draft defined it."},
	{AICategoryUnknown, "ai-category-unknown", Error,
		"an ai.block value that is not a crawler category",
		"ai.block takes training, ai-search, ai-input or all-ai; the message says what the value is instead, and the nearest category."},
	{RobotsSitemapRelative, "robots-sitemap-relative", Warning,
		"a Sitemap: line of robots.txt is a relative URL",
		"Search engines take only an absolute URL in a Sitemap: line (RFC 9309). Set the site's base URL, from which robotsmith and the generator write absolute URLs, or write it absolute."},
	{RobotsTxtUnwritable, "robots-txt-unwritable", Error,
		"robots.txt is not a file robotsmith can write its block into",
		"robots_txt or ai asks for robotsmith's block of robots.txt, but robots.txt in the output is a link outside it, a FIFO or another file robotsmith never reads or writes through. Make it a regular file (or remove it), or drop robots_txt and ai from the configuration."},
	{AIBlockedUse, "ai-blocked-use", Warning,
		"ai.block disallows a crawler that the catalogue also lists for a use the policy says yes to",
		"One robots.txt token governs every use its operator reads it for: Google-Extended decides both whether Gemini trains on the site and whether Gemini's answers are grounded on it, so block: [training] with input: yes withholds the input too. Drop the category from ai.block, or say no to the use, so that the two settings agree."},
	{AIPreferenceUnsaid, "ai-preference-unsaid", Warning,
		"ai.placement writes a stated preference nowhere",
		"placement: headers writes only the Content-Usage header, and the vocabulary it follows has no label for input: that preference would be written nowhere. Use placement: both or robots.txt, whose Content-Signal line carries it, or drop ai.input."},
	{AINothingReserved, "ai-nothing-reserved", Warning,
		"ai.reserve is set, but the policy says no to no use",
		"The reservation of rights names the uses the policy says no to; with train, search and input all yes or unset there is nothing to reserve, and no statement is written. Say no to a use, or drop ai.reserve."},
	{LLMsTxtUnreadable, "llms-txt-unreadable", Warning,
		"an llms.txt robotsmith cannot read completely is left as it is",
		"robotsmith prunes llms.txt and llms-full.txt only where it can place every link exactly (a file too large, or a link whose bytes it cannot locate, is left alone, unpruned). Check the file's links by hand, or let robotsmith write llms.txt with `llms_txt: generate`."},

	{HeaderPathUnwritable, "header-path-unwritable", Error,
		"a file whose path a host's header rule cannot match exactly",
		"A host's rules read '*', placeholders, trimmed spaces and . or .. segments their own way, so robotsmith cannot give such a file its X-Robots-Tag there. Rename the file."},
	{HeaderLinesInvalid, "header-lines-invalid", Error,
		"X-Robots-Tag lines that a host would send with another meaning",
		"A host folds repeated header lines into one comma-joined header, in which a directive after an agent's name belongs to that agent; a line break, an empty line, an overlong line, or two paths served alike with other lines cannot be written. The message says which."},
	{HeaderCaseConflict, "header-case-conflict", Error,
		"two files whose paths differ only in case get different X-Robots-Tag lines",
		"The host matches paths without case, so it cannot send them different headers. Give them one decision, or rename one."},
	{HeaderTooManyRules, "header-too-many-rules", Error,
		"a host's limit on header rules cannot be met",
		"Cloudflare Pages reads at most 100 _headers rules, Vercel at most 2,048 routes. robotsmith folds files that share a decision; where that is not enough, give the folders the message names one decision with a rule in the config."},
	{HeaderRuleOverlaps, "header-rule-overlaps", Finding,
		"a header rule of the site's own also sets X-Robots-Tag for a file robotsmith covers",
		"Outside robotsmith's block, the owner's rule and robotsmith's both act on the file's X-Robots-Tag; the message says which the host sends. Remove X-Robots-Tag from the owner's rule, and give the file its directives in the config or its front matter."},
	{HeaderRuleUnmodelled, "header-rule-unmodelled", Finding,
		"a host entry sets X-Robots-Tag for paths robotsmith cannot tell",
		"robotsmith cannot model the entry's pattern (or the host would not read it), so it cannot tell whether it covers files robotsmith gives an X-Robots-Tag. Remove X-Robots-Tag from the entry, or use a pattern of the host's simpler forms."},
	{ContentUsageOverlaps, "content-usage-overlaps", Finding,
		"a header rule of the site's own sets Content-Usage, which robotsmith sends for every path",
		"With an ai policy, robotsmith sends Content-Usage for every path; an owner's rule that also sets it (or, on Cloudflare, a rule for /* after robotsmith's block) makes the host send the other value, or both. Remove it from the owner's rule."},
	{HostFileInvalid, "host-file-invalid", Error,
		"a host's configuration file is not as robotsmith can write into it",
		"robotsmith writes its entries into the host's own file (firebase.json, vercel.json) and keeps every other entry: the file must be valid JSON with the structure the host documents. The message names the line."},
	{HostFileMissing, "host-file-missing", Error,
		"the host's configuration file, or its part robotsmith writes to, is missing",
		"robotsmith writes into the file the host's own tool makes (firebase init hosting), which names the site's public folder. Make it first."},
	{HostRoutesConflict, "host-routes-conflict", Error,
		"Vercel does not allow headers beside routes",
		"A vercel.json with routes cannot have headers. Move the routes to rewrites and redirects, or leave vercel out of robotsmith's formats."},
	{HostRecordUnreadable, "host-record-unreadable", Finding,
		"robotsmith's record of the entries it wrote into a host's file cannot be read",
		"robotsmith records the entries it wrote so that the next run replaces exactly those. Without the record, entries identical to the ones it writes now are taken as its own, and the others are kept: check the file for entries of an older run."},
	{IncludePathInvalid, "include-path-invalid", Error,
		"a path to include in the server's configuration that the server would read as a pattern",
		"nginx and Caddy read *, ? and [ (Caddy: braces) in an include as a pattern or a placeholder, and Caddy cannot quote a path holding both '\"' and '`'. Give a plain path."},
	{HeaderFormatUnknown, "header-format-unknown", Error,
		"a headers format robotsmith does not write",
		"headers.format takes netlify, cloudflare, vercel, firebase, apache, nginx, caddy (one, or a list of several), none or auto."},
	{HeaderFormatsConflict, "header-formats-conflict", Error,
		"headers.format names formats that cannot be written together",
		"none and auto stand alone, and netlify and cloudflare both read _headers, each in its own dialect: list the hosts the site is deployed to. With auto, a site that has both netlify.toml and a wrangler file names both: name the format instead."},
	{HeaderNotSent, "header-not-sent", Finding,
		"a file's directives only an X-Robots-Tag header can carry, on a host that sends none",
		"A PDF, an image or any file that is not a page has no robots `<meta>` tag: only the X-Robots-Tag header carries its directives, and with headers.format none (or a site on GitHub Pages, which sends no header of the site's) no host sends it, and crawlers may index the file. Deploy to a host that sends headers and name it in headers.format, keep the file out of the output, or list its URL as Disallow in robots.txt (which stops crawling, not indexing of a URL linked from elsewhere)."},

	{FileTooLarge, "file-too-large", Error,
		"a file larger than robotsmith reads of its kind",
		"Every input is bounded so that no file makes robotsmith use memory or time out of proportion; the message names the limit. Check that the file is what its name says."},
	{NotARegularFile, "not-a-regular-file", Warning,
		"a FIFO, socket, device or folder where a file was expected, skipped",
		"robotsmith never reads such a file (a FIFO would block for ever); it is skipped and left alone."},
	{LinkOutside, "link-outside", Warning,
		"a symbolic link that leads outside its folder, skipped",
		"robotsmith never reads or writes through a link out of the output folder; it is left alone. Copy the file into the output if it is meant to be processed."},
	{FileChanged, "file-changed", Error,
		"a file changed by another process during the build",
		"Between robotsmith reading a file and replacing it, another process replaced, rewrote or deleted it; robotsmith undoes the build rather than overwrite that change. Run again once the other process is done (a generator still writing, a sync)."},
	{UndoFailed, "undo-failed", Error,
		"undoing a failed build did not finish",
		"The build failed, and putting every file back as it was did not finish; its journal stays, and the next robotsmith run finishes the undo before anything else. Fix what the message names (permissions, a full disk) and run again."},
	{JournalUnreadable, "journal-unreadable", Error,
		"the journal of an interrupted build cannot be read",
		"An interrupted robotsmith build left a journal that robotsmith cannot read, so it cannot finish or undo that build. Move the journal away to go on, and check the files it names."},
	{IOError, "io-error", Error,
		"a file or folder could not be read or written",
		"The system refused a read or a write (a permission, a full disk, a folder where a file was expected); the message gives the system's reason. A build that fails so writes nothing. Fix the cause and run again."},
	{LinkBroken, "link-broken", Warning,
		"a symbolic link to nothing, in a loop, or one that cannot be followed, skipped",
		"robotsmith leaves such a link alone and decides nothing for it. Remove it, or point it at a file of the output."},
	{LinkToFolder, "link-to-folder", Warning,
		"a symbolic link to a folder, not followed",
		"The files of the folder it leads to are decided where they are, once; the link is left alone. Nothing to do, unless the folder is meant to be served at the link's path with other directives: then copy it."},
	{BuildRecovered, "build-recovered", Warning,
		"an interrupted robotsmith build was finished or undone before this run",
		"A build killed while it put its files in place left a journal; robotsmith finished it (past its commit point) or undid it (before), so that every file is whole, before anything else. Nothing to do; the message says what was done."},
	{LeftoverFiles, "leftover-files", Warning,
		"temporary files of an interrupted or running robotsmith build",
		"A build writes each new file beside the old one before it puts them all in place. A build removes such files left by a killed one; check leaves them, and a file that could not be removed is left for the next run. Nothing to do, unless another robotsmith build is running in the same folder."},
	{FileKeepsChanging, "file-keeps-changing", Error,
		"files watch mode could not write, another process changing them each time",
		"Watch mode writes a batch's files at once, and none when one of them changed meanwhile; after several tries in a row it leaves them as the generator wrote them until the next change. Check what else writes the output folder (a second generator, a sync)."},
	{WatchDegraded, "watch-degraded", Warning,
		"a folder could not be watched, or watching fell back to polling",
		"Watch mode goes on, but may see changes late (polling) or not at all under that folder. The message says why: often the system's limit on watches (fs.inotify.max_user_watches on Linux); raise it, or use watch --poll."},
	{RecordUnreadable, "record-unreadable", Error,
		"an indexability record robotsmith diff cannot read",
		"A record is the file build --record writes: a header line, then one JSON object a URL, in URL order. The message names the line and what is wrong with it; write the record again with this robotsmith."},
}
