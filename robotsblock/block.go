package robotsblock

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotstxt"
)

// Group is one group to write: a group of robots_txt.groups, as package config read and checked it.
type Group struct {
	Agents   []string // product tokens as written, "*" for every crawler
	Disallow []string // path patterns, in order
	Allow    []string
}

// Input is everything the block is rendered from. Its groups and its AI policy are the config's,
// checked when the config was read (see Render); the sitemaps and the base URL are the site's.
type Input struct {
	Groups []Group
	AI     aipref.Policy
	// Sitemaps are the URL paths of the site's sitemaps as served
	// ("/sitemap.xml"), in order; each gets a Sitemap: line.
	Sitemaps []string
	// BaseURL is the generator's base URL ("https://example.com/"), which
	// makes the Sitemap: URLs absolute; needed only with Sitemaps.
	BaseURL string
	// SitemapsLine is where robots_txt.sitemaps is written in the config,
	// for messages; 0 when unknown.
	SitemapsLine int
	// Listed are the Sitemap: URLs the rest of robots.txt already lists
	// (a theme's or the generator's own line): they are not written again.
	Listed []string
	// Catalogue lists the crawlers ai.block selects from; nil is
	// crawlers.Default().
	Catalogue *crawlers.Catalogue
}

func (in Input) catalogue() *crawlers.Catalogue {
	if in.Catalogue != nil {
		return in.Catalogue
	}
	return crawlers.Default()
}

// Empty reports whether the config asks for nothing in robots.txt. Render
// then returns an empty block, which Merge takes as: remove robotsmith's
// block if there is one, and leave the file alone otherwise.
func (in Input) Empty() bool {
	return len(in.Groups) == 0 && len(in.Sitemaps) == 0 && !in.asksAI()
}

// asksAI reports whether the AI policy asks for lines of robots.txt: the preferences where the
// placement puts them there, the reservation statement, or groups for ai.block.
func (in Input) asksAI() bool {
	return in.AI.InRobotsTxt() || len(in.AI.Reservation()) > 0 || len(in.AI.Block) > 0
}

// Rule is one Allow or Disallow line of the block.
type Rule struct {
	Line   int      // 1-based line in Block.Text
	Agents []string // the group's User-agent tokens
	Allow  bool
	Path   string // as written: percent-encoded; "" for the empty Disallow that closes an AI-only group
	// Group is the index in Input.Groups of the group the rule comes from,
	// -1 for a group written for ai.block or for the AI lines alone.
	Group int
	// Crawler is the catalogue crawler's name for an ai.block group.
	Crawler string
}

// Block is a rendered block.
type Block struct {
	// Text runs from the begin marker through the end marker's line break;
	// empty when the input is Empty.
	Text  []byte
	Rules []Rule
	// SignalLine and UsageLine are the lines of Content-Signal and
	// Content-Usage in Text; 0 when not written.
	SignalLine, UsageLine int
	// Sitemaps are the Sitemap: URLs written.
	Sitemaps []string
}

// Error is a problem with the config that the block is rendered from:
// robots_txt.sitemaps without a usable base URL, whose code is ErrNoBaseURL's
// (problem.SitemapsNeedBaseURL). Line is the config line it was written on (0
// when unknown); the message names the key. Callers add the file, with a
// *config.Error that keeps the code: "robotsmith.yaml:12: robots_txt: sitemaps: ...".
type Error struct {
	Line int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrNoBaseURL: Sitemap: lines need an absolute base URL and none was given,
// or the one given is not absolute. It is of code problem.SitemapsNeedBaseURL.
var ErrNoBaseURL error = problem.New(problem.SitemapsNeedBaseURL, problem.Position{},
	"sitemaps need the site's absolute base URL (Hugo baseURL, Jekyll url) for their Sitemap: lines")

// Render renders the block for in. Its one error is an *Error: sitemaps
// without a usable base URL (ErrNoBaseURL), which depends on the site.
//
// Render does not check the groups and the AI policy again: package config
// checks them when it reads robots_txt and ai (a group without agents or
// rules, a token that is not one or looks misspelt, a path that is not a
// path, a crawler named in a group and blocked by ai.block), and refuses the
// config then, so an Input built from a config that loaded holds none of
// them. Checking the config's values is config's job, done once, where the
// error can name their lines. A caller that builds an Input by hand gives
// groups that config would accept: each agent is written as given, each
// path percent-encoded (robotstxt.EscapePattern).
func Render(in Input) (*Block, error) {
	sitemaps, err := sitemapURLs(in.BaseURL, in.Sitemaps)
	if err != nil {
		return nil, &Error{Line: in.SitemapsLine, Err: fmt.Errorf("robots_txt: sitemaps: %w", err)}
	}
	sitemaps = slices.DeleteFunc(sitemaps, func(s string) bool { return slices.Contains(in.Listed, s) })
	if len(in.Groups) == 0 && len(sitemaps) == 0 && !in.asksAI() {
		// Nothing asked for, or only Sitemap: lines the file already has.
		return &Block{}, nil
	}
	w := &writer{b: &Block{Sitemaps: sitemaps}}
	w.line(markers.Begin)
	w.line("# Written by robotsmith on every build from robots_txt and ai in its config; edit those, not these lines.")

	reservation := in.AI.Reservation()
	aiGroup := -1 // the config group that carries the AI lines
	if !in.AI.InRobotsTxt() && len(reservation) > 0 {
		// placement: headers: the statement stands alone, naming the header that carries the
		// preferences.
		w.blank()
		w.comments(reservation)
	}
	if in.AI.InRobotsTxt() {
		for i, g := range in.Groups {
			if slices.Contains(g.Agents, "*") {
				aiGroup = i
				break
			}
		}
		if aiGroup < 0 {
			w.blank()
			w.comments(reservation)
			w.signalsComment()
			w.line("User-agent: *")
			w.signals(in.AI)
			w.line("# An empty Disallow allows everything; it ends this group for parsers that skip the lines above.")
			w.rule(Rule{Agents: []string{"*"}, Group: -1}, "")
		}
	}
	for i, g := range in.Groups {
		w.blank()
		if i == aiGroup {
			w.comments(reservation)
			w.signalsComment()
		}
		for _, a := range g.Agents {
			w.line("User-agent: " + a)
		}
		for _, p := range g.Disallow {
			w.rule(Rule{Agents: g.Agents, Group: i}, robotstxt.EscapePattern(p))
		}
		for _, p := range g.Allow {
			w.rule(Rule{Agents: g.Agents, Allow: true, Group: i}, robotstxt.EscapePattern(p))
		}
		if i == aiGroup {
			w.signals(in.AI)
		}
	}
	cat := in.catalogue()
	if blocked := in.AI.Blocked(cat); len(blocked) > 0 {
		var cats []string
		for _, p := range in.AI.Block {
			cats = append(cats, p.String())
		}
		w.blank()
		w.line(fmt.Sprintf("# ai.block: %s. Crawlers from robotsmith's crawler catalogue, version %d of %s.",
			strings.Join(cats, ", "), cat.Version(), cat.Date()))
		for i, c := range blocked {
			if i > 0 {
				w.blank()
			}
			var ps []string
			for _, p := range c.Purposes {
				ps = append(ps, p.String())
			}
			w.line(fmt.Sprintf("# %s: %s, %s", c.Name(), c.Operator, strings.Join(ps, ", ")))
			for _, t := range c.Tokens {
				w.line("User-agent: " + t)
			}
			w.rule(Rule{Agents: c.Tokens, Group: -1, Crawler: c.Name()}, "/")
		}
	}
	if len(sitemaps) > 0 {
		w.blank()
		for _, s := range sitemaps {
			w.line("Sitemap: " + s)
		}
	}
	w.line(markers.End)
	return w.b, nil
}

// Merge returns the robots.txt existing (nil when the file is missing) with
// robotsmith's block replaced by b, or appended when it has none; every
// byte outside the block is kept. An empty b removes the block. A begin
// marker without an end marker is an error (*markers.Error, the same as
// _headers gives; the caller sets its File) and nothing is merged: the
// user's lines after it are never taken for robotsmith's.
func Merge(existing []byte, b *Block) ([]byte, error) {
	return markers.Merge(existing, b.Text)
}

type writer struct {
	b *Block
	n int // lines written
}

func (w *writer) line(s string) {
	w.b.Text = append(w.b.Text, s...)
	w.b.Text = append(w.b.Text, '\n')
	w.n++
}

func (w *writer) blank() { w.line("") }

func (w *writer) rule(r Rule, path string) {
	key := "Disallow: "
	if r.Allow {
		key = "Allow: "
	}
	w.line(strings.TrimRight(key+path, " "))
	r.Line, r.Path = w.n, path
	r.Agents = slices.Clone(r.Agents)
	w.b.Rules = append(w.b.Rules, r)
}

// comments writes each line as a robots.txt comment.
func (w *writer) comments(lines []string) {
	for _, l := range lines {
		w.line("# " + l)
	}
}

func (w *writer) signalsComment() {
	w.line("# AI preferences (ai in the config): Content-Signal as " + aipref.SignalsPolicy + " (" + aipref.SignalsPolicyURL + ");")
	w.line("# Content-Usage as " + aipref.VocabDraft + " (" + aipref.VocabDate + ") and " + aipref.AttachDraft + " (" + aipref.AttachDate + ").")
}

func (w *writer) signals(p aipref.Policy) {
	w.line("Content-Signal: " + p.ContentSignal())
	w.b.SignalLine = w.n
	// A policy of input alone has no Content-Usage label (see aipref.Policy.ContentUsage).
	if u := p.ContentUsage(); u != "" {
		w.line("Content-Usage: " + u)
		w.b.UsageLine = w.n
	}
}

// sitemapURLs makes each sitemap path absolute under base, each once.
func sitemapURLs(base string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		if base == "" {
			return nil, ErrNoBaseURL
		}
		return nil, fmt.Errorf("%w; %q is not an absolute http or https URL", ErrNoBaseURL, base)
	}
	prefix := u.Scheme + "://" + u.Host + strings.TrimSuffix(u.EscapedPath(), "/")
	var out []string
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("sitemap path %q does not start with /", p)
		}
		s := prefix + (&url.URL{Path: p}).EscapedPath()
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}
