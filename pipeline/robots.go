package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotsblock"
	"github.com/robotsmith/robotsmith/robotstxt"
	"github.com/robotsmith/robotsmith/rules"
)

// robots.txt at the output root (SPEC §9, §7). It is read once, when the output is opened:
// robotsmith's block is rendered from the config and merged into it, and the merged file is
// parsed once. Every check and explain reads that parse, so each sees robots.txt as the run leaves
// it; build writes the merged bytes with the other files.

// maxRobotsTxt bounds the robots.txt robotsmith reads to merge its block into. Google reads 500
// KiB of a robots.txt; a larger file is kept whole, up to this.
const maxRobotsTxt = 64 << 20

// robotsTxt is robots.txt at the output root as this run leaves it.
type robotsTxt struct {
	name string      // the file, as messages name it
	rel  string      // the file to write: robots.txt, or the file of the output a link of that name leads to
	info fs.FileInfo // the file as read, for writeFile; nil when there is none
	old  []byte      // as it is; nil when there is none
	// skip, when not nil, is why the file can be neither read nor written (a link out of the
	// output, a FIFO): a warning, and an error when robotsmith's block has something to say.
	skip  *problem.Problem
	data  []byte // as the run leaves it: robotsmith's block merged into old
	file  *robotstxt.File
	block *robotsblock.Block // as rendered from the config; its Text is empty when it asks for nothing
	first int                // the line of data where the block's begin marker is; 0 when it has none (or beyond what is parsed)
}

// readRobotsTxt reads robots.txt at the output root, merges robotsmith's block into it and parses
// the result. A file that is not a regular file is a warning and is left alone, unread; problems
// with the config's robots_txt and ai (sitemaps without a base URL) and a block whose end marker
// is missing are errors.
func (out *output) readRobotsTxt() (*robotsTxt, error) {
	sf, err := out.readSiteFile("robots.txt")
	if err != nil {
		return nil, err
	}
	if len(sf.data) > maxRobotsTxt {
		return nil, &safefs.SizeError{Name: out.outName(sf.rel), Size: int64(len(sf.data)), Limit: maxRobotsTxt}
	}
	r := &robotsTxt{name: out.outName(sf.rel), rel: sf.rel, info: sf.info, old: sf.data, skip: sf.skip}
	if r.skip != nil {
		w := *r.skip
		w.Msg += "; left alone and not read"
		out.warnings = append(out.warnings, w)
	}
	// The file without robotsmith's block: an unclosed block is an error here, before anything
	// is decided (*markers.Error names the line).
	rest, err := markers.Merge(r.old, nil)
	if me := (*markers.Error)(nil); errors.As(err, &me) {
		me.File = r.name
	}
	if err != nil {
		return nil, err
	}
	cfg := out.p.Config()
	in := robotsInput(cfg, out.sitemapPaths(), out.p.Site().BaseURL)
	if len(in.Sitemaps) > 0 {
		// A Sitemap: line the rest of the file has already (a theme's, the generator's) is not
		// written again.
		for l := range robotstxt.Lines(rest) {
			if l.Kind == robotstxt.Sitemap {
				in.Listed = append(in.Listed, l.Value)
			}
		}
	}
	r.block, err = robotsblock.Render(in)
	if err != nil {
		return nil, configErrors(cfg.File, err)
	}
	if r.data, err = robotsblock.Merge(r.old, r.block); err != nil {
		return nil, err // not reached: the block was found closed above
	}
	r.file = robotstxt.Parse(r.data)
	for _, c := range r.file.Comments {
		if strings.TrimSpace("#"+c.Comment) == markers.Begin {
			r.first = c.Num
			break
		}
	}
	return r, nil
}

// creates reports whether the run makes robots.txt: there is none, and robotsmith's block has
// something to say (robotsTxtStep writes it).
func (r *robotsTxt) creates() bool { return r.info == nil && r.skip == nil && len(r.data) > 0 }

// robotsInput is what robotsblock renders the block of robots.txt from: robots_txt and ai, as
// config read and checked them, with the site's sitemaps (URL paths as served, when
// robots_txt.sitemaps asks for them) and its base URL, which the generator gives.
func robotsInput(c *config.Config, sitemaps []string, baseURL string) robotsblock.Input {
	in := robotsblock.Input{AI: c.AI, BaseURL: baseURL, SitemapsLine: c.RobotsTxt.SitemapsLine}
	for _, g := range c.RobotsTxt.Groups {
		in.Groups = append(in.Groups, robotsblock.Group{Agents: g.Agents, Disallow: g.Disallow, Allow: g.Allow})
	}
	if c.RobotsTxt.Sitemaps {
		in.Sitemaps = sitemaps
	}
	return in
}

// configErrors gives each *robotsblock.Error in err (joined) the config file's name.
func configErrors(file string, err error) error {
	var out []error
	for _, e := range unjoin(err) {
		var be *robotsblock.Error
		if errors.As(e, &be) {
			e = &config.Error{File: file, Line: be.Line, Err: be.Err}
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// unjoin lists the errors errors.Join put together in err, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// sitemapPaths are the URL paths of the site's sitemaps that robots.txt's Sitemap: lines name:
// sitemap.xml at the output root, which Hugo and Jekyll write (as a sitemap index where a site has
// several, so the one line reaches them all).
func (out *output) sitemapPaths() []string {
	if fi, err := out.root.Stat("sitemap.xml"); err == nil && fi.Mode().IsRegular() {
		return []string{"/sitemap.xml"}
	}
	return nil
}

// inBlock reports whether line num of the merged file lies in robotsmith's block.
func (r *robotsTxt) inBlock(num int) bool {
	return r.first > 0 && num >= r.first && num < r.first+bytes.Count(r.block.Text, []byte("\n"))
}

// blockRule is a rule of robotsmith's block with its parsed line.
type blockRule struct {
	robotsblock.Rule
	parsed *robotstxt.Rule // the line in the merged file; nil when it lies beyond what is parsed
}

// rules are the Allow and Disallow lines of robotsmith's block, each with its parsed line.
func (r *robotsTxt) rules() []blockRule {
	if r.first == 0 {
		return nil
	}
	at := map[int]*robotstxt.Rule{}
	for gi := range r.file.Groups {
		rs := r.file.Groups[gi].Rules
		for i := range rs {
			if r.inBlock(rs[i].Num) {
				at[rs[i].Num] = &rs[i]
			}
		}
	}
	out := make([]blockRule, 0, len(r.block.Rules))
	for _, br := range r.block.Rules {
		out = append(out, blockRule{br, at[r.first+br.Line-1]})
	}
	return out
}

// crawler is the merged groups that the agent named by a User-agent token of the block obeys: the
// "*" groups for "*", and otherwise the groups of the token as Google's parser reads it
// (robotstxt.ProductToken: AI2Bot names the crawler "AI"). ok is false for a token that parser
// reads as no token at all.
func (r *robotsTxt) crawler(agent string) (c robotstxt.Crawler, token string, ok bool) {
	if agent == "*" {
		return r.file.Crawler(), "*", true
	}
	token = robotstxt.ProductToken(agent)
	if token == "" {
		return robotstxt.Crawler{}, "", false
	}
	return r.file.Crawler(token), token, true
}

// origin names where a rule of the block comes from in the config, for messages:
// "robots_txt.groups[2] at robotsmith.yaml:14", "ai.block at robotsmith.yaml:20".
func origin(cfg *config.Config, br robotsblock.Rule) string {
	switch {
	case br.Group >= 0:
		return fmt.Sprintf("robots_txt.groups[%d] at %s:%d", br.Group+1, cfg.File, cfg.RobotsTxt.Groups[br.Group].Line)
	case br.Crawler != "":
		return fmt.Sprintf("ai.block at %s:%d", cfg.File, cfg.AI.BlockLine)
	}
	return fmt.Sprintf("ai at %s:%d", cfg.File, cfg.AI.Line)
}

// overruled is SPEC §9's merge check: each rule of robotsmith's block that a line outside the
// block cancels once a crawler merges the groups that name it (RFC 9309), as an error finding that
// names both lines. A user's `Allow: /` for GPTBot elsewhere in the file cancels the block's
// `Disallow: /` for it.
func (ps *pass) overruled() []problem.Problem {
	r := ps.out.robots
	shown := r.name
	var out []problem.Problem
	// One finding for each line that cancels a rule for a crawler as Google's parser reads it:
	// AI2Bot and Ai2Bot-Dolma are one crawler "AI" to it, and one theme line cancels both groups'
	// Disallow: /.
	seen := map[string]bool{}
	for _, br := range r.rules() {
		if br.parsed == nil || br.parsed.Pattern == "" {
			continue
		}
		for _, a := range br.Agents {
			c, token, ok := r.crawler(a)
			if !ok {
				continue
			}
			by := c.Overruled(br.parsed)
			if by == nil || r.inBlock(by.Num) {
				continue
			}
			key := fmt.Sprint(by.Num, "\x00", strings.ToLower(token), "\x00", br.parsed.Pattern)
			if seen[key] {
				continue
			}
			seen[key] = true
			who := "every group for *"
			if token != "*" {
				who = "every group that names " + token
				if !strings.EqualFold(token, a) {
					who += fmt.Sprintf(" (Google's parser reads User-agent: %s as %s)", a, token)
				}
			}
			why := "an Allow at least as long as a Disallow wins"
			if !by.Allow() {
				why = "the longer rule wins"
			}
			p := problem.Newf(problem.RobotsBlockCancelled, problem.Position{File: shown, Line: br.parsed.Num},
				"%s: %s for %s (robotsmith's block, from %s) is cancelled by line %d, %s: %s: a crawler merges %s, and %s",
				br.parsed.Key, br.parsed.Value, a, origin(ps.p.Config(), br.Rule), by.Num, by.Key, by.Value, who, why)
			p.Related = []problem.Related{{Position: problem.Position{File: shown, Line: by.Num}, Msg: by.Key + ": " + by.Value + ", which cancels it"}}
			out = append(out, *p)
		}
	}
	return out
}

// robotsTxtStep is robots.txt's part of a run, after every file is decided: it refuses a Disallow of
// robotsmith's block that would hide a page's noindex (errors), reports the block's rules that the
// rest of the file cancels (findings), and, when there is no error, writes the merged
// file (writeFile) and counts it as a change. ok is false when the run already failed: then
// nothing is written or counted.
func (ps *pass) robotsTxtStep(rep *Report, ok bool) error {
	r := ps.out.robots
	if err := ps.hiddenNoindex(); err != nil {
		return err
	}
	rep.Findings = append(rep.Findings, ps.overruled()...)
	if !ok || bytes.Equal(r.data, r.old) && !r.creates() {
		return nil
	}
	if r.skip != nil {
		return &problem.Problem{Code: problem.RobotsTxtUnwritable, Severity: problem.RobotsTxtUnwritable.Severity(), Position: r.skip.Position,
			Msg: fmt.Sprintf("%s, so robotsmith cannot write its block (robots_txt and ai in %s) there; make it a file", r.skip.Msg, ps.p.Config().File)}
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, r.rel)
	return ps.out.writeFile(r.rel, r.info, r.data)
}

// fileCrawlPath is the path a crawler asks robots.txt about for the output file served at the URL
// path u (plan.Record.URL: as served, not encoded), under the site's base URL.
func (ps *pass) fileCrawlPath(u string) string {
	if ps.crawlPaths != nil {
		return ps.crawlPaths.path(ps.p.URLs(), u)
	}
	return crawlPathOf(ps.p.URLs(), u)
}

func crawlPathOf(urls plan.URLs, u string) string { return plan.CrawlPath(urls.Page(u).Pathname()) }

// hiddenNoindex is SPEC §9's refusal: a Disallow that robotsmith's block writes from
// robots_txt.groups over a page or file that is noindex for a crawler the rule keeps out would hide
// that noindex (a crawler kept out never reads it, and a search engine may still list the URL: §7
// finding 1, "Indexed, though blocked by robots.txt"). Each such rule and crawler is an error
// naming the rule, the first page and how many more there are.
//
// Exempt are the groups ai.block writes and, in robots_txt.groups, crawlers that the catalogue
// lists as no search engine (GPTBot, CCBot, facebookexternalhit): they keep no search index for a
// noindex to keep a page out of, and keeping them out of the whole site is what the user asks;
// refusing would make ai.block unusable on any site with a single noindex page. "*" and crawlers
// the catalogue does not know are checked.
func (ps *pass) hiddenNoindex() error {
	r := ps.out.robots
	type watched struct {
		agent, token string
		c            robotstxt.Crawler
	}
	var ws []watched
	refusable := map[int]blockRule{} // by line in the merged file
	seen := map[string]bool{}
	cat := crawlers.Default()
	for _, br := range r.rules() {
		if br.Group < 0 || br.Allow || br.Path == "" || br.parsed == nil {
			continue
		}
		refusable[br.parsed.Num] = br
		for _, a := range br.Agents {
			c, token, ok := r.crawler(a)
			if cr, known := cat.Lookup(a); !ok || seen[strings.ToLower(token)] || known && !cr.Has(crawlers.SearchEngine) {
				continue
			}
			seen[strings.ToLower(token)] = true
			ws = append(ws, watched{a, token, c})
		}
	}
	if len(ws) == 0 {
		return nil
	}
	type hit struct {
		rule  blockRule
		agent string
		first *plan.Record
		more  int
	}
	var hits []*hit
	byKey := map[string]*hit{}
	obeysStar := map[string]bool{} // meta name → the crawler has no group of its own
	for i := range ps.files {
		f := &ps.files[i]
		v := f.Verdict()
		if v == nil || v.Class == rules.ErrorPage || v.Class == rules.Redirect {
			continue
		}
		all := v.Noindex("robots")
		var names []string // the crawlers told noindex by a tag of their own
		if !all {
			for _, t := range v.Directives.Tags {
				if t.Noindex() { // robots is not noindex, and a page has one tag a name
					names = append(names, t.Name)
				}
			}
			if len(names) == 0 {
				continue
			}
		}
		p := ps.fileCrawlPath(f.URL())
		for _, w := range ws {
			applies := all
			for _, n := range names {
				if w.token == "*" {
					star, ok := obeysStar[n]
					if !ok {
						star = !r.file.Crawler(n).Specific
						obeysStar[n] = star
					}
					applies = applies || star
				} else {
					applies = applies || strings.EqualFold(n, w.token)
				}
			}
			if !applies {
				continue
			}
			d := w.c.Decide(p)
			if d.Allowed || d.Rule == nil {
				continue
			}
			br, ok := refusable[d.Rule.Num]
			if !ok {
				continue
			}
			key := fmt.Sprint(d.Rule.Num, "\x00", strings.ToLower(w.token))
			if h := byKey[key]; h != nil {
				h.more++
				continue
			}
			h := &hit{rule: br, agent: w.agent, first: f}
			byKey[key] = h
			hits = append(hits, h)
		}
	}
	var errs []error
	cfg := ps.p.Config()
	for _, h := range hits {
		more := ""
		if h.more > 0 {
			more = fmt.Sprintf(", and %d more", h.more)
		}
		g := h.rule.Group
		p := problem.Newf(problem.DisallowHidesNoindex, problem.Position{File: cfg.File, Line: cfg.RobotsTxt.Groups[g].Line},
			`robots_txt.groups[%d]: Disallow: %s for %s would hide the noindex of %s (%s%s): a crawler kept out never reads it, and a search engine may still list the URL ("Indexed, though blocked by robots.txt"); let the crawler in there, or drop the noindex`,
			g+1, h.rule.Path, h.agent, h.first.URL(), ps.out.outName(h.first.Rel()), more)
		p.Related = []problem.Related{ps.noindexAt(ps.p.NoindexSource(h.first, h.agent), h.first)}
		errs = append(errs, p)
	}
	return errors.Join(errs...)
}

// robots is robots.txt as parsed once for the run, with the crawlers asked about so far.
type robots struct {
	name string // as messages name it: public/robots.txt
	file *robotstxt.File
	// crawlers are the groups each agent obeys, by robotsmith's agent name ("robots" for a
	// crawler no group names). Filled as agents are asked about, by one goroutine.
	crawlers map[string]robotstxt.Crawler
	named    []string // the product tokens robots.txt's groups name, lower case, each once
}

// model is robots.txt for the indexability model: the run's one parse of it (readRobotsTxt),
// robotsmith's block merged.
func (rt *robotsTxt) model() *robots {
	r := &robots{name: rt.name, file: rt.file, crawlers: map[string]robotstxt.Crawler{}}
	for _, g := range r.file.Groups {
		for _, a := range g.Agents {
			if t := strings.ToLower(a.Token); t != "" && !slices.Contains(r.named, t) {
				r.named = append(r.named, t)
			}
		}
	}
	return r
}

// crawler is what the crawler robotsmith calls agent obeys: for "robots" (every crawler), the
// groups of a crawler that no group names; Google's other crawlers (googlebot-news,
// googlebot-image) fall back to Googlebot's group, as Google documents.
func (r *robots) crawler(agent string) robotstxt.Crawler {
	if c, ok := r.crawlers[agent]; ok {
		return c
	}
	var c robotstxt.Crawler
	switch {
	case agent == "robots":
		c = r.file.Crawler()
	case strings.HasPrefix(agent, "googlebot-"):
		c = r.file.Crawler(agent, "googlebot")
	default:
		c = r.file.Crawler(agent)
	}
	r.crawlers[agent] = c
	return c
}

// disallowedForAll returns the rule that keeps every crawler from the path (plan.CrawlPath), or nil when
// some crawler may fetch it: a crawler no group names, and each one a group names, must all be
// kept out.
func (r *robots) disallowedForAll(path string) *robotstxt.Rule {
	d := r.crawler("robots").Decide(path)
	if d.Allowed {
		return nil
	}
	for _, name := range r.named {
		if r.crawler(name).Decide(path).Allowed {
			return nil
		}
	}
	return d.Rule
}
