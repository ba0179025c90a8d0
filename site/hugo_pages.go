package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoContentExts are the file extensions Hugo renders as content (media types with a markup
// handler: markdown, html, asciidoc, org, pandoc, rst).
var hugoContentExts = map[string]bool{
	"md": true, "markdown": true, "mdown": true, "mkd": true, "mkdn": true,
	"html": true, "htm": true, "adoc": true, "asciidoc": true, "ad": true,
	"org": true, "pandoc": true, "pdc": true, "rst": true,
}

// hugoFile is one file found under a content root.
type hugoFile struct {
	abs     string // on disk
	rel     string // slash path under its content root, as written
	dir     string // slash folder under the root, "" at the top
	lang    string
	content bool
	base    string // file name without language and extension: "index", "_index", "a"
	named   bool   // the language came from the file name ("a.fr.md")
}

// hugoSrc is one page being mapped, with what Hugo needs to place it: a content file, or a list
// page Hugo makes without one. A page's front matter is held only while the page is mapped; the
// branch pages' (_index) are held until every page is, since the pages below them take their
// cascades, and their titles and slugs can place them.
type hugoSrc struct {
	hugoFile
	kind     string
	path     string         // Hugo's logical path, lower case: "/blog/a", "/blog" for blog/_index.md, "/" home
	section  string         // the page's current section path ("/blog/sub"), "/" for home
	meta     map[string]any // its front matter, lower-case keys, filled from the cascades that reach it
	inputs   []rules.Input  // robots inputs of the cascades that reach it, nearest first
	ownIn    []rules.Input  // robots inputs of its own front matter
	cascades []hugoCascade  // declared by this branch page
	date     time.Time
	title    string
	slug     string
	bundle   bool // leaf bundle (index.*)
}

// hugoGen is Hugo's generator: the pages of a site opened as Hugo.
type hugoGen struct{ s *Site }

// sectionKey names a branch page by language and logical path.
type sectionKey struct{ lang, path string }

// leafKey and branchRes name the resource folders of a leaf bundle and of a branch bundle.
type resKey struct {
	leaf bool
	dir  string
}

// hugoMapping is one mapping of a Hugo site in progress. The branch pages are read and placed
// first; then every other page is read, placed and let go on a fixed number of workers, so that
// what stays of a page is its Page, never its front matter, and the sources are read in parallel,
// each only up to the end of its front matter. What the site-wide steps after that need (which
// pages were read, the terms they use, the folders their resources go in) is kept apart, small.
type hugoMapping struct {
	g         hugoGen
	h         *hugoConfig
	r         *readings       // the readings kept of a site mapped again (Remap); nil for none
	keys      map[string]bool // the front matter keys mapping reads (hugoConfig.metaKeys)
	files     []hugoFile      // the content files that are pages, in file order
	pages     []Page          // by file: kept where state is read|placed
	state     []pageState
	placed    []*hugoPlace // by file: where its page goes, once placed
	resources map[resKey][]hugoFile
	branch    map[branchKey]bool // the branch pages read, by language and folder
	branches  []*hugoSrc         // the same, in file order
	sections  map[sectionKey]*hugoSrc
	cascades  cascader
	// taxonomies are each language's taxonomies' plural keys, sorted once: the order a page's
	// terms are collected in.
	taxonomies map[string][]string

	mu       sync.Mutex
	problems []hugoProblem          // by file, in any order
	terms    map[hugoTerm]termPlace // each term used, where first
	bundles  []bundlePage           // the pages that may publish resources
}

// pageState says how far mapping a page went.
type pageState uint8

const (
	pageRead   pageState = 1 << iota // its front matter was read: it is one of the site's pages
	pagePlaced                       // Page is set: its output files were worked out
)

// hugoProblem is what went wrong with one file: its front matter's warnings, the error that kept it
// from being read, or the one that kept it from being placed.
type hugoProblem struct {
	i                int
	warnings         []error
	readErr, pageErr error
}

// termPlace orders terms as Hugo collects them: by page, then taxonomy (by name), then value.
type termPlace struct{ page, taxonomy, value int }

func (a termPlace) before(b termPlace) bool {
	if a.page != b.page {
		return a.page < b.page
	}
	if a.taxonomy != b.taxonomy {
		return a.taxonomy < b.taxonomy
	}
	return a.value < b.value
}

// bundlePage is a placed page with bundle resources to publish, in the folder dir of the output
// (its HTML target's, else its first format's).
type bundlePage struct {
	i   int
	dir string
}

// mapSite maps every content file to what Hugo v0.165 writes for it, and the list pages and 404
// pages Hugo makes without a content file.
func (g hugoGen) mapSite(r *readings) (mapped, error) {
	s, h := g.s, g.s.hugo
	content, err := s.hugoContent(r)
	if err != nil {
		return mapped{}, err
	}
	hm := &hugoMapping{g: g, h: h, r: r, keys: h.metaKeys(), terms: map[hugoTerm]termPlace{}, taxonomies: map[string][]string{}}
	for _, l := range h.langs {
		hm.taxonomies[l.code] = sortedKeys(h.taxonomiesOf(l.code))
	}
	hm.files, hm.resources = content.pages, content.resources
	hm.pages = make([]Page, len(hm.files))
	hm.state = make([]pageState, len(hm.files))
	hm.placed = make([]*hugoPlace, len(hm.files))
	hm.readBranches()
	hm.readPages()
	hm.collect()

	tops, firstLang := hm.sitewide()
	for _, b := range hm.bundles {
		p := &hm.pages[b.i]
		p.Resources = h.resources(hm.files[b.i], b.dir, hm.resources, firstLang)
	}
	made := h.madeLists(tops, hm.usedTerms(), hm.sections)
	for _, p := range made {
		hm.cascades.apply(p)
	}
	var m mapped
	var errs []error
	for _, pr := range hm.sortedProblems() {
		m.warnings = append(m.warnings, pr.warnings...)
		if pr.readErr != nil {
			errs = append(errs, pr.readErr)
		}
	}
	m.warnings = append(m.warnings, h.warnings...)
	for _, pr := range hm.sortedProblems() {
		if pr.pageErr != nil {
			errs = append(errs, pr.pageErr)
		}
	}
	// The pages mapped, in place: a site's pages are never held twice.
	m.pages = hm.pages[:0]
	for i := range hm.pages {
		if hm.state[i] == pageRead|pagePlaced {
			m.pages = append(m.pages, hm.pages[i])
		}
	}
	clear(hm.pages[len(m.pages):])
	for _, p := range made {
		if pg, ok := g.sourceless(p, hm.sections); ok {
			m.sourceless = append(m.sourceless, pg)
		}
	}
	bySource := func(a, b Page) int { return strings.Compare(a.Source, b.Source) }
	if !slices.IsSortedFunc(m.pages, bySource) { // they are, unless a content root is outside the site's
		slices.SortFunc(m.pages, bySource)
	}
	return m, errors.Join(errs...)
}

// hugoContent is the files of the content tree that mapping reads: the content files that are
// pages, in file order, and the other files of bundles, by bundle folder (bundleFiles).
type hugoContent struct {
	pages     []hugoFile
	resources map[resKey][]hugoFile
}

// hugoContent lists the content tree. For a site mapped again (r) whose folders are all the ones
// listed last time, it is the listing made then.
func (s *Site) hugoContent(r *readings) (hugoContent, error) {
	files, same, err := s.hugoWalk(r)
	if err != nil {
		if r != nil {
			r.hugoContent = nil // the folders listed before the error are kept: list all again
		}
		return hugoContent{}, err
	}
	if same && r.hugoContent != nil {
		return *r.hugoContent, nil
	}
	if same {
		// Walked again as before, but what it found was let go: list it again.
		r.hugoDirCount = -1
		return s.hugoContent(r)
	}
	var c hugoContent
	c.pages, c.resources = bundleFiles(files)
	if r != nil {
		r.hugoContent = &c
	}
	return c, nil
}

// bundleFiles sorts the files of the content tree into the content files that are pages and the
// other files of bundles (by bundle folder).
func bundleFiles(files []hugoFile) (pages []hugoFile, resources map[resKey][]hugoFile) {
	leaf := map[string]bool{} // folders holding an index.* content file: all below is a resource
	for _, f := range files {
		if f.content && f.base == "index" {
			leaf[f.dir] = true
		}
	}
	resources = map[resKey][]hugoFile{}
	for _, f := range files {
		if d, ok := inLeaf(f, leaf); ok {
			resources[resKey{true, d}] = append(resources[resKey{true, d}], f)
			continue
		}
		if !f.content {
			resources[resKey{false, f.dir}] = append(resources[resKey{false, f.dir}], f)
			continue
		}
		pages = append(pages, f)
	}
	return pages, resources
}

// readBranches reads the branch pages (_index files), fills them from the cascades that reach
// them, and places them: the other pages need them all.
func (hm *hugoMapping) readBranches() {
	var idx []int
	for i, f := range hm.files {
		if f.base == "_index" {
			idx = append(idx, i)
		}
	}
	reads := make([]*hugoRead, len(idx))
	hm.readEach(idx, func(n int, rd *hugoRead) { reads[n] = rd })
	srcs := make([]*hugoSrc, len(idx))
	hm.branch = map[branchKey]bool{}
	for n, rd := range reads {
		if rd.ok {
			p := hm.src(idx[n], rd)
			srcs[n] = p
			hm.branches = append(hm.branches, p)
			hm.branch[branchKey{p.lang, p.dir}] = true
		}
	}
	hm.cascades = hm.h.cascader(hm.branches)
	hm.sections = map[sectionKey]*hugoSrc{}
	for _, p := range hm.branches {
		hm.prepare(p)
		hm.sections[sectionKey{p.lang, p.path}] = p
	}
	for n, p := range srcs {
		if p != nil {
			hm.place(idx[n], hm.placement(p))
		}
	}
	if r := hm.r; r != nil {
		// Every other page depends on the branch pages alone of all the site's pages: the
		// places kept with their readings hold while the branch pages are those read last time.
		kept := make([]keptBranch, len(idx))
		for n, i := range idx {
			kept[n] = keptBranch{hm.files[i].abs, reads[n]}
		}
		if !slices.Equal(kept, r.branches) {
			r.epoch++
		}
		r.branches = kept
	}
}

// readPages reads and places every page that is not a branch page, on the workers of readSources:
// each page's front matter is let go as soon as it is placed. For a site mapped again, a page whose
// reading was kept, placed while the branch pages were the same, keeps its place.
func (hm *hugoMapping) readPages() {
	var idx []int
	for i, f := range hm.files {
		if f.base != "_index" {
			idx = append(idx, i)
		}
	}
	hm.readEach(idx, func(n int, rd *hugoRead) {
		if !rd.ok {
			return
		}
		i := idx[n]
		if hm.r == nil {
			p := hm.src(i, rd)
			hm.prepare(p)
			hm.place(i, hm.placement(p))
			return
		}
		if pl := rd.placed; pl == nil || pl.epoch != hm.r.epoch {
			p := hm.src(i, rd)
			hm.prepare(p)
			rd.placed = hm.placement(p)
			rd.placed.epoch = hm.r.epoch
		}
		hm.place(i, rd.placed)
	})
}

// readEach reads the front matter of the files idx names, in parallel, and calls fn(n, rd) for
// idx[n] with what reading it produced; a file whose front matter could not be read (rd.ok false)
// has its problem recorded.
func (hm *hugoMapping) readEach(idx []int, fn func(n int, rd *hugoRead)) {
	var c *sourceCache[*hugoRead]
	if hm.r != nil {
		c = &hm.r.hugo
	}
	file := func(n int) string { return hm.files[idx[n]].abs }
	read := func(n int, head []byte, err error) *hugoRead {
		if err != nil {
			return &hugoRead{err: err}
		}
		return hm.g.readFrontMatter(hm.files[idx[n]], head, hm.keys)
	}
	readSources(hm.r, c, len(idx), file, frontmatter.Hugo, read, func(n int, rd *hugoRead) {
		i := idx[n]
		if len(rd.warnings) > 0 || rd.err != nil {
			hm.mu.Lock()
			hm.problems = append(hm.problems, hugoProblem{i: i, warnings: rd.warnings, readErr: rd.err})
			hm.mu.Unlock()
		}
		if rd.ok {
			hm.state[i] |= pageRead
		}
		fn(n, rd)
	})
}

// src is the page being mapped for the file i, read as rd.
func (hm *hugoMapping) src(i int, rd *hugoRead) *hugoSrc {
	f := hm.files[i]
	return &hugoSrc{hugoFile: f, bundle: f.base == "index", meta: rd.meta(), ownIn: rd.ownIn, cascades: rd.cascades}
}

// prepare fills a page read with what placing it needs: its kind, paths, cascades, title, slug
// and date.
func (hm *hugoMapping) prepare(p *hugoSrc) {
	h := hm.h
	p.kind, p.path = h.kindAndPath(p.hugoFile)
	p.section = h.currentSection(p, hm.branch)
	hm.cascades.apply(p)
	p.title = strOr(p.meta["title"], "")
	p.slug = strings.Trim(strOr(p.meta["slug"], ""), "-")
	p.date = firstTime(p.meta, "date", "publishdate", "pubdate", "published", "lastmod", "modified")
}

// hugoPlace is where a page goes and what of it the site-wide steps need (hugoMapping.placement).
// It depends on nothing but the page's file and reading, the branch pages and the configuration,
// so a site mapped again keeps it with the page's reading (hugoRead.placed) for as long as the
// branch pages are those it was placed with (epoch).
type hugoPlace struct {
	epoch     uint64
	pg        Page
	dir       string // the folder of the output its bundle's files go in
	publishes bool   // Hugo writes the page and publishes its bundle's files
	err       error
	terms     []placedTerm // the terms it uses
}

// placedTerm is a term a page uses: the taxonomy's plural key and the term, and where the term is
// among the page's (the taxonomy's place among the language's, the term's in its value).
type placedTerm struct {
	plural, term string
	t, v         int
}

// placement works out where the page (prepared) goes.
func (hm *hugoMapping) placement(p *hugoSrc) *hugoPlace {
	pg, tp, written, err := hm.g.page(p, hm.sections)
	pl := &hugoPlace{pg: pg, dir: tp.dir, publishes: written && publishesResources(p.meta), err: err}
	plurals, ok := hm.taxonomies[p.lang]
	if !ok {
		plurals = sortedKeys(hm.h.taxonomiesOf(p.lang))
	}
	for t, plural := range plurals {
		for v, term := range toStrings(p.meta[plural]) {
			if term != "" {
				pl.terms = append(pl.terms, placedTerm{plural, term, t, v})
			}
		}
	}
	return pl
}

// place records the page of the file i at its place pl. Pages are placed on many goroutines at
// once, each into its file's place; collect then takes them all in, in file order.
func (hm *hugoMapping) place(i int, pl *hugoPlace) {
	hm.placed[i] = pl
}

// collect takes in the pages placed: their Pages, the terms they use, the resources they may
// publish, and the problems that kept them from being placed.
func (hm *hugoMapping) collect() {
	for i, pl := range hm.placed {
		if pl == nil {
			continue
		}
		f := hm.files[i]
		for _, t := range pl.terms {
			// Pages come in file order, and a page's terms in taxonomy then value order: the
			// first place of a term is its first use.
			k := hugoTerm{f.lang, t.plural, t.term}
			if _, ok := hm.terms[k]; !ok {
				hm.terms[k] = termPlace{i, t.t, t.v}
			}
		}
		if pl.err != nil {
			hm.problems = append(hm.problems, hugoProblem{i: i, pageErr: pl.err})
			continue
		}
		hm.pages[i] = pl.pg
		hm.state[i] |= pagePlaced
		if pl.publishes && hm.hasResources(f) {
			hm.bundles = append(hm.bundles, bundlePage{i, pl.dir})
		}
	}
}

// hasResources reports whether the page of the file f is a bundle with files besides its content
// files.
func (hm *hugoMapping) hasResources(f hugoFile) bool {
	switch f.base {
	case "index":
		return len(hm.resources[resKey{true, f.dir}]) > 0
	case "_index":
		return len(hm.resources[resKey{false, f.dir}]) > 0
	}
	return false
}

// sitewide is what the pages read say of the site: the top-level folders of each language that
// hold a page, and for each bundle folder the first language (by weight) that has it: a bundle
// file without a language in its name is shared by the bundle's translations and published once,
// under that language.
func (hm *hugoMapping) sitewide() (tops map[branchKey]bool, firstLang map[string]int) {
	h := hm.h
	tops, firstLang = map[branchKey]bool{}, map[string]int{}
	for i, f := range hm.files {
		if hm.state[i]&pageRead == 0 {
			continue
		}
		if top := firstSeg(f.dir); top != "" {
			tops[branchKey{f.lang, top}] = true
		}
		if f.base == "index" || f.base == "_index" {
			if n, ok := firstLang[f.dir]; !ok || h.langIndex(f.lang) < n {
				firstLang[f.dir] = h.langIndex(f.lang)
			}
		}
	}
	return tops, firstLang
}

// usedTerms are the terms the pages use, as Hugo collects them (the taxonomy's plural key in a
// page's front matter or cascade: a string or a list), each once, in the order first used.
func (hm *hugoMapping) usedTerms() []hugoTerm {
	out := make([]hugoTerm, 0, len(hm.terms))
	for t := range hm.terms {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return hm.terms[out[i]].before(hm.terms[out[j]]) })
	return out
}

// sortedProblems are the problems in file order, each file's as they were found.
func (hm *hugoMapping) sortedProblems() []hugoProblem {
	sort.SliceStable(hm.problems, func(i, j int) bool { return hm.problems[i].i < hm.problems[j].i })
	return hm.problems
}

// inLeaf reports the leaf bundle a file is a resource of.
func inLeaf(f hugoFile, leaf map[string]bool) (string, bool) {
	if f.content && f.base == "index" {
		return "", false
	}
	for d := f.dir; ; d = parentDir(d) {
		if leaf[d] {
			return d, true
		}
		if d == "" {
			return "", false
		}
	}
}

// hugoRead is what reading one content file's front matter produced (readFrontMatter), which a
// site mapped again keeps while the file does not change (Remap): the front matter values that
// mapping reads, its robots inputs, the cascades a branch page declares, and its problems.
type hugoRead struct {
	ok       bool        // the front matter could be parsed: the file is one of the site's pages
	placed   *hugoPlace  // where it was placed last, for a site mapped again (not a branch page)
	fields   []metaField // the keys of hugoMetaKeys and the taxonomies' it sets, lower case
	ownIn    []rules.Input
	cascades []hugoCascade
	warnings []error
	err      error
}

// metaField is one front matter key a page sets, as Node.Any reads it.
type metaField struct {
	key string
	v   any
}

// hugoMetaKeys are the front matter keys (lower case) that mapping a page reads, with the
// configured taxonomies' plural keys (hugoConfig.metaKeys): a reading keeps only those, so that
// what a site mapped again keeps of a page is small. A key that mapping comes to read goes here.
var hugoMetaKeys = []string{
	"title", "slug", "url", "aliases", "outputs", "headless", "build", "_build", "draft",
	"date", "publishdate", "pubdate", "published", "lastmod", "modified", "expirydate", "unpublishdate",
}

// metaKeys are hugoMetaKeys and the plural keys of every language's taxonomies.
func (h *hugoConfig) metaKeys() map[string]bool {
	keys := map[string]bool{}
	for _, k := range hugoMetaKeys {
		keys[k] = true
	}
	for k := range h.taxonomies {
		keys[k] = true
	}
	for _, l := range h.langs {
		for k := range l.taxonomies {
			keys[k] = true
		}
	}
	return keys
}

// meta is the page's front matter as mapping reads it: a map of its own, which the cascades
// that reach the page fill.
func (rd *hugoRead) meta() map[string]any {
	m := make(map[string]any, len(rd.fields))
	for _, f := range rd.fields {
		m[f.key] = f.v
	}
	return m
}

// readFrontMatter parses the front matter of the content file f (head: the file up to the end of
// the block) and keeps what mapping and deciding need: the values of the keys mapping reads, its
// robots inputs, and the cascades a branch page declares. A page whose front matter cannot be
// parsed is not ok.
func (g hugoGen) readFrontMatter(f hugoFile, head []byte, keys map[string]bool) *hugoRead {
	doc, err := frontmatter.Parse(g.s.rel(f.abs), head, frontmatter.Hugo)
	if err != nil {
		return &hugoRead{err: err}
	}
	rd := &hugoRead{ok: true}
	if doc.Root != nil {
		for _, k := range doc.Root.Keys {
			// Node.Any's reading of the map, of the keys kept: lower case, and of keys that fold
			// alike the one written last.
			name := strings.ToLower(k.Name)
			if !keys[name] || slices.ContainsFunc(rd.fields, func(f metaField) bool { return f.key == name }) {
				continue
			}
			w, _ := doc.Root.Fold(name)
			rd.fields = append(rd.fields, metaField{name, w.Value.Any(true)})
		}
	}
	var errs []error
	own, err := doc.Robots()
	if err != nil {
		errs = append(errs, err)
	}
	if f.base == "_index" {
		cs, err := doc.Cascades()
		if err != nil {
			errs = append(errs, err)
		}
		for _, c := range cs {
			rd.cascades = append(rd.cascades, newHugoCascade(c))
		}
	}
	rd.ownIn = own
	rd.warnings, rd.err = doc.Warnings, errors.Join(errs...)
	return rd
}

// page is what Hugo writes for one content file: its output file in each format, aliases and
// pager pages, and tp, the target whose folder holds its resources; written is false when Hugo
// writes nothing for it. The output is worked out for every page, published or not under the
// flags read: a file that is there belongs to its page whatever flags built it.
func (g hugoGen) page(p *hugoSrc, sections map[sectionKey]*hugoSrc) (pg Page, tp hugoTarget, written bool, err error) {
	s, h := g.s, g.s.hugo
	pg = Page{Source: s.source(p.abs), Kind: p.kind, Lang: p.lang}
	pg.NoOutput = h.noOutput(p, s.opt.Now)
	switch {
	case len(p.ownIn) == 0:
		pg.Inputs = p.inputs // its cascades' slice, shared by the pages they alone reach
	case len(p.inputs) == 0:
		pg.Inputs = p.ownIn
	default:
		pg.Inputs = append(append(make([]rules.Input, 0, len(p.inputs)+len(p.ownIn)), p.inputs...), p.ownIn...)
	}
	d, err := h.descriptor(p, sections)
	if err != nil {
		return pg, tp, false, fmt.Errorf("%s: %w", pg.Source, err)
	}
	if h.disableKinds[p.kind] || pg.NoOutput == "headless" || strings.HasPrefix(pg.NoOutput, "build.render") {
		return pg, tp, false, nil // nothing is ever written for these
	}
	tp = h.place(&pg, d, h.pageFormats(p.kind, p.meta))
	if !h.disableAliases {
		for _, a := range toStrings(p.meta["aliases"]) {
			pg.Aliases = append(pg.Aliases, h.aliasFile(a, tp, p))
		}
	}
	return pg, tp, true, nil
}

// place sets where Hugo writes the page in each of its output formats: Output and URL for HTML,
// Formats for the others, and for a list page where the pages continuing it go in each format.
// It returns the HTML target (else the first format's): its folder holds the page's resources.
func (h *hugoConfig) place(pg *Page, d hugoDesc, formats []hugoFormat) hugoTarget {
	var main hugoTarget
	for _, f := range formats {
		t := h.target(d, f, "")
		var pager *Pager
		if hugoBranch(d.kind) {
			pager = h.pager(d, f)
		}
		switch {
		case f.name == "html":
			pg.URL, pg.Output = linkAndFile(t.link, t.file)
			pg.Pager = pager
			main = t
			continue
		case pg.Output == "" && len(pg.Formats) == 0:
			main = t
		}
		pg.Formats = append(pg.Formats, Format{Name: f.name, File: t.file, Pager: pager})
	}
	return main
}

// linkAndFile returns a page's link and file, in one string where the link is the file's folder
// ("/blog/a/" and "blog/a/index.html" in "/blog/a/index.html", the usual case): a site keeps one
// string for both.
func linkAndFile(link, file string) (string, string) {
	if len(link) > 0 && link[0] == '/' && strings.HasPrefix(file, link[1:]) {
		both := "/" + file
		return both[:len(link)], both[1:]
	}
	return link, file
}

// publishesResources reports whether a page publishes its bundle's files: unless its (or a
// cascade's) build.publishResources is false.
func publishesResources(meta map[string]any) bool {
	b, ok := meta["build"].(map[string]any)
	return !ok || b["publishresources"] == nil || toBool(b["publishresources"])
}

// resources are the files of the bundle f that Hugo publishes with its page, in the output
// folder dir (with a leading slash, "" at the root), relative to the output folder.
func (h *hugoConfig) resources(f hugoFile, dir string, resources map[resKey][]hugoFile, firstLang map[string]int) []string {
	var res []hugoFile
	if f.base == "index" {
		res = resources[resKey{true, f.dir}]
	} else if f.base == "_index" {
		res = resources[resKey{false, f.dir}]
	}
	var out []string
	for _, r := range res {
		if r.content {
			continue // content files in a bundle are page resources, not published files
		}
		if r.named && r.lang != f.lang || !r.named && firstLang[f.dir] != h.langIndex(f.lang) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(r.rel, f.dir), "/")
		out = append(out, strings.TrimPrefix(path.Join(dir, rel), "/"))
	}
	sort.Strings(out)
	return out
}

// pager is where Hugo writes the pages 2..N of a list page in format f (renderPaginator): the
// target of the page with "/<pagination.path>/N" added. Hugo's own path building places N, so
// the pager is read off the targets of pages 2 and 3. Page 1 is a redirect stub for HTML
// formats and is not written for others.
func (h *hugoConfig) pager(d hugoDesc, f hugoFormat) *Pager {
	pp := strings.Trim(h.pagerPath, "/")
	a := h.target(d, f, "/"+pp+"/2").file
	b := h.target(d, f, "/"+pp+"/3").file
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i >= len(a) || a[i] != '2' {
		return nil
	}
	first := 2
	if f.isHTML {
		first = 1
	}
	return &Pager{Prefix: a[:i], Suffix: a[i+1:], First: first}
}

func parentDir(d string) string {
	i := strings.LastIndexByte(d, '/')
	if i < 0 {
		return ""
	}
	return d[:i]
}

// rel turns a path on disk into a slash path relative to the site root.
func (s *Site) rel(p string) string {
	if r, err := filepath.Rel(s.Root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// source is Page.Source for the file p on disk: a copy of its own when it is shorter than p, so
// that a page does not keep the path on disk alive (the site's root may be a long absolute path).
func (s *Site) source(p string) string {
	if r := s.rel(p); len(r) < len(p) {
		return strings.Clone(r)
	}
	return p
}

// hugoWalk lists the files under every content root with their language, as filepath.WalkDir
// would find them (symbolic links are not followed; names Hugo ignores are left out). For a site
// mapped again (r), a folder that is the one listed last time (its identity, which a file coming,
// going or being renamed in it changes), and in which nothing named changed came or went, is not
// listed again: its listing is kept, as the sources' readings are. same reports that every folder
// was, and that there are as many as then: the files are the ones listed then, and files is nil.
func (s *Site) hugoWalk(r *readings) (files []hugoFile, same bool, err error) {
	w := hugoWalker{s: s, r: r, same: true}
	for _, root := range s.hugo.roots {
		fi, err := os.Lstat(root.dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, false, err
		case !fi.IsDir():
			f, err := s.hugo.fileOf(root, root.dir)
			if err != nil {
				return nil, false, err
			}
			w.dirs = append(w.dirs, &hugoDir{files: []hugoFile{f}})
			w.same = false
			continue
		}
		if err := w.walk(root, root.dir, fi); err != nil {
			return nil, false, err
		}
	}
	if r != nil {
		w.same = w.same && len(w.dirs) == r.hugoDirCount
		r.hugoDirCount = len(w.dirs)
		if w.same {
			return nil, true, nil
		}
	}
	n := 0
	for _, d := range w.dirs {
		n += len(d.files)
	}
	files = make([]hugoFile, 0, n)
	for _, d := range w.dirs {
		files = append(files, d.files...)
	}
	slices.SortStableFunc(files, func(a, b hugoFile) int { return strings.Compare(a.abs, b.abs) })
	return files, false, nil
}

// hugoWalker is one walk of the content roots (hugoWalk).
type hugoWalker struct {
	s    *Site
	r    *readings
	dirs []*hugoDir // the folders walked, in walk order
	same bool       // each is the one listed last time
}

// hugoDir is one folder of a content root as hugoWalk lists it: its files and its folders, in
// name order.
type hugoDir struct {
	files []hugoFile
	dirs  []string
}

// walk lists dir (fi: its Lstat; nil without r) and the folders under it.
func (w *hugoWalker) walk(root hugoRoot, dir string, fi fs.FileInfo) error {
	r := w.r
	var d *hugoDir
	var id fileID
	if r != nil {
		id = r.identity(idOf(fi))
		if d, _ = r.hugoDirs.get(r, dir, id); d != nil && !d.holds(r.namedIn(dir)) {
			d = nil
		}
	}
	if d == nil {
		w.same = false
		ents, err := os.ReadDir(dir)
		if err != nil && (dir != root.dir || !errors.Is(err, fs.ErrNotExist)) {
			return err
		}
		d = &hugoDir{}
		for _, e := range ents {
			name := e.Name()
			if hugoIgnored(name) {
				continue
			}
			if e.IsDir() {
				d.dirs = append(d.dirs, name)
				continue
			}
			f, err := w.s.hugo.fileOf(root, filepath.Join(dir, name))
			if err != nil {
				return err
			}
			d.files = append(d.files, f)
		}
		if r != nil && err == nil {
			r.hugoDirs.put(r, dir, id, d)
		}
	}
	w.dirs = append(w.dirs, d)
	for _, name := range d.dirs {
		p := filepath.Join(dir, name)
		var fi fs.FileInfo
		if r != nil {
			var err error
			if fi, err = os.Lstat(p); err != nil {
				return err
			}
		}
		if err := w.walk(root, p, fi); err != nil {
			return err
		}
	}
	return nil
}

// hugoIgnored reports the names Hugo's walk leaves out, files and folders: hidden ones, and
// editors' backup and lock files.
func hugoIgnored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

// holds reports whether the listing d still holds the paths named changed in its folder as they
// are now: a file named changed that is listed is still a file, one not listed is still not there.
func (d *hugoDir) holds(named []string) bool {
	for _, p := range named {
		name := filepath.Base(p)
		if hugoIgnored(name) {
			continue
		}
		listed, isDir := slices.Contains(d.dirs, name), false
		if !listed {
			listed = slices.ContainsFunc(d.files, func(f hugoFile) bool { return filepath.Base(f.abs) == name })
		} else {
			isDir = true
		}
		fi, err := os.Lstat(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) || (err == nil) != listed || err == nil && fi.IsDir() != isDir {
			return false
		}
	}
	return true
}

// fileOf describes the file p found under a content root: its path in the content tree, its
// language (the root's, else a configured language in its name, else the default) and its base
// name without language and extension.
func (h *hugoConfig) fileOf(root hugoRoot, p string) (hugoFile, error) {
	r, err := filepath.Rel(root.dir, p)
	if err != nil {
		return hugoFile{}, err
	}
	f := hugoFile{abs: p, rel: path.Join(root.under, filepath.ToSlash(r))}
	f.dir = path.Dir(f.rel)
	if f.dir == "." {
		f.dir = ""
	}
	name := filepath.Base(p)
	ext := strings.TrimPrefix(path.Ext(name), ".")
	f.content = hugoContentExts[strings.ToLower(ext)]
	stem := strings.TrimSuffix(name, "."+ext)
	f.lang = root.lang
	if i := strings.LastIndexByte(stem, '.'); i > 0 && h.hasLang(strings.ToLower(stem[i+1:])) {
		if f.lang == "" {
			f.lang = strings.ToLower(stem[i+1:])
		}
		f.named = true
		stem = stem[:i]
	}
	if f.lang == "" {
		f.lang = h.defaultLang
	}
	f.base = stem
	return f, nil
}

// normPath is Hugo's path normalisation (common/paths/pathparser.go): lower case, spaces to "-".
func (h *hugoConfig) normPath(p string) string {
	p = strings.ReplaceAll(p, " ", "-")
	if h.keepCase {
		return p
	}
	return strings.ToLower(p)
}

// kindAndPath gives a content file's page kind and Hugo's logical path for it.
func (h *hugoConfig) kindAndPath(f hugoFile) (string, string) {
	dir := h.normPath(f.dir)
	switch f.base {
	case "_index":
		if dir == "" {
			return "home", "/"
		}
		segs := strings.Split(dir, "/")
		// disableKinds does not change a kind: a configured taxonomy's _index files stay taxonomy
		// and term pages, and noOutput drops the disabled ones (Hugo v0.165 writes tags/go/ with
		// disableKinds = ["taxonomy"]).
		if _, ok := h.taxonomiesOf(f.lang)[segs[0]]; ok {
			switch len(segs) {
			case 1:
				return "taxonomy", "/" + dir
			case 2:
				return "term", "/" + dir
			}
		}
		return "section", "/" + dir
	case "index":
		return "page", "/" + dir
	}
	return "page", path.Join("/", dir, h.normPath(f.base))
}

// currentSection is the page's nearest section: itself for branch pages, else the closest
// folder above it that is a section (top-level folders always are, deeper ones with an _index).
func (h *hugoConfig) currentSection(p *hugoSrc, branch map[branchKey]bool) string {
	if p.base == "_index" {
		return p.path
	}
	dir := p.dir
	if p.bundle {
		dir = parentDir(dir)
	}
	for dir != "" {
		if !strings.Contains(dir, "/") || branch[branchKey{p.lang, dir}] {
			return "/" + h.normPath(dir)
		}
		dir = parentDir(dir)
	}
	return "/"
}

func firstTime(m map[string]any, keys ...string) time.Time {
	for _, k := range keys {
		if t, ok := anyTime(m[k]); ok {
			return t
		}
	}
	return time.Time{}
}

var hugoTimeLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02", time.RFC1123Z, time.RFC1123, time.RFC850,
}

func anyTime(v any) (time.Time, bool) {
	switch v := v.(type) {
	case time.Time:
		return v, true
	case string:
		for _, l := range hugoTimeLayouts {
			if t, err := time.Parse(l, strings.TrimSpace(v)); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// noOutput says why Hugo writes no HTML for the page (hugolib/page__meta.go), "" when it does.
func (h *hugoConfig) noOutput(p *hugoSrc, now time.Time) string {
	m := p.meta
	if h.disableKinds[p.kind] {
		return "disableKinds: " + p.kind
	}
	if !h.buildDrafts {
		if toBool(m["draft"]) {
			return "draft"
		}
		if v, ok := m["published"].(bool); ok && !v {
			return "draft"
		}
	}
	if !h.buildFuture {
		if t := firstTime(m, "publishdate", "pubdate", "published", "date"); !t.IsZero() && t.After(now) {
			return "future"
		}
	}
	if !h.buildExpired {
		if t := firstTime(m, "expirydate", "unpublishdate"); !t.IsZero() && !t.After(now) {
			return "expired"
		}
	}
	if toBool(m["headless"]) {
		return "headless"
	}
	build, _ := m["build"].(map[string]any)
	if build == nil {
		build, _ = m["_build"].(map[string]any)
	}
	switch r := strings.ToLower(strOr(build["render"], "")); r {
	case "never", "false":
		return "build.render: never"
	case "link":
		return "build.render: link"
	}
	if outs := toStrings(m["outputs"]); m["outputs"] != nil {
		html := false
		for _, o := range outs {
			if strings.EqualFold(o, "html") {
				html = true
			}
		}
		if !html {
			return "outputs without html"
		}
	}
	return ""
}
