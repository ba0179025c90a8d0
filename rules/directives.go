package rules

import (
	"strings"

	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/internal/suggest"
)

// Tag is one robots meta tag as rewrite writes it: <meta name="Name" content="Content">.
type Tag struct {
	Name    string // lower-case meta name: "robots", "googlebot", "googlebot-news", ...
	Content string // resolved directives, lower case, joined with ", "
}

// Directives is what rewrite does to one page.
//
// The zero value leaves the page byte-identical. Non-empty Tags replace every
// robots-family tag in the page (and robotsmith's previous block) with one
// robotsmith block holding Tags in order. Clear with no Tags removes them all
// and writes no block (error pages, redirect stubs).
type Directives struct {
	Tags  []Tag
	Clear bool
	// Agents names robots-family meta names beyond KnownAgents (agents that the
	// config's rules name), so that rewrite also removes tags that carry them.
	Agents []string
}

// Touches reports whether d changes a page at all.
func (d Directives) Touches() bool { return len(d.Tags) > 0 || d.Clear }

// metaAgents are the meta names rewrite treats as robots-family tags: the
// generic "robots" and the crawler names that Google and Bing document for the
// robots meta tag, plus widely used crawlers' names. Order matters only for a
// "did you mean" between equally near names: the most used come first.
func metaAgents() []string {
	return []string{
		"robots",
		"googlebot",      // Google: robots meta tag documentation
		"googlebot-news", // Google: robots meta tag documentation
		"bingbot",        // Bing help: which robots metatags Bing supports
		"msnbot",         // Bing help, likewise
		"googlebot-image",
		"googlebot-video",
		"google-extended",
		"adsbot-google",
		"bingpreview",
		"slurp",
		"duckduckbot",
		"yandex",
		"yandexbot",
		"baiduspider",
		"applebot",
		"seznambot",
		"naverbot",
		"yeti",
		"archive.org_bot",
		"ia_archiver",
		"gptbot",
		"ccbot",
	}
}

// knownAgent reports whether a lower-case name is one of metaAgents.
func knownAgent(name string) bool {
	for _, a := range metaAgents() {
		if a == name {
			return true
		}
	}
	return false
}

// checkAgent fails closed on an agent name (lower case) that looks like a
// misspelt well-known crawler token (googlebto, bingbott, gooblebot-news; the
// crawler catalogue's tokens, by crawlers.Catalogue.Resembles), or like
// "robots" itself, or that holds characters outside ASCII (a robots.txt
// product token never does): a tag for it would be written, and no crawler
// would read it. Any other name (otherbot) is fine.
func checkAgent(name string) error {
	cat := crawlers.Default()
	if knownAgent(name) {
		return nil
	}
	if _, ok := cat.Lookup(name); ok {
		return nil
	}
	ascii := suggest.ASCII(name)
	if near, ok := cat.Resembles(name); ok {
		return &misspelling{what: "crawler name", name: name, near: strings.ToLower(near), nonASCII: !ascii}
	}
	if suggest.Distance(name, "robots") <= 1 {
		return &misspelling{what: "crawler name", name: name, near: "robots", nonASCII: !ascii}
	}
	if !ascii {
		near, _ := suggest.Nearest(name, metaAgents())
		return &misspelling{what: "crawler name", name: name, near: near, nonASCII: true}
	}
	return nil
}

// IsAgent reports whether name (any case, surrounding space ignored) is a
// robots-family meta name: "robots" or a known crawler's name.
func IsAgent(name string) bool {
	return knownAgent(strings.ToLower(strings.TrimSpace(name)))
}
