package site

import (
	"cmp"
	"context"
	"errors"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoContentExts are the file extensions Hugo renders as content (media types with a markup
// handler: markdown, html, asciidoc, org, pandoc, rst).
var hugoContentExts = map[string]bool{
	"md": true, "markdown": true, "mdown": true, "mkd": true, "mkdn": true,
	"html": true, "htm": true, "adoc": true, "asciidoc": true, "ad": true,
	"org": true, "pandoc": true, "pdc": true, "rst": true,
}

// hugoFile is one file found under a content root, or the folder of a list page Hugo makes without
// a content file. The site's file list is held from the walk until every page is placed, beside
// the pages themselves, so a file keeps one string, its path in the content tree, and says the rest
// by where its name starts in it (dir, base), a language's place (lang) and bits: TestHugoFileSize
// holds its size.
type hugoFile struct {
	root *hugoRoot // the content root it is under; nil for a list page Hugo makes
	// rel is the file's slash path under its content root, as written; for a list page Hugo
	// makes, the folder it lists ("" for the home).
	rel    string
	nameAt uint32 // where the file's name starts in rel: its folder is rel up to the slash before
	langAt uint16 // its language's place in weight order (hugoConfig.langAt); a site has a few
	bits   fileBits
}

// fileBits are a hugoFile's yes-or-no facts.
type fileBits uint8

const (
	fileContent fileBits = 1 << iota // Hugo renders it as content (hugoContentExts)
	fileNamed                        // the language came from the file name ("a.fr.md")
	fileIsRoot                       // the content root is the file itself: its name is the root's
)

// madeFile is the file of a list page Hugo makes without a content file, listing the folder dir
// (under the content tree, "" for the home) in the language lang: what an _index file there
// would be.
func (h *hugoConfig) madeFile(lang, dir string) hugoFile {
	return hugoFile{rel: dir, langAt: uint16(h.langIndex(lang))}
}

// dir is the file's slash folder under the content tree, "" at the top.
func (f hugoFile) dir() string {
	switch {
	case f.root == nil:
		return f.rel
	case f.nameAt == 0:
		return ""
	}
	return f.rel[:f.nameAt-1]
}

// name is the file's name, language and extension included.
func (f hugoFile) name() string {
	switch {
	case f.root == nil:
		return "_index"
	case f.bits&fileIsRoot != 0:
		return filepath.Base(f.root.dir)
	}
	return f.rel[f.nameAt:]
}

// base is the file's name without language and extension: "index", "_index", "a".
func (f hugoFile) base() string {
	name := f.name()
	stem := name[:len(name)-len(path.Ext(name))]
	if f.bits&fileNamed != 0 {
		stem = stem[:strings.LastIndexByte(stem, '.')]
	}
	return stem
}

// lang is the file's language code: the root's, else a configured language in its name, else the
// default.
func (f hugoFile) lang(h *hugoConfig) string { return h.langAt(int(f.langAt)) }

// content reports whether Hugo renders the file as content.
func (f hugoFile) content() bool { return f.bits&fileContent != 0 }

// named reports whether the file's language came from its name ("a.fr.md").
func (f hugoFile) named() bool { return f.bits&fileNamed != 0 }

// abs is the file's path on disk ("" for a list page Hugo makes). It is worked out when asked,
// not kept: the file list is among the largest things a site's mapping holds, and the path on
// disk would be the longest string of every file in it.
func (f hugoFile) abs() string {
	if f.root == nil {
		return ""
	}
	return filepath.Join(f.root.dir, filepath.FromSlash(f.tail()))
}

// tail is the file's slash path under its root's folder: rel without the folder it is mounted at,
// "" or "." for a root that is the file itself.
func (f hugoFile) tail() string {
	return strings.TrimPrefix(strings.TrimPrefix(f.rel, f.root.under), "/")
}

// compareAbs orders files by their paths on disk (abs) without making them: the path is the
// root's folder, a separator and the tail.
func compareAbs(a, b hugoFile) int {
	return compareJoined(absParts(a), absParts(b))
}

func absParts(f hugoFile) [3]string {
	if f.root == nil {
		return [3]string{}
	}
	t := filepath.FromSlash(f.tail())
	switch {
	case t == "" || t == ".":
		return [3]string{f.root.dir}
	case strings.HasSuffix(f.root.dir, string(filepath.Separator)):
		return [3]string{f.root.dir, t}
	}
	return [3]string{f.root.dir, string(filepath.Separator), t}
}

// compareJoined compares the strings a and b would make joined, as strings.Compare would.
func compareJoined(a, b [3]string) int {
	i, j := 0, 0
	x, y := a[0], b[0]
	for {
		for x == "" && i < len(a)-1 {
			i++
			x = a[i]
		}
		for y == "" && j < len(b)-1 {
			j++
			y = b[j]
		}
		if x == "" || y == "" {
			return cmp.Compare(len(x), len(y))
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		x, y = x[n:], y[n:]
	}
}

// hugoSrc is one page being mapped, with what Hugo needs to place it: a content file, or a list
// page Hugo makes without one. A page's front matter, filled from the cascades, is held only while
// the page is mapped (what reading it produced, hugoRead, is what a site mapped again keeps); the
// branch pages' (_index) are held until every page is, since the pages below them take their
// cascades, and their titles and slugs can place them.
type hugoSrc struct {
	hugoFile
	lang    string // its language code (hugoFile.lang), looked up once
	kind    string
	path    string         // Hugo's logical path, lower case: "/blog/a", "/blog" for blog/_index.md, "/" home
	section string         // the page's current section path ("/blog/sub"), "/" for home
	meta    map[string]any // its front matter, lower-case keys, filled from the cascades that reach it
	inputs  []rules.Input  // robots inputs of the cascades that reach it, nearest first
	ownIn   []rules.Input  // robots inputs of its own front matter
	params  hugoParams     // the robots parameters its own front matter sets (hugoRead.params)
	silent  []hugoSetter   // those it sets with keys that give no input (hugoRare.silent)
	// set are the robots parameters that the cascades reaching it set, nearest first
	// (cascader.apply): six at most (the keys of frontmatter's Hugo dialect), kept in place, not
	// allocated for every page.
	set      [6]*hugoSetter
	cascades []hugoCascade // declared by this branch page
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
// what stays of a page is its Page and the few values of its front matter that mapping reads
// (hugoRead), never the file, and the sources are read in parallel, each only up to the end of
// its front matter. What the site-wide steps after that need (which pages were read, the terms
// they use, the folders their resources go in) is kept apart, small.
type hugoMapping struct {
	ctx   context.Context // the mapping's: once it ends, no file is opened (readSources)
	g     hugoGen
	h     *hugoConfig
	r     *readings         // the readings kept of a site mapped again (Remap); nil for none
	keys  map[string]string // the front matter keys mapping reads (hugoConfig.metaKeys)
	files []hugoFile        // the content files that are pages, in file order
	pages []Page            // by file: kept where state is read|placed
	state []pageState
	// reads are by file what reading it produced, and where its page goes, for a site mapped
	// again (Remap), which takes the pages in once all are placed (collect). nil for Map: each
	// reading is taken in (take) as soon as its page is placed.
	reads     []*hugoRead
	resources map[resKey][]hugoFile
	branch    map[branchKey]bool // the branch pages read, by language and folder
	branches  []*hugoSrc         // the same, in file order
	sections  map[sectionKey]*hugoSrc
	cascades  cascader
	// taxonomies are each language's taxonomies' plural keys, sorted once: the order a page's
	// terms are collected in.
	taxonomies map[string][]string

	// Taken in by take, as each page is placed (Map) or once every page is (Remap, collect).
	problems []hugoProblem          // by file once sorted (sortedProblems)
	terms    map[hugoTerm]termPlace // each term used, where first
	termsMu  sync.Mutex             // terms (takeTerms)
	bundles  []bundlePage           // the pages that may publish resources
	mu       sync.Mutex             // problems and bundles
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
func (g hugoGen) mapSite(ctx context.Context, r *readings) (mapped, error) {
	s, h := g.s, g.s.hugo
	content, err := s.hugoContent(r)
	if err != nil {
		return mapped{}, err
	}
	hm := &hugoMapping{ctx: ctx, g: g, h: h, r: r, keys: h.metaKeys(), terms: map[hugoTerm]termPlace{}, taxonomies: map[string][]string{}}
	for _, l := range h.langs {
		hm.taxonomies[l.code] = sortedKeys(h.taxonomiesOf(l.code))
	}
	hm.files, hm.resources = content.pages, content.resources
	hm.pages = make([]Page, len(hm.files))
	hm.state = make([]pageState, len(hm.files))
	if r != nil {
		hm.reads = make([]*hugoRead, len(hm.files))
	}
	hm.readBranches()
	if err := ctx.Err(); err != nil {
		return mapped{}, err
	}
	hm.readPages()
	if err := ctx.Err(); err != nil {
		return mapped{}, err
	}
	hm.collect()

	tops, firstLang := hm.sitewide()
	for _, b := range hm.bundles {
		p := &hm.pages[b.i]
		if rs := h.resources(hm.files[b.i], b.dir, hm.resources, firstLang); len(rs) > 0 {
			p.setOthers(func(x *Extra) { x.Resources = rs })
		}
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
	// The pages mapped, by source: in place (a site's pages are never held twice) when file
	// order is source order, as it is unless a content root is outside the site's folder.
	// order is made at its size: it is made at the end of the mapping, when the most is held.
	n := 0
	for i := range hm.pages {
		if hm.state[i] == pageRead|pagePlaced {
			n++
		}
	}
	order := make([]int32, 0, n)
	for i := range hm.pages {
		if hm.state[i] == pageRead|pagePlaced {
			order = append(order, int32(i))
		}
	}
	bySource := func(a, b int32) int { return strings.Compare(hm.pages[a].Source, hm.pages[b].Source) }
	if slices.IsSortedFunc(order, bySource) {
		m.pages = hm.pages[:0]
		for _, i := range order {
			m.pages = append(m.pages, hm.pages[i])
		}
		clear(hm.pages[len(m.pages):])
	} else {
		slices.SortStableFunc(order, bySource)
		m.pages = make([]Page, len(order))
		for k, i := range order {
			m.pages[k] = hm.pages[i]
		}
	}
	if r != nil {
		hm.remember(m.pages, order)
	}
	for _, p := range made {
		pg, ok, err := g.sourceless(p, hm.sections)
		if err != nil && !slices.ContainsFunc(errs, func(e error) bool { return e.Error() == err.Error() }) {
			errs = append(errs, err) // once, not for every term page the cascade reaches
		}
		if ok {
			m.sourceless = append(m.sourceless, pg)
		}
	}
	return m, errors.Join(errs...)
}

// bundleFiles sorts the files of the content tree into the content files that are pages and the
// other files of bundles (by bundle folder). The pages are files' own first elements, kept in
// place: a site's file list is among the largest things a run holds, and is not needed twice. The
// rest of it is cleared, so that it holds no file's path. The other files are in one list of its
// own, each bundle's a part of it, rather than a list for each bundle grown as its files come.
func bundleFiles(files []hugoFile) (pages []hugoFile, resources map[resKey][]hugoFile) {
	leaf := map[string]bool{} // folders holding an index.* content file: all below is a resource
	for _, f := range files {
		if f.content() && f.base() == "index" {
			leaf[f.dir()] = true
		}
	}
	bundle := func(f hugoFile) (resKey, bool) {
		if d, ok := inLeaf(f, leaf); ok {
			return resKey{true, d}, true
		}
		return resKey{false, f.dir()}, !f.content()
	}
	count, n := map[resKey]int{}, 0
	for _, f := range files {
		if k, ok := bundle(f); ok {
			count[k]++
			n++
		}
	}
	all := make([]hugoFile, n)
	resources = make(map[resKey][]hugoFile, len(count))
	for k, c := range count {
		resources[k], all = all[:0:c], all[c:]
	}
	pages = files[:0]
	for _, f := range files {
		if k, ok := bundle(f); ok {
			resources[k] = append(resources[k], f)
			continue
		}
		pages = append(pages, f)
	}
	clear(files[len(pages):])
	return pages, resources
}

// readBranches reads the branch pages (_index files), fills them from the cascades that reach
// them, and places them: the other pages need them all.
func (hm *hugoMapping) readBranches() {
	idx := hm.filesWhere(func(base string) bool { return base == "_index" })
	reads := make([]*hugoRead, len(idx))
	hm.readEach(idx, func(n int, rd *hugoRead) { reads[n] = rd })
	srcs := make([]*hugoSrc, len(idx))
	hm.branch = map[branchKey]bool{}
	for n, i := range idx {
		if rd := reads[n]; rd.ok {
			p := new(hugoSrc) // held until every page is placed: the cascades and sections
			hm.src(p, int(i), rd)
			srcs[n] = p
			hm.branches = append(hm.branches, p)
			hm.branch[branchKey{p.lang, p.dir()}] = true
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
			hm.placement(int(idx[n]), reads[n], p)
		}
	}
	if hm.r == nil {
		// Taken in now, as readPages takes in every other page.
		for n, i := range idx {
			hm.take(int(i), reads[n])
		}
	}
	if r := hm.r; r != nil {
		// Every other page depends on the branch pages alone of all the site's pages: the
		// places kept with their readings hold while the branch pages read say what they said.
		kept := make([]keptBranch, len(idx))
		for n, i := range idx {
			kept[n] = keptBranch{hm.files[i].abs(), reads[n]}
		}
		if !slices.EqualFunc(kept, r.branches, func(a, b keptBranch) bool { return a.abs == b.abs && a.rd.sameAs(b.rd) }) {
			r.epoch++
		}
		r.branches = kept
	}
}

// readPages reads and places every page that is not a branch page, on the workers of readSources:
// each page's front matter is let go as soon as it is placed. For a site mapped again, a page whose
// reading was kept, placed while the branch pages said the same, keeps its place.
func (hm *hugoMapping) readPages() {
	idx := hm.filesWhere(func(base string) bool { return base != "_index" })
	epoch := uint64(0)
	if hm.r != nil {
		epoch = hm.r.epoch
	}
	hm.readEach(idx, func(n int, rd *hugoRead) {
		i := int(idx[n])
		if rd.ok && !(rd.placed && rd.epoch == epoch && hm.r != nil) {
			var p hugoSrc
			hm.src(&p, i, rd)
			hm.prepare(&p)
			hm.placement(i, rd, &p)
			rd.epoch = epoch
		}
		if hm.r == nil {
			// A reading that is not kept (Map) is taken in now and let go: held until every
			// page is placed, the readings were the largest thing a site's mapping held.
			hm.take(i, rd)
		}
	})
}

// filesWhere are the places in hm.files of the files whose base name is one keep says yes to. It
// is held while those files are read, beside the pages placed meanwhile: four bytes a file, and
// no more than it needs.
func (hm *hugoMapping) filesWhere(keep func(base string) bool) []int32 {
	n := 0
	for _, f := range hm.files {
		if keep(f.base()) {
			n++
		}
	}
	idx := make([]int32, 0, n)
	for i, f := range hm.files {
		if keep(f.base()) {
			idx = append(idx, int32(i))
		}
	}
	return idx
}

// readEach reads the front matter of the files idx names, in parallel, into hm.reads for a site
// mapped again (Map, which takes each reading in as soon as it can, keeps none), and calls fn(n, rd)
// for idx[n] with what reading it produced; a file whose front matter could not be read (rd.ok
// false) has its problem recorded.
func (hm *hugoMapping) readEach(idx []int32, fn func(n int, rd *hugoRead)) {
	var k keeper[*hugoRead]
	if hm.r != nil {
		k = hugoKeeper{hm.r, idx}
	}
	file := func(n int) string { return hm.files[idx[n]].abs() }
	read := func(n int, head []byte, err error) *hugoRead {
		if err != nil {
			return &hugoRead{rare: &hugoRare{err: err}}
		}
		return hm.g.readFrontMatter(hm.files[idx[n]], head, hm.keys)
	}
	readSources(hm.ctx, hm.r, k, len(idx), file, frontmatter.Hugo, read, func(n int, rd *hugoRead) {
		i := idx[n]
		if hm.reads != nil {
			hm.reads[i] = rd
		}
		if rd.ok {
			hm.state[i] |= pageRead
		}
		fn(n, rd)
	})
}

// src sets p to the page being mapped for the file i, read as rd. It fills a page its caller holds
// rather than making one, so that a page placed and let go (readPages) can stay on its worker's
// stack. A reading that is not kept (Map, not Remap) lets its front matter values go here: the page
// has its own copy, and holding every page's at once would make a site's largest data while it is
// mapped.
func (hm *hugoMapping) src(p *hugoSrc, i int, rd *hugoRead) {
	f := hm.files[i]
	*p = hugoSrc{hugoFile: f, lang: f.lang(hm.h), bundle: f.base() == "index", meta: rd.meta(), ownIn: rd.ownIn, params: rd.params, cascades: rd.cascades()}
	if rd.rare != nil {
		p.silent = rd.rare.silent
	}
	if hm.r == nil {
		rd.fields = nil
	}
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

// placement works out where the page p (prepared) of the file i, read as rd, goes, and keeps it in
// rd (hugoPlace). Pages are placed on many goroutines at once, each into its own reading; collect
// then takes them all in, in file order. A reading that is not kept (Map) points at the page in
// its place among the site's pages, rather than at a copy of its own that every page would hold
// until all are placed.
func (hm *hugoMapping) placement(i int, rd *hugoRead, p *hugoSrc) {
	pg, tp, written, err := hm.g.page(p, hm.sections)
	pl := hugoPlace{placed: true, publishes: written && publishesResources(p.meta)}
	switch {
	case err != nil:
		rd.setRare(func(r *hugoRare) { r.pageErr = err })
	case hm.r == nil:
		hm.pages[i] = pg
		pl.page = &hm.pages[i]
		// The file's path in the content tree ends its page's Source as a rule ("blog/a.md",
		// "content/blog/a.md"): the file list takes it from there and lets its own copy go, so
		// that a site's mapping does not hold both for every page until all are placed.
		if f := &hm.files[i]; strings.HasSuffix(pg.Source, f.rel) {
			f.rel = pg.Source[len(pg.Source)-len(f.rel):]
		}
	default:
		pl.page = &pg
	}
	if pl.publishes && (p.base() == "index" || p.base() == "_index") {
		rd.setRare(func(r *hugoRare) { r.dir = tp.dir })
	}
	plurals, ok := hm.taxonomies[p.lang]
	if !ok {
		plurals = sortedKeys(hm.h.taxonomiesOf(p.lang))
	}
	for t, plural := range plurals {
		for v, term := range toStrings(p.meta[plural]) {
			if term != "" {
				pl.terms = append(pl.terms, placedTerm{term, int32(t), int32(v)})
			}
		}
	}
	rd.hugoPlace = pl
}

// collect takes in the pages read and placed that readPages has not taken in already (take).
func (hm *hugoMapping) collect() {
	for i, rd := range hm.reads {
		if rd != nil {
			hm.take(i, rd)
		}
	}
}

// take takes in the page of file i, read as rd, if it was placed: its problems, its Page, the terms
// it uses and the resources it may publish. It is safe for concurrent use with itself for
// different files: the problems are put back in file order when read (sortedProblems).
func (hm *hugoMapping) take(i int, rd *hugoRead) {
	if rr := rd.rare; rr != nil && (len(rr.warnings) > 0 || rr.err != nil) {
		hm.mu.Lock()
		hm.problems = append(hm.problems, hugoProblem{i: i, warnings: rr.warnings, readErr: rr.err})
		hm.mu.Unlock()
	}
	if !rd.ok || !rd.placed {
		return
	}
	f := hm.files[i]
	hm.takeTerms(i, rd)
	if rd.page == nil {
		hm.mu.Lock()
		hm.problems = append(hm.problems, hugoProblem{i: i, pageErr: rd.rare.pageErr})
		hm.mu.Unlock()
		return
	}
	// The bundle's files are the ones there now (mapSite).
	hm.pages[i] = keptPage(rd.page, func(x *Extra) bool { return x.Resources != nil }, func(x *Extra) { x.Resources = nil })
	hm.state[i] |= pagePlaced
	if rd.publishes && hm.hasResources(f) {
		hm.mu.Lock()
		hm.bundles = append(hm.bundles, bundlePage{i, rd.rare.dir})
		hm.mu.Unlock()
	}
}

// takeTerms takes in the terms the page of file i, read as rd, uses, each where it is first used
// (the page first in file order, then in the page's taxonomy and value order), and lets the
// reading's list go. It is safe for concurrent use: a reading that is not kept (Map) has its terms
// taken in as soon as it is placed, rather than held with every other page's until all are.
func (hm *hugoMapping) takeTerms(i int, rd *hugoRead) {
	if len(rd.terms) == 0 {
		return
	}
	lang := hm.files[i].lang(hm.h)
	plurals := hm.plurals(lang)
	hm.termsMu.Lock()
	for _, t := range rd.terms {
		k := hugoTerm{lang, plurals[t.t], t.term}
		at := termPlace{i, int(t.t), int(t.v)}
		if have, ok := hm.terms[k]; !ok || at.before(have) {
			hm.terms[k] = at
		}
	}
	hm.termsMu.Unlock()
	if hm.r == nil {
		rd.terms = nil
	}
}

// plurals are the taxonomies' plural keys of the language, sorted.
func (hm *hugoMapping) plurals(lang string) []string {
	if ps, ok := hm.taxonomies[lang]; ok {
		return ps
	}
	return sortedKeys(hm.h.taxonomiesOf(lang))
}

// remember points the reading of each page mapped at its Page in pages, the Map's: the next
// mapping of the site copies it from there while it holds (hugoPlace). order are the files of
// pages, in the order of pages.
func (hm *hugoMapping) remember(pages []Page, order []int32) {
	for k, i := range order {
		hm.reads[i].page = &pages[k]
	}
}

// hasResources reports whether the page of the file f is a bundle with files besides its content
// files.
func (hm *hugoMapping) hasResources(f hugoFile) bool {
	switch f.base() {
	case "index":
		return len(hm.resources[resKey{true, f.dir()}]) > 0
	case "_index":
		return len(hm.resources[resKey{false, f.dir()}]) > 0
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
		dir := f.dir()
		if top := firstSeg(dir); top != "" {
			tops[branchKey{f.lang(h), top}] = true
		}
		if base := f.base(); base == "index" || base == "_index" {
			if n, ok := firstLang[dir]; !ok || int(f.langAt) < n {
				firstLang[dir] = int(f.langAt)
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
	if f.content() && f.base() == "index" {
		return "", false
	}
	for d := f.dir(); ; d = parentDir(d) {
		if leaf[d] {
			return d, true
		}
		if d == "" {
			return "", false
		}
	}
}

// page is what Hugo writes for one content file: its output file in each format, aliases and
// pager pages, and tp, the target whose folder holds its resources; written is false when Hugo
// writes nothing for it. The output is worked out for every page, published or not under the
// flags read: a file that is there belongs to its page whatever flags built it.
func (g hugoGen) page(p *hugoSrc, sections map[sectionKey]*hugoSrc) (pg Page, tp hugoTarget, written bool, err error) {
	s, h := g.s, g.s.hugo
	pg = Page{Source: s.source(p.abs())}
	if len(p.ownIn) > 0 && p.ownIn[0].Source.File == pg.Source {
		pg.Source = p.ownIn[0].Source.File // the reading's copy: a page keeps its path once
	}
	noOutput := h.noOutput(p, s.opt.Now)
	pg.SetClass(p.kind, p.lang, noOutput)
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
		return pg, tp, false, &frontmatter.Error{File: pg.Source, Code: problem.PermalinkInvalid, Err: err} // its url or a permalink does not expand
	}
	if h.disableKinds[p.kind] || noOutput == "headless" || strings.HasPrefix(noOutput, "build.render") {
		return pg, tp, false, nil // nothing is ever written for these
	}
	formats, err := h.pageFormats(p.kind, p.meta)
	if err != nil {
		return pg, tp, false, &frontmatter.Error{File: pg.Source, Err: err} // of the code err has
	}
	tp = h.place(&pg, d, formats)
	if !h.disableAliases {
		for _, a := range toStrings(p.meta["aliases"]) {
			x := pg.extra()
			x.Aliases = append(x.Aliases, h.aliasFile(a, tp, p))
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
			if pager != nil {
				pg.extra().Pager = pager
			}
			main = t
			continue
		case pg.Output == "" && len(pg.Others().Formats) == 0:
			main = t
		}
		x := pg.extra()
		x.Formats = append(x.Formats, Format{Name: f.name, File: t.file, Pager: pager})
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
	if f.base() == "index" {
		res = resources[resKey{true, f.dir()}]
	} else if f.base() == "_index" {
		res = resources[resKey{false, f.dir()}]
	}
	var out []string
	for _, r := range res {
		if r.content() {
			continue // content files in a bundle are page resources, not published files
		}
		if r.named() && r.langAt != f.langAt || !r.named() && firstLang[f.dir()] != int(f.langAt) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(r.rel, f.dir()), "/")
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

// fileAt describes the file at r, its path relative to the root's folder ("." for a root that is
// a file): its path in the content tree, its language (the root's, else a configured language in
// its name, else the default) and where its name starts, which base reads the base name off. Its one
// string is rel, which is r's own: the file list keeps no path on disk (abs works it out when
// asked), so r must not be part of a longer string.
func (h *hugoConfig) fileAt(root *hugoRoot, r string) hugoFile {
	f := hugoFile{root: root, rel: path.Join(root.under, filepath.ToSlash(r))}
	f.nameAt = uint32(strings.LastIndexByte(f.rel, '/') + 1)
	if r == "." {
		f.bits |= fileIsRoot
	}
	name := f.name()
	ext := strings.TrimPrefix(path.Ext(name), ".")
	if hugoContentExts[strings.ToLower(ext)] {
		f.bits |= fileContent
	}
	stem := strings.TrimSuffix(name, "."+ext)
	lang := root.lang
	if i := strings.LastIndexByte(stem, '.'); i > 0 {
		if code, ok := h.langCode(strings.ToLower(stem[i+1:])); ok {
			if lang == "" {
				lang = code
			}
			f.bits |= fileNamed
		}
	}
	if lang == "" {
		lang = h.defaultLang
	}
	f.langAt = uint16(h.langIndex(lang))
	return f
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
	dir := h.normPath(f.dir())
	switch f.base() {
	case "_index":
		if dir == "" {
			return "home", "/"
		}
		segs := strings.Split(dir, "/")
		// disableKinds does not change a kind: a configured taxonomy's _index files stay taxonomy
		// and term pages, and noOutput drops the disabled ones (Hugo v0.165 writes tags/go/ with
		// disableKinds = ["taxonomy"]).
		if _, ok := h.taxonomiesOf(f.lang(h))[segs[0]]; ok {
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
	return "page", path.Join("/", dir, h.normPath(f.base()))
}

// currentSection is the page's nearest section: itself for branch pages, else the closest
// folder above it that is a section (top-level folders always are, deeper ones with an _index).
func (h *hugoConfig) currentSection(p *hugoSrc, branch map[branchKey]bool) string {
	if p.base() == "_index" {
		return p.path
	}
	dir := p.dir()
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
