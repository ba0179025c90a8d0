package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Source documents the table cites (see /shared/reference/robots-meta-anchors.md):
const (
	yoastSpec  = "Yoast functional specification, meta robots (Yoast/developer docs/features/seo-tags/meta-robots)"
	googleDoc  = "Google, robots meta tag documentation (developers.google.com/search/docs/crawling-indexing/robots-meta-tag)"
	googleSum  = googleDoc + `: "sum of the negative rules" across robots and googlebot tags`
	bingNote   = "Bing webmaster blog, Sept 2023: NOCACHE and NOARCHIVE together are treated as NOCACHE"
	bingHelp   = "Bing help, which robots metatags Bing supports (noodp obsolete)"
	rfc822     = "RFC 822 §5 date-time, with Google's example 25 Jun 2010 15:00:00 PST"
	rfc850     = "RFC 850 §2.1.4 date (Friday, 25-Jun-10 15:00:00 PST)"
	rfc1123    = "RFC 1123 §5.2.14 date (Fri, 25 Jun 2010 15:00:00 GMT)"
	iso8601    = "ISO 8601 / RFC 3339 date-time"
	briefIssue = "issue 2 (rules) decided semantics"
)

var (
	fmSrc   = Source{Kind: FromFrontMatter, File: "content/blog/a.md", Line: 3, Key: "robots"}
	fmSrc2  = Source{Kind: FromFrontMatter, File: "content/blog/a.md", Line: 5, Key: "noindex"}
	pageSrc = Source{Kind: FromPage, File: "public/a/index.html", Line: 7, Key: "robots"}
	cascSrc = Source{Kind: FromCascade, File: "content/blog/_index.md", Line: 5}
	// jekyllDefSrc is a robots key in the values of a Jekyll `defaults` scope.
	jekyllDefSrc = Source{Kind: FromFrontMatterDefaults, File: "_config.yml", Line: 8, Key: "robots.googlebot"}
	envSrc       = Source{Kind: FromEnvironment, Key: "CONTEXT=deploy-preview"}
	noDefs       = Config{Defaults: []Input{}}
)

func fm(agent, value string) Input { return Input{Agent: agent, Value: value, Source: fmSrc} }
func tag(agent, value string) Input {
	return Input{Agent: agent, Value: value, Source: Source{Kind: FromPage, File: "public/a/index.html", Line: 7, Key: agent}}
}
func robots(values ...string) []Input {
	var ins []Input
	for _, v := range values {
		ins = append(ins, fm("robots", v))
	}
	return ins
}

func rule(n int, paths []string, agentValues ...string) Rule {
	src := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 10 + 3*n, Rule: n}
	r := Rule{Paths: paths, Source: src}
	for i := 0; i+1 < len(agentValues); i += 2 {
		r.Values = append(r.Values, Input{Agent: agentValues[i], Value: agentValues[i+1], Source: src})
	}
	return r
}

func withRules(base Config, rs ...Rule) Config { base.Rules = rs; return base }

const defaultTail = "max-snippet:-1, max-image-preview:large, max-video-preview:-1"

type decideCase struct {
	desc   string
	source string // where the expectation comes from
	cfg    Config
	item   Item // Path defaults to "/p/"

	want      map[string]string // agent -> Content
	agents    []string          // if set, the agent order of the decision
	class     string            // if set, Class.String()
	tags      []Tag             // if set (or clear), the exact Directives tags
	clear     bool
	dirAgents []string // if set, Directives.Agents
	headers   []string // if set, HeaderLines as String gives them
	isDefault *bool
	srcs      map[string]string // "agent token" -> Source.String() of that value
	replaced  []string          // if set (or noReplaced), Decision.Replaced as String gives them
	noneRepl  bool              // Decision.Replaced must be empty
	warn      string            // substring of a warning; "" means no warning
	err       string            // substring of the error; "" means no error
	newErr    bool              // err is New's (a problem in the config), not Decide's
}

var yes, no = true, false

func decideCases() []decideCase {
	return []decideCase{
		// ---- parsing (SPEC §4, Google's and Bing's lists) ----
		{desc: "noindex", source: googleDoc, cfg: noDefs, item: Item{Inputs: robots("noindex")}, want: map[string]string{"robots": "noindex"}},
		{desc: "any case and extra spaces", source: "SPEC §4: values are case-insensitive and trimmed; output lower case", cfg: noDefs,
			item: Item{Inputs: robots("  NoIndex ,   NoFollow  ")}, want: map[string]string{"robots": "noindex, nofollow"}},
		{desc: "comma without space", source: "robots-meta-anchors (b): Yoast collapses noindex,nofollow; we must not", cfg: noDefs,
			item: Item{Inputs: robots("noindex,nofollow")}, want: map[string]string{"robots": "noindex, nofollow"}},
		{desc: "none is noindex nofollow", source: googleDoc + ": none = noindex, nofollow; SPEC §4 written as the two", cfg: noDefs,
			item: Item{Inputs: robots("none")}, want: map[string]string{"robots": "noindex, nofollow"}},
		{desc: "all adds nothing", source: googleDoc + ": all = no restrictions; SPEC §4", cfg: noDefs,
			item: Item{Inputs: robots("all")}, want: map[string]string{"robots": ""}},
		{desc: "all over defaults", source: "SPEC §4: all adds nothing", item: Item{Inputs: robots("ALL")},
			want: map[string]string{"robots": "index, follow"}, class: "public"},
		{desc: "list elements as separate inputs", source: "SPEC §3: robots may be a YAML/TOML list", cfg: noDefs,
			item: Item{Inputs: robots("noindex", "nofollow")}, want: map[string]string{"robots": "noindex, nofollow"}},
		{desc: "index loses to noindex", source: "SPEC §4: noindex over index", cfg: noDefs,
			item: Item{Inputs: robots("index, noindex")}, want: map[string]string{"robots": "noindex"}},
		{desc: "follow loses to nofollow", source: "SPEC §4: nofollow over follow", cfg: noDefs,
			item: Item{Inputs: robots("nofollow", "follow")}, want: map[string]string{"robots": "nofollow"}},
		{desc: "Yoast example, separate values", source: yoastSpec + ": index, noindex, noimageindex, follow -> noindex, follow (+noimageindex); SPEC §4", cfg: noDefs,
			item: Item{Inputs: robots("index", "noindex", "noimageindex", "follow")}, want: map[string]string{"robots": "noindex, follow, noimageindex"}},
		{desc: "Yoast example, one string", source: yoastSpec + "; SPEC §4 example", cfg: noDefs,
			item: Item{Inputs: robots("noindex, noimageindex, follow, index")}, want: map[string]string{"robots": "noindex, follow, noimageindex"}},
		{desc: "nosnippet beats max-snippet", source: googleDoc + ": max-snippet:50 + nosnippet -> nosnippet; SPEC §4", cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:50", "nosnippet")}, want: map[string]string{"robots": "nosnippet"}},
		{desc: "smallest max-snippet", source: "SPEC §4: the smallest number wins", cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:50", "max-snippet:20")}, want: map[string]string{"robots": "max-snippet:20"}},
		{desc: "max-snippet 0 beats -1", source: "SPEC §4: -1 means no limit; " + googleDoc, cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:-1, max-snippet:0")}, want: map[string]string{"robots": "max-snippet:0"}},
		{desc: "max-snippet -1 alone", source: googleDoc + ": -1 = no limit", cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:-1")}, want: map[string]string{"robots": "max-snippet:-1"}},
		{desc: "max-snippet with spaces", source: "SPEC §4: values are trimmed", cfg: noDefs,
			item: Item{Inputs: robots("Max-Snippet : 15")}, want: map[string]string{"robots": "max-snippet:15"}},
		{desc: "image preview standard beats large", source: "SPEC §4: none < standard < large, the smallest wins", cfg: noDefs,
			item: Item{Inputs: robots("max-image-preview:large", "MAX-IMAGE-PREVIEW:Standard")}, want: map[string]string{"robots": "max-image-preview:standard"}},
		{desc: "image preview none beats all", source: "SPEC §4", cfg: noDefs,
			item: Item{Inputs: robots("max-image-preview:standard, max-image-preview:none")}, want: map[string]string{"robots": "max-image-preview:none"}},
		{desc: "video preview 30 beats -1", source: "SPEC §4: smallest wins, -1 no limit", cfg: noDefs,
			item: Item{Inputs: robots("max-video-preview:-1", "max-video-preview:30")}, want: map[string]string{"robots": "max-video-preview:30"}},
		{desc: "earliest unavailable_after", source: "SPEC §4: the earliest date wins", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 2028-05-01", "unavailable_after:2027-01-31")}, want: map[string]string{"robots": "unavailable_after:2027-01-31T00:00:00Z"}},
		{desc: "ISO date", source: "SPEC §3 front matter example unavailable_after: 2027-01-31; SPEC §4 written ISO 8601", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 2027-01-31")}, want: map[string]string{"robots": "unavailable_after:2027-01-31T00:00:00Z"}},
		{desc: "Google example date", source: googleDoc + " example; " + rfc822, cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 25 Jun 2010 15:00:00 PST")}, want: map[string]string{"robots": "unavailable_after:2010-06-25T23:00:00Z"}},
		{desc: "RFC 850 date inside a list", source: rfc850 + "; issue 2: the weekday's comma does not split", cfg: noDefs,
			item: Item{Inputs: robots("noindex, unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nofollow")},
			want: map[string]string{"robots": "noindex, nofollow, unavailable_after:2010-06-25T23:00:00Z"}},
		{desc: "RFC 1123 date with weekday", source: rfc1123, cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT, noarchive")},
			want: map[string]string{"robots": "noarchive, unavailable_after:2010-06-25T15:00:00Z"}},
		{desc: "Google ISO example", source: googleDoc + " example 2020-09-21", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 2020-09-21")}, want: map[string]string{"robots": "unavailable_after:2020-09-21T00:00:00Z"}},
		{desc: "ISO date-time with offset", source: iso8601, cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after:2027-01-31T10:00:00+02:00")}, want: map[string]string{"robots": "unavailable_after:2027-01-31T08:00:00Z"}},
		{desc: "ISO date-time without zone is UTC", source: iso8601 + "; issue 2: a date with no zone is UTC", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after:2027-01-31T10:30:00")}, want: map[string]string{"robots": "unavailable_after:2027-01-31T10:30:00Z"}},
		{desc: "RFC 822 numeric zone", source: rfc822 + " (numeric zone)", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 25 Jun 2010 15:00:00 -0700")}, want: map[string]string{"robots": "unavailable_after:2010-06-25T22:00:00Z"}},
		{desc: "RFC 822 PDT zone", source: rfc822 + " (zone PDT = -7)", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 25 Jun 2010 15:00:00 PDT")}, want: map[string]string{"robots": "unavailable_after:2010-06-25T22:00:00Z"}},
		{desc: "RFC 822 EST zone, two-digit year", source: rfc822 + " (zone EST = -5, 2-digit year)", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 1 Feb 27 00:00 EST")}, want: map[string]string{"robots": "unavailable_after:2027-02-01T05:00:00Z"}},
		{desc: "noarchive and nocache write noarchive", source: bingNote + "; SPEC §4", cfg: noDefs,
			item: Item{Inputs: robots("nocache, noarchive")}, want: map[string]string{"robots": "noarchive"}},
		{desc: "nocache alone", source: bingHelp + ": noarchive/nocache", cfg: noDefs,
			item: Item{Inputs: robots("nocache")}, want: map[string]string{"robots": "nocache"}},
		{desc: "nocache for all, noarchive for bingbot", source: bingNote + "; SPEC §4 merging is additive per agent", cfg: noDefs,
			item: Item{Inputs: []Input{fm("robots", "nocache"), fm("bingbot", "noarchive")}},
			want: map[string]string{"robots": "nocache", "bingbot": "noarchive"}},
		{desc: "nocache for all, noarchive for bingbot: Bing is not sent both", source: bingNote + "; SPEC §4 (when both are asked for only noarchive is written); bingHelp: Bing reads the robots and bingbot tags together",
			item:    Item{Path: "/a.pdf", Inputs: []Input{fm("robots", "nocache"), fm("bingbot", "noarchive")}},
			tags:    []Tag{{"robots", "index, follow, noarchive"}, {"googlebot", "index, follow, noarchive, " + defaultTail}, {"bingbot", "index, follow, noarchive, " + defaultTail}},
			headers: []string{"index, follow, noarchive"}},
		{desc: "nocache for all, noarchive for msnbot", source: bingNote + "; " + bingHelp + ": msnbot is Bing's other tag name", cfg: noDefs,
			item: Item{Path: "/a.pdf", Inputs: []Input{fm("robots", "nocache"), fm("msnbot", "noarchive")}},
			tags: []Tag{{"robots", "noarchive"}, {"googlebot", "noarchive"}, {"bingbot", "noarchive"}, {"msnbot", "noarchive"}}, headers: []string{"noarchive"}},
		{desc: "nocache for all, noarchive for bingbot, single style", source: bingNote + "; SPEC §5 tags: single",
			cfg: Config{Style: Single}, item: Item{Inputs: []Input{fm("robots", "nocache"), fm("bingbot", "noarchive")}},
			tags: []Tag{{"robots", "index, follow, noarchive, " + defaultTail}, {"bingbot", "index, follow, noarchive, " + defaultTail}}},
		{desc: "nocache for all, noarchive for googlebot stays apart", source: bingNote + " (only Bing reads the pair as nocache); " + googleDoc + ": noarchive and nocache unused",
			cfg: noDefs, item: Item{Path: "/a.pdf", Inputs: []Input{fm("robots", "nocache"), fm("googlebot", "noarchive")}},
			tags: []Tag{{"robots", "nocache"}, {"googlebot", "noarchive"}, {"bingbot", "nocache"}}, headers: []string{"nocache", "googlebot: noarchive"}},
		{desc: "fixed output order", source: "SPEC §4 fixed order; issue 2 order list", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after:2027-01-31, max-video-preview:10, max-image-preview:none, max-snippet:5, indexifembedded, notranslate, noimageindex, nocache, nofollow, noindex")},
			want: map[string]string{"robots": "noindex, nofollow, nocache, noimageindex, notranslate, indexifembedded, max-snippet:5, max-image-preview:none, max-video-preview:10, unavailable_after:2027-01-31T00:00:00Z"}},
		{desc: "noai and noimageai in the fixed order", source: "SPEC §4 (noai, noimageai known, advisory); rules: written after indexifembedded", cfg: noDefs,
			item: Item{Inputs: robots("noimageai, max-snippet:20, noai, indexifembedded, noindex")},
			want: map[string]string{"robots": "noindex, indexifembedded, noai, noimageai, max-snippet:20"}},
		{desc: "duplicates", source: "SPEC §4: values are de-duplicated", cfg: noDefs,
			item: Item{Inputs: robots("noindex, NOINDEX, noindex")}, want: map[string]string{"robots": "noindex"}},
		{desc: "empty list elements", source: "SPEC §4: values are trimmed", cfg: noDefs,
			item: Item{Inputs: robots("noindex,, ,nofollow,")}, want: map[string]string{"robots": "noindex, nofollow"}},
		{desc: "noodp is obsolete", source: bingHelp + "; SPEC §4 obsolete value is a warning, dropped", cfg: noDefs,
			item: Item{Inputs: robots("noodp, noindex")}, want: map[string]string{"robots": "noindex"}, warn: `content/blog/a.md:3: front matter robots: obsolete directive "noodp"`},
		{desc: "noydir is obsolete", source: "SPEC §4 names noydir obsolete", cfg: noDefs,
			item: Item{Inputs: robots("NOYDIR")}, want: map[string]string{"robots": ""}, warn: `obsolete directive "noydir"`},
		{desc: "nositelinkssearchbox is obsolete", source: googleDoc + ": listed as no longer used", cfg: noDefs,
			item: Item{Inputs: robots("nositelinkssearchbox")}, want: map[string]string{"robots": ""}, warn: "obsolete"},
		{desc: "typo in front matter fails closed", source: "SPEC §4: a misspelt restriction is an error naming its source and the value it resembles", cfg: noDefs,
			item: Item{Inputs: robots("no-index, follow")}, err: `content/blog/a.md:3: front matter robots: unknown directive "no-index" (did you mean "noindex"?)`},
		{desc: "typo in a rule fails closed", source: "SPEC §4; issue 14: robots: noindx, follow in a rule published 14 taxonomy pages", cfg: withRules(noDefs, rule(1, []string{"/tags/**"}, "robots", "noindx, follow")),
			item: Item{Path: "/tags/go/"}, newErr: true, err: `robotsmith.yaml:13: rule 1: unknown directive "noindx" (did you mean "noindex"?)`},
		{desc: "a theme's misspelt tag is a warning", source: "SPEC §4 and issue 14: the user did not write a theme's tag", cfg: noDefs,
			item: Item{Inputs: []Input{tag("robots", "noindx, nofollow")}}, want: map[string]string{"robots": "nofollow"}, warn: `public/a/index.html:7: tag <meta name="robots">: unknown directive "noindx" (did you mean "noindex"?); dropped`},
		{desc: "unknown value far from every known one", source: "SPEC §4: other unknown values are warnings, dropped", cfg: noDefs,
			item: Item{Inputs: robots("nopagereadaloud, noindex")}, want: map[string]string{"robots": "noindex"}, warn: `unknown directive "nopagereadaloud"; dropped`},
		{desc: "misspelt agent fails closed", source: "SPEC §4 example googlebto; issue 14: it wrote <meta name=\"googlebto\"> into 7 pages", cfg: noDefs,
			item: Item{Inputs: []Input{fm("googlebto", "max-snippet:160")}}, err: `unknown crawler name "googlebto" (did you mean "googlebot"?)`},
		{desc: "misspelt agent, one letter added", source: "SPEC §4 example bingbott", cfg: noDefs,
			item: Item{Inputs: []Input{fm("bingbott", "noindex")}}, err: `unknown crawler name "bingbott" (did you mean "bingbot"?)`},
		{desc: "misspelt agent, two letters swapped", source: "SPEC §4 example gooblebot-news", cfg: noDefs,
			item: Item{Inputs: []Input{fm("gooblebot-news", "nosnippet")}}, err: `(did you mean "googlebot-news"?)`},
		{desc: "misspelt agent in upper case", source: "SPEC §4: agent names are case-insensitive", cfg: noDefs,
			item: Item{Inputs: []Input{fm("GoogleBto", "nosnippet")}}, err: `unknown crawler name "googlebto"`},
		{desc: "agent with a Cyrillic lookalike", source: "SPEC §4: a name holding characters outside ASCII is an error", cfg: noDefs,
			item: Item{Inputs: []Input{fm("gоoglebot", "nosnippet")}}, err: `crawler name "gоoglebot" holds characters outside ASCII (did you mean "googlebot"?)`},
		{desc: "a legitimately unknown agent is accepted", source: "SPEC §4: otherbot is fine", cfg: noDefs,
			item: Item{Inputs: []Input{fm("otherbot", "noindex")}}, want: map[string]string{"robots": "", "otherbot": "noindex"}},
		{desc: "a short name two edits from short tokens is accepted", source: "crawlers.Resembles: tokens of six letters or fewer count at one edit only (mybot vs CCBot, msnbot)", cfg: noDefs,
			item: Item{Inputs: []Input{fm("mybot", "noindex")}}, want: map[string]string{"robots": "", "mybot": "noindex"}},
		{desc: "an AI crawler token from the catalogue is well known", source: "SPEC §4 names any crawler token; the crawler catalogue lists ClaudeBot", cfg: noDefs,
			item: Item{Inputs: []Input{fm("ClaudeBot", "noindex")}}, want: map[string]string{"robots": "", "claudebot": "noindex"}},
		{desc: "a misspelt catalogue token fails closed", source: "SPEC §4; the crawler catalogue lists ClaudeBot", cfg: noDefs,
			item: Item{Inputs: []Input{fm("claudebto", "noindex")}}, err: `unknown crawler name "claudebto" (did you mean "claudebot"?)`},
		{desc: "robot for robots fails closed", source: "SPEC §4: a rule's keys name agents; robots is all of them", cfg: noDefs,
			item: Item{Inputs: []Input{fm("robot", "noindex")}}, err: `unknown crawler name "robot" (did you mean "robots"?)`},
		{desc: "misspelt agent in a rule fails New", source: "SPEC §4; issue 14", cfg: withRules(noDefs, rule(1, []string{"/docs/**"}, "googlebto", "max-snippet:160")),
			item: Item{Path: "/docs/"}, newErr: true, err: `robotsmith.yaml:13: rule 1: unknown crawler name "googlebto" (did you mean "googlebot"?)`},
		{desc: "max-snippet:abc is malformed", source: "SPEC §4: max-snippet:abc is an error", cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:abc, noindex")}, want: map[string]string{"robots": ""}, err: `content/blog/a.md:3: front matter robots: malformed directive: max-snippet: "abc"`},
		{desc: "max-image-preview:huge is malformed", source: "issue 2: max-image-preview:huge is an error", cfg: noDefs,
			item: Item{Inputs: robots("max-image-preview:huge")}, err: `front matter robots: "max-image-preview:huge": malformed directive: max-image-preview: its value is not none, standard or large`},
		{desc: "bad date is malformed", source: "SPEC §4: a bad date is an error", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: someday")}, err: "unavailable_after"},
		{desc: "max-snippet below -1", source: googleDoc + ": -1 is the only negative value", cfg: noDefs,
			item: Item{Inputs: robots("max-snippet:-2")}, err: "is not an integer from -1"},
		{desc: "max-video-preview without number", source: googleDoc + ": max-video-preview:[number]", cfg: noDefs,
			item: Item{Inputs: robots("max-video-preview")}, err: "needs a number"},
		{desc: "flag with a value", source: googleDoc + ": noindex takes no value", cfg: noDefs,
			item: Item{Inputs: robots("noindex:yes")}, err: "takes no value"},
		{desc: "unknown time zone", source: rfc822 + ": zones are UT, GMT, EST..PDT or numeric", cfg: noDefs,
			item: Item{Inputs: robots("unavailable_after: 25 Jun 2010 15:00:00 XYZ")}, err: `"unavailable_after: 25 Jun 2010 15:00:00 XYZ": malformed directive: unavailable_after: the date's last word is not a time zone`},
		{desc: "bad agent name", source: "SPEC §3: any agent name as a key (a name, not a phrase)", cfg: noDefs,
			item: Item{Inputs: []Input{fm("google bot", "noindex")}}, err: "not an agent name"},

		// ---- merging and provenance (SPEC §3, §4) ----
		{desc: "rule noindex beats front matter index", source: "SPEC §4: the most restrictive value wins; issue 2: regardless of source priority",
			cfg:  withRules(Config{}, rule(1, []string{"/blog/**"}, "robots", "noindex")),
			item: Item{Path: "/blog/a/", Inputs: robots("index")}, want: map[string]string{"robots": "noindex, follow"}, class: "noindex",
			srcs: map[string]string{"robots noindex": "rule 1 at robotsmith.yaml:13", "robots follow": "default"}},
		{desc: "same value: front matter wins provenance over default", source: "SPEC §3 priority order; issue 2: highest Kind wins the provenance",
			item: Item{Inputs: robots("index")}, want: map[string]string{"robots": "index, follow"},
			srcs: map[string]string{"robots index": "front matter robots at content/blog/a.md:3", "robots follow": "default"}},
		{desc: "same value, same kind: first input wins provenance", source: "issue 2: on a tie of Kind the first input wins", cfg: noDefs,
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noindex", Source: fmSrc}, {Agent: "robots", Value: "noindex", Source: fmSrc2}}},
			srcs: map[string]string{"robots noindex": "front matter robots at content/blog/a.md:3"}},
		{desc: "page tag outranks front matter for provenance", source: "SPEC §3.4 / issue 2 Kind order: page tag after front matter",
			cfg: noDefs, item: Item{Inputs: []Input{tag("robots", "noindex"), fm("robots", "noindex")}},
			srcs: map[string]string{"robots noindex": `tag <meta name="robots"> at public/a/index.html:7`}},
		{desc: "cascade source", source: "SPEC §3.3: cascade from which _index.md", cfg: noDefs,
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noarchive", Source: cascSrc}}},
			srcs: map[string]string{"robots noarchive": "cascade from content/blog/_index.md:5"}},
		{desc: "the page's own key replaces the cascade's", source: "SPEC §3.3: a robots key the page's own front matter sets replaces the inherited value of the same key",
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noindex", Source: cascSrc, ReplacedBy: &fmSrc}, fm("robots", "index, follow")}},
			want: map[string]string{"robots": "index, follow"}, class: "public",
			srcs:     map[string]string{"robots index": "front matter robots at content/blog/a.md:3"},
			replaced: []string{"robots: noindex  cascade from content/blog/_index.md:5; replaced by front matter robots at content/blog/a.md:3"}},
		{desc: "a replaced value that says several things", source: "SPEC §3.3; SPEC §4: none means noindex, nofollow", cfg: noDefs,
			item: Item{Inputs: []Input{{Agent: "googlebot", Value: "None, max-snippet:5", Source: jekyllDefSrc, ReplacedBy: &fmSrc2}}},
			want: map[string]string{"robots": ""}, class: "public",
			replaced: []string{"googlebot: noindex, nofollow, max-snippet:5  front matter defaults at _config.yml:8; replaced by front matter noindex at content/blog/a.md:5"}},
		{desc: "a replaced value is not merged, every other source is", source: "SPEC §3.3: every other source (rules, theme tags, previews) is merged as §4 says",
			cfg: withRules(Config{}, rule(1, []string{"/**"}, "robots", "nofollow")),
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noindex, noarchive", Source: cascSrc, ReplacedBy: &fmSrc}, fm("robots", "index"),
				tag("robots", "nosnippet"), {Agent: "robots", Value: "noindex", Source: envSrc}}},
			want: map[string]string{"robots": "noindex, nofollow, nosnippet"},
			srcs: map[string]string{"robots noindex": "environment CONTEXT=deploy-preview", "robots nofollow": "rule 1 at robotsmith.yaml:13"}},
		{desc: "a replaced value's problems are still reported", source: "SPEC §4: a misspelt restriction fails closed, wherever it is written",
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noindx", Source: cascSrc, ReplacedBy: &fmSrc}}}, err: `cascade: "noindx"`},
		{desc: "nothing replaced", source: "SPEC §3.3", item: Item{Inputs: robots("noindex")}, noneRepl: true},
		{desc: "sum of the negative rules", source: googleSum, cfg: noDefs,
			item: Item{Inputs: []Input{tag("robots", "nofollow"), tag("googlebot", "noindex")}},
			want: map[string]string{"robots": "nofollow", "googlebot": "noindex, nofollow"}, class: "public"},
		{desc: "per-agent map from front matter", source: "SPEC §3 front matter map; SPEC §4 additive per agent", cfg: noDefs,
			item: Item{Inputs: []Input{fm("robots", "noarchive"), fm("googlebot-news", "nosnippet")}},
			want: map[string]string{"robots": "noarchive", "googlebot-news": "noarchive, nosnippet"}, agents: []string{"robots", "googlebot-news"}},
		{desc: "agent order", source: "issue 2: robots first, then googlebot, bingbot, then others alphabetically",
			item:   Item{Inputs: []Input{fm("yandex", "noarchive"), fm("BINGBOT", "nosnippet"), fm("applebot", "noarchive")}},
			agents: []string{"robots", "googlebot", "bingbot", "applebot", "yandex"}},
		{desc: "preview environment makes noindex", source: "SPEC §3.5: previews: noindex",
			item: Item{Inputs: []Input{{Agent: "robots", Value: "noindex", Source: envSrc}}}, class: "noindex",
			tags: []Tag{{"robots", "noindex, follow"}}, srcs: map[string]string{"robots noindex": "environment CONTEXT=deploy-preview"}},
		{desc: "every matching rule applies in order", source: "SPEC §2: rules in order; every matching rule applies",
			cfg:  withRules(Config{}, rule(1, []string{"/docs/**"}, "robots", "noarchive"), rule(2, []string{"/docs/old/**"}, "robots", "noindex, nofollow")),
			item: Item{Path: "/docs/old/a/"}, want: map[string]string{"robots": "noindex, nofollow, noarchive"}},
		{desc: "a rule that does not match", source: "SPEC §2: rules match URL paths with globs",
			cfg:  withRules(Config{}, rule(1, []string{"/tags/**"}, "robots", "noindex")),
			item: Item{Path: "/blog/a/"}, want: map[string]string{"robots": "index, follow"}, isDefault: &yes},
		{desc: "/drafts/** matches /drafts/", source: "SPEC §2: /drafts/** matches /drafts/ itself",
			cfg:  withRules(Config{}, rule(1, []string{"/drafts/**"}, "robots", "noindex")),
			item: Item{Path: "/drafts/"}, class: "noindex"},
		{desc: "* stays inside a segment", source: "SPEC §2: * stays inside one segment",
			cfg:  withRules(Config{}, rule(1, []string{"/blog/*"}, "robots", "noindex")),
			item: Item{Path: "/blog/2024/post/"}, class: "public"},
		{desc: "* matches the page segment", source: "SPEC §2: URL paths as served (posts/a/index.html is /posts/a/)",
			cfg:  withRules(Config{}, rule(1, []string{"/blog/*"}, "robots", "noindex")),
			item: Item{Path: "/blog/post/"}, class: "noindex"},
		{desc: "** crosses segments for assets", source: "SPEC §2 example /**/*.pdf",
			cfg:  withRules(Config{}, rule(1, []string{"/**/*.pdf"}, "robots", "noindex")),
			item: Item{Path: "/files/2024/x.pdf", Asset: true}, headers: []string{"noindex, follow"}, isDefault: &no},
		{desc: "rule for a named agent", source: "SPEC §2: any agent name as a key",
			cfg:  withRules(Config{}, rule(1, []string{"/**"}, "googlebot-news", "noindex")),
			item: Item{Path: "/a/"}, want: map[string]string{"googlebot-news": "noindex, follow"}},

		// ---- forms (SPEC §5) ----
		{desc: "public page, three tags", source: "SPEC §5 public page example; SPEC §3.1 defaults",
			item: Item{Path: "/blog/a/"}, class: "public",
			tags: []Tag{{"robots", "index, follow"}, {"googlebot", "index, follow, " + defaultTail}, {"bingbot", "index, follow, " + defaultTail}}},
		{desc: "non-public page, noindex only", source: "SPEC §5: only <meta name=robots content=\"noindex, follow\">",
			item: Item{Inputs: robots("noindex")}, class: "noindex", tags: []Tag{{"robots", "noindex, follow"}}},
		{desc: "non-public page keeps its values", source: "SPEC §5: with nofollow and the page's other values where set",
			item: Item{Inputs: []Input{fm("robots", "noarchive, none"), fm("googlebot", "nosnippet")}}, class: "noindex",
			tags: []Tag{{"robots", "noindex, nofollow, noarchive"}}},
		{desc: "single style", source: "SPEC §5 tags: single; robots-meta-anchors (b) Yoast's current output",
			cfg: Config{Style: Single}, class: "public", tags: []Tag{{"robots", "index, follow, " + defaultTail}}},
		{desc: "single style with a googlebot value", source: "issue 2: an agent gets its own tag only when a non-default source gives it values",
			cfg: Config{Style: Single}, item: Item{Inputs: []Input{fm("googlebot", "max-snippet:50")}},
			tags: []Tag{{"robots", "index, follow, " + defaultTail}, {"googlebot", "index, follow, max-snippet:50, max-image-preview:large, max-video-preview:-1"}}},
		{desc: "single style, robots value only", source: "SPEC §5 single form; SPEC §4 additive",
			cfg: Config{Style: Single}, item: Item{Inputs: robots("max-image-preview:standard")},
			tags: []Tag{{"robots", "index, follow, max-snippet:-1, max-image-preview:standard, max-video-preview:-1"}}},
		{desc: "three tags plus other named agent", source: "SPEC §5: plus one tag for every other agent that a rule or the front matter names",
			item: Item{Inputs: []Input{fm("googlebot-news", "nosnippet")}},
			tags: []Tag{{"robots", "index, follow"}, {"googlebot", "index, follow, " + defaultTail}, {"bingbot", "index, follow, " + defaultTail}, {"googlebot-news", "index, follow, nosnippet"}}},
		{desc: "404 is an error page", source: "SPEC §5 error page: no robots tag at all; robots-meta-anchors finding 2",
			item: Item{Path: "/404.html", Inputs: robots("noindex")}, class: "error page", clear: true, headers: []string{}},
		{desc: "nested 404 is an error page", source: "SPEC §5 error pages **/404.html",
			item: Item{Path: "/fr/404.html"}, class: "error page", clear: true},
		{desc: "50x is an error page", source: "SPEC §5 error pages 50x.html",
			item: Item{Path: "/50x.html"}, class: "error page", clear: true},
		{desc: "an asset named 404.html is not an error page", source: "issue 2: error-page globs do not apply to assets",
			item: Item{Path: "/404.html", Asset: true}, class: "public"},
		{desc: "configured error pages replace the defaults", source: "SPEC §2 error_pages is configurable",
			cfg: Config{ErrorPages: []string{"/oops/**"}}, item: Item{Path: "/oops/"}, class: "error page", clear: true},
		{desc: "an error page glob over the URL a host serves a .html page at", source: "SPEC §2 URL paths as served: Netlify, Cloudflare Pages and GitHub Pages serve 404.html at /404 too, the URL Jekyll gives a page with permalink: /404",
			cfg: Config{ErrorPages: []string{"/404", "/**/500"}}, item: Item{Path: "/404.html"}, class: "error page", clear: true},
		{desc: "an error page glob over the served URL, nested", source: "SPEC §2 URL paths as served, as above",
			cfg: Config{ErrorPages: []string{"/404", "/**/500"}}, item: Item{Path: "/fr/500.html"}, class: "error page", clear: true},
		{desc: "an error page glob over the served URL matches no other page", source: "SPEC §2 URL paths as served, as above",
			cfg: Config{ErrorPages: []string{"/404", "/**/500"}}, item: Item{Path: "/404.htm"}, class: "public"},
		{desc: "404 is public with other error pages", source: "SPEC §2 error_pages replaces the list",
			cfg: Config{ErrorPages: []string{"/oops/**"}}, item: Item{Path: "/404.html"}, class: "public"},
		{desc: "redirect stub", source: "SPEC §5 redirect stub: no robots tag; gohugoio/hugo#13951",
			item: Item{Path: "/old/", Redirect: true, Inputs: robots("noindex")}, class: "redirect", clear: true},
		{desc: "config agents are listed for rewrite", source: "issue 2: Directives.Agents lists every agent name the config's rules mention",
			cfg:  withRules(Config{}, rule(1, []string{"/x/**"}, "otherbot", "noindex")),
			item: Item{Path: "/a/"}, dirAgents: []string{"otherbot"}},
		{desc: "empty defaults and nothing else clear the page", source: "SPEC §3.1 defaults replaced by config; a tag needs content",
			cfg: noDefs, class: "public", clear: true},

		// ---- headers (SPEC §6) ----
		{desc: "SPEC header example", source: "SPEC §6 _headers example",
			cfg:  withRules(Config{}, rule(1, []string{"/files/**"}, "robots", "noindex, nofollow", "googlebot", "nosnippet")),
			item: Item{Path: "/files/report.pdf", Asset: true}, headers: []string{"noindex, nofollow", "googlebot: nosnippet"}},
		{desc: "default file needs no headers", source: "SPEC §6: for every non-HTML file whose directives differ from the default",
			item: Item{Path: "/img/a.png", Asset: true}, isDefault: &yes, headers: []string{"index, follow"}},
		{desc: "agent line only what it adds", source: "SPEC §6; hosts-headers §3: generic line first, agent lines after",
			cfg:  withRules(Config{}, rule(1, []string{"/**/*.pdf"}, "robots", "max-snippet:20", "googlebot", "max-snippet:10", "bingbot", "max-snippet:50")),
			item: Item{Path: "/a.pdf", Asset: true}, headers: []string{"index, follow, max-snippet:20", "googlebot: max-snippet:10"}},
		{desc: "other agent header line", source: "SPEC §6: one line per agent; hosts-headers §3 (otherbot example)",
			cfg:  withRules(Config{}, rule(1, []string{"/**/*.pdf"}, "otherbot", "noindex, nofollow")),
			item: Item{Path: "/a.pdf", Asset: true}, headers: []string{"index, follow", "otherbot: noindex, nofollow"}},
	}
}

func TestDecideTable(t *testing.T) {
	cases := decideCases()
	if len(cases) < 60 {
		t.Fatalf("table has %d cases, want at least 60", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			if tc.source == "" {
				t.Fatal("case cites no source")
			}
			r, err := New(tc.cfg)
			if err != nil {
				if tc.newErr {
					checkErr(t, err, tc.err)
					return
				}
				t.Fatalf("New: %v", err)
			}
			if tc.newErr {
				t.Fatalf("New: no error, want one containing %q", tc.err)
			}
			it := tc.item
			if it.Path == "" {
				it.Path = "/p/"
			}
			d, warns, err := r.Decide(it)
			checkErr(t, err, tc.err)
			checkWarn(t, warns, tc.warn)
			for agent, want := range tc.want {
				a, ok := d.Agent(agent)
				if !ok {
					t.Errorf("agent %q missing; agents %v", agent, names(d))
					continue
				}
				if got := a.Content(); got != want {
					t.Errorf("%s content: got %q, want %q", agent, got, want)
				}
			}
			if tc.agents != nil {
				if got := names(d); !reflect.DeepEqual(got, tc.agents) {
					t.Errorf("agents: got %v, want %v", got, tc.agents)
				}
			}
			if tc.class != "" && d.Class.String() != tc.class {
				t.Errorf("class: got %q, want %q", d.Class, tc.class)
			}
			dir := d.Directives()
			if tc.tags != nil || tc.clear {
				if !reflect.DeepEqual(dir.Tags, tc.tags) || dir.Clear != tc.clear {
					t.Errorf("directives: got tags %q clear %v, want tags %q clear %v", dir.Tags, dir.Clear, tc.tags, tc.clear)
				}
			}
			if tc.dirAgents != nil && !reflect.DeepEqual(dir.Agents, tc.dirAgents) {
				t.Errorf("directives agents: got %v, want %v", dir.Agents, tc.dirAgents)
			}
			if tc.headers != nil {
				var got []string
				for _, l := range d.HeaderLines() {
					got = append(got, l.String())
				}
				if len(got) != 0 || len(tc.headers) != 0 {
					if !reflect.DeepEqual(got, tc.headers) {
						t.Errorf("header lines: got %q, want %q", got, tc.headers)
					}
				}
			}
			if tc.isDefault != nil && d.IsDefault() != *tc.isDefault {
				t.Errorf("IsDefault: got %v, want %v", d.IsDefault(), *tc.isDefault)
			}
			if tc.replaced != nil || tc.noneRepl {
				var got []string
				for _, r := range d.Replaced {
					got = append(got, r.String())
				}
				if !reflect.DeepEqual(got, tc.replaced) {
					t.Errorf("replaced: got %q, want %q", got, tc.replaced)
				}
			}
			for key, want := range tc.srcs {
				agent, token, _ := strings.Cut(key, " ")
				got, ok := sourceOf(d, agent, token)
				if !ok {
					t.Errorf("%s: no value %q", agent, token)
				} else if got != want {
					t.Errorf("source of %s: got %q, want %q", key, got, want)
				}
			}
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Errorf("got no error, want one containing %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("error: got %q, want it to contain %q", err, want)
	case want != "":
		var e *Error
		if !errors.As(err, &e) || !(errors.Is(err, ErrMalformed) || errors.Is(err, ErrMisspelt)) {
			t.Errorf("error %v: want an *Error wrapping ErrMalformed or ErrMisspelt", err)
		}
	}
}

func checkWarn(t *testing.T, warns []Warning, want string) {
	t.Helper()
	if want == "" {
		if len(warns) > 0 {
			t.Errorf("unexpected warnings: %v", warns)
		}
		return
	}
	for _, w := range warns {
		if strings.Contains(w.String(), want) {
			return
		}
	}
	t.Errorf("warnings: got %v, want one containing %q", warns, want)
}

func names(d Decision) []string {
	var ns []string
	for _, a := range d.Agents {
		ns = append(ns, a.Name)
	}
	return ns
}

func sourceOf(d Decision, agent, token string) (string, bool) {
	a, ok := d.Agent(agent)
	if !ok {
		return "", false
	}
	for _, v := range a.Values {
		if v.Token == token {
			return v.Source.String(), true
		}
	}
	return "", false
}
