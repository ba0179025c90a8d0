package indexability

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
)

// Format and Version are what the header line says. Version changes when a field changes meaning
// or a field is added: a reader refuses a record of another version rather than compare what it
// cannot read.
const (
	Format  = "robotsmith-indexability"
	Version = 1
)

// Header is the file's first line.
type Header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// Class is what a URL serves, in the words explain uses.
type Class string

// The classes. A search engine indexes Public pages and Files (and Skipped .html files, which it
// reads as any other) unless their directives or robots.txt say otherwise; error pages are served
// with an error status and redirect stubs send it on, so neither is indexed as itself.
const (
	Public    Class = "public"     // an HTML page given the public tags
	Noindex   Class = "noindex"    // an HTML page noindex for every crawler
	ErrorPage Class = "error page" // a 4xx or 5xx page: no robots tag
	Redirect  Class = "redirect"   // a redirect stub (an alias): no robots tag
	File      Class = "file"       // any other file: its directives go in X-Robots-Tag
	Skipped   Class = "skipped"    // an .html file that is no HTML document, left alone
)

// Known reports whether c is one of the classes.
func (c Class) Known() bool {
	switch c {
	case Public, Noindex, ErrorPage, Redirect, File, Skipped:
		return true
	}
	return false
}

// Source is where a value comes from: Text as explain gives it ("rule 2 at robotsmith.yaml:14",
// "front matter robots at content/blog/a.md:3", "default", "public/robots.txt:5: Disallow: /docs/"),
// and its File and Line apart for tools that link to it. File is relative to the site's root; ""
// (and Line 0) for a source without one, such as the built-in defaults or the environment, and
// then left out of the JSON, as Line is when it is not known.
type Source struct {
	Text string `json:"text"`
	File string `json:"file,omitzero"`
	Line int    `json:"line,omitzero"`
}

// String is Text.
func (s Source) String() string { return s.Text }

// Value is a value and its source.
type Value struct {
	Value  string `json:"value"`
	Source Source `json:"source"`
}

// Record is one URL: everything a crawler is told about it once build is done. In JSON, a value
// that is not there (a source where no line decided, a canonical link a page does not have, an AI
// preference the site does not state) is left out, and a list is [] when empty: most URLs are told
// the defaults, and the record of a site of 100,000 URLs is read on every pull request.
type Record struct {
	// URL is the URL path as served ("/blog/a/", "/files/x.pdf"), not percent-encoded, without the
	// base URL's path: the sort key.
	URL    string `json:"url"`
	File   string `json:"file"`   // the output file, a slash path relative to the output folder
	Source string `json:"source"` // the source page, relative to the site's root; "" for none
	// Home marks the site's home page and each language's: diff's --fail-on home watches them
	// (and "/" whether marked or not).
	Home  bool  `json:"home"`
	Class Class `json:"class"`
	// Agents are the effective directives per crawler, as rules decides them: "robots" (every
	// crawler) first, then googlebot, bingbot, then the others the site names, alphabetically. An
	// agent's directives include those of robots (merging is additive); a crawler not listed gets
	// robots's.
	Agents []Agent `json:"agents"`
	// Sitemaps are the sitemap entries that list the URL once build has pruned them
	// ("public/sitemap.xml:12"); none when no sitemap lists it.
	Sitemaps  []Source  `json:"sitemaps"`
	RobotsTxt RobotsTxt `json:"robots_txt"`
	Canonical Canonical `json:"canonical,omitzero"` // left out when the page has none
	AI        AI        `json:"ai,omitzero"`
	// XRobotsTag are the X-Robots-Tag lines a host sends for the URL (_headers or the configured
	// host's file), in the order written: "noindex, nofollow", "googlebot: nosnippet".
	XRobotsTag []Value `json:"x_robots_tag"`
}

// Agent is one crawler's directives: Directives in SPEC §4's fixed order, joined with ", ", and
// which source won which of them.
type Agent struct {
	Name       string `json:"name"`       // lower case: "robots", "googlebot", "otherbot"
	Directives string `json:"directives"` // "noindex, follow, max-snippet:50"
	From       []From `json:"from"`       // every directive once, grouped by the source that won it
}

// From is the directives one source won for an agent.
type From struct {
	Directives string `json:"directives"` // "noindex" or "index, follow"
	Source     Source `json:"source"`
}

// The crawlers and AI categories whose robots.txt verdict the record holds.
const (
	Googlebot = "googlebot"
	Bingbot   = "bingbot"
	Training  = "training"
	AISearch  = "ai-search"
	AIInput   = "ai-input"
)

// SearchEngines are the crawlers whose index Index answers for.
var SearchEngines = [...]string{Googlebot, Bingbot}

// RobotsTxt is what robots.txt (with robotsmith's block) lets each crawler or category fetch.
type RobotsTxt struct {
	Googlebot Crawl `json:"googlebot"`
	Bingbot   Crawl `json:"bingbot"`
	// The AI categories: the crawlers robotsmith's catalogue lists with that purpose.
	Training Crawl `json:"training"`
	AISearch Crawl `json:"ai_search"`
	AIInput  Crawl `json:"ai_input"`
}

// Of is the verdict for a crawler or category named as the constants above name it; nil for any
// other name.
func (r *RobotsTxt) Of(who string) *Crawl {
	switch who {
	case Googlebot:
		return &r.Googlebot
	case Bingbot:
		return &r.Bingbot
	case Training:
		return &r.Training
	case AISearch:
		return &r.AISearch
	case AIInput:
		return &r.AIInput
	}
	return nil
}

// Crawlers are the names Of takes, in the order diff lists them.
var Crawlers = [...]string{Googlebot, Bingbot, Training, AISearch, AIInput}

// Crawl is robots.txt's verdict for one crawler (Crawlers is 1) or the crawlers of a category.
type Crawl struct {
	Crawlers int `json:"crawlers"` // how many crawlers the verdict is for
	Blocked  int `json:"blocked"`  // how many of them robots.txt keeps from the URL
	// Source is the line that decided (for a category, the first blocked crawler's, else the first
	// crawler's): "public/robots.txt:5: Disallow: /docs/"; empty when no line matched (allowed).
	Source Source `json:"source,omitzero"`
}

// Allowed reports whether every crawler of the verdict may fetch the URL.
func (c Crawl) Allowed() bool { return c.Blocked == 0 }

// String is "may crawl", "may not crawl", or "3 of 21 may not crawl".
func (c Crawl) String() string {
	switch {
	case c.Blocked == 0:
		return "may crawl"
	case c.Blocked >= c.Crawlers && c.Crawlers <= 1:
		return "may not crawl"
	}
	return strconv.Itoa(c.Blocked) + " of " + strconv.Itoa(c.Crawlers) + " may not crawl"
}

// Canonical is the page's <link rel="canonical">, resolved.
type Canonical struct {
	Href string `json:"href"` // as written; "" when the page has none
	// URL is where it points: for a URL of the site, the url of the record of the file that serves
	// it (the page's own url for a self-canonical); for another site, the absolute URL; "" when
	// there is none or it does not resolve.
	URL string `json:"url"`
	// Status is what it points at, as explain says it: indexable, noindex, error page, redirect,
	// file, no file, other site, unresolvable; "" when there is none.
	Status string `json:"status"`
	Source Source `json:"source"` // the link's line in the page
}

// AI is what the site tells AI crawlers about the URL's content, beyond robots.txt's verdicts and
// the noai, noimageai directives.
type AI struct {
	// Header is the Content-Usage HTTP header a host sends for it (the ai policy, through
	// _headers or the host's file).
	Header Value `json:"header,omitzero"`
	// ContentUsage and ContentSignal are the robots.txt preferences for the URL that crawlers
	// without a group of their own read (the "*" groups).
	ContentUsage  Value `json:"content_usage,omitzero"`
	ContentSignal Value `json:"content_signal,omitzero"`
}

// Agent is the entry for the crawler name (lower case), or nil when the record lists none for it.
func (r *Record) Agent(name string) *Agent {
	for i := range r.Agents {
		if r.Agents[i].Name == name {
			return &r.Agents[i]
		}
	}
	return nil
}

// Directives are the crawler's effective directives: its own entry's, else robots's (a crawler the
// site does not name gets what every crawler gets).
func (r *Record) Directives(agent string) string {
	if a := r.Agent(agent); a != nil {
		return a.Directives
	}
	if a := r.Agent("robots"); a != nil {
		return a.Directives
	}
	return ""
}

// Noindex reports whether the crawler is told not to index the URL.
func (r *Record) Noindex(agent string) bool {
	return HasToken(r.Directives(agent), "noindex")
}

// Listed reports whether a sitemap lists the URL.
func (r *Record) Listed() bool { return len(r.Sitemaps) > 0 }

// IsHome reports whether the URL is a home page: marked so, or "/".
func (r *Record) IsHome() bool { return r.Home || r.URL == "/" }

// Why is why a URL is not in a search engine's index; "" when it is.
type Why string

// The reasons, in the order Index checks them.
const (
	InIndex      Why = ""
	OutClass     Why = "class"      // an error page or a redirect stub: not indexed as itself
	OutNoindex   Why = "noindex"    // its directives say noindex for that crawler
	OutRobotsTxt Why = "robots.txt" // robots.txt keeps the crawler from it, which then never reads its content
	OutCanonical Why = "canonical"  // its canonical names another URL, which is indexed in its place
)

// Index is whether the search engine (Googlebot or Bingbot) indexes the URL as itself, and if not,
// why: its class, its directives, robots.txt, or a canonical link to another URL (of this site or
// another; one that does not resolve is ignored, as search engines ignore it). A page that robots.txt
// blocks may still be listed by its URL alone ("Indexed, though blocked by robots.txt"), without its
// content: for a site's search traffic it is out.
func (r *Record) Index(engine string) Why {
	switch {
	case r.Class == ErrorPage || r.Class == Redirect:
		return OutClass
	case r.Noindex(engine):
		return OutNoindex
	}
	if c := r.RobotsTxt.Of(engine); c != nil && !c.Allowed() {
		return OutRobotsTxt
	}
	if r.Canonical.URL != "" && r.Canonical.URL != r.URL {
		return OutCanonical
	}
	return InIndex
}

// Indexed reports whether some search engine indexes the URL as itself.
func (r *Record) Indexed() bool {
	for _, e := range SearchEngines {
		if r.Index(e) == InIndex {
			return true
		}
	}
	return false
}

// Tokens splits directives as Agent.Directives writes them ("noindex, max-snippet:50").
func Tokens(directives string) []string {
	var out []string
	for t := range strings.SplitSeq(directives, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// HasToken reports whether directives hold the directive tok (lower case, no value).
func HasToken(directives, tok string) bool {
	for t := range strings.SplitSeq(directives, ",") {
		if strings.TrimSpace(t) == tok {
			return true
		}
	}
	return false
}

// SourceOf is the source that won the directive tok for the agent (its own entry's, else
// robots's), or the zero Source.
func (r *Record) SourceOf(agent, tok string) Source {
	a := r.Agent(agent)
	if a == nil {
		a = r.Agent("robots")
	}
	if a == nil {
		return Source{}
	}
	for _, f := range a.From {
		for t := range strings.SplitSeq(f.Directives, ",") {
			if strings.TrimSpace(t) == tok {
				return f.Source
			}
		}
	}
	return Source{}
}

// ErrOrder is wrapped by the error for a record whose URL is not after the one before it: diff
// reads two records side by side in URL order, and a URL out of place would read as removed from
// one and added to the other.
var ErrOrder = errors.New("not in URL order")

// check is what Writer and Reader both require of a record, so that a record is never written that
// the reader refuses: an absolute URL path in order, a known class, and for pages and files
// directives for every crawler that agree with the class. A page whose record lost its directives
// would otherwise read as public.
func (r *Record) check(prev string, first bool) error {
	switch {
	case r.URL == "" || r.URL[0] != '/':
		return fmt.Errorf("url %s is not a URL path beginning with /", excerpt.Quote(r.URL))
	case !first && r.URL <= prev:
		if r.URL == prev {
			return fmt.Errorf("url %s: %w: given twice", excerpt.Quote(r.URL), ErrOrder)
		}
		return fmt.Errorf("url %s: %w: after %s", excerpt.Quote(r.URL), ErrOrder, excerpt.Quote(prev))
	case !r.Class.Known():
		return fmt.Errorf("url %s: unknown class %s", excerpt.Quote(r.URL), excerpt.Quote(string(r.Class)))
	}
	robots := r.Agent("robots")
	if robots == nil && r.Class != Public && r.Class != Noindex && r.Class != File {
		return nil // an error page, a redirect, an .html file left alone: no tag is written
	}
	switch {
	case robots == nil:
		return fmt.Errorf("url %s: no directives for robots (every crawler)", excerpt.Quote(r.URL))
	case r.Class == Public && HasToken(robots.Directives, "noindex"):
		return fmt.Errorf("url %s: class public, but robots has noindex", excerpt.Quote(r.URL))
	case r.Class == Noindex && !HasToken(robots.Directives, "noindex"):
		return fmt.Errorf("url %s: class noindex, but robots has no noindex", excerpt.Quote(r.URL))
	}
	return nil
}
