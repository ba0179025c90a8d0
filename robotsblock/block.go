package robotsblock

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/robotstxt"
)

// Group is one group of robots_txt.groups.
type Group struct {
	Agents   []string // product tokens as written, "*" for every crawler
	Disallow []string // path patterns, in order
	Allow    []string
	Line     int // where the group is written in the config; 0 when unknown
}

// Input is everything the block is rendered from.
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
	return len(in.Groups) == 0 && len(in.Sitemaps) == 0 && !in.AI.States() && len(in.AI.Block) == 0
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

// Error is a problem with the config that the block is rendered from.
// Line is the config line it was written on (0 when unknown); the message
// names the key. Callers add the file: "robotsmith.yaml:12: robots_txt.groups[2]: ...".
type Error struct {
	Line int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrNoBaseURL: Sitemap: lines need an absolute base URL and none was given,
// or the one given is not absolute.
var ErrNoBaseURL = errors.New("sitemaps need the site's absolute base URL (Hugo baseURL, Jekyll url) for their Sitemap: lines")

// Check reports every problem of the config part of in, each an *Error: a
// group without agents or rules, a token that is not one, a token that
// looks like a misspelt well-known crawler, a path that is not a path, and
// a crawler that robots_txt.groups names while ai.block also blocks it
// (RFC 9309 merges the two groups, so one would change the other). Base
// URL and sitemaps are Render's to check; config loading calls Check alone.
func Check(in Input) []error {
	var errs []error
	cat := in.catalogue()
	// Tokens are compared as Google's parser reads them (robotstxt.ProductToken): to it,
	// User-agent: AI names the group of AI2Bot too.
	blocked := map[string]string{}
	for _, c := range in.AI.Blocked(cat) {
		for _, t := range c.Tokens {
			k := strings.ToLower(robotstxt.ProductToken(t))
			if _, seen := blocked[k]; !seen && k != "" {
				blocked[k] = c.Name()
			}
		}
	}
	for i, g := range in.Groups {
		bad := func(format string, args ...any) {
			errs = append(errs, &Error{Line: g.Line, Err: fmt.Errorf("robots_txt.groups[%d]: "+format, append([]any{i + 1}, args...)...)})
		}
		if len(g.Agents) == 0 {
			bad(`no agents (write agents: ["*"] for every crawler)`)
		}
		for _, a := range g.Agents {
			switch {
			case a == "*":
			case !crawlers.ValidToken(a):
				bad("agents: %q is not a user-agent token (letters, digits, '.', '-' and '_' only)", a)
			default:
				if want, ok := cat.Resembles(a); ok {
					bad("agents: %q is not a crawler robotsmith knows; did you mean %q?", a, want)
				}
				if c, ok := blocked[strings.ToLower(robotstxt.ProductToken(a))]; ok && robotstxt.ProductToken(a) != "" {
					also := ""
					if !strings.EqualFold(c, a) {
						also = fmt.Sprintf(" (Google's parser reads both %s and %s as %s)", a, c, robotstxt.ProductToken(a))
					}
					bad("agents: %s is also blocked by ai.block (line %d)%s; RFC 9309 merges every group that names a crawler, so name it in one place only", c, in.AI.BlockLine, also)
				}
			}
		}
		if len(g.Disallow)+len(g.Allow) == 0 {
			bad("no disallow or allow; a group without rules would run into the next group")
		}
		for _, list := range []struct {
			key   string
			paths []string
		}{{"disallow", g.Disallow}, {"allow", g.Allow}} {
			for _, p := range list.paths {
				if err := checkPath(p); err != "" {
					bad("%s: %q %s", list.key, p, err)
				}
			}
		}
	}
	return errs
}

// checkPath says what is wrong with a rule's path, "" when nothing is.
func checkPath(p string) string {
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "*") {
		return "must start with / (or *)"
	}
	for _, c := range []byte(p) {
		if c < 0x20 || c == 0x7f {
			return "holds a control character"
		}
	}
	return ""
}

// Render renders the block for in. Errors are *Error values joined with
// errors.Join: every problem Check finds, and sitemaps without a usable
// base URL (ErrNoBaseURL).
func Render(in Input) (*Block, error) {
	errs := Check(in)
	sitemaps, err := sitemapURLs(in.BaseURL, in.Sitemaps)
	if err != nil {
		errs = append(errs, &Error{Line: in.SitemapsLine, Err: fmt.Errorf("robots_txt: sitemaps: %w", err)})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sitemaps = slices.DeleteFunc(sitemaps, func(s string) bool { return slices.Contains(in.Listed, s) })
	if len(in.Groups) == 0 && len(sitemaps) == 0 && !in.AI.States() && len(in.AI.Block) == 0 {
		// Nothing asked for, or only Sitemap: lines the file already has.
		return &Block{}, nil
	}
	w := &writer{b: &Block{Sitemaps: sitemaps}}
	w.line(markers.Begin)
	w.line("# Written by robotsmith on every build from robots_txt and ai in its config; edit those, not these lines.")

	aiGroup := -1 // the config group that carries the AI lines
	if in.AI.States() {
		for i, g := range in.Groups {
			if slices.Contains(g.Agents, "*") {
				aiGroup = i
				break
			}
		}
		if aiGroup < 0 {
			w.blank()
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
