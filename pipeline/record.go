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
// same line) share one entry: what it keeps for a site of 100,000 pages is a few words a file, the
// canonical hrefs, and the distinct decisions.
type recorder struct {
	root string // the site's root, absolute: sources are named relative to it

	mu    sync.Mutex
	ids   map[string]uint32
	froms [][]ix.Agent // by id - 1
	files []fileRecord // parallel to the pass's files
}

// fileRecord is what the recorder keeps of one file.
type fileRecord struct {
	from uint32 // 1 + the index of its agents in recorder.froms; 0 for none
	line int32  // its canonical link's line in the page; 0 for none
	href string // its canonical link as written
	base string // the page's <base href>, which the link is resolved against; "" for none
}

// thisPage stands, in an interned source, for the output file the source is of: a page's own
// robots tag, which every page of a template carries at the same line.
const thisPage = "\x00"

func newRecorder(root string, n int) *recorder {
	if root == "" {
		root = "."
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return &recorder{root: root, ids: map[string]uint32{}, files: make([]fileRecord, n)}
}

// keep is the step's result r for files[i], whose output file messages name name.
func (rc *recorder) keep(i int, name string, r *plan.Result) {
	fr := fileRecord{}
	if r.Page != nil {
		for _, l := range r.Page.Links {
			if l.Rel == "canonical" {
				fr.line, fr.href, fr.base = int32(l.Line), l.Href, r.Page.Base
				break
			}
		}
	}
	var key strings.Builder
	agents := make([]ix.Agent, 0, len(r.Decision.Agents))
	for _, a := range r.Decision.Agents {
		ra := ix.Agent{Name: a.Name, From: []ix.From{}}
		var toks []string
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
		agents = append(agents, ra)
		key.WriteString(ra.Name + "\x01" + ra.Directives + "\x01")
		for _, f := range ra.From {
			fmt.Fprintf(&key, "%s\x02%s\x02%s\x02%d\x01", f.Directives, f.Source.Text, f.Source.File, f.Source.Line)
		}
		key.WriteByte('\x03')
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(agents) > 0 {
		k := key.String()
		id, ok := rc.ids[k]
		if !ok {
			rc.froms = append(rc.froms, agents)
			id = uint32(len(rc.froms))
			rc.ids[k] = id
		}
		fr.from = id
	}
	rc.files[i] = fr
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
	order := make([]int32, len(ps.files))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ps.files[a].URL(), ps.files[b].URL()) })

	robotsName := m.robots.name
	star := ps.out.robots.file.Crawler()
	search := [...]robotstxt.Crawler{m.robots.crawler(ix.Googlebot), m.robots.crawler(ix.Bingbot)}
	cats := [...]category{newCategory(m.robots, crawlers.Training), newCategory(m.robots, crawlers.AISearch), newCategory(m.robots, crawlers.AIInput)}
	headersName := rc.rel(ps.out.outName("_headers"))
	usage := ps.p.Config().AI.ContentUsage()
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

		if fr := rc.files[i]; fr.href != "" {
			r.Canonical = ps.recordCanonical(page, fr)
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

// recordCanonical resolves a page's canonical link as explain does, and says what it points at.
func (ps *pass) recordCanonical(page *whatwg.Url, fr fileRecord) ix.Canonical {
	c := ix.Canonical{Href: fr.href}
	urls := ps.p.URLs()
	abs, p, ours := urls.Resolve(page, fr.base, fr.href)
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
		v := t.Verdict()
		switch {
		case v == nil:
			c.Status = "unreadable"
		case v.Noindex("robots"):
			c.Status = "noindex"
		case !t.HTML() || t.Skipped():
			c.Status = "file"
		case v.Class == rules.Public:
			c.Status = "indexable"
		default:
			c.Status = v.Class.String()
		}
	}
	return c
}
