package standin

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

// Generate builds the Hugo-layout site in root: it reads root/hugo.toml,
// root/content and root/static, deletes root/public and writes the site
// there afresh, as `hugo` does with a clean publish folder. It writes
// nothing outside root/public. Problems with content files are returned
// together (errors.Join), each an *Error naming the file.
func Generate(root string) error {
	return generate(root, time.Now())
}

// generate is Generate with the build clock as a value: whether a page with
// an expiryDate or publishDate is written depends on it, as in Hugo.
func generate(root string, now time.Time) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("standin: internal error: %v", r)
		}
	}()
	s, err := load(root, now)
	if err != nil {
		return err
	}
	b, err := newBuilder(s)
	if err != nil {
		return err
	}
	if err := b.plan(); err != nil {
		return err
	}
	public := filepath.Join(root, "public")
	if err := os.RemoveAll(public); err != nil {
		return err
	}
	if err := os.MkdirAll(public, 0o755); err != nil {
		return err
	}
	return b.write(public)
}

// output is one file to write below public/.
type output struct {
	file   string                    // relative to public/, slash-separated
	copyOf string                    // a file to copy verbatim, or
	render func(*bytes.Buffer) error // the producer of the content
	page   bool                      // a page (not an alias or a copy): conflicts are errors
}

type builder struct {
	s       *site
	theme   *template.Template
	md      goldmark.Markdown
	menu    []link
	year    int
	outputs []output
	owner   map[string]int // file -> index in outputs
	errs    []error
	sitemap []*page
}

type link struct{ Title, URL string }

type dateView struct{ Short, Full string }

type entry struct {
	Title, Description, URL string
	Date                    *dateView
}

type termLink struct {
	Title, URL string
	Count      int
}

type pagerView struct{ Prev, Next string }

// view is what the theme's templates see.
type view struct {
	Site                                          *config
	Kind, Title, Description, Canonical, Keywords string
	IsHome, NoIndex                               bool
	Content                                       template.HTML
	Date                                          *dateView
	Tags                                          []link
	Entries                                       []entry
	Terms                                         []termLink
	Pager                                         *pagerView
	Menu                                          []link
	Year                                          int
}

func newBuilder(s *site) (*builder, error) {
	theme, err := parseTheme()
	if err != nil {
		return nil, err
	}
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithUnsafe()), // Hugo's markup.goldmark.renderer.unsafe
	)
	return &builder{s: s, theme: theme, md: md, owner: map[string]int{}}, nil
}

func (b *builder) permalink(rel string) string {
	return strings.TrimSuffix(b.s.cfg.BaseURL, "/") + rel
}

func (b *builder) add(o output) {
	if i, taken := b.owner[o.file]; taken {
		if o.page && b.outputs[i].page {
			b.errs = append(b.errs, fmt.Errorf("two pages write %s", o.file))
		}
		if !o.page {
			return // a page, or the first alias or copy, keeps the file
		}
		b.outputs[i] = o
		return
	}
	b.owner[o.file] = len(b.outputs)
	b.outputs = append(b.outputs, o)
}

// sortPages orders pages like Hugo's default sort: weight (unweighted
// last), newest date first, then title and logical path.
func sortPages(ps []*page) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, c := ps[i], ps[j]
		if a.weight != c.weight {
			if a.weight == 0 || c.weight == 0 {
				return c.weight == 0
			}
			return a.weight < c.weight
		}
		if !a.date.Equal(c.date) {
			return a.date.After(c.date)
		}
		if a.title != c.title {
			return a.title < c.title
		}
		return a.logical < c.logical
	})
}

// plan decides every output file.
func (b *builder) plan() error {
	s := b.s
	var regular, branches []*page
	for _, p := range s.pages {
		if !p.render {
			continue
		}
		if p.date.Year() > b.year {
			b.year = p.date.Year()
		}
		if p.kind == kindPage {
			regular = append(regular, p)
		} else {
			branches = append(branches, p)
		}
	}
	sortPages(regular)

	// Lists: each regular page goes to its nearest rendered branch page;
	// each section is also listed in its parent's list.
	// The home lists the regular pages of the main sections, as PaperMod's
	// home does: params.mainSections, else (Hugo's default) the section
	// with the most pages.
	home := s.branches[""]
	for _, p := range regular {
		if a := b.listOwner(s.ancestors(p)); a != nil && a != home {
			a.pages = append(a.pages, p)
		}
	}
	main := map[string]bool{}
	for _, m := range s.cfg.Params.MainSections {
		main[m] = true
	}
	if len(main) == 0 {
		count := map[string]int{}
		best := ""
		for _, p := range regular {
			sec := topSection(p)
			count[sec]++
			if sec != "" && (count[sec] > count[best] || count[sec] == count[best] && sec < best) {
				best = sec
			}
		}
		main[best] = true
	}
	for _, p := range regular {
		if main[topSection(p)] {
			home.pages = append(home.pages, p)
		}
	}
	for _, br := range branches {
		if br.kind != kindSection {
			continue
		}
		if a := b.listOwner(s.ancestorsOfDir(path.Dir(br.dir))); a != nil && a != home {
			a.pages = append(a.pages, br)
		}
		if !strings.Contains(br.dir, "/") {
			b.menu = append(b.menu, link{Title: br.title, URL: br.rel})
		}
	}
	for _, br := range branches {
		for _, c := range br.pages {
			if c.date.After(br.date) {
				br.date = c.date
			}
		}
	}
	sort.Slice(b.menu, func(i, j int) bool { return b.menu[i].URL < b.menu[j].URL })

	// Taxonomies.
	plurals := make([]string, 0, len(s.cfg.Taxonomies))
	for _, pl := range s.cfg.Taxonomies {
		plurals = append(plurals, pl)
	}
	sort.Strings(plurals)
	var taxPages []*page
	for _, pl := range plurals {
		tax := &page{kind: kindTaxonomy, title: titleCase(pl), logical: "/" + pl, render: true}
		tax.rel, tax.outFile = dirTarget(urlize(pl))
		terms := map[string]*page{}
		var order []*page
		for _, p := range regular {
			for _, t := range p.terms[pl] {
				key := urlize(t)
				if key == "" {
					continue
				}
				tp := terms[key]
				if tp == nil {
					tp = &page{kind: kindTerm, title: t, logical: "/" + pl + "/" + key, render: true}
					tp.rel, tp.outFile = dirTarget(urlize(pl) + "/" + key)
					terms[key] = tp
					order = append(order, tp)
				}
				if len(tp.pages) == 0 || tp.pages[len(tp.pages)-1] != p {
					tp.pages = append(tp.pages, p)
				}
				if p.date.After(tp.date) {
					tp.date = p.date
				}
			}
		}
		sort.Slice(order, func(i, j int) bool { return order[i].rel < order[j].rel })
		tax.pages = order
		for _, tp := range order {
			if tp.date.After(tax.date) {
				tax.date = tp.date
			}
		}
		b.menu = append(b.menu, link{Title: tax.title, URL: tax.rel})
		taxPages = append(taxPages, tax)
		taxPages = append(taxPages, order...)
	}

	// Static files first: a page written to the same path wins, as in Hugo.
	for _, f := range s.statics {
		b.add(output{file: f, copyOf: filepath.Join(s.root, "static", filepath.FromSlash(f))})
	}
	for _, p := range regular {
		b.addPage(p)
	}
	for _, p := range branches {
		b.addPage(p)
	}
	for _, p := range taxPages {
		b.addPage(p)
	}
	b.add(output{file: "404.html", page: true, render: func(w *bytes.Buffer) error {
		return b.exec(w, "404", &view{Kind: kind404, Title: "404 Page not found", Description: s.cfg.Params.Description})
	}})
	b.addSitemap()
	return errors.Join(b.errs...)
}

// topSection is the first folder of a page's content path ("" at the root).
func topSection(p *page) string {
	sec, _, _ := strings.Cut(p.dir, "/")
	return sec
}

// listOwner is the first rendered page of ancestors, or nil.
func (b *builder) listOwner(ancestors []*page) *page {
	for _, a := range ancestors {
		if a.render {
			return a
		}
	}
	return nil
}

func (b *builder) addPage(p *page) {
	b.sitemap = append(b.sitemap, p)
	switch p.kind {
	case kindPage:
		b.add(output{file: p.outFile, page: true, render: func(w *bytes.Buffer) error { return b.single(w, p) }})
		for _, r := range p.resources {
			b.add(output{
				file:   path.Join(path.Dir(p.outFile), r),
				copyOf: filepath.Join(b.s.root, "content", filepath.FromSlash(p.dir), filepath.FromSlash(r)),
			})
		}
	case kindTaxonomy:
		b.add(output{file: p.outFile, page: true, render: func(w *bytes.Buffer) error { return b.terms(w, p) }})
	default: // home, section, term: paginated lists
		for _, r := range p.resources {
			b.add(output{
				file:   path.Join(path.Dir(p.outFile), r),
				copyOf: filepath.Join(b.s.root, "content", filepath.FromSlash(p.dir), filepath.FromSlash(r)),
			})
		}
		size := b.s.cfg.Pagination.PagerSize
		n := max(1, (len(p.pages)+size-1)/size)
		for i := 1; i <= n; i++ {
			rel, file := p.rel, p.outFile
			if i > 1 {
				rel, file = dirTarget(subDir(p.rel, fmt.Sprintf("page/%d", i)))
			}
			lo, hi := (i-1)*size, min(i*size, len(p.pages))
			pager := &pagerView{}
			if i > 1 {
				pager.Prev = b.pageURL(p, i-1)
			}
			if i < n {
				pager.Next = b.pageURL(p, i+1)
			}
			b.add(output{file: file, page: true, render: func(w *bytes.Buffer) error {
				return b.list(w, p, rel, p.pages[lo:hi], pager)
			}})
		}
		// Hugo writes page/1/ as an alias stub of the list for every
		// paginated list, however many pages it has.
		_, file := dirTarget(subDir(p.rel, "page/1"))
		b.addAlias(file, p.rel)
	}
	for _, a := range p.aliases {
		b.addAlias(aliasFile(p.rel, a), p.rel)
	}
}

// subDir is the folder sub below the list URL rel, without outer slashes.
func subDir(rel, sub string) string {
	return strings.Trim(path.Join(strings.Trim(rel, "/"), sub), "/")
}

func (b *builder) pageURL(p *page, i int) string {
	if i == 1 {
		return p.rel
	}
	return p.rel + fmt.Sprintf("page/%d/", i)
}

// aliasFile is where Hugo writes the alias stub for alias a of the page at
// rel: absolute aliases as given, relative ones against the page's parent
// folder; a trailing "/" or a name without .html gets /index.html.
func aliasFile(rel, a string) string {
	if !strings.HasPrefix(a, "/") {
		a = path.Join(path.Dir(strings.TrimSuffix(rel, "/")), a)
	}
	trailing := strings.HasSuffix(a, "/")
	a = strings.TrimPrefix(path.Clean("/"+a), "/")
	switch {
	case a == "":
		return "index.html"
	case trailing || !strings.HasSuffix(a, ".html"):
		return a + "/index.html"
	}
	return a
}

func (b *builder) addAlias(file, target string) {
	b.add(output{file: file, render: func(w *bytes.Buffer) error {
		return b.theme.ExecuteTemplate(w, "alias", struct{ Lang, Permalink string }{b.s.cfg.LanguageCode, b.permalink(target)})
	}})
}

func dateOf(t time.Time) *dateView {
	if t.IsZero() {
		return nil
	}
	return &dateView{Short: t.Format("January 2, 2006"), Full: t.Format("2006-01-02 15:04:05 -0700 MST")}
}

func (b *builder) baseView(p *page) *view {
	d := p.description
	if d == "" {
		d = b.s.cfg.Params.Description
	}
	return &view{
		Kind: p.kind, Title: p.title, Description: d, Canonical: b.permalink(p.rel),
		IsHome: p.kind == kindHome, NoIndex: truthy(p.params["robotsnoindex"]),
		Date: dateOf(p.date),
	}
}

func (b *builder) markdown(p *page) (template.HTML, error) {
	body, err := b.s.body(p)
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return "", nil
	}
	var buf bytes.Buffer
	if err := b.md.Convert(body, &buf); err != nil {
		return "", &Error{File: p.file, Err: err}
	}
	return template.HTML(buf.String()), nil // #nosec: Hugo's unsafe = true
}

func (b *builder) single(w *bytes.Buffer, p *page) error {
	v := b.baseView(p)
	var err error
	if v.Content, err = b.markdown(p); err != nil {
		return err
	}
	var kw []string
	for _, pl := range sortedKeys(p.terms) {
		for _, t := range p.terms[pl] {
			if pl == "tags" {
				kw = append(kw, t)
			}
			v.Tags = append(v.Tags, link{Title: t, URL: "/" + urlize(pl) + "/" + urlize(t) + "/"})
		}
	}
	v.Keywords = strings.Join(kw, ", ")
	return b.exec(w, "single", v)
}

func (b *builder) list(w *bytes.Buffer, p *page, rel string, items []*page, pager *pagerView) error {
	v := b.baseView(p)
	v.Canonical = b.permalink(rel)
	var err error
	if rel == p.rel { // the list's own text only on its first page
		if v.Content, err = b.markdown(p); err != nil {
			return err
		}
	}
	for _, c := range items {
		v.Entries = append(v.Entries, entry{Title: c.title, Description: c.description, URL: c.rel, Date: dateOf(c.date)})
	}
	if pager.Prev != "" || pager.Next != "" {
		v.Pager = pager
	}
	return b.exec(w, "list", v)
}

func (b *builder) terms(w *bytes.Buffer, p *page) error {
	v := b.baseView(p)
	for _, t := range p.pages {
		v.Terms = append(v.Terms, termLink{Title: t.title, URL: t.rel, Count: len(t.pages)})
	}
	return b.exec(w, "terms", v)
}

func (b *builder) exec(w *bytes.Buffer, name string, v *view) error {
	v.Site = b.s.cfg
	v.Menu = b.menu
	v.Year = b.year
	return b.theme.ExecuteTemplate(w, name, v)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// addSitemap writes sitemap.xml like Hugo's built-in template: every page
// (home, sections, pages, taxonomies and terms), no aliases, no page/N/.
func (b *builder) addSitemap() {
	ps := append([]*page(nil), b.sitemap...)
	sortPages(ps)
	b.add(output{file: "sitemap.xml", page: true, render: func(w *bytes.Buffer) error {
		w.WriteString(`<?xml version="1.0" encoding="utf-8" standalone="yes"?>` + "\n")
		w.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + "\n")
		w.WriteString(`  xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
		for _, p := range ps {
			w.WriteString("  <url>\n    <loc>")
			if err := xml.EscapeText(w, []byte(b.permalink(p.rel))); err != nil {
				return err
			}
			w.WriteString("</loc>\n")
			if !p.date.IsZero() {
				w.WriteString("    <lastmod>" + p.date.Format("2006-01-02T15:04:05-07:00") + "</lastmod>\n")
			}
			w.WriteString("  </url>\n")
		}
		w.WriteString("</urlset>\n")
		return nil
	}})
}

// write produces every output file with one worker per CPU. Folders are
// made first, once each, so the workers only create files.
func (b *builder) write(public string) error {
	made := map[string]bool{".": true}
	for _, o := range b.outputs {
		if dir := path.Dir(o.file); !made[dir] {
			if err := os.MkdirAll(filepath.Join(public, filepath.FromSlash(dir)), 0o755); err != nil {
				return err
			}
			for ; !made[dir]; dir = path.Dir(dir) {
				made[dir] = true
			}
		}
	}
	jobs := make(chan output)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for o := range jobs {
				if err := writeOne(public, o, &buf); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, o := range b.outputs {
		jobs <- o
	}
	close(jobs)
	wg.Wait()
	return errors.Join(errs...)
}

func writeOne(public string, o output, buf *bytes.Buffer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("standin: writing %s: internal error: %v", o.file, r)
		}
	}()
	dst := filepath.Join(public, filepath.FromSlash(o.file))
	if o.copyOf != "" {
		return copyFile(dst, o.copyOf)
	}
	buf.Reset()
	if err := o.render(buf); err != nil {
		return fmt.Errorf("%s: %w", o.file, err)
	}
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
