package site

// Jekyll (4.3) mapping. Where a rule here looks odd, it is Jekyll's: each function names the Ruby
// method it follows (lib/jekyll/reader.rb, entry_filter.rb, page.rb, document.rb, collection.rb,
// frontmatter_defaults.rb, publisher.rb, url.rb, drops/url_drop.rb, configuration.rb).
//
// What Page fields mean for Jekyll:
//   - Source is relative to Site.Root; Kind is "page", "post" (drafts too) or the collection label.
//   - Output is the file Jekyll writes, relative to the destination folder. baseurl is not part
//     of it: hosts serve the destination folder at the root and baseurl only prefixes links.
//   - URL is the path the output is served at without baseurl, derived from Output the way
//     the spec says ("a/index.html" is "/a/", "a/b.html" is "/a/b.html"). A page whose
//     permalink has no extension ("/foo") is written to "foo.html", so its URL is "/foo.html".
//   - Pages whose output is not HTML (a Markdown page with `permalink: /feed.xml`, a Sass file with
//     front matter, which jekyll-sass-converter turns into .css) are kept with their real
//     output file: their robots directives then feed X-Robots-Tag. Static files (no front
//     matter) are not pages.
//   - NoOutput says why nothing is written: "published: false", "future date", "draft",
//     `collection "x" has output: false`.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// jekyllConfig is what Jekyll's _config.yml says about paths.
type jekyllConfig struct {
	file           string // the config file, slash path relative to Site.Root ("" when none)
	collectionsDir string
	style          string // the `permalink` value: a style name or a template
	collections    []*jekyllCollection
	defaults       []jekyllDefault
	baseurl        string
	url            string // the site's scheme and host (`url`), "" when not set
	loc            *time.Location
	future         bool
	unpublished    bool
	showDrafts     bool
	exclude        []string // with Jekyll's default excludes
	include        []string
	markdownExt    map[string]bool
	paginatePath   string
	time           time.Time // site.time: config `time`, else the build clock
	warnings       []error   // from the config, reported once
}

// jekyllCollection is one entry of `collections` (posts included).
type jekyllCollection struct {
	label     string
	output    bool
	permalink string // URL template
}

// jekyllDefault is one entry of `defaults`, its robots keys read once.
type jekyllDefault struct {
	path    string
	hasPath bool
	typ     string
	hasType bool
	values  *frontmatter.Node
	inputs  []rules.Input
}

// jekyllDefaultExcludes is DEFAULT_EXCLUDES in configuration.rb.
var jekyllDefaultExcludes = []string{".sass-cache", ".jekyll-cache", "gemfiles", "Gemfile", "Gemfile.lock", "node_modules", "vendor/bundle/", "vendor/cache/", "vendor/gems/", "vendor/ruby/"}

func (s *Site) openJekyll() error {
	c := &jekyllConfig{
		style:        "date",
		include:      []string{".htaccess"},
		paginatePath: "/page:num",
		loc:          time.Local,
		time:         s.opt.Now,
		markdownExt:  map[string]bool{},
	}
	if tz := s.opt.Env("TZ"); tz != "" {
		if l, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
			c.loc = l
		}
	}
	doc, err := readJekyllConfig(s.Root)
	if err != nil {
		return err
	}
	r := jekyllConfigReader{c: c, doc: doc, source: ".", dest: "_site", markdownExt: "markdown,mkdown,mkdn,mkd,md"}
	if doc != nil {
		for _, k := range doc.Root.Keys {
			r.key(k)
		}
	}
	if err := errors.Join(r.errs...); err != nil {
		return err
	}
	c.finish(r.markdownExt)
	s.Content = s.abs(r.source)
	s.Output = s.abs(r.dest)
	if doc != nil {
		c.file = doc.File
		s.ConfigFiles = []string{filepath.Join(s.Root, doc.File)}
	}
	s.jek = c
	s.gen = jekyllGen{s}
	if c.url != "" || c.baseurl != "" {
		// site.url + site.baseurl, as Jekyll's absolute_url filter joins them.
		s.BaseURL = strings.TrimSuffix(c.url, "/") + "/" + strings.Trim(c.baseurl, "/")
	}
	return nil
}

// finish applies what the keys read imply: default excludes, the posts collection, permalinks.
func (c *jekyllConfig) finish(markdownExt string) {
	// Dates from the config were read before `timezone` might have been seen.
	c.time = c.time.In(c.loc)
	c.exclude = append(c.exclude, jekyllDefaultExcludes...)
	for _, e := range strings.Split(markdownExt, ",") {
		c.markdownExt["."+strings.ToLower(strings.TrimSpace(e))] = true
	}
	// add_default_collections: posts always, with output true and the style's permalink.
	var posts *jekyllCollection
	for _, col := range c.collections {
		if col.label == "posts" {
			posts = col
		}
	}
	if posts == nil {
		posts = &jekyllCollection{label: "posts"}
		c.collections = append([]*jekyllCollection{posts}, c.collections...)
	}
	posts.output = true
	if posts.permalink == "" {
		posts.permalink = jekyllStyleTemplate(c.style)
	}
	for _, col := range c.collections {
		if col.permalink == "" {
			col.permalink = jekyllPermalinkSuffix("/:collection/:path", c.style)
		}
	}
}

// jekyllConfigReader reads the keys of _config.yml that change paths.
type jekyllConfigReader struct {
	c                         *jekyllConfig
	doc                       *frontmatter.Document
	source, dest, markdownExt string
	errs                      []error
}

func (r *jekyllConfigReader) bad(k frontmatter.Key, want string) {
	r.errs = append(r.errs, &frontmatter.Error{File: r.doc.File, Line: r.doc.Line(k.Value.Off), Err: fmt.Errorf("%s: want %s", k.Name, want)})
}

func (r *jekyllConfigReader) key(k frontmatter.Key) {
	c, v := r.c, k.Value
	if v.IsNull() {
		return
	}
	switch k.Name {
	case "source", "destination", "collections_dir", "baseurl", "permalink", "paginate_path", "markdown_ext", "timezone":
		s, ok := v.Scalar()
		if !ok {
			r.bad(k, "a string")
			return
		}
		r.scalar(k, s)
	case "future", "unpublished", "show_drafts":
		b, ok := v.Truth()
		if !ok {
			r.bad(k, "true or false")
			return
		}
		*map[string]*bool{"future": &c.future, "unpublished": &c.unpublished, "show_drafts": &c.showDrafts}[k.Name] = b
	case "exclude", "include":
		list, ok := v.StringList() // Jekyll refuses anything but a list (check_include_exclude)
		if !ok || v.Kind != frontmatter.KindList {
			r.bad(k, "a list of strings")
			return
		}
		if k.Name == "exclude" {
			c.exclude = list
		} else {
			c.include = list
		}
	case "time":
		t, err := jekyllNodeDate(v, c.loc)
		if err != nil {
			r.bad(k, "a date")
			return
		}
		c.time = t
	case "collections":
		cols, err := jekyllCollections(v)
		if err != nil {
			r.bad(k, err.Error())
			return
		}
		c.collections = cols
	case "defaults":
		r.errs = append(r.errs, r.defaults(k)...)
	case "url":
		// Read for the base URL only: Jekyll itself never refuses a value here, and neither does
		// robotsmith (a value that is not a string is no base URL).
		if s, ok := v.Scalar(); ok {
			c.url = s
		}
	}
}

func (r *jekyllConfigReader) scalar(k frontmatter.Key, v string) {
	c := r.c
	switch k.Name {
	case "source":
		r.source = v
	case "destination":
		r.dest = v
	case "collections_dir":
		c.collectionsDir = v
	case "baseurl":
		c.baseurl = v
	case "permalink":
		c.style = v
	case "paginate_path":
		c.paginatePath = v
	case "markdown_ext":
		r.markdownExt = v
	case "timezone":
		l, err := time.LoadLocation(v)
		if err != nil {
			r.bad(k, "an IANA time zone name")
			return
		}
		c.loc = l
	}
}

// readJekyllConfig reads _config.yml, _config.yaml or _config.toml, the first that exists
// (Configuration#config_files); nil when there is none.
func readJekyllConfig(root string) (*frontmatter.Document, error) {
	for _, name := range []string{"_config.yml", "_config.yaml", "_config.toml"} {
		src, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		format := frontmatter.YAML
		if name == "_config.toml" {
			format = frontmatter.TOML
		}
		return frontmatter.Decode(name, src, format)
	}
	return nil, nil
}

// jekyllCollections reads `collections`, a list of labels or a map of label to metadata.
func jekyllCollections(n *frontmatter.Node) ([]*jekyllCollection, error) {
	var out []*jekyllCollection
	switch n.Kind {
	case frontmatter.KindList:
		for _, e := range n.List {
			label, ok := e.Scalar()
			if !ok {
				return nil, errors.New("a list of names or a map")
			}
			out = append(out, &jekyllCollection{label: label})
		}
	case frontmatter.KindMap:
		for _, k := range n.Keys {
			col := &jekyllCollection{label: k.Name}
			if out := k.Value.Get("output"); out != nil {
				b, ok := out.Truth()
				// Ruby truthiness: any value but false and nil.
				col.output = b || !ok && !out.IsNull()
			}
			if p, ok := k.Value.Get("permalink").Scalar(); ok {
				col.permalink = p
			}
			out = append(out, col)
		}
	default:
		return nil, errors.New("a list of names or a map")
	}
	return out, nil
}

// defaults reads `defaults`: entries of {scope: {path, type}, values: {...}}. Entries whose values
// are not a map are skipped, as Jekyll does (with a warning). Each entry's robots keys are read
// here, once.
func (r *jekyllConfigReader) defaults(k frontmatter.Key) []error {
	n := k.Value
	if n.Kind != frontmatter.KindList {
		return []error{&frontmatter.Error{File: r.doc.File, Line: r.doc.Line(n.Off), Err: errors.New("defaults: want a list")}}
	}
	var errs []error
	for _, e := range n.List {
		values := e.Get("values")
		if e.Kind != frontmatter.KindMap || values == nil || values.Kind != frontmatter.KindMap {
			continue
		}
		d := jekyllDefault{values: values}
		if scope := e.Get("scope"); scope != nil && scope.Kind == frontmatter.KindMap {
			d.path, d.hasPath = scope.Get("path").Scalar()
			if t := scope.Get("type"); t != nil {
				d.hasType = true
				d.typ = t.String()
				switch d.typ { // update_deprecated_types
				case "page":
					d.typ = "pages"
				case "post":
					d.typ = "posts"
				case "draft":
					d.typ = "drafts"
				}
			}
		}
		in, err := r.doc.RobotsIn(values, rules.FromCascade)
		if err != nil {
			errs = append(errs, err)
		}
		d.inputs = in
		r.c.defaults = append(r.c.defaults, d)
	}
	return errs
}

// defaultSanitize is FrontmatterDefaults#sanitize_path.
func defaultSanitize(p string) string {
	if strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(p, "/")
	}
	return p
}

// stripCollectionsDir is FrontmatterDefaults#strip_collections_dir.
func (c *jekyllConfig) stripCollectionsDir(p string) string {
	if c.collectionsDir == "" || !strings.HasPrefix(p, c.collectionsDir+"/") {
		return p
	}
	return strings.Replace(p, c.collectionsDir+"/", "", 1)
}

// defaultApplies is FrontmatterDefaults#applies?: type equal, and the path a prefix of the
// document's relative path (a glob is expanded against the source folder first).
func (c *jekyllConfig) defaultApplies(d jekyllDefault, source, rel, typ string) bool {
	if d.hasType && d.typ != typ {
		return false
	}
	if !d.hasPath || d.path == "" {
		return true
	}
	if strings.Contains(d.path, "*") {
		// Dir.glob over the source folder; doublestar follows Ruby's glob closely (`*` within a
		// segment, `**/` across segments).
		matches, err := doublestar.Glob(os.DirFS(source), strings.TrimPrefix(d.path, "/"))
		if err != nil {
			return false
		}
		for _, m := range matches {
			if strings.HasPrefix(rel, c.stripCollectionsDir(m)) {
				return true
			}
		}
		return false
	}
	return strings.HasPrefix(rel, c.stripCollectionsDir(d.path))
}

// precedes is FrontmatterDefaults#has_precedence?.
func precedes(old *jekyllDefault, new jekyllDefault) bool {
	if old == nil {
		return true
	}
	np, op := defaultSanitize(new.path), defaultSanitize(old.path)
	if len(np) != len(op) {
		return len(np) >= len(op)
	}
	if new.hasType {
		return true
	}
	return !old.hasType
}

// jekyllData is a page's or document's top-level data: defaults merged with front matter, keys
// exactly as written (Jekyll's keys are case-sensitive).
type jekyllData map[string]*frontmatter.Node

func (d jekyllData) str(key string) (string, bool) {
	n, ok := d[key]
	if !ok || n.IsNull() {
		return "", false
	}
	return n.Scalar()
}

// isFalse reports a YAML false (Ruby's `== false`; Psych reads YAML 1.1's no and off as false).
func (d jekyllData) isFalse(key string) bool {
	n, ok := d[key]
	if !ok || n.Kind == frontmatter.KindString && !n.Plain {
		return false
	}
	b, ok := n.Truth()
	return ok && !b && n.Kind != frontmatter.KindInt
}

// list reads a list or a string as Ruby's Array() would, to_s on each item.
func (d jekyllData) list(key string, split bool) []string {
	n, ok := d[key]
	if !ok || n.IsNull() {
		return nil
	}
	if n.Kind == frontmatter.KindList {
		var out []string
		for _, e := range n.List {
			if v, ok := e.Scalar(); ok {
				out = append(out, v)
			}
		}
		return out
	}
	v, ok := n.Scalar()
	if !ok {
		return nil
	}
	if split {
		return strings.Fields(v)
	}
	return []string{v}
}

// jekyllMatched returns the defaults that apply to a file, and their merged values
// (FrontmatterDefaults#all).
func (c *jekyllConfig) jekyllMatched(source, rel, typ string) ([]jekyllDefault, jekyllData) {
	data := jekyllData{}
	var old *jekyllDefault
	var matched []jekyllDefault
	for i := range c.defaults {
		d := c.defaults[i]
		if !c.defaultApplies(d, source, rel, typ) {
			continue
		}
		matched = append(matched, d)
		over := precedes(old, d)
		for _, k := range d.values.Keys {
			if _, ok := data[k.Name]; (over || !ok) && !k.Value.IsNull() {
				data[k.Name] = k.Value
			}
		}
		if over {
			old = &c.defaults[i]
		}
	}
	return matched, data
}

// hasYAMLHeader is Utils.has_yaml_header?: the first line is `---` and spaces.
func hasYAMLHeader(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	buf = buf[:n]
	i := bytes.IndexByte(buf, '\n')
	if i < 0 || !bytes.HasPrefix(buf, []byte("---")) {
		return false
	}
	return len(bytes.TrimRight(buf[3:i], " \t\r\f\v")) == 0
}

// jekyllWalk collects pages as Reader#read does.
type jekyllWalk struct {
	s        *Site
	c        *jekyllConfig
	source   string // the source folder
	dest     string // the destination folder, cleaned
	pages    []Page
	seen     map[string]bool // page sources already read
	errs     []error
	warnings []error
}

// jekyllGen is Jekyll's generator: the pages of a site opened as Jekyll.
type jekyllGen struct{ s *Site }

func (g jekyllGen) pages() ([]Page, []error, error) {
	s := g.s
	w := &jekyllWalk{s: s, c: s.jek, source: s.Content, dest: filepath.Clean(s.Output), seen: map[string]bool{}}
	w.warnings = append(w.warnings, w.c.warnings...)
	w.readDirectories("")
	w.readIncluded()
	for _, col := range w.c.collections {
		if col.label != "posts" && col.label != "data" {
			w.readCollection(col)
		}
	}
	sort.SliceStable(w.pages, func(i, j int) bool { return w.pages[i].Source < w.pages[j].Source })
	w.setPager()
	return w.pages, w.warnings, errors.Join(w.errs...)
}

// filter is EntryFilter#filter for entries (relative to dirRel, itself relative to the source).
func (w *jekyllWalk) filter(entries []string, dirRel string) []string {
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e, ".") {
			continue
		}
		included := w.globInclude(w.c.include, e) || w.globInclude(w.c.include, path.Base(e))
		if !included && w.excluded(path.Join(dirRel, e)) {
			continue
		}
		if !included && (jekyllSpecial(e) || jekyllSpecial(path.Base(e)) || strings.HasSuffix(e, "~")) {
			continue
		}
		out = append(out, e)
	}
	return out
}

func (w *jekyllWalk) excluded(rel string) bool {
	var pats []string
	for _, p := range w.c.exclude {
		inc := false
		for _, q := range w.c.include {
			if p == q {
				inc = true
			}
		}
		if !inc {
			pats = append(pats, p)
		}
	}
	return w.globInclude(pats, rel)
}

// globInclude is EntryFilter#glob_include?: both sides are joined to the source folder, so a
// pattern matches by fnmatch, as a prefix, or as the folder itself with a trailing slash.
func (w *jekyllWalk) globInclude(patterns []string, entry string) bool {
	e := "/" + strings.TrimLeft(entry, "/")
	isDir := false
	if fi, err := os.Stat(filepath.Join(w.source, filepath.FromSlash(entry))); err == nil && fi.IsDir() {
		isDir = true
	}
	for _, p := range patterns {
		pp := "/" + strings.TrimLeft(p, "/")
		if rubyFnmatch(pp, e) || strings.HasPrefix(e, pp) || (isDir && pp == e+"/") {
			return true
		}
	}
	return false
}

// readDirectories is Reader#read_directories; dirRel is "" for the source folder.
func (w *jekyllWalk) readDirectories(dirRel string) {
	base := filepath.Join(w.source, filepath.FromSlash(dirRel))
	ents, err := os.ReadDir(base)
	if err != nil {
		if dirRel == "" {
			w.errs = append(w.errs, err)
		}
		return
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	var dirs, pages []string
	for _, e := range w.filter(names, dirRel) {
		p := filepath.Join(base, e)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			dirs = append(dirs, e)
		} else if hasYAMLHeader(p) {
			pages = append(pages, e)
		}
	}
	w.readPosts(dirRel)
	for _, d := range dirs {
		if filepath.Clean(filepath.Join(base, d)) == w.dest {
			continue
		}
		w.readDirectories(path.Join(dirRel, d))
	}
	for _, name := range pages {
		w.page(dirRel, name)
	}
}

// readIncluded is Reader#read_included_excludes: included files read again from the top.
func (w *jekyllWalk) readIncluded() {
	for _, inc := range w.c.include {
		p := filepath.Join(w.source, filepath.FromSlash(inc))
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || !hasYAMLHeader(p) {
			continue
		}
		dir, name := path.Split(strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(inc)), "/"))
		w.page(strings.TrimSuffix(dir, "/"), name)
	}
}

// srcRel is a source-relative path as Page.Source (relative to Site.Root).
func (w *jekyllWalk) srcRel(rel string) string {
	r, err := filepath.Rel(w.s.Root, filepath.Join(w.source, filepath.FromSlash(rel)))
	if err != nil {
		return rel
	}
	return filepath.ToSlash(r)
}

// outputOf turns a URL and output extension into the output file, for pages (Page#destination)
// or documents (Document#destination).
func outputOf(url, ext string, isPage bool) string {
	p := strings.TrimPrefix(jekyllUnescape(url), "/")
	if strings.HasSuffix(url, "/") {
		if isPage {
			p += "index"
		} else {
			return p + "index.html"
		}
	}
	if !strings.HasSuffix(p, ext) {
		p += ext
	}
	return path.Clean("/" + p)[1:]
}

// servedURL is the URL path an output file is served at: "a/index.html" is "/a/".
func servedURL(out string) string {
	if out == "index.html" {
		return "/"
	}
	if strings.HasSuffix(out, "/index.html") {
		return "/" + strings.TrimSuffix(out, "index.html")
	}
	return "/" + out
}

// outputExt is Renderer#output_ext: a permalink's own extension, else the converters'.
func (c *jekyllConfig) outputExt(ext, permalink string, hasPermalink bool) string {
	if hasPermalink && !strings.HasSuffix(permalink, "/") {
		if e := rubyExtname(permalink); e != "" {
			return e
		}
	}
	lower := strings.ToLower(ext)
	switch {
	case c.markdownExt[lower]:
		return ".html"
	case lower == ".scss" || lower == ".sass":
		return ".css" // jekyll-sass-converter, a dependency of Jekyll 4
	}
	return ext
}

// configName is the config file's name as sources show it.
func (w *jekyllWalk) configName() string {
	if w.c.file == "" {
		return "_config.yml"
	}
	return w.c.file
}

// read loads a file's front matter (once) merged over its defaults, and its robots inputs: the
// matching defaults' first, then the front matter's own.
func (w *jekyllWalk) read(abs, srcRel, defaultsRel, typ string) (data jekyllData, in []rules.Input, dateLine int, ok bool) {
	src, err := os.ReadFile(abs)
	if err != nil {
		w.errs = append(w.errs, err)
		return nil, nil, 0, false
	}
	doc, err := frontmatter.Parse(srcRel, src, frontmatter.Jekyll)
	if err != nil {
		w.errs = append(w.errs, err)
		return nil, nil, 0, false
	}
	w.warnings = append(w.warnings, doc.Warnings...)
	matched, data := w.c.jekyllMatched(w.source, defaultsRel, typ)
	for _, d := range matched {
		in = append(in, d.inputs...)
	}
	own, err := doc.Robots()
	if err != nil {
		w.errs = append(w.errs, err)
	}
	in = append(in, own...)
	if doc.Root != nil {
		for _, k := range doc.Root.Keys {
			if !k.Value.IsNull() {
				data[k.Name] = k.Value
			}
		}
		if k, ok := doc.Root.Key("date"); ok {
			dateLine = doc.Line(k.Off)
		}
	}
	// Categories union defaults' and front matter's (Document#merge_categories!).
	if fmc := doc.Root.Get("categories"); !fmc.IsNull() {
		if dc, ok := mergedDefault(matched, "categories"); ok && dc.Kind == frontmatter.KindList {
			var union []string
			union = appendUnique(union, jekyllData{"c": dc}.list("c", true)...)
			union = appendUnique(union, jekyllData{"c": fmc}.list("c", true)...)
			u := &frontmatter.Node{Kind: frontmatter.KindList}
			for _, v := range union {
				u.List = append(u.List, &frontmatter.Node{Kind: frontmatter.KindString, Text: v})
			}
			data["categories"] = u
		}
	}
	return data, in, dateLine, true
}

func mergedDefault(matched []jekyllDefault, key string) (*frontmatter.Node, bool) {
	var out *frontmatter.Node
	for _, d := range matched {
		if v := d.values.Get(key); v != nil {
			out = v
		}
	}
	return out, out != nil
}

// page reads one page (Page#initialize, Page#url, Page#destination).
func (w *jekyllWalk) page(dirRel, name string) {
	rel := path.Join(dirRel, name)
	if w.seen[rel] {
		return
	}
	w.seen[rel] = true
	abs := filepath.Join(w.source, filepath.FromSlash(rel))
	srcRel := w.srcRel(rel)
	data, in, _, ok := w.read(abs, srcRel, rel, "pages")
	if !ok {
		return
	}
	p := Page{Source: srcRel, Kind: "page", Inputs: in}
	if data.isFalse("published") && !w.c.unpublished {
		p.NoOutput = "published: false"
	}
	ext := rubyExtname(name)
	basename := strings.TrimRight(strings.TrimSuffix(name, ext), ".")
	permalink, hasPermalink := data.str("permalink")
	outExt := w.c.outputExt(ext, permalink, hasPermalink)
	var template string
	switch {
	case outExt != ".html" && outExt != ".htm" && outExt != ".xhtml":
		template = "/:path/:basename:output_ext"
	case basename == "index":
		template = "/:path/"
	default:
		template = jekyllPermalinkSuffix("/:path/:basename", w.c.style)
	}
	if hasPermalink {
		template = permalink
	}
	dir := ""
	if dirRel != "" {
		dir = "/" + dirRel
	}
	url := jekyllURLHash(template, []string{"path", "basename", "output_ext"}, map[string]string{"path": dir, "basename": basename, "output_ext": outExt})
	p.Output = outputOf(url, outExt, true)
	p.URL = servedURL(p.Output)
	w.pages = append(w.pages, p)
}

// readPosts is Reader#retrieve_posts for one folder: its _posts (and _drafts) at any depth.
func (w *jekyllWalk) readPosts(dirRel string) {
	if cd := w.c.collectionsDir; cd != "" && !strings.HasPrefix("/"+dirRel, "/"+cd) {
		return
	}
	var posts *jekyllCollection
	for _, col := range w.c.collections {
		if col.label == "posts" {
			posts = col
		}
	}
	for _, magic := range []string{"_posts", "_drafts"} {
		magicRel := path.Join(dirRel, magic)
		for _, e := range w.entries(magicRel, false) {
			if magic == "_posts" && !postNameRE.MatchString(e) {
				continue
			}
			if magic == "_drafts" && !draftNameRE.MatchString(e) {
				continue
			}
			w.document(posts, path.Join(magicRel, e), magic == "_drafts")
		}
	}
}

var (
	postNameRE  = regexp.MustCompile(`^(?:.+/)*?(\d{2,4}-\d{1,2}-\d{1,2})-([^/]*)(\.[^.]+)$`)
	draftNameRE = regexp.MustCompile(`^(?:.+/)*(.*)(\.[^.]+)$`)
)

// entries is Reader#get_entries (Dir["**/*"], no dot files) or, with dots, the Collection#entries
// glob; then the entry filter; folders dropped.
func (w *jekyllWalk) entries(dirRel string, dots bool) []string {
	base := filepath.Join(w.source, filepath.FromSlash(dirRel))
	var all []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base {
			return nil
		}
		if !dots && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		r, _ := filepath.Rel(base, p)
		if !d.IsDir() {
			all = append(all, filepath.ToSlash(r))
		} else if d.Type()&fs.ModeSymlink != 0 {
			return filepath.SkipDir
		}
		return nil
	})
	return w.filter(all, dirRel)
}

// readCollection is Collection#read: documents are files with front matter.
func (w *jekyllWalk) readCollection(col *jekyllCollection) {
	dir := path.Join(w.c.collectionsDir, "_"+col.label)
	for _, e := range w.entriesCollection(dir, "_"+col.label) {
		abs := filepath.Join(w.source, filepath.FromSlash(path.Join(dir, e)))
		if !hasYAMLHeader(abs) {
			continue
		}
		w.document(col, path.Join(dir, e), false)
	}
}

// entriesCollection filters a collection's entries as Collection#filtered_entries does: the
// entry filter's base is the collection's own folder name, without collections_dir.
func (w *jekyllWalk) entriesCollection(dir, label string) []string {
	base := filepath.Join(w.source, filepath.FromSlash(dir))
	var all []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base || d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(base, p)
		all = append(all, filepath.ToSlash(r))
		return nil
	})
	return w.filter(all, label)
}

// document reads one post, draft or collection document (Document#read, #url, #destination).
// rel is relative to the source folder.
func (w *jekyllWalk) document(col *jekyllCollection, rel string, draft bool) {
	if w.seen[rel] {
		return
	}
	w.seen[rel] = true
	abs := filepath.Join(w.source, filepath.FromSlash(rel))
	srcRel := w.srcRel(rel)
	// relative_path is relative to the collections folder.
	docRel := rel
	if cd := w.c.collectionsDir; cd != "" {
		docRel = strings.TrimPrefix(rel, cd+"/")
	}
	data, in, dateLine, ok := w.read(abs, srcRel, docRel, col.label)
	if !ok {
		return
	}
	kind := col.label
	if kind == "posts" {
		kind = "post"
	}
	p := Page{Source: srcRel, Kind: kind, Inputs: in}
	fail := func(err error) {
		w.errs = append(w.errs, &frontmatter.Error{File: srcRel, Err: err})
	}
	relDir := "_" + col.label
	if draft {
		relDir = "_drafts"
	}
	// categories_from_path
	var cats []string
	if !strings.HasPrefix(docRel, relDir) {
		super := docRel
		if i := strings.Index(docRel, relDir); i >= 0 {
			super = docRel[:i]
		}
		base := path.Base(docRel)
		for _, c := range strings.Split(super, "/") {
			if c != "" && c != relDir && c != base {
				cats = append(cats, c)
			}
		}
	}
	// merge_categories! with the data's categories, then populate_categories.
	cats = appendUnique(cats, data.list("categories", true)...)
	if _, ok := data["category"]; ok {
		cats = appendUnique(cats, data.list("category", false)...)
	}
	// The date: data, else the file name, else the build time (drafts: the file's mtime).
	ext := rubyExtname(docRel)
	var date time.Time
	dateSet := false
	if n, ok := data["date"]; ok {
		t, err := jekyllNodeDate(n, w.c.loc)
		if err != nil {
			// Jekyll built the site, so it read this date; robotsmith reads the forms Ruby's
			// Time.parse reads in practice, and says so where it cannot, using the file name's.
			w.warnings = append(w.warnings, &frontmatter.Error{File: srcRel, Line: dateLine,
				Err: fmt.Errorf("front matter: date: %v, which robotsmith cannot read as Jekyll does; the date in the file name is used", err)})
		} else {
			date, dateSet = t, true
		}
	}
	var slug string
	if m := postNameRE.FindStringSubmatch(docRel); m != nil {
		slug = m[2]
		if !dateSet || date.Unix() == w.c.time.Unix() {
			t, err := jekyllParseTime(m[1], w.c.loc)
			if err != nil {
				fail(err)
				return
			}
			date, dateSet = t, true
		}
	} else if m := draftNameRE.FindStringSubmatch(docRel); m != nil {
		slug = m[1]
	}
	baseNoExt := strings.TrimSuffix(path.Base(docRel), rubyExtname(path.Base(docRel)))
	if slug == "" && !strings.Contains(path.Base(docRel), ".") {
		slug = baseNoExt
	}
	slug = strings.TrimRight(slug, ".")
	if !dateSet {
		date = w.c.time
		if draft {
			if fi, err := os.Stat(abs); err == nil {
				date = fi.ModTime().In(w.c.loc)
			}
		}
	}
	if s, ok := data.str("slug"); ok {
		slug = s
	}
	switch {
	case draft && !w.c.showDrafts:
		p.NoOutput = "draft"
	case data.isFalse("published") && !w.c.unpublished:
		p.NoOutput = "published: false"
	case !col.output:
		p.NoOutput = fmt.Sprintf("collection %q has output: false", col.label)
	case !w.c.future && date.Unix() > w.c.time.Unix():
		p.NoOutput = "future date"
	}
	permalink, hasPermalink := data.str("permalink")
	outExt := w.c.outputExt(ext, permalink, hasPermalink)
	cleaned := strings.TrimSuffix(docRel, ext)
	cleaned = strings.Replace(cleaned, "_"+col.label, "", 1)
	cleaned = strings.TrimRight(cleaned, ".")
	lookup := func(key string) (string, bool) {
		if f, ok := jekyllDateKeys[key]; ok {
			return rubyStrftime(date, f), true
		}
		switch key {
		case "collection":
			return col.label, true
		case "path":
			return cleaned, true
		case "output_ext":
			return outExt, true
		case "name":
			return jekyllSlugify(baseNoExt, false, false), true
		case "title":
			// data["slug"]: the front matter's, else the file name's (Document#populate_title).
			return jekyllSlugify(slug, true, true), true
		case "slug":
			return jekyllSlugify(slug, false, false), true
		case "categories":
			var low []string
			for _, c := range cats {
				low = appendUnique(low, lowerASCII(c))
			}
			return strings.Join(low, "/"), true
		case "slugified_categories":
			var sl []string
			for _, c := range cats {
				sl = appendUnique(sl, jekyllSlugify(c, false, false))
			}
			return strings.Join(sl, "/"), true
		}
		return "", false
	}
	template := col.permalink
	if hasPermalink {
		template = permalink
	}
	url, err := jekyllURLDrop(template, lookup)
	if err != nil {
		fail(err)
		return
	}
	p.Output = outputOf(url, outExt, false)
	p.URL = servedURL(p.Output)
	w.pages = append(w.pages, p)
}

func appendUnique(list []string, vals ...string) []string {
	for _, v := range vals {
		found := false
		for _, x := range list {
			if x == v {
				found = true
				break
			}
		}
		if !found {
			list = append(list, v)
		}
	}
	return list
}

// setPager gives jekyll-paginate's template page its pager pages (Pagination#template_page, v1.1):
// the deepest page named index.html (with front matter, so index.md does not count) in
// paginate_path's folder or a folder above it that the reader reached. Its pages 2..N are written
// to paginate_path with :num replaced, each as index.html in that folder.
func (w *jekyllWalk) setPager() {
	pp := "/" + strings.Trim(w.c.paginatePath, "/")
	i := strings.Index(pp, ":num")
	if i < 0 {
		return
	}
	after := strings.Trim(pp[i+len(":num"):], "/")
	pager := Pager{Prefix: strings.TrimPrefix(pp[:i], "/"), Suffix: "/index.html", First: 2}
	if after != "" {
		pager.Suffix = "/" + after + "/index.html"
	}
	bySource := map[string]int{}
	for i, p := range w.pages {
		bySource[p.Source] = i
	}
	for dir := strings.Trim(path.Dir(pp), "/"); ; dir = parentDir(dir) {
		if i, ok := bySource[w.srcRel(path.Join(dir, "index.html"))]; ok && w.pages[i].Output != "" && w.pages[i].NoOutput == "" {
			w.pages[i].Pager = &pager
			return
		}
		if dir == "" {
			return
		}
	}
}
