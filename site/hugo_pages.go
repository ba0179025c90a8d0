package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
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

// hugoSrc is one content file that is a page, with what Hugo needs to place it.
type hugoSrc struct {
	hugoFile
	kind     string
	path     string         // Hugo's logical path, lower case: "/blog/a", "/blog" for blog/_index.md, "/" home
	section  string         // the page's current section path ("/blog/sub"), "/" for home
	own      map[string]any // own front matter, lower-case keys
	meta     map[string]any // own front matter filled from cascades
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

// mapSite maps every content file to what Hugo v0.165 writes for it, and the list pages and 404
// pages Hugo makes without a content file.
func (g hugoGen) mapSite() (mapped, error) {
	s, h := g.s, g.s.hugo
	files, err := s.hugoWalk()
	if err != nil {
		return mapped{}, err
	}
	srcs, resources, warnings, errs := g.read(files)
	warnings = append(warnings, h.warnings...)
	branch := map[branchKey]bool{}
	for _, p := range srcs {
		if p.base == "_index" {
			branch[branchKey{p.lang, p.dir}] = true
		}
	}
	for _, p := range srcs {
		p.section = h.currentSection(p, branch)
	}
	h.applyCascades(srcs, srcs)
	sections, firstLang := h.index(srcs)
	made := h.madeLists(srcs, sections)
	h.applyCascades(srcs, made)
	m := mapped{pages: make([]Page, 0, len(srcs)), warnings: warnings}
	for _, p := range srcs {
		pg, err := g.page(p, sections, resources, firstLang)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		m.pages = append(m.pages, pg)
	}
	for _, p := range made {
		if pg, ok := g.sourceless(p, sections); ok {
			m.sourceless = append(m.sourceless, pg)
		}
	}
	sort.Slice(m.pages, func(i, j int) bool { return m.pages[i].Source < m.pages[j].Source })
	return m, errors.Join(errs...)
}

// index fills each page's title, slug and date, and indexes the branch pages by language and
// path and the bundles by the first language (by weight) that has them: a bundle file without a
// language in its name is shared by the bundle's translations and published once, under that
// language.
func (h *hugoConfig) index(srcs []*hugoSrc) (map[sectionKey]*hugoSrc, map[string]int) {
	sections := map[sectionKey]*hugoSrc{}
	firstLang := map[string]int{}
	for _, p := range srcs {
		p.title = strOr(p.meta["title"], "")
		p.slug = strings.Trim(strOr(p.meta["slug"], ""), "-")
		p.date = firstTime(p.meta, "date", "publishdate", "pubdate", "published", "lastmod", "modified")
		if p.base == "_index" {
			sections[sectionKey{p.lang, p.path}] = p
		}
		if p.bundle || p.base == "_index" {
			if i, ok := firstLang[p.dir]; !ok || h.langIndex(p.lang) < i {
				firstLang[p.dir] = h.langIndex(p.lang)
			}
		}
	}
	return sections, firstLang
}

// read reads every content file's front matter once: pages, with their own robots inputs and the
// cascades they declare, and the other files of bundles (by bundle folder).
func (g hugoGen) read(files []hugoFile) (srcs []*hugoSrc, resources map[resKey][]hugoFile, warnings, errs []error) {
	h := g.s.hugo
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
		p := &hugoSrc{hugoFile: f, bundle: f.base == "index"}
		ws, err := g.readFrontMatter(p)
		warnings = append(warnings, ws...)
		if err != nil {
			errs = append(errs, err)
			if p.own == nil {
				continue
			}
		}
		p.kind, p.path = h.kindAndPath(f)
		srcs = append(srcs, p)
	}
	return srcs, resources, warnings, errs
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

// readFrontMatter parses a page's front matter once and keeps what mapping and deciding need:
// its fields, its robots inputs, and the cascades a branch page declares.
func (g hugoGen) readFrontMatter(p *hugoSrc) ([]error, error) {
	src, err := os.ReadFile(p.abs)
	if err != nil {
		return nil, err
	}
	doc, err := frontmatter.Parse(g.s.rel(p.abs), src, frontmatter.Hugo)
	if err != nil {
		return nil, err
	}
	p.own = map[string]any{}
	if doc.Root != nil {
		p.own, _ = doc.Root.Any(true).(map[string]any)
	}
	var errs []error
	own, err := doc.Robots()
	if err != nil {
		errs = append(errs, err)
	}
	if p.base == "_index" {
		cs, err := doc.Cascades()
		if err != nil {
			errs = append(errs, err)
		}
		for _, c := range cs {
			p.cascades = append(p.cascades, newHugoCascade(c))
		}
	}
	p.ownIn = own
	return doc.Warnings, errors.Join(errs...)
}

// page is what Hugo writes for one content file: its output file in each format, resources,
// aliases and pager pages. The output is worked out for every page, published or not under the
// flags read: a file that is there belongs to its page whatever flags built it.
func (g hugoGen) page(p *hugoSrc, sections map[sectionKey]*hugoSrc, resources map[resKey][]hugoFile, firstLang map[string]int) (Page, error) {
	s, h := g.s, g.s.hugo
	pg := Page{Source: s.rel(p.abs), Kind: p.kind, Lang: p.lang}
	pg.NoOutput = h.noOutput(p, s.opt.Now)
	pg.Inputs = append(append([]rules.Input(nil), p.inputs...), p.ownIn...)
	d, err := h.descriptor(p, sections)
	if err != nil {
		return pg, fmt.Errorf("%s: %w", pg.Source, err)
	}
	if h.disableKinds[p.kind] || pg.NoOutput == "headless" || strings.HasPrefix(pg.NoOutput, "build.render") {
		return pg, nil // nothing is ever written for these
	}
	tp := h.place(&pg, d, h.pageFormats(p.kind, p.meta))
	if !h.disableAliases {
		for _, a := range toStrings(p.meta["aliases"]) {
			pg.Aliases = append(pg.Aliases, h.aliasFile(a, tp, p))
		}
	}
	pg.Resources = h.resources(p, tp, resources, firstLang)
	return pg, nil
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
			pg.URL, pg.Output, pg.Pager = t.link, t.file, pager
			main = t
			continue
		case pg.Output == "" && len(pg.Formats) == 0:
			main = t
		}
		pg.Formats = append(pg.Formats, Format{Name: f.name, File: t.file, Pager: pager})
	}
	return main
}

// resources are the bundle files published with the page, relative to the output folder.
func (h *hugoConfig) resources(p *hugoSrc, tp hugoTarget, resources map[resKey][]hugoFile, firstLang map[string]int) []string {
	var res []hugoFile
	if p.bundle {
		res = resources[resKey{true, p.dir}]
	} else if p.base == "_index" {
		res = resources[resKey{false, p.dir}]
	}
	if b, ok := p.meta["build"].(map[string]any); ok && b["publishresources"] != nil && !toBool(b["publishresources"]) {
		return nil
	}
	var out []string
	for _, r := range res {
		if r.content {
			continue // content files in a bundle are page resources, not published files
		}
		if r.named && r.lang != p.lang || !r.named && firstLang[p.dir] != h.langIndex(p.lang) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(r.rel, p.dir), "/")
		out = append(out, strings.TrimPrefix(path.Join(tp.dir, rel), "/"))
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

// hugoWalk lists the files under every content root with their language.
func (s *Site) hugoWalk() ([]hugoFile, error) {
	h := s.hugo
	var files []hugoFile
	for _, root := range h.roots {
		err := filepath.WalkDir(root.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root.dir && errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			name := d.Name()
			if p != root.dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			f, err := h.fileOf(root, p)
			if err != nil {
				return err
			}
			files = append(files, f)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].abs < files[j].abs })
	return files, nil
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
