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

	"github.com/bmatcuk/doublestar/v4"

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
	path     string // Hugo's logical path, lower case: "/blog/a", "/blog" for blog/_index.md, "/" home
	section  string // the page's current section path ("/blog/sub"), "/" for home
	doc      *frontmatter.Document
	own      map[string]any // own front matter, lower-case keys
	meta     map[string]any // own front matter filled from cascades
	applied  []appliedCascade
	cascades []hugoCascade // declared by this branch page
	page     *Page
	date     time.Time
	title    string
	slug     string
	bundle   bool // leaf bundle (index.*)
}

type appliedCascade struct {
	c   hugoCascade
	src *hugoSrc
}

// hugoCascade is one cascade entry: the values it fills and which pages it targets.
type hugoCascade struct {
	file   string // declaring file, slash path relative to the site root; "" for the site config
	line   int
	index  int // position in a cascade list
	glob   string
	kind   string
	lang   string
	env    string
	values map[string]any // lower-case keys, for filling the page's fields
	orig   map[string]any // as written, for the robots keys
	inputs []rules.Input  // the robots keys of orig
}

// decodeCascades reads a cascade value: one map or a list of maps, each with an optional
// target (formerly _target) of path, kind, lang and environment.
func decodeCascades(v any, file string, line int) []hugoCascade {
	var list []any
	switch v := v.(type) {
	case map[string]any:
		list = []any{v}
	case []any:
		list = v
	default:
		return nil
	}
	var out []hugoCascade
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		c := hugoCascade{file: file, line: line, index: i, values: map[string]any{}}
		for k, val := range m {
			if k == "_target" || k == "target" {
				t, _ := val.(map[string]any)
				c.glob = strOr(t["path"], "")
				c.kind = strings.ToLower(strOr(t["kind"], ""))
				c.lang = strings.ToLower(strOr(t["lang"], ""))
				// Hugo v0.150 replaced lang with sites.matrix.languages (a list of globs).
				if sites, ok := t["sites"].(map[string]any); ok {
					if matrix, ok := sites["matrix"].(map[string]any); ok {
						if ls := toStrings(matrix["languages"]); len(ls) > 0 {
							c.lang = "{" + strings.ToLower(strings.Join(ls, ",")) + "}"
						}
					}
				}
				c.env = strings.ToLower(strOr(t["environment"], ""))
				continue
			}
			c.values[k] = val
		}
		c.orig = c.values
		out = append(out, c)
	}
	return out
}

func (c hugoCascade) matches(p *hugoSrc, env string) bool {
	if c.kind != "" && !globMatch(c.kind, p.kind) {
		return false
	}
	if c.lang != "" && !globMatch(c.lang, p.lang) {
		return false
	}
	if c.env != "" && !globMatch(c.env, env) {
		return false
	}
	if c.glob != "" && !globMatch(strings.ToLower(c.glob), p.path) {
		return false
	}
	return true
}

func globMatch(glob, s string) bool {
	ok, err := doublestar.Match(glob, s)
	return err == nil && ok
}

// hugoPages maps every content file to what Hugo v0.165 writes for it.
func (s *Site) hugoPages() ([]Page, error) {
	h := s.hugo
	files, err := s.hugoWalk()
	if err != nil {
		return nil, err
	}
	var errs []error

	// Leaf bundles: folders holding an index.* content file. Everything below one is a resource.
	leaf := map[string]bool{}
	for _, f := range files {
		if f.content && f.base == "index" {
			leaf[f.dir] = true
		}
	}
	inLeaf := func(f hugoFile) (string, bool) {
		d := f.dir
		if f.content && f.base == "index" {
			return "", false
		}
		for {
			if leaf[d] {
				return d, true
			}
			if d == "" {
				return "", false
			}
			d = parentDir(d)
		}
	}

	// Sections: top-level folders, and deeper folders with an _index file in the language.
	branch := map[string]bool{} // lang + "\x00" + dir
	for _, f := range files {
		if f.content && f.base == "_index" {
			branch[f.lang+"\x00"+f.dir] = true
		}
	}

	var srcs []*hugoSrc
	byBranch := map[string]*hugoSrc{}   // lang + "\x00" + dir -> its _index page
	branches := map[string][]*hugoSrc{} // dir -> its _index pages in every language
	resources := map[string][]hugoFile{}
	for _, f := range files {
		if d, ok := inLeaf(f); ok {
			resources["leaf\x00"+d] = append(resources["leaf\x00"+d], f)
			continue
		}
		if !f.content {
			resources["branch\x00"+f.dir] = append(resources["branch\x00"+f.dir], f)
			continue
		}
		p := &hugoSrc{hugoFile: f, bundle: f.base == "index"}
		src, err := os.ReadFile(f.abs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.doc, err = frontmatter.Parse(s.rel(f.abs), src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.own, _ = lowerKeys(p.doc.Fields).(map[string]any)
		if p.own == nil {
			p.own = map[string]any{}
		}
		p.kind, p.path = h.kindAndPath(f)
		if f.base == "_index" {
			byBranch[f.lang+"\x00"+f.dir] = p
			branches[f.dir] = append(branches[f.dir], p)
			cs, err := p.doc.Cascades()
			if err != nil {
				errs = append(errs, err)
			}
			for i, c := range cs {
				vals, _ := lowerKeys(c.Values).(map[string]any)
				hc := hugoCascade{
					file: p.doc.File, line: c.Line, index: i, values: vals, orig: c.Values,
					glob: c.Target.Path, kind: strings.ToLower(c.Target.Kind),
					lang: strings.ToLower(c.Target.Lang), env: strings.ToLower(c.Target.Environment),
				}
				// Hugo v0.150 replaced lang with sites.matrix.languages (a list of globs).
				if ls := c.Target.Languages; len(ls) > 0 {
					hc.lang = "{" + strings.ToLower(strings.Join(ls, ",")) + "}"
				}
				if err := hc.readInputs(); err != nil {
					errs = append(errs, err)
				}
				p.cascades = append(p.cascades, hc)
			}
		}
		srcs = append(srcs, p)
	}
	for _, p := range srcs {
		p.section = h.currentSection(p, branch)
	}

	// Cascades, nearest first: the declaring branch page itself, then its ancestors, then the
	// site config. Hugo fills a field from the nearest cascade that sets it.
	for _, p := range srcs {
		p.meta = map[string]any{}
		for k, v := range p.own {
			p.meta[k] = v
		}
		dir := p.dir
		if p.bundle {
			dir = parentDir(dir)
		}
		for {
			// A cascade applies to pages of its branch page's language, unless its target names
			// languages (sites.matrix.languages): then to pages of those languages, whichever
			// language's branch page declares it (checked against Hugo 0.165).
			if b := byBranch[p.lang+"\x00"+dir]; b != nil {
				for _, c := range b.cascades {
					if c.matches(p, h.env) {
						p.applied = append(p.applied, appliedCascade{c: c, src: b})
						fill(p.meta, c.values)
					}
				}
			}
			for _, b := range branches[dir] {
				if b.lang == p.lang {
					continue
				}
				for _, c := range b.cascades {
					if c.lang != "" && c.matches(p, h.env) {
						p.applied = append(p.applied, appliedCascade{c: c, src: b})
						fill(p.meta, c.values)
					}
				}
			}
			if dir == "" {
				break
			}
			dir = parentDir(dir)
		}
		for _, c := range h.cascades {
			if c.matches(p, h.env) {
				p.applied = append(p.applied, appliedCascade{c: c})
				fill(p.meta, c.values)
			}
		}
		p.title = strOr(p.meta["title"], "")
		p.slug = strings.Trim(strOr(p.meta["slug"], ""), "-")
		p.date = firstTime(p.meta, "date", "publishdate", "pubdate", "published", "lastmod", "modified")
	}

	sections := map[string]*hugoSrc{} // lang + "\x00" + logical path of branch pages
	for _, p := range srcs {
		if p.base == "_index" {
			sections[p.lang+"\x00"+p.path] = p
		}
	}

	// A bundle file without a language in its name is shared by the bundle's translations and
	// published once, under the first language (by weight) that has the bundle.
	firstLang := map[string]int{}
	for _, p := range srcs {
		if p.bundle || p.base == "_index" {
			k := p.dir
			if i, ok := firstLang[k]; !ok || h.langIndex(p.lang) < i {
				firstLang[k] = h.langIndex(p.lang)
			}
		}
	}

	pages := make([]Page, 0, len(srcs))
	for _, p := range srcs {
		pg := Page{Source: s.rel(p.abs), Kind: p.kind, Lang: p.lang}
		if len(h.langs) == 1 && !h.defaultInSubdir {
			pg.Lang = ""
		}
		pg.NoOutput = h.noOutput(p, s.opt.Now)
		tp, err := h.targetPaths(p, sections)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", pg.Source, err))
			continue
		}
		if pg.NoOutput == "" {
			pg.URL, pg.Output = tp.link, tp.file
			if !h.disableAliases {
				for _, a := range toStrings(p.meta["aliases"]) {
					pg.Aliases = append(pg.Aliases, h.aliasFile(a, tp, p))
				}
			}
			var res []hugoFile
			if p.bundle {
				res = resources["leaf\x00"+p.dir]
			} else if p.base == "_index" {
				res = resources["branch\x00"+p.dir]
			}
			if b, ok := p.meta["build"].(map[string]any); !ok || b["publishresources"] == nil || toBool(b["publishresources"]) {
				for _, r := range res {
					if r.content {
						continue // content files in a bundle are page resources, not published files
					}
					if r.named && r.lang != p.lang || !r.named && firstLang[p.dir] != h.langIndex(p.lang) {
						continue
					}
					rel := strings.TrimPrefix(strings.TrimPrefix(r.rel, p.dir), "/")
					pg.Resources = append(pg.Resources, strings.TrimPrefix(path.Join(tp.dir, rel), "/"))
				}
				sort.Strings(pg.Resources)
			}
		}
		in, err := s.hugoInputs(p)
		if err != nil {
			errs = append(errs, err)
		}
		pg.Inputs = in
		pages = append(pages, pg)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Source < pages[j].Source })
	return pages, errors.Join(errs...)
}

// fill sets the keys of src that dst does not have.
func fill(dst, src map[string]any) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
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
			r, err := filepath.Rel(root.dir, p)
			if err != nil {
				return err
			}
			f := hugoFile{abs: p, rel: path.Join(root.under, filepath.ToSlash(r))}
			f.dir = path.Dir(f.rel)
			if f.dir == "." {
				f.dir = ""
			}
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
		if _, ok := h.taxonomies[segs[0]]; ok {
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
func (h *hugoConfig) currentSection(p *hugoSrc, branch map[string]bool) string {
	if p.base == "_index" {
		return p.path
	}
	dir := p.dir
	if p.bundle {
		dir = parentDir(dir)
	}
	for dir != "" {
		if !strings.Contains(dir, "/") || branch[p.lang+"\x00"+dir] {
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

// hugoTarget is where Hugo writes a page: its file, link and the folder of its resources.
type hugoTarget struct {
	file string // relative to the output folder, no leading slash
	link string // URL path
	dir  string // SubResourceBaseTarget, with a leading slash ("" at the root)
}

// targetPaths is Hugo's CreateTargetPaths (resources/page/page_paths.go) for the HTML output.
func (h *hugoConfig) targetPaths(p *hugoSrc, sections map[string]*hugoSrc) (hugoTarget, error) {
	prefix := h.prefix(p.lang)
	ugly := h.ugly(firstSeg(p.path))
	url := ""
	if p.kind != "home" {
		url = strOr(p.meta["url"], "")
	}
	if strings.Contains(url, ":") {
		u, err := h.expand(url, p, sections)
		if err != nil {
			return hugoTarget{}, err
		}
		url = u
	}
	if url != "" && strings.Contains(url, "..") {
		url = path.Join("/", url)
	}
	expanded := ""
	for _, pl := range h.permalinks {
		if (pl.kind == "" || pl.kind == p.kind) && (pl.glob == "" || globMatch(pl.glob, p.path)) {
			e, err := h.expand(pl.pattern, p, sections)
			if err != nil {
				return hugoTarget{}, err
			}
			if e != "" {
				expanded = path.Clean(e)
			}
			break
		}
	}
	baseName := p.slug
	if baseName == "" {
		baseName = path.Base(p.path)
	}
	baseNameSameAsType := !p.bundle && baseName == "index"
	isBranch := p.kind != "page"
	indexIsUgly := ugly && (p.kind == "home" || p.kind == "section" || p.kind == "taxonomy")
	if expanded == "" && baseNameSameAsType {
		ugly = true
	}

	var els []string
	add := func(xs ...string) {
		for _, x := range xs {
			if x != "" && x != "/" {
				els = append(els, x)
			}
		}
	}
	concatLast := func(s string) {
		if len(els) == 0 {
			add(s)
			return
		}
		els[len(els)-1] = strings.TrimSuffix(els[len(els)-1], "/") + s
	}
	needsBase := true
	if isBranch && url == "" && p.section != "/" {
		if expanded != "" {
			add(expanded)
		} else {
			add(p.section)
		}
		needsBase = false
	}
	linkUp := false
	forcePrefix := false
	switch {
	case p.kind != "home" && url != "":
		forcePrefix = !strings.HasPrefix(url, "/")
		add(strings.FieldsFunc(url, func(r rune) bool { return r == '/' })...)
		hasDot := strings.Contains(url, ".")
		hasSlash := strings.HasSuffix(url, "/")
		if hasSlash || !hasDot {
			add("index.html")
		}
		linkUp = last(els) == "index.html"
		if !forcePrefix || strings.HasPrefix(url, "/"+prefix) {
			prefix = ""
		}
	case !isBranch:
		if expanded != "" {
			add(expanded)
		} else {
			add(parentDir(strings.TrimPrefix(p.path, "/")))
			add(baseName)
		}
		if ugly {
			concatLast(".html")
		} else {
			add("index.html")
		}
		linkUp = last(els) == "index.html"
	default:
		if needsBase || !ugly || indexIsUgly {
			add("index.html")
		} else {
			concatLast(".html")
		}
		linkUp = !indexIsUgly && last(els) == "index.html"
	}
	if url == "" {
		for i, e := range els {
			els[i] = h.sanitize(e)
		}
	}
	join := func(xs []string) string {
		var b strings.Builder
		for _, x := range xs {
			b.WriteString("/")
			b.WriteString(strings.Trim(x, "/"))
		}
		return b.String()
	}
	file := join(els)
	link := file
	if linkUp {
		link = join(els[:len(els)-1]) + "/"
	}
	if baseNameSameAsType {
		link = strings.TrimSuffix(link, baseName)
	}
	dir := file
	if strings.HasPrefix(last(els), "index.") {
		dir = path.Dir(dir)
	} else {
		dir = strings.TrimSuffix(dir, ".html")
	}
	if dir == "/" {
		dir = ""
	}
	if prefix != "" {
		file = "/" + prefix + file
		link = "/" + prefix + link
		dir = "/" + prefix + dir
	}
	if link == "" {
		link = "/"
	}
	return hugoTarget{file: strings.TrimPrefix(file, "/"), link: link, dir: dir}, nil
}

func last(els []string) string {
	if len(els) == 0 {
		return ""
	}
	return els[len(els)-1]
}

func firstSeg(p string) string {
	p = strings.TrimPrefix(p, "/")
	s, _, _ := strings.Cut(p, "/")
	return s
}

// aliasFile is the output file of an alias stub (Aliases in hugolib/page__output.go and
// targetPathAlias in hugolib/alias.go): relative aliases resolve against the page's parent folder,
// absolute ones get the language prefix; case is kept.
func (h *hugoConfig) aliasFile(a string, tp hugoTarget, p *hugoSrc) string {
	var base string
	if !strings.HasPrefix(a, "/") {
		base = path.Join(tp.dir, "..")
	} else {
		base = path.Join("/", h.prefix(p.lang))
	}
	a = path.Join(base, a)
	if h.ugly(firstSeg(p.path)) && !strings.HasSuffix(a, ".html") {
		a += ".html"
	}
	a = strings.TrimPrefix(path.Clean(a), "/")
	if !strings.HasSuffix(a, ".html") && !strings.HasSuffix(a, ".htm") {
		a += "/index.html"
	}
	return a
}

// sanitize is Hugo's MakePathSanitized (common/paths/path.go Sanitize, then lower case unless
// disablePathToLower): spaces become one "-", characters other than letters, digits, marks and
// "._~+#@-/\" and %XX escapes are dropped.
func (h *hugoConfig) sanitize(s string) string {
	s = hugoSanitize(s)
	if h.keepCase {
		return s
	}
	return strings.ToLower(s)
}
