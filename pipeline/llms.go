package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/llmstxt"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotstxt"
	"github.com/robotsmith/robotsmith/rules"
)

// llms.txt and llms-full.txt at the output root are one more signal of the indexability model
// (SPEC §9): a link to a URL of the site that the other signals keep from AI readers (noindex for
// every crawler, no file, disallowed for every AI crawler of the catalogue, or said no to for AI
// input) is pruned (llms_txt: prune, the default), reported (keep), or never written (generate,
// which writes robotsmith's own llms.txt from the indexable pages). The files are read whole (at
// most llmstxt.MaxSize) and written with the run's other files, in its one transaction.

// llmsFiles are the files of the output root robotsmith reads as llms.txt.
var llmsFiles = [...]string{"llms.txt", "llms-full.txt"}

// llmsListing is one link of an llms.txt to a file of the site.
type llmsListing struct {
	file int32 // index in the pass's files
	line int32 // the link's line
	llms uint8 // index in model.llms
}

// llmsTxt reads (and prunes, or writes) llms.txt and llms-full.txt as the config's llms_txt says,
// recording which files they link (m.llmsListed); mode listSitemaps (explain) only records.
func (ps *pass) llmsTxt(m *model, fs *findings, rep *Report, mode sitemapMode) error {
	llmsMode := ps.p.Config().LLMsTxtMode()
	if llmsMode == "off" {
		return nil
	}
	why := ps.llmsWhy(m)
	drop := func(url string) (bool, string) {
		r := why(url)
		return r != "", r
	}
	for _, rel := range llmsFiles {
		generate := rel == "llms.txt" && llmsMode == "generate" && mode != listSitemaps
		if ps.fileIndex(rel) < 0 && !generate {
			continue
		}
		sf, err := ps.out.readSiteFile(rel)
		if err != nil {
			return err
		}
		name := ps.out.outName(sf.rel)
		if sf.skip != nil {
			w := *sf.skip
			w.Msg += "; left alone and not read"
			rep.Warnings = append(rep.Warnings, w)
			continue
		}
		id := uint8(len(m.llms))
		m.llms = append(m.llms, sf.rel)
		f, err := llmstxt.Parse(sf.data)
		if err != nil {
			rep.Warnings = append(rep.Warnings, llmsUnreadable(name, err))
			continue
		}
		for _, l := range f.Links {
			if to := ps.llmsTarget(l.URL); to >= 0 {
				m.llmsListed = append(m.llmsListed, llmsListing{file: int32(to), line: int32(l.Line), llms: id})
			}
		}
		if mode == listSitemaps {
			continue
		}
		if llmsMode == "keep" {
			for _, l := range f.Links {
				if r := why(l.URL); r != "" {
					fs.add(problem.LLMsTxtListsUnindexable, fmt.Sprintf("%s:%d", name, l.Line), problem.Position{File: name, Line: l.Line}, nil,
						"%s links %.80s, which %s; with `llms_txt: keep` robotsmith leaves it there", rel, l.URL, r)
				}
			}
			continue
		}
		out, pruned, err := llmstxt.Prune(sf.data, drop)
		if err != nil {
			rep.Warnings = append(rep.Warnings, llmsUnreadable(name, err))
			continue
		}
		if generate {
			info, pages, err := ps.llmsPages(why)
			if err != nil {
				return err
			}
			if out, err = llmstxt.Update(out, info, pages); err != nil {
				var le *llmstxt.LocateError
				if errors.As(err, &le) {
					rep.Warnings = append(rep.Warnings, llmsUnreadable(name, err))
					continue
				}
				return problem.Wrap(0, problem.Position{File: name}, err)
			}
		} else if len(pruned) == 0 {
			continue
		}
		if string(out) == string(sf.data) && sf.data != nil {
			continue
		}
		rep.Changed++
		rep.ChangedFiles = append(rep.ChangedFiles, sf.rel)
		if err := ps.out.writeFile(sf.rel, sf.info, out); err != nil {
			return err
		}
	}
	slices.SortStableFunc(m.llmsListed, func(a, b llmsListing) int { return cmp.Compare(a.file, b.file) })
	return nil
}

// llmsUnreadable is the warning for an llms.txt that robotsmith cannot read completely: it is left
// as it is.
func llmsUnreadable(name string, err error) problem.Problem {
	line := 0
	var le *llmstxt.LimitError
	var lo *llmstxt.LocateError
	switch {
	case errors.As(err, &le):
		line = le.Line
	case errors.As(err, &lo):
		line = lo.Line
	}
	return *problem.Newf(problem.LLMsTxtUnreadable, problem.Position{File: name, Line: line}, "%v; left as it is, unpruned", err)
}

// llmsTarget is the index of the file of the site that a link of llms.txt points at, -1 for a
// link to another site or to a URL of the site that no file serves.
func (ps *pass) llmsTarget(href string) int {
	p, _, ok := ps.llmsPath(href)
	if !ok {
		return -1
	}
	return ps.fileOf(p)
}

// llmsPath resolves a link of llms.txt (at the output root, so relative links resolve against the
// base URL) to its URL path within the site and the path a crawler asks robots.txt about; ok is
// false for a link to another site. On a site without a base URL of its own, an absolute link is
// matched by its path, as a sitemap's Sitemap: line is.
func (ps *pass) llmsPath(href string) (p, crawl string, ok bool) {
	urls := ps.p.URLs()
	abs, err := urls.Base().Parse(strings.TrimSpace(href))
	if err != nil {
		return "", "", false
	}
	if p, ok = urls.SitePath(abs, !urls.Own()); !ok {
		return "", "", false
	}
	return p, plan.CrawlPath(abs.Pathname() + abs.Search()), true
}

// llmsWhy returns the function that says why a link of llms.txt is not to be listed, "" when it
// may be: a URL of the site that is noindex for every crawler, is an error page or has no file
// (as a sitemap's entries are pruned), that robots.txt disallows for every AI crawler of the
// catalogue, or when the ai policy says no to AI input. Each URL is decided once.
func (ps *pass) llmsWhy(m *model) func(url string) string {
	var ai []string
	for _, c := range crawlers.Default().Crawlers() {
		if slices.ContainsFunc(c.Purposes, crawlers.Purpose.IsAI) {
			ai = append(ai, c.Tokens...)
		}
	}
	cfg := ps.p.Config()
	memo := map[string]string{}
	return func(url string) string {
		if r, ok := memo[url]; ok {
			return r
		}
		r := ""
		if p, crawl, ok := ps.llmsPath(url); ok {
			to := ps.fileOf(p)
			switch {
			case !ps.indexable(to):
				r = ps.whyNotIndexable(to)
			case cfg.AI.Input == aipref.No:
				r = fmt.Sprintf("is kept from AI input by the ai policy (input: no at %s:%d)", cfg.File, cfg.AI.InputLine)
			default:
				if rule := m.robots.disallowedForAI(ai, crawl); rule != nil {
					r = fmt.Sprintf("is disallowed by robots.txt for every AI crawler of the catalogue (%s:%d: %s: %s)",
						m.robots.name, rule.Num, rule.Key, rule.Value)
				}
			}
		}
		memo[url] = r
		return r
	}
}

// disallowedForAI returns a rule that keeps the first of the AI crawlers' tokens from the path,
// when every one of them is kept from it; nil when one may fetch it.
func (r *robots) disallowedForAI(tokens []string, path string) *robotstxt.Rule {
	var first *robotstxt.Rule
	for _, t := range tokens {
		agent := strings.ToLower(robotstxt.ProductToken(t))
		if agent == "" {
			agent = "robots"
		}
		d := r.crawler(agent).Decide(path)
		if d.Allowed {
			return nil
		}
		if first == nil {
			first = d.Rule
		}
	}
	return first
}

// llmsListedIn are the llms.txt links to files[i].
func (m *model) llmsListedIn(i int) []llmsListing {
	lo, _ := slices.BinarySearchFunc(m.llmsListed, int32(i), func(l llmsListing, i int32) int { return cmp.Compare(l.file, i) })
	hi := lo
	for hi < len(m.llmsListed) && m.llmsListed[hi].file == int32(i) {
		hi++
	}
	return m.llmsListed[lo:hi]
}

// maxHead bounds what llms_txt: generate reads of a page for its <title> and meta description:
// they are in its <head>, and no more than this is read of any page.
const maxHead = 256 << 10

// maxHeadText bounds a title or description kept for llms.txt, in bytes.
const maxHeadText = 300

// llmsPages are the site and the pages llms_txt: generate lists: every HTML page that is
// indexable (not noindex for every crawler, not an error page or a redirect) and that no reason of
// why keeps from AI readers, in the order of the output's files, each grouped under its first path
// segment (llmsSections), with its Markdown twin where the output has one. The site's title and
// description are the home page's; where the home page is not listed or has no title, the title is
// the generator's (site.Site.Title), else the host name of the base URL: llmstxt.org requires the
// H1. Only each page's head is read, and only its title and description kept.
func (ps *pass) llmsPages(why func(string) string) (llmstxt.Info, []llmstxt.Page, error) {
	var (
		info  llmstxt.Info
		pages []llmstxt.Page
		lists = map[string]string{} // a section's list page's title, by folder
	)
	urls := ps.p.URLs()
	for i := range ps.files {
		f := &ps.files[i]
		v := f.Verdict()
		if !f.HTML() || f.Skipped() || v == nil || v.Noindex("robots") || v.Class == rules.ErrorPage || v.Class == rules.Redirect {
			continue
		}
		url := urls.Shown(urls.Page(f.URL()))
		if why(url) != "" {
			continue
		}
		title, desc, err := ps.pageHead(f.Rel())
		if err != nil {
			return info, nil, err
		}
		pg := llmstxt.Page{URL: url, Title: title, Description: desc, Markdown: ps.markdownTwin(f)}
		// A page below a folder is listed under the folder's name; one at the top, under
		// llmstxt.RootSection.
		if seg, rest, below := strings.Cut(strings.TrimPrefix(f.URL(), urls.Path()), "/"); below {
			pg.Section = seg
			if rest == "" && title != "" {
				lists[seg] = title
			}
		}
		if f.URL() == urls.Path() {
			info = llmstxt.Info{Title: title, Description: desc}
		}
		pages = append(pages, pg)
	}
	if info.Title == "" {
		info.Title = ps.p.Site().Title
	}
	if info.Title == "" && urls.Own() {
		info.Title = urls.Base().Hostname()
	}
	llmsSections(pages, lists)
	// The pages at the top (the home page first) come before the sections, as a site's own
	// llms.txt begins.
	slices.SortStableFunc(pages, func(a, b llmstxt.Page) int {
		return cmp.Compare(min(len(a.Section), 1), min(len(b.Section), 1))
	})
	return info, pages, nil
}

// llmsSections heads each section of pages (a folder's name, Page.Section) with the title of its
// list page (lists, by folder: the page at the folder's URL, listed, with a title), as the site
// names the section; a section without one keeps its folder's name. A title that two sections
// would share, or that another section's heading already is, would merge them under one heading:
// those keep their folders' names.
func llmsSections(pages []llmstxt.Page, lists map[string]string) {
	if len(lists) == 0 {
		return
	}
	heading := map[string]string{} // by folder
	uses := map[string]int{llmstxt.RootSection: 1}
	for _, pg := range pages {
		if _, ok := heading[pg.Section]; ok || pg.Section == "" {
			continue
		}
		h := cmp.Or(lists[pg.Section], pg.Section)
		heading[pg.Section] = h
		uses[h]++
	}
	for seg, h := range heading {
		if h != seg && (uses[h] > 1 || heading[h] != "") {
			heading[seg] = seg
		}
	}
	for i := range pages {
		if pages[i].Section != "" {
			pages[i].Section = heading[pages[i].Section]
		}
	}
}

// markdownTwin is the URL of a page's Markdown twin, where the output has one: index.md beside an
// index.html, a.md beside a.html, the page's file with .md added (llmstxt.org's index.html.md),
// or the folder's name with .md for a page that is a folder's index.html (a/b.md for
// a/b/index.html, as Hugo writes a Markdown output format with ugly URLs: the hextra theme's);
// "" when it has none.
func (ps *pass) markdownTwin(f *plan.Record) string {
	rel := f.Rel()
	base := strings.TrimSuffix(rel, ".html")
	twins := []string{base + ".md", rel + ".md"}
	if dir, ok := strings.CutSuffix(rel, "/index.html"); ok {
		twins = append(twins, dir+".md")
	}
	for _, twin := range twins {
		if i := ps.fileIndex(twin); i >= 0 {
			urls := ps.p.URLs()
			return urls.Shown(urls.Page(ps.files[i].URL()))
		}
	}
	return ""
}

// pageHead reads the <title> and the meta description of the page rel from its head, at most
// maxHead bytes of it, each cut to maxHeadText bytes.
func (ps *pass) pageHead(rel string) (title, desc string, err error) {
	fh, _, err := ps.out.folder.Open(rel)
	if err != nil {
		return "", "", ps.out.fileError(rel, err)
	}
	defer fh.Close()
	z := html.NewTokenizer(io.LimitReader(fh, maxHead))
	z.SetMaxBuf(maxHead)
	inTitle, gotTitle := false, false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return headText(title), headText(desc), nil
		case html.TextToken:
			if inTitle && !gotTitle {
				title += string(z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle, gotTitle = false, true
			case atom.Head:
				return headText(title), headText(desc), nil
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle = !gotTitle
			case atom.Body:
				return headText(title), headText(desc), nil
			case atom.Meta:
				var isDesc bool
				var content string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "name":
						isDesc = strings.EqualFold(strings.TrimSpace(string(v)), "description")
					case "content":
						content = string(v)
					}
				}
				if isDesc && desc == "" {
					desc = content
				}
			}
		}
	}
}

// headText is s with its white space runs made one space, cut to maxHeadText bytes at a character.
func headText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxHeadText {
		return s
	}
	s = s[:maxHeadText]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
