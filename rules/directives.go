package rules

import "strings"

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

// knownAgent reports whether a lower-case name is one of the meta names
// rewrite treats as robots-family tags: the generic "robots" and the crawler
// names that Google and Bing document for the robots meta tag, plus widely
// used crawlers' names. A switch rather than a map keeps the package free of
// mutable state.
func knownAgent(name string) bool {
	switch name {
	case "robots",
		"googlebot",
		"googlebot-news",
		"googlebot-image",
		"googlebot-video",
		"google-extended",
		"adsbot-google",
		"bingbot",
		"msnbot",
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
		"ccbot":
		return true
	}
	return false
}

// IsAgent reports whether name (any case, surrounding space ignored) is a
// robots-family meta name: "robots" or a known crawler's name.
func IsAgent(name string) bool {
	return knownAgent(strings.ToLower(strings.TrimSpace(name)))
}
