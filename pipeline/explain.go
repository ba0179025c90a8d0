package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/robotstxt"
	"github.com/robotsmith/robotsmith/rules"
)

// ErrUnknownPath is returned (wrapped) by Explain for a path that is not in the output: a problem
// of code problem.PathNotInOutput.
var ErrUnknownPath error = problem.New(problem.PathNotInOutput, problem.Position{}, "not in the output")

// Explanation is `robotsmith explain` for one path.
type Explanation struct {
	Query   string   `json:"query"`                  // as asked
	URL     string   `json:"url"`                    // URL path as served
	File    string   `json:"file"`                   // the output file
	Source  string   `json:"source"`                 // the source page, "" when none
	AliasOf string   `json:"alias_of,omitempty"`     // for an alias stub: the source page it redirects to
	Class   string   `json:"class"`                  // public, noindex, error page, redirect, file
	Rules   []Rule   `json:"rules"`                  // the config rules that match it
	Agents  []Agent  `json:"agents"`                 // the effective directives per agent
	Tags    []Tag    `json:"tags"`                   // what the page gets (pages only)
	Header  []string `json:"x_robots_tag,omitempty"` // X-Robots-Tag lines in _headers (files; pages with headers.html)
	// Crawl is, per crawler, whether robots.txt lets it fetch the URL and the line that decided.
	Crawl []Crawl `json:"crawl"`
	// Sitemaps are the sitemap entries that list the URL: "public/sitemap.xml:12".
	Sitemaps []string `json:"sitemaps"`
	// LLMsTxt are the links of llms.txt and llms-full.txt to the URL: "public/llms.txt:9";
	// LLMsTxtPruned why a build prunes them (llms_txt: prune, generate) or reports them (keep),
	// "" when the URL may be listed.
	LLMsTxt       []string `json:"llms_txt"`
	LLMsTxtPruned string   `json:"llms_txt_pruned"`
	// Links are the page's canonical and hreflang links, resolved, with what they point at.
	Links []Link `json:"links"`
	// ContentUsage is the Content-Usage header _headers sends for it (the ai policy), "" for none.
	ContentUsage string `json:"content_usage_header"`
	// Hosts are the header fields each host of headers.format sends for it, as robotsmith writes
	// them; none when no host sends one.
	Hosts []HostFields `json:"hosts"`
	// HeadersNone says why no host sends a header (headers.format none, a GitHub Pages site); ""
	// when Hosts lists the hosts.
	HeadersNone string `json:"headers_none"`
	// Crawlers are the crawlers Options.Agents names (explain --agent): what robots.txt lets each
	// do at this path, and the AI preferences that apply.
	Crawlers []Crawler `json:"crawlers"`
	// Replaced are the inherited values (a cascade's, front matter defaults') that the generator
	// does not give the page, as a key of the same name replaces them (SPEC §3.3).
	Replaced []Replaced `json:"replaced"`
}

// HostFields are the header fields one host sends for a path, from robotsmith's file for it.
type HostFields struct {
	Host   string   `json:"host"`   // netlify, cloudflare, vercel, firebase, apache, nginx, caddy
	File   string   `json:"file"`   // the file robotsmith writes them into: _headers, vercel.json, ...
	Fields []string `json:"fields"` // "X-Robots-Tag: noindex, googlebot: nosnippet", "Content-Usage: train-ai=n"
}

// hostFields are the fields host h sends for a file of X-Robots-Tag lines, with Content-Usage
// usage: Netlify and Cloudflare fold the lines of _headers into one field, and Vercel's and
// Firebase's entries hold one value per header, the lines joined alike; Apache, nginx and Caddy send
// a field per line.
func hostFields(h headers.Host, lines []rules.HeaderLine, usage string) []string {
	var out []string
	if len(lines) > 0 {
		if h == headers.HostApache || h == headers.HostNginx || h == headers.HostCaddy {
			for _, l := range lines {
				out = append(out, "X-Robots-Tag: "+l.String())
			}
		} else {
			out = append(out, "X-Robots-Tag: "+joinedLines(lines))
		}
	}
	if usage != "" {
		out = append(out, "Content-Usage: "+usage)
	}
	return out
}

// Crawl is one crawler's permission to fetch a URL, by robots.txt.
type Crawl struct {
	Agent   string `json:"agent"`   // robots (a crawler no group of robots.txt names) or a crawler's name
	Allowed bool   `json:"allowed"` // robots.txt lets it fetch the URL
	// Crawler is the crawler as robotsmith's catalogue spells it ("AI2Bot", where Agent is the
	// token as Google's parser reads it, "ai"); "" for one the catalogue does not list.
	Crawler string `json:"crawler"`
	// Block is the category of ai.block whose group disallows it ("training"); "" for none.
	Block string `json:"block"`
	// Rule is the line that decided, "public/robots.txt:3: Disallow: /private/"; for /robots.txt
	// itself, which no line decides, the RFC that allows it; "" when no rule matched (allowed).
	Rule string `json:"rule"`
}

// Link is a canonical or hreflang link of a page, and what it points at.
type Link struct {
	Rel      string `json:"rel"`      // canonical or alternate
	Hreflang string `json:"hreflang"` // for an alternate; "" for a canonical
	Href     string `json:"href"`     // as written
	Line     int    `json:"line"`     // its line in the page
	URL      string `json:"url"`      // resolved as a browser does (its path alone on a site without a base URL); "" when it does not resolve
	// Target is the output file the URL is served from; "" for none.
	Target string `json:"target"`
	// Status is what the URL is: "indexable", "noindex", "error page", "redirect", "file", "no
	// file" (a URL of the site that no file serves), "other site", or "unresolvable".
	Status string `json:"status"`
}

// Rule is a config rule that matches the path, and what each of its selectors matched.
type Rule struct {
	Rule int    `json:"rule"` // 1-based
	File string `json:"file"` // the configuration file
	Line int    `json:"line"` // where the rule starts
	Path string `json:"path"` // the glob that matched; "" when the rule has no path
	Kind string `json:"kind"` // the kind that matched ("taxonomy", "file"); "" when the rule has none
	Lang string `json:"lang"` // the language that matched; "" when the rule has none
	Text string `json:"text"` // "rule 2 at robotsmith.yaml:14 (kind: taxonomy, lang: fr)"
}

// Agent is one agent's effective directives, each with where it came from.
type Agent struct {
	Name   string  `json:"name"`
	Values []Value `json:"values"`
}

// Value is one directive and its source.
type Value struct {
	Token  string `json:"token"`
	Source string `json:"source"`
}

// Replaced is an inherited value that a key of the same name replaces, and both places.
type Replaced struct {
	Agent  string `json:"agent"`  // robots (every crawler) or a crawler's name
	Tokens string `json:"tokens"` // what it said: "noindex, nofollow"
	Source string `json:"source"` // where: "cascade from content/blog/_index.md:4"
	By     string `json:"by"`     // the key that replaces it: "front matter robots at content/blog/a.md:3"
}

// Tag is one meta tag a page gets.
type Tag struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// Explain resolves each of paths (a URL path such as /blog/post/, or an output file) without
// writing anything, through the same step as build and check. Unknown paths are reported with
// ErrUnknownPath; the others are still explained. Every error it joins is (or wraps) a
// problem.Problem with its code, as Run's.
func Explain(ctx context.Context, opt Options, paths []string) (_ []Explanation, err error) {
	defer func() { err = coded(err) }()
	opt.Write, opt.RunCommand = false, false
	p, out, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer out.close()
	if p, err = p.Read(ctx); err != nil {
		return nil, err
	}
	// The site-level part of the record: the output's files (a link or a sitemap names a file by
	// its place in the list), robots.txt, and which sitemaps list which file.
	files, _, err := out.walk(ctx)
	if err != nil {
		return nil, err
	}
	p.Locate(files)
	ps := &pass{p: p, out: out, files: files, links: plan.NewLinks()}
	m := &model{robots: out.robots.model()}
	if err := ps.sitemaps(m, newFindings(), &Report{}, listSitemaps); err != nil {
		return nil, err
	}
	if err := ps.llmsTxt(m, newFindings(), &Report{}, listSitemaps); err != nil {
		return nil, err
	}
	var (
		es   []Explanation
		errs []error
		w    worker
	)
	for _, q := range paths {
		f, ok, err := ps.lookup(q)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %w %s", q, ErrUnknownPath, out.name))
			continue
		}
		e, err := ps.explain(&w, m, opt.Agents, q, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		es = append(es, e)
	}
	return es, errors.Join(errs...)
}

// lookup finds the output file for a URL path (the file a host serves it from) or a file path
// (relative to the working directory or to the output folder), among the walk's files; then, for
// the URL a user copies (absolute with any host, or a path with the base URL's path or without
// it, either percent-encoded), the file a sitemap's <loc> of that URL is matched to (plan.URLs.Loc:
// one mapping for both). A file the walk leaves out (a FIFO, a link outside the output) is an error
// saying why.
func (ps *pass) lookup(q string) (plan.Record, bool, error) {
	var candidates []string
	served := func(rel string) bool {
		candidates = append(candidates, rel)
		return false
	}
	if strings.HasPrefix(q, "/") {
		plan.ServedBy(q, served)
	}
	// A file named through the output folder as given, or through the folder its links lead to.
	for _, out := range []string{ps.out.name, ps.out.dir} {
		if rel, err := filepath.Rel(out, q); err == nil && !strings.HasPrefix(rel, "..") {
			candidates = append(candidates, filepath.ToSlash(rel))
		}
	}
	candidates = append(candidates, filepath.ToSlash(q))
	urls := []string{q}
	if base := ps.p.URLs().Path(); strings.HasPrefix(q, "/") && base != "/" {
		urls = append(urls, base+q[1:]) // a path within the site, percent-encoded
	}
	for _, u := range urls {
		if p, _, ok := ps.p.URLs().Loc(u); ok {
			plan.ServedBy(p, served)
		}
	}
	for _, c := range candidates {
		c = path.Clean("/" + c)[1:]
		if c == "" {
			continue
		}
		if i := ps.fileIndex(c); i >= 0 {
			return ps.files[i], true, nil
		}
		fi, err := ps.out.root.Lstat(c)
		if err != nil || fi.IsDir() {
			continue
		}
		link, warning, ok := ps.out.classify(c, fi.Mode().Type())
		if !ok {
			// What the walk skips with a warning is an error here: the path asked for is not
			// explained.
			warning.Severity = problem.Error
			return plan.Record{}, false, warning
		}
		rs := []plan.Record{plan.NewRecord("/"+c, link)}
		ps.p.Locate(rs)
		return rs[0], true, nil
	}
	return plan.Record{}, false, nil
}

func (ps *pass) explain(w *worker, m *model, agents []string, q string, f plan.Record) (Explanation, error) {
	e := Explanation{Query: q, URL: f.URL(), File: ps.out.outName(f.Rel())}
	at := ps.fileIndex(f.Rel())
	o, err := ps.step(w, &f, true)
	for _, r := range o.Matches {
		e.Rules = append(e.Rules, Rule{Rule: r.Rule, File: r.Source.File, Line: r.Source.Line,
			Path: r.Path, Kind: r.Kind, Lang: r.Lang, Text: r.String()})
	}
	if err == nil {
		err = ps.p.Source(&f).Err()
	}
	if err != nil {
		return e, err
	}
	if e.Source = ps.p.SourceOf(&f); e.Source == "" {
		e.AliasOf = ps.p.AliasOf(f.Rel())
	}
	d := o.Decision
	e.Class = d.Class.String()
	switch {
	case f.Link():
		e.Class = "a link to another file of the output (left as a link; decided as a file)"
	case !f.HTML():
		e.Class = "file"
	case f.Skipped():
		e.Class = "not an HTML document (left alone)"
	}
	// The lines build writes to _headers: pages too with `headers: {html: true}`.
	for _, l := range ps.p.HeaderLines(&f) {
		e.Header = append(e.Header, l.String())
	}
	e.ContentUsage = ps.p.Config().AI.HeaderUsage()
	hosts := ps.hostsOf()
	e.HeadersNone, e.Hosts = hosts.None, []HostFields{}
	for _, h := range hosts.List {
		if fs := hostFields(h, ps.p.HeaderLines(&f), e.ContentUsage); len(fs) > 0 {
			e.Hosts = append(e.Hosts, HostFields{Host: h.String(), File: h.File(), Fields: fs})
		}
	}
	page := ps.p.URLs().Page(f.URL())
	for _, a := range agents {
		e.Crawlers = append(e.Crawlers, ps.explainCrawler(a, page.Pathname()))
	}
	for _, a := range d.Agents {
		ea := Agent{Name: a.Name}
		for _, v := range a.Values {
			ea.Values = append(ea.Values, Value{Token: v.Token, Source: v.Source.String()})
		}
		e.Agents = append(e.Agents, ea)
	}
	for _, r := range d.Replaced {
		e.Replaced = append(e.Replaced, Replaced{Agent: r.Agent, Tokens: strings.Join(r.Tokens, ", "),
			Source: r.Source.String(), By: r.By.String()})
	}
	if f.HTML() && !f.Skipped() {
		for _, t := range f.Verdict().Directives.Tags {
			e.Tags = append(e.Tags, Tag{Name: t.Name, Content: t.Content})
		}
	}
	path := plan.CrawlPath(page.Pathname())
	blocked := ps.blockedCrawlers()
	for _, a := range crawlAgents(m, d) {
		dec := m.robots.crawler(a).Decide(path)
		c := Crawl{Agent: a, Allowed: dec.Allowed, Rule: implicitRule(path)}
		if b, ok := blocked[a]; ok {
			c.Crawler, c.Block = b.crawler, b.category
		} else if cr, ok := crawlers.Default().Lookup(a); ok {
			c.Crawler = cr.Name()
		}
		if dec.Rule != nil {
			c.Rule = fmt.Sprintf("%s:%d: %s: %s", m.robots.name, dec.Rule.Num, dec.Rule.Key, dec.Rule.Value)
		}
		e.Crawl = append(e.Crawl, c)
	}
	if at >= 0 {
		for _, l := range m.listedIn(at) {
			e.Sitemaps = append(e.Sitemaps, fmt.Sprintf("%s:%d", ps.out.outName(m.sitemaps[l.sitemap]), l.line))
		}
	}
	if at >= 0 {
		// The URL as llms.txt links it, decided: the walk's record of the file is not.
		ps.files[at] = f
		for _, l := range m.llmsListedIn(at) {
			e.LLMsTxt = append(e.LLMsTxt, fmt.Sprintf("%s:%d", ps.out.outName(m.llms[l.llms]), l.line))
		}
		if len(m.llms) > 0 {
			e.LLMsTxtPruned = ps.llmsWhy(m)(ps.p.URLs().Shown(page))
		}
	}
	if o.Page != nil {
		for _, l := range o.Page.Links {
			e.Links = append(e.Links, ps.explainLink(w, page, o.Page.Base, l))
		}
	}
	return e, nil
}

// implicitRule is what decides a path no line of robots.txt can: robots.txt itself, which every
// crawler may fetch whatever its rules say (robotstxt.Implicit); "" for any other path.
func implicitRule(path string) string {
	if robotstxt.Implicit(path) {
		return "RFC 9309 §2.2.2: /robots.txt is always allowed"
	}
	return ""
}

// crawlAgents are the crawlers explain asks robots.txt about: every crawler (robots), the search
// engines whose tags robotsmith writes, the agents the decision names, and those robots.txt's
// groups name.
func crawlAgents(m *model, d rules.Decision) []string {
	agents := append([]string(nil), searchAgents[:]...)
	for _, a := range d.Agents {
		if !slices.Contains(agents, a.Name) {
			agents = append(agents, a.Name)
		}
	}
	for _, a := range m.robots.named {
		if !slices.Contains(agents, a) {
			agents = append(agents, a)
		}
	}
	return agents
}

// explainLink resolves one of a page's links as the step does and says what it points at,
// deciding the target file when the run has not.
func (ps *pass) explainLink(w *worker, page *whatwg.Url, base string, l rewrite.Link) Link {
	el := Link{Rel: l.Rel, Hreflang: l.Hreflang, Href: l.Href, Line: l.Line}
	urls := ps.p.URLs()
	abs, p, ours := urls.Resolve(page, base, l.Href)
	to := -1
	if ours {
		to = ps.fileOf(p)
	}
	switch {
	case abs == nil:
		el.Status = "unresolvable"
		return el
	case !ours:
		el.URL, el.Status = urls.Shown(abs), "other site"
		return el
	case to < 0:
		el.URL, el.Status = urls.Shown(abs), "no file"
		return el
	}
	el.URL = urls.Shown(abs)
	t := &ps.files[to]
	el.Target = ps.out.outName(t.Rel())
	if t.Verdict() == nil {
		if _, err := ps.step(w, t, false); err != nil {
			el.Status = "unreadable: " + err.Error()
			return el
		}
	}
	el.Status = targetStatus(t)
	return el
}

// targetStatus is what a link's target t, decided, is to a search engine: noindex, a file that is
// no page, indexable, or the class of its page; explain and the indexability record say it alike.
func targetStatus(t *plan.Record) string {
	v := t.Verdict()
	switch {
	case v.Noindex("robots"):
		return "noindex"
	case !t.HTML() || t.Skipped():
		return "file"
	case v.Class == rules.Public:
		return "indexable"
	default:
		return v.Class.String()
	}
}

// Text is the human form of an explanation. The crawlers a category of ai.block disallows are
// summarised in one line per category, and listed one by one with --agent (VerboseText lists them
// always).
func (e Explanation) Text() string { return e.text(len(e.Crawlers) > 0) }

// VerboseText is Text with every crawler ai.block disallows listed (explain -v).
func (e Explanation) VerboseText() string { return e.text(true) }

func (e Explanation) text(all bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%s)\n", e.URL, e.File)
	if e.Source != "" {
		fmt.Fprintf(&b, "  source page: %s\n", e.Source)
	}
	if e.AliasOf != "" {
		fmt.Fprintf(&b, "  alias of: %s\n", e.AliasOf)
	}
	fmt.Fprintf(&b, "  class: %s\n", e.Class)
	if len(e.Rules) > 0 {
		var rs []string
		for _, r := range e.Rules {
			rs = append(rs, r.Text)
		}
		fmt.Fprintf(&b, "  matching rules: %s\n", strings.Join(rs, "; "))
	}
	for _, a := range e.Agents {
		var toks []string
		for _, v := range a.Values {
			toks = append(toks, v.Token)
		}
		fmt.Fprintf(&b, "  %s: %s\n", a.Name, strings.Join(toks, ", "))
		for _, v := range a.Values {
			fmt.Fprintf(&b, "    %-28s %s\n", v.Token, v.Source)
		}
	}
	if len(e.Replaced) > 0 {
		b.WriteString("  replaced (the generator gives the page the value of a nearer key of the same name):\n")
		for _, r := range e.Replaced {
			fmt.Fprintf(&b, "    %-28s %s; replaced by %s\n", r.Agent+": "+r.Tokens, r.Source, r.By)
		}
	}
	if len(e.Tags) > 0 {
		b.WriteString("  tags written:\n")
		for _, t := range e.Tags {
			fmt.Fprintf(&b, "    <meta name=%q content=%q>\n", t.Name, t.Content)
		}
	} else if strings.HasPrefix(e.Class, "error") || e.Class == "redirect" {
		b.WriteString("  tags written: none (existing robots tags are removed)\n")
	}
	for _, h := range e.Header {
		fmt.Fprintf(&b, "  X-Robots-Tag: %s\n", h)
	}
	for _, h := range e.Hosts {
		for _, f := range h.Fields {
			fmt.Fprintf(&b, "  %s sends (%s): %s\n", h.Host, h.File, f)
		}
	}
	if e.HeadersNone != "" && len(e.Header) > 0 {
		fmt.Fprintf(&b, "  no host sends X-Robots-Tag: %s\n", e.HeadersNone)
	}
	if len(e.Crawl) > 0 {
		b.WriteString("  robots.txt:\n")
		writeCrawl(&b, e.Crawl, all)
	}
	if len(e.Sitemaps) == 0 {
		b.WriteString("  sitemaps: not listed\n")
	} else {
		fmt.Fprintf(&b, "  sitemaps: listed at %s\n", strings.Join(e.Sitemaps, ", "))
	}
	switch {
	case len(e.LLMsTxt) > 0 && e.LLMsTxtPruned != "":
		fmt.Fprintf(&b, "  llms.txt: linked at %s, which it %s: llms_txt prunes such a link (keep reports it)\n", strings.Join(e.LLMsTxt, ", "), e.LLMsTxtPruned)
	case len(e.LLMsTxt) > 0:
		fmt.Fprintf(&b, "  llms.txt: linked at %s\n", strings.Join(e.LLMsTxt, ", "))
	case e.LLMsTxtPruned != "":
		fmt.Fprintf(&b, "  llms.txt: not linked; a link to it is pruned, as it %s\n", e.LLMsTxtPruned)
	}
	for _, l := range e.Links {
		what := l.Rel
		if l.Hreflang != "" {
			what = "hreflang " + l.Hreflang
		}
		to := l.URL
		if l.Target != "" {
			to += " (" + l.Target + ")"
		}
		if to == "" {
			to = strconv.Quote(l.Href)
		}
		fmt.Fprintf(&b, "  %s (line %d): %s: %s\n", what, l.Line, to, l.Status)
	}
	if e.ContentUsage != "" {
		fmt.Fprintf(&b, "  Content-Usage: %s\n", e.ContentUsage)
	}
	for _, c := range e.Crawlers {
		b.WriteString(c.text())
	}
	return b.String()
}

// writeCrawl writes explain's robots.txt lines: one for each crawler that no category of ai.block
// disallows, and for each category one line that counts its crawlers and says which lines keep
// them out, or (all) a line for each of its crawlers. A crawler is named as the catalogue spells
// it, with the token Google's parser reads beside it where the two differ ("AI2Bot (read as
// ai)"); the columns are as wide as the names shown.
func writeCrawl(b *strings.Builder, crawl []Crawl, all bool) {
	type row struct{ name, verdict, rule string }
	name := func(c Crawl) string {
		switch {
		case c.Crawler == "":
			return c.Agent
		case strings.EqualFold(c.Crawler, c.Agent):
			return c.Crawler
		}
		return c.Crawler + " (read as " + c.Agent + ")"
	}
	rowOf := func(c Crawl) row {
		r := row{name(c), "may crawl", "no rule matches"}
		if !c.Allowed {
			r.verdict = "may not crawl"
		}
		if c.Rule != "" {
			r.rule = c.Rule
		}
		return r
	}
	var rows []row
	var categories []string
	byCategory := map[string][]Crawl{}
	for _, c := range crawl {
		if c.Block == "" {
			rows = append(rows, rowOf(c))
			continue
		}
		if _, ok := byCategory[c.Block]; !ok {
			categories = append(categories, c.Block)
		}
		byCategory[c.Block] = append(byCategory[c.Block], c)
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	if all {
		for _, cat := range categories {
			for _, c := range byCategory[cat] {
				width = max(width, len(name(c)))
			}
		}
	}
	for _, r := range rows {
		fmt.Fprintf(b, "    %-*s  %-13s  %s\n", width, r.name, r.verdict, r.rule)
	}
	for _, cat := range categories {
		cs := byCategory[cat]
		out := 0
		var rules []string
		for _, c := range cs {
			if !c.Allowed {
				out++
			}
			if c.Rule != "" && !slices.Contains(rules, c.Rule) {
				rules = append(rules, c.Rule)
			}
		}
		what := fmt.Sprintf("%d of %s", out, Plural(len(cs), "crawler"))
		if out == len(cs) {
			what = Plural(len(cs), "crawler")
		}
		how := ""
		if len(rules) == 1 {
			how = " (" + rules[0] + ")"
		} else if len(rules) > 1 {
			// "public/robots.txt:14: Disallow: /" to "...:120: Disallow: /": one file, one rule.
			f0, l0, r0 := splitRule(rules[0])
			f1, l1, r1 := splitRule(rules[len(rules)-1])
			if f0 == f1 && r0 == r1 {
				how = fmt.Sprintf(" (%s, lines %s to %s of %s)", r0, l0, l1, f0)
			} else {
				how = fmt.Sprintf(" (%s to %s)", rules[0], rules[len(rules)-1])
			}
		}
		if !all {
			fmt.Fprintf(b, "    ai.block %s: %s may not crawl%s; -v or --agent lists them\n", cat, what, how)
			continue
		}
		fmt.Fprintf(b, "    ai.block %s: %s may not crawl:\n", cat, what)
		for _, c := range cs {
			r := rowOf(c)
			fmt.Fprintf(b, "      %-*s  %-13s  %s\n", width, r.name, r.verdict, r.rule)
		}
	}
}

// splitRule splits a rule as explain writes it, "public/robots.txt:14: Disallow: /", into its
// file, line and line's text.
func splitRule(rule string) (file, line, text string) {
	at, text, _ := strings.Cut(rule, ": ")
	if i := strings.LastIndexByte(at, ':'); i >= 0 {
		return at[:i], at[i+1:], text
	}
	return at, "", text
}
