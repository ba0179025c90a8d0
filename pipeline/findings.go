package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
)

// The contradictions of the indexability records (SPEC §7), each naming both sides with file:line.
// Errors: a noindex that robots.txt hides from a crawler (1), a sitemap entry that is noindex, has
// no file or is disallowed for every crawler (2, sitemaps.go), a canonical or hreflang link of an
// indexable page to a URL that is noindex or has no file (3). Warnings: a noindex page whose
// canonical points elsewhere (4), the home page or every page noindex outside a preview (5), a
// page's tags that its _headers rule contradicts (6, headers.go).

// findings collects a run's findings, each once: what makes two the same is a key (the pager pages
// of one list, noindexed by one front matter key and disallowed by one line of robots.txt, are one
// finding), and the others like it are counted.
type findings struct {
	list  []*finding
	byKey map[string]*finding
}

type finding struct {
	p    problem.Problem
	more int // others like it
}

func newFindings() *findings { return &findings{byKey: map[string]*finding{}} }

// add records a finding of code at pos, naming the other side (related, where there is one),
// unless one of the same code and key is there: then it is counted.
func (fs *findings) add(code problem.Code, key string, pos problem.Position, related []problem.Related, format string, args ...any) {
	key = code.String() + "\x00" + key
	if f := fs.byKey[key]; f != nil {
		f.more++
		return
	}
	p := problem.Newf(code, pos, format, args...)
	p.Related = related
	f := &finding{p: *p}
	fs.list = append(fs.list, f)
	fs.byKey[key] = f
}

// report adds the findings to rep, each by its severity: findings (check exits 1), warnings.
func (fs *findings) report(rep *Report) {
	for _, f := range fs.list {
		p := f.p
		if f.more > 0 {
			p.Msg += fmt.Sprintf(" (and %s like it)", Plural(f.more, "more URL"))
		}
		if p.Severity == problem.Warning {
			rep.Warnings = append(rep.Warnings, p)
		} else {
			rep.Findings = append(rep.Findings, p)
		}
	}
}

// place is where a finding about a file's noindex is reported: its source's file and line, or the
// output file.
func (ps *pass) place(s plan.NoindexBy, f *plan.Record) problem.Position {
	if s.File == "" {
		return problem.Position{File: ps.out.outName(f.Rel())}
	}
	return problem.Position{File: s.File, Line: s.Line}
}

// noindexAt is the noindex of the file f (its source s, plan.Plan.NoindexSource) as the other side
// of a finding: at its source's place, or the output file's.
func (ps *pass) noindexAt(s plan.NoindexBy, f *plan.Record) problem.Related {
	return problem.Related{Position: ps.place(s, f), Msg: f.URL() + " is noindex (" + s.String() + ")"}
}

// owner names what decides a file, for telling findings apart: its source page, or the file.
func (ps *pass) owner(f *plan.Record) string {
	if s := ps.p.SourceOf(f); s != "" {
		return s
	}
	return f.Path()
}

// searchAgents are the crawlers whose reading of robots.txt matters for a noindex for every
// crawler: one that no group names, and the search engines whose tags robotsmith writes. A group
// for a crawler that does not index for search (GPTBot) hides nothing a search engine needs.
var searchAgents = [...]string{"robots", "googlebot", "bingbot"}

// crawlFindings is finding 1: a file noindex for a crawler that robots.txt keeps from crawling it,
// so that the crawler never sees the noindex and may index the URL from links alone.
func (ps *pass) crawlFindings(m *model, fs *findings) {
	for i := range ps.files {
		f := &ps.files[i]
		v := f.Verdict()
		if v == nil || v.Class == rules.ErrorPage || v.Class == rules.Redirect {
			continue
		}
		all := v.Noindex("robots")
		agents := searchAgents[:]
		if !all {
			agents = nil
		}
		for _, t := range v.Directives.Tags {
			// One tag a name: t's own and the robots tag decide (a page may name thousands of agents).
			if t.Name != "robots" && (all || t.Noindex()) && !(all && slices.Contains(searchAgents[:], t.Name)) {
				agents = append(agents, t.Name)
			}
		}
		if len(agents) == 0 {
			continue
		}
		path := ps.fileCrawlPath(f.URL())
		// The agents kept out, by the line that keeps them out.
		var order []int
		blocked := map[int][]string{}
		rule := map[int]string{}
		for _, a := range agents {
			d := m.robots.crawler(a).Decide(path)
			if d.Allowed || d.Rule == nil {
				continue
			}
			if _, ok := blocked[d.Rule.Num]; !ok {
				order = append(order, d.Rule.Num)
				rule[d.Rule.Num] = d.Rule.Key + ": " + d.Rule.Value
			}
			blocked[d.Rule.Num] = append(blocked[d.Rule.Num], a)
		}
		for _, n := range order {
			src := ps.p.NoindexSource(f, blocked[n][0])
			disallow := problem.Related{Position: problem.Position{File: m.robots.name, Line: n},
				Msg: rule[n] + " keeps " + strings.Join(blocked[n], ", ") + " from crawling " + f.URL()}
			fs.add(problem.NoindexBlockedByRobotsTxt, src.String()+"\x00"+strconv.Itoa(n), ps.place(src, f), []problem.Related{disallow},
				"%s is noindex (%s), but %s:%d (%s) keeps %s from crawling it, so they never see the noindex and may index the URL from links alone (\"Indexed, though blocked by robots.txt\")",
				f.URL(), src, m.robots.name, n, rule[n], strings.Join(blocked[n], ", "))
		}
	}
}

// linkFindings are findings 3 and 4: a canonical or hreflang link of an indexable page to a URL of
// the site that is noindex or has no file (an error: the page hands its signals to a URL that
// cannot take them), and a noindex page whose canonical points at another URL (a warning: mixed
// signals; a canonical to itself is fine).
func (ps *pass) linkFindings(fs *findings) {
	for i := range ps.files {
		f := &ps.files[i]
		v := f.Verdict()
		if v == nil {
			continue
		}
		for _, l := range ps.links.Of(f) {
			to, ok := l.Target()
			link := problem.Position{File: ps.out.outName(f.Rel()), Line: l.Line()}
			at := link.String()
			what := l.Kind().String()
			if l.Kind() == plan.Hreflang {
				what = "hreflang " + ps.links.Lang(l)
			}
			if l.Relative() && v.Class == rules.Public {
				fs.add(problem.HreflangRelative, "", link, nil,
					"the %s link of %s is a relative URL (to %s): search engines ignore an hreflang link that is not absolute; %s",
					what, f.URL(), ps.linkPath(l), ps.absoluteAdvice())
			}
			switch v.Class {
			case rules.Public:
				var (
					target, why, key string
					related          []problem.Related
				)
				switch {
				case !ok:
					target = ps.links.MissingPath(l)
					why, key = "has no file in "+ps.out.name, target
				case ps.files[to].Verdict() != nil && ps.files[to].Verdict().Noindex("robots"):
					t := &ps.files[to]
					src := ps.p.NoindexSource(t, "robots")
					target, key = t.URL(), ps.owner(t)
					why = "is noindex (" + src.String() + ")"
					related = []problem.Related{ps.noindexAt(src, t)}
				default:
					continue
				}
				fs.add(problem.LinkToUnindexable, what+"\x00"+ps.owner(f)+"\x00"+key, link, related,
					"the %s link of %s points at %s, which %s: the page hands its signals to a URL that cannot take them",
					what, f.URL(), target, why)
			case rules.NonPublic:
				if l.Kind() != plan.Canonical || to == i {
					continue
				}
				dest := ps.linkPath(l)
				src := ps.p.NoindexSource(f, "robots")
				canonical := problem.Related{Position: link, Msg: "the canonical link, to " + dest}
				fs.add(problem.NoindexCanonicalElsewhere, ps.owner(f)+"\x00"+dest, ps.place(src, f), []problem.Related{canonical},
					"%s is noindex (%s), but its canonical (%s) points at %s: mixed signals (noindex says drop this URL, the canonical says index it as another); make it canonical to itself or drop the noindex",
					f.URL(), src, at, dest)
			}
		}
	}
}

// linkPath is the URL path within the site that l points at.
func (ps *pass) linkPath(l plan.Link) string {
	if to, ok := l.Target(); ok {
		return ps.files[to].URL()
	}
	return ps.links.MissingPath(l)
}

// absoluteAdvice is what to do about a relative URL where search engines want an absolute one
// (a sitemap's <loc>, a Sitemap: line, an hreflang link): the generator writes absolute URLs from
// the site's base URL, when it has one.
func (ps *pass) absoluteAdvice() string {
	urls := ps.p.URLs()
	switch gen := ps.p.Site().Generator; {
	case urls.Own():
		return "write it absolute, under the site's base URL " + urls.Base().Href(false)
	case gen == site.Hugo:
		return "set the site's base URL (baseURL in Hugo's configuration), from which Hugo writes absolute URLs"
	case gen == site.Jekyll:
		return "set the site's base URL (url in _config.yml), from which Jekyll writes absolute URLs"
	}
	return "write it absolute (https://your.site/...)"
}

// stagingFindings is finding 5: the home page noindex, or every page, in a build that is not a
// preview: a staging setting shipped to production.
func (ps *pass) stagingFindings(fs *findings) {
	if ps.p.Preview() {
		return
	}
	pages, noindex := 0, 0
	home := -1
	for i := range ps.files {
		f := &ps.files[i]
		if f.Verdict() == nil || !f.HTML() || f.Skipped() {
			continue
		}
		switch f.Verdict().Class {
		case rules.Public:
			pages++
		case rules.NonPublic:
			pages++
			noindex++
		default:
			continue
		}
		if f.Rel() == "index.html" {
			home = i
		}
	}
	switch {
	case pages > 1 && noindex == pages:
		f := &ps.files[max(home, 0)]
		if home < 0 {
			for i := range ps.files {
				if v := ps.files[i].Verdict(); v != nil && v.Class == rules.NonPublic {
					f = &ps.files[i]
					break
				}
			}
		}
		src := ps.p.NoindexSource(f, "robots")
		fs.add(problem.NoindexInProduction, "", ps.place(src, f), nil,
			"every page of the site (%d) is noindex, %s by %s, in a build that is not a preview: a staging setting shipped to production?",
			pages, f.URL(), src)
	case home >= 0 && ps.files[home].Verdict().Class == rules.NonPublic:
		f := &ps.files[home]
		src := ps.p.NoindexSource(f, "robots")
		fs.add(problem.NoindexInProduction, "", ps.place(src, f), nil,
			"the home page / is noindex (%s) in a build that is not a preview: a staging setting shipped to production?",
			src)
	}
}

// headerFindings is finding 6: a page whose own robots tags say otherwise than the X-Robots-Tag a
// rule of the site's own _headers (outside robotsmith's block) sends for it, about noindex or
// nofollow: the crawler obeys the more restrictive, so one of the two is not what happens. Pages
// that robotsmith's block gives lines of their own are headers.Lint's (the rules then clash in
// _headers itself). One finding per rule, the pages it contradicts counted.
func (ps *pass) headerFindings(name string, existing []byte) []problem.Problem {
	if len(existing) == 0 {
		return nil
	}
	fs := newFindings()
	for _, u := range headers.UserRobotsTags(existing, ps.p.Format()) {
		said := headers.Interpret(u.Value)
		rule := problem.Position{File: name, Line: u.Line}
		if w := said.Warning; w != nil {
			fs.add(w.Code, strconv.Itoa(u.Line), rule, nil, "rule %s: X-Robots-Tag: %s", excerpt.Cut(u.Path), w.Msg)
		}
		for i := range ps.files {
			f := &ps.files[i]
			v := f.Verdict()
			if v == nil || !f.HTML() || f.Skipped() || (v.Class != rules.Public && v.Class != rules.NonPublic) || len(ps.p.HeaderLines(f)) > 0 {
				continue
			}
			served := f.URL()
			if !u.Matches(served) && !(strings.HasSuffix(served, ".html") && u.Matches(strings.TrimSuffix(served, ".html"))) {
				continue
			}
			if d := disagreement(v, said); d != "" {
				page := problem.Related{Position: problem.Position{File: ps.out.outName(f.Rel())}, Msg: "its robots tags say " + d}
				fs.add(problem.TagsDisagreeWithHeader, strconv.Itoa(u.Line), rule, []problem.Related{page},
					"rule %s sends X-Robots-Tag: %s for %s (%s), whose robots tags say %s: crawlers obey the more restrictive of the two",
					excerpt.Cut(u.Path), excerpt.Cut(u.Value), served, ps.out.outName(f.Rel()), d)
			}
		}
	}
	rep := &Report{}
	fs.report(rep)
	return rep.Warnings
}

// disagreement says how a page's tags (v) and an X-Robots-Tag value (h) differ about noindex or
// nofollow, for every crawler or for an agent the header names: the page's side ("index, follow"),
// or "" when they agree.
func disagreement(v *rules.Verdict, h headers.Directives) string {
	content := func(agent string) string {
		for _, t := range v.Directives.Tags {
			if t.Name == agent {
				return t.Content
			}
		}
		for _, t := range v.Directives.Tags {
			if t.Name == "robots" {
				return t.Content
			}
		}
		return ""
	}
	// Only what the header says counts: one that says nothing of indexing agrees with any page.
	differs := func(page string, said map[string]bool) bool {
		has := func(tok string) bool {
			for x := range strings.SplitSeq(page, ",") {
				if strings.TrimSpace(x) == tok {
					return true
				}
			}
			return false
		}
		noindex, nofollow := has("noindex"), has("nofollow")
		return (said["noindex"] || said["none"]) && !noindex || (said["index"] || said["all"]) && noindex ||
			(said["nofollow"] || said["none"]) && !nofollow || (said["follow"] || said["all"]) && nofollow
	}
	if len(h.Generic) > 0 && differs(content("robots"), h.Generic) {
		return content("robots")
	}
	agents := slices.Sorted(maps.Keys(h.Agents))
	for _, agent := range agents {
		if differs(content(agent), h.Agents[agent]) {
			return agent + ": " + content(agent)
		}
	}
	return ""
}
