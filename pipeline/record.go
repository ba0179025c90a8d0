package pipeline

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/crawlers"
	ix "github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/robotstxt"
	"github.com/robotsmith/robotsmith/rules"
)

// recorder keeps, as the step decides each file, what the site-level steps do not know of it and
// the indexability record says: which source won each of its directives, and its canonical link as
// written. A file's directives and their sources are interned, so that the files decided alike
// (every page of a section a rule decides, every page whose template writes the same tag at the
// same line) share one entry, and a canonical link written as the page's own absolute URL (what
// a theme writes) is a flag: what it keeps for a site of 100,000 pages is 12 bytes a file, the
// other canonical links, and the distinct decisions.
type recorder struct {
	root string // the site's root, absolute: sources are named relative to it
	urls plan.URLs

	mu    sync.Mutex
	ids   map[string]uint32
	froms [][]ix.Agent     // by id - 1
	files []fileRecord     // parallel to the pass's files
	hrefs map[int32]string // the canonical links of the files whose canonical is canonOther
	bases map[int32]string // the <base href> of the pages that have one and a canonical link
}

// fileRecord is what the recorder keeps of one file.
type fileRecord struct {
	from  uint32 // 1 + the index of its agents in recorder.froms; 0 for none
	line  int32  // its canonical link's line in the page; 0 for none
	canon canonKind
}

type canonKind uint8

const (
	canonNone  canonKind = iota // no canonical link
	canonSelf                   // the page's own absolute URL, as urls.Shown writes it
	canonOther                  // any other href, in recorder.hrefs
)

// thisPage stands, in an interned source, for the output file the source is of: a page's own
// robots tag, which every page of a template carries at the same line.
const thisPage = "\x00"

func newRecorder(root string, urls plan.URLs, n int) *recorder {
	if root == "" {
		root = "."
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return &recorder{root: root, urls: urls, ids: map[string]uint32{}, files: make([]fileRecord, n),
		hrefs: map[int32]string{}, bases: map[int32]string{}}
}

// keep is the step's result r for files[i] (the output file at URL path url, which messages name
// name).
func (rc *recorder) keep(i int, url, name string, r *plan.Result) {
	fr := fileRecord{}
	var href, base string
	if r.Page != nil {
		for _, l := range r.Page.Links {
			if l.Rel == "canonical" {
				fr.line, fr.canon, href, base = int32(l.Line), canonOther, l.Href, r.Page.Base
				if base == "" && href == rc.urls.Shown(rc.urls.Page(url)) {
					fr.canon = canonSelf
				}
				break
			}
		}
	}
	// The key is the decision as it is, every value with its source, the page's own file left
	// out: most files are decided as many others were, and only the first is converted.
	var buf [512]byte
	key := buf[:0]
	for _, a := range r.Decision.Agents {
		key = append(append(key, a.Name...), 1)
		for _, v := range a.Values {
			src := v.Source
			if src.File == name && src.Kind == rules.FromPage {
				src.File = thisPage
			}
			key = append(append(key, v.Token...), 2, byte(src.Kind))
			key = append(append(key, src.File...), 2)
			key = strconv.AppendInt(append(strconv.AppendInt(key, int64(src.Line), 10), 2), int64(src.Rule), 10)
			key = append(append(append(key, 2), src.Key...), 1)
		}
		key = append(key, 3)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(r.Decision.Agents) > 0 {
		id, ok := rc.ids[string(key)]
		if !ok {
			rc.froms = append(rc.froms, rc.convert(r.Decision.Agents, name))
			id = uint32(len(rc.froms))
			rc.ids[string(key)] = id
		}
		fr.from = id
	}
	rc.files[i] = fr
	if fr.canon == canonOther {
		rc.hrefs[int32(i)] = href
		if base != "" {
			rc.bases[int32(i)] = base
		}
	}
}

// convert is a decision's agents as the record gives them, the output file name the page's own.
func (rc *recorder) convert(agents []rules.Agent, name string) []ix.Agent {
	out := make([]ix.Agent, 0, len(agents))
	for _, a := range agents {
		ra := ix.Agent{Name: a.Name, From: []ix.From{}}
		toks := make([]string, 0, len(a.Values))
		for _, v := range a.Values {
			toks = append(toks, v.Token)
			src := rc.source(v.Source, name)
			if n := len(ra.From); n > 0 && ra.From[n-1].Source == src {
				ra.From[n-1].Directives += ", " + v.Token
				continue
			}
			// Grouped by source in the order won: a source that wins again after another is a
			// group of its own, so that every directive is listed once and in order.
			ra.From = append(ra.From, ix.From{Directives: v.Token, Source: src})
		}
		ra.Directives = strings.Join(toks, ", ")
		out = append(out, ra)
	}
	return out
}

// source is s as the record gives it: its file relative to the site's root, and, for the output
// file name itself, thisPage, which agents fills in.
func (rc *recorder) source(s rules.Source, name string) ix.Source {
	if s.File == name && s.Kind == rules.FromPage {
		s.File = thisPage
		return ix.Source{Text: s.String(), File: thisPage, Line: s.Line}
	}
	s.File = rc.rel(s.File)
	return ix.Source{Text: s.String(), File: s.File, Line: s.Line}
}

// rel is the file name (relative to the working directory, or absolute) relative to the site's
// root, as a slash path: the record names no absolute path, so that it reads the same wherever the
// site is built. A file outside the root keeps its name.
func (rc *recorder) rel(name string) string {
	if name == "" {
		return ""
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return filepath.ToSlash(name)
	}
	r, err := filepath.Rel(rc.root, abs)
	if err != nil || !filepath.IsLocal(r) {
		return filepath.ToSlash(name)
	}
	return filepath.ToSlash(r)
}

// at is a place of the file name as a record's Source: "public/robots.txt:5" and more.
func (rc *recorder) at(name string, line int, text string) ix.Source {
	file := rc.rel(name)
	s := ix.Source{Text: file, File: file, Line: line}
	if line > 0 {
		s.Text += ":" + strconv.Itoa(line)
	}
	if text != "" {
		s.Text += ": " + text
	}
	return s
}

// agents are files[i]'s agents, with its own output file name (relative to the site's root) for
// thisPage: a copy, the interned entry left as it is.
func (rc *recorder) agents(i int, file string) []ix.Agent {
	id := rc.files[i].from
	if id == 0 {
		return []ix.Agent{}
	}
	shared := rc.froms[id-1]
	out := make([]ix.Agent, len(shared))
	for j, a := range shared {
		a.From = slices.Clone(a.From)
		for k := range a.From {
			if s := &a.From[k].Source; s.File == thisPage {
				s.File = file
				s.Text = strings.Replace(s.Text, thisPage, file, 1)
			}
		}
		out[j] = a
	}
	return out
}

// category is the crawlers of robotsmith's catalogue with one AI purpose, as robots.txt groups
// them: those that obey the same groups get the same verdict, so each such set is asked once a URL.
type category struct {
	sets []crawlSet
	n    int // crawlers in all
}

type crawlSet struct {
	c robotstxt.Crawler
	n int
}

func newCategory(r *robots, p crawlers.Purpose) category {
	var cat category
	for _, cr := range crawlers.Default().Crawlers() {
		if !cr.Has(p) {
			continue
		}
		cat.n++
		rc := r.file.Crawler(cr.Name())
		if j := slices.IndexFunc(cat.sets, func(s crawlSet) bool { return slices.Equal(s.c.Groups, rc.Groups) }); j >= 0 {
			cat.sets[j].n++
			continue
		}
		cat.sets = append(cat.sets, crawlSet{c: rc, n: 1})
	}
	return cat
}

// writeRecord writes the indexability record of the pass's files (decided by the step, the model m
// built by the site-level steps) to w, one URL a line in URL order. The files are listed by path,
// which is not URL order (/a/b.pdf comes before /a/index.html, served at /a/): the order is a sort
// of their indexes, 4 bytes a file.
func (ps *pass) writeRecord(w io.Writer, m *model) error {
	rc := ps.rec
	order := urlOrder(ps.files)

	robotsName := m.robots.name
	star := ps.out.robots.file.Crawler()
	search := [...]robotstxt.Crawler{m.robots.crawler(ix.Googlebot), m.robots.crawler(ix.Bingbot)}
	cats := [...]category{newCategory(m.robots, crawlers.Training), newCategory(m.robots, crawlers.AISearch), newCategory(m.robots, crawlers.AIInput)}
	headersName := rc.rel(ps.out.outName("_headers"))
	usage := ps.p.Config().AI.HeaderUsage()
	prune := !ps.p.Config().KeepSitemaps()
	urls := ps.p.URLs()

	verdict := func(c robotstxt.Crawler, n int, path string) (ix.Crawl, bool) {
		d := c.Decide(path)
		cr := ix.Crawl{Crawlers: n}
		if !d.Allowed {
			cr.Blocked = n
		}
		if d.Rule != nil {
			cr.Source = rc.at(robotsName, d.Rule.Num, d.Rule.Key+": "+d.Rule.Value)
		}
		return cr, d.Allowed
	}

	iw := ix.NewWriter(w)
	for _, i := range order {
		f := &ps.files[i]
		name := rc.rel(ps.out.outName(f.Rel()))
		r := ix.Record{
			URL:    f.URL(),
			File:   f.Rel(),
			Source: rc.rel(ps.p.SourceOf(f)),
			Home:   ps.p.Home(f),
			Agents: rc.agents(int(i), name),
		}
		v := f.Verdict()
		switch {
		case !f.HTML():
			r.Class = ix.File
		case f.Skipped():
			r.Class = ix.Skipped
		case v == nil:
			return fmt.Errorf("%s: no decision to record", name) // the run failed, and says why
		case v.Class == rules.Public:
			r.Class = ix.Public
		case v.Class == rules.NonPublic:
			r.Class = ix.Noindex
		case v.Class == rules.ErrorPage:
			r.Class, r.Agents = ix.ErrorPage, []ix.Agent{}
		case v.Class == rules.Redirect:
			r.Class, r.Agents = ix.Redirect, []ix.Agent{}
		}

		for _, l := range m.listedIn(int(i)) {
			if prune && !ps.indexable(int(i)) {
				break // build leaves it out of the sitemap; check counts it as a change
			}
			r.Sitemaps = append(r.Sitemaps, rc.at(ps.out.outName(m.sitemaps[l.sitemap]), int(l.line), ""))
		}

		page := urls.Page(f.URL())
		path := plan.CrawlPath(page.Pathname())
		r.RobotsTxt.Googlebot, _ = verdict(search[0], 1, path)
		r.RobotsTxt.Bingbot, _ = verdict(search[1], 1, path)
		for j, cat := range cats {
			out := r.RobotsTxt.Of(ix.Crawlers[2+j])
			out.Crawlers = cat.n
			for _, s := range cat.sets {
				cr, ok := verdict(s.c, s.n, path)
				if !ok {
					out.Blocked += s.n
				}
				if out.Source == (ix.Source{}) || !ok && out.Blocked == s.n {
					out.Source = cr.Source
				}
			}
		}

		if fr := rc.files[i]; fr.canon != canonNone {
			href, base := rc.hrefs[i], rc.bases[i]
			if fr.canon == canonSelf {
				href = urls.Shown(page)
			}
			r.Canonical = ps.recordCanonical(page, href, base)
			r.Canonical.Source = rc.at(ps.out.outName(f.Rel()), int(fr.line), "")
		}

		if usage != "" {
			r.AI.Header = ix.Value{Value: usage, Source: ix.Source{Text: headersName, File: headersName}}
		}
		for _, p := range []struct {
			key string
			to  *ix.Value
		}{{"Content-Usage", &r.AI.ContentUsage}, {"Content-Signal", &r.AI.ContentSignal}} {
			if val, from := ps.out.robots.preference(star, p.key, path); val != "" {
				// from is "public/robots.txt:3" or, for lines combined, "public/robots.txt:3, 7".
				lines := from[len(filepath.ToSlash(robotsName))+1:]
				first, _, _ := strings.Cut(lines, ",")
				line, _ := strconv.Atoi(first)
				src := rc.at(robotsName, line, "")
				src.Text = src.File + ":" + lines
				*p.to = ix.Value{Value: val, Source: src}
			}
		}

		for _, l := range ps.p.HeaderLines(f) {
			r.XRobotsTag = append(r.XRobotsTag, ix.Value{Value: l.String(), Source: ix.Source{Text: headersName, File: headersName}})
		}
		if err := iw.Write(&r); err != nil {
			return err
		}
	}
	return iw.Close()
}

// urlOrder is the indexes of files (sorted by path) in the order of their URLs: 4 bytes a file.
func urlOrder(files []plan.Record) []int32 {
	order := make([]int32, len(files))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(files[a].URL(), files[b].URL()) })
	return order
}

// recordCanonical resolves a page's canonical link as explain does, and says what it points at.
func (ps *pass) recordCanonical(page *whatwg.Url, href, base string) ix.Canonical {
	c := ix.Canonical{Href: href}
	urls := ps.p.URLs()
	abs, p, ours := urls.Resolve(page, base, href)
	to := -1
	if ours {
		to = ps.fileOf(p)
	}
	switch {
	case abs == nil:
		c.Status = "unresolvable"
	case !ours:
		c.URL, c.Status = urls.Shown(abs), "other site"
	case to < 0:
		c.URL, c.Status = p, "no file"
	default:
		t := &ps.files[to]
		c.URL = t.URL()
		if t.Verdict() == nil {
			c.Status = "unreadable"
		} else {
			c.Status = targetStatus(t)
		}
	}
	return c
}
