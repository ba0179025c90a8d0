// Package recordtest builds indexability records for tests: a public page as build leaves it with
// the built-in defaults, and the changes the tests make to it, each with its source. The records
// are what build --record writes for such a page; tests of diff and of the command compare sites
// made of them.
//
// Usage:
//
//	home := recordtest.Page("/")
//	post := recordtest.Page("/blog/a/")
//	recordtest.Noindex(&post, recordtest.Rule(2, 14))
//	path := recordtest.File(t, dir, "new.jsonl", home, post) // sorted, then written
package recordtest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/indexability"
)

// Default is the source of the built-in defaults.
var Default = indexability.Source{Text: "default"}

// The built-in defaults' directives (SPEC §3.1).
const (
	robotsDefault = "index, follow"
	engineExtra   = "max-snippet:-1, max-image-preview:large, max-video-preview:-1"
)

// Rule is the source "rule N at robotsmith.yaml:LINE".
func Rule(n, line int) indexability.Source {
	return indexability.Source{Text: "rule " + strconv.Itoa(n) + " at robotsmith.yaml:" + strconv.Itoa(line), File: "robotsmith.yaml", Line: line}
}

// Tag is the source of a robots tag the generated page carried: the theme's template wrote it.
func Tag(name, file string, line int) indexability.Source {
	return indexability.Source{Text: `tag <meta name="` + name + `"> at ` + file + ":" + strconv.Itoa(line), File: file, Line: line}
}

// FrontMatter is the source "front matter KEY at FILE:LINE".
func FrontMatter(key, file string, line int) indexability.Source {
	return indexability.Source{Text: "front matter " + key + " at " + file + ":" + strconv.Itoa(line), File: file, Line: line}
}

// RobotsLine is the source of a robots.txt line: "public/robots.txt:LINE: TEXT".
func RobotsLine(line int, text string) indexability.Source {
	return indexability.Source{Text: "public/robots.txt:" + strconv.Itoa(line) + ": " + text, File: "public/robots.txt", Line: line}
}

// Page is a public page at url as build leaves it with the built-in defaults: its output file and
// source page named after the URL, listed in public/sitemap.xml, every crawler free to fetch it,
// a canonical link to itself at line 6, the AI categories' crawlers each counted once.
func Page(url string) indexability.Record {
	file := strings.TrimPrefix(url, "/") + "index.html"
	src := "content" + strings.TrimSuffix(url, "/") + ".md"
	if url == "/" {
		src = "content/_index.md"
	}
	return indexability.Record{
		URL:    url,
		File:   file,
		Source: src,
		Home:   url == "/",
		Class:  indexability.Public,
		Agents: []indexability.Agent{
			agent("robots", robotsDefault),
			agent("googlebot", robotsDefault+", "+engineExtra),
			agent("bingbot", robotsDefault+", "+engineExtra),
		},
		Sitemaps: []indexability.Source{{Text: "public/sitemap.xml:" + strconv.Itoa(3+len(url)), File: "public/sitemap.xml", Line: 3 + len(url)}},
		RobotsTxt: indexability.RobotsTxt{
			Googlebot: indexability.Crawl{Crawlers: 1}, Bingbot: indexability.Crawl{Crawlers: 1},
			Training: indexability.Crawl{Crawlers: 20}, AISearch: indexability.Crawl{Crawlers: 6}, AIInput: indexability.Crawl{Crawlers: 9},
		},
		Canonical: indexability.Canonical{Href: "https://example.org" + url, URL: url, Status: "indexable",
			Source: indexability.Source{Text: "public/" + file + ":6", File: "public/" + file, Line: 6}},
	}
}

// Asset is a non-HTML file at url (a PDF): the defaults, sent as no X-Robots-Tag (the defaults need
// none), listed in no sitemap.
func Asset(url string) indexability.Record {
	r := Page(url)
	r.File, r.Source, r.Class = strings.TrimPrefix(url, "/"), "", indexability.File
	r.Sitemaps, r.Canonical = nil, indexability.Canonical{}
	return r
}

func agent(name, directives string) indexability.Agent {
	return indexability.Agent{Name: name, Directives: directives, From: []indexability.From{{Directives: directives, Source: Default}}}
}

// Noindex makes r noindex for every crawler, the noindex won by src: its class noindex, its sitemap
// entry pruned as build prunes it.
func Noindex(r *indexability.Record, src indexability.Source) {
	for i := range r.Agents {
		Set(r, r.Agents[i].Name, "index", "noindex", src)
	}
	if r.Class == indexability.Public {
		r.Class = indexability.Noindex
	}
	r.Sitemaps = nil
}

// Set replaces the directive old (its name: "index", "max-snippet"), or one of tok's name, of the
// agent with tok, won by src, or adds tok where the agent has no such directive; an agent r does not list gets robots's
// directives and tok.
func Set(r *indexability.Record, agentName, old, tok string, src indexability.Source) {
	a := r.Agent(agentName)
	if a == nil {
		robots := *r.Agent("robots")
		r.Agents = append(r.Agents, indexability.Agent{Name: agentName, Directives: robots.Directives, From: slices.Clone(robots.From)})
		a = &r.Agents[len(r.Agents)-1]
	}
	name, _, _ := strings.Cut(tok, ":")
	toks := indexability.Tokens(a.Directives)
	at := slices.IndexFunc(toks, func(t string) bool {
		return t == old || strings.HasPrefix(t, old+":") || t == name || strings.HasPrefix(t, name+":")
	})
	if at >= 0 {
		toks[at] = tok
	} else {
		toks = append(toks, tok)
	}
	a.Directives = strings.Join(toks, ", ")
	var from []indexability.From
	for _, f := range a.From {
		var kept []string
		for _, t := range indexability.Tokens(f.Directives) {
			if t != old && !strings.HasPrefix(t, old+":") && t != name && !strings.HasPrefix(t, name+":") {
				kept = append(kept, t)
			}
		}
		if len(kept) > 0 {
			from = append(from, indexability.From{Directives: strings.Join(kept, ", "), Source: f.Source})
		}
	}
	a.From = append([]indexability.From{{Directives: tok, Source: src}}, from...)
}

// Block makes robots.txt keep the crawler or category who (indexability.Googlebot, Training, ...)
// from r, at the line src: every crawler of a category.
func Block(r *indexability.Record, who string, src indexability.Source) {
	c := r.RobotsTxt.Of(who)
	c.Blocked, c.Source = c.Crawlers, src
}

// Write is the record file of recs, sorted by URL.
func Write(t testing.TB, recs ...indexability.Record) []byte {
	t.Helper()
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(a, b indexability.Record) int { return strings.Compare(a.URL, b.URL) })
	var b bytes.Buffer
	w := indexability.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// File writes the record file of recs as dir/name and returns its path.
func File(t testing.TB, dir, name string, recs ...indexability.Record) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, Write(t, recs...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
