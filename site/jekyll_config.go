package site

// Jekyll (4.3) mapping. Where a rule here looks odd, it is Jekyll's: each function names the Ruby
// method it follows (lib/jekyll/reader.rb, entry_filter.rb, page.rb, document.rb, collection.rb,
// frontmatter_defaults.rb, publisher.rb, url.rb, drops/url_drop.rb, configuration.rb).
//
// What Page fields mean for Jekyll:
//   - Source is relative to Site.Root; Kind is the type of Jekyll's defaults scopes: "pages", "posts",
//     "drafts" or the collection's label.
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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
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
	title          string // the site's title (`title`), "" when not set
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
	keys    []rules.Source // the robots keys its values set (jekyllKeys)
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
		c.warnings = append(c.warnings, doc.Warnings...) // the defaults' robots keys'
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
		s.readSource(Source{Path: s.ConfigFiles[0], Kind: SourceConfig})
	}
	s.jek = c
	s.gen = jekyllGen{s}
	s.Title = c.title
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
	r.errs = append(r.errs, &frontmatter.Error{File: r.doc.File, Line: r.doc.Line(k.Value.Off), Code: problem.GeneratorConfigInvalid, Err: fmt.Errorf("%s: want %s", k.Name, want)})
}

func (r *jekyllConfigReader) key(k frontmatter.Key) {
	c, v := r.c, k.Value
	if v.IsNull() {
		return
	}
	switch k.Name {
	case "url":
		// Read for the base URL only: Jekyll itself never refuses a value here, and neither does
		// robotsmith (a value that is not a string is no base URL).
		if s, ok := v.Scalar(); ok {
			r.c.url = s
		}
	case "title":
		// Read for llms.txt's H1 only, and likewise never refused.
		if s, ok := v.Scalar(); ok {
			r.c.title = s
		}
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
	}
}

func (r *jekyllConfigReader) scalar(k frontmatter.Key, v string) {
	c := r.c
	strs := map[string]*string{
		"source": &r.source, "destination": &r.dest, "collections_dir": &c.collectionsDir,
		"baseurl": &c.baseurl, "permalink": &c.style, "paginate_path": &c.paginatePath,
		"markdown_ext": &r.markdownExt,
	}
	if p, ok := strs[k.Name]; ok {
		*p = v
		return
	}
	if k.Name == "timezone" {
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
		return []error{&frontmatter.Error{File: r.doc.File, Line: r.doc.Line(n.Off), Code: problem.GeneratorConfigInvalid, Err: errors.New("defaults: want a list")}}
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
		in, err := r.doc.RobotsIn(values, rules.FromFrontMatterDefaults)
		if err != nil {
			errs = append(errs, err)
		}
		d.inputs = in
		d.keys = jekyllKeys(r.doc.RobotsKeys(nil, values, rules.FromFrontMatterDefaults))
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

// collectionDir is the folder of a collection's documents, relative to the source folder
// (Collection#relative_directory): _label, in collections_dir.
func (c *jekyllConfig) collectionDir(col *jekyllCollection) string {
	return path.Join(c.collectionsDir, "_"+col.label)
}

// stripCollectionsDir is FrontmatterDefaults#strip_collections_dir.
func (c *jekyllConfig) stripCollectionsDir(p string) string {
	if c.collectionsDir == "" || !strings.HasPrefix(p, c.collectionsDir+"/") {
		return p
	}
	return strings.Replace(p, c.collectionsDir+"/", "", 1)
}

// defaultGlobs are the files each glob path of the defaults matches in the source folder: Dir.glob
// over the source folder, expanded once per map as Jekyll caches it (glob_cache), not once per
// page. doublestar follows Ruby's glob closely (`*` within a segment, `**/` across segments).
func (c *jekyllConfig) defaultGlobs(source string) map[string][]string {
	globs := map[string][]string{}
	for _, d := range c.defaults {
		if _, done := globs[d.path]; d.hasPath && strings.Contains(d.path, "*") && !done {
			globs[d.path], _ = doublestar.Glob(os.DirFS(source), strings.TrimPrefix(d.path, "/"))
		}
	}
	return globs
}

// defaultApplies is FrontmatterDefaults#applies?: type equal, and the path a prefix of the
// document's relative path (a glob is expanded against the source folder first: globs holds what
// each matches).
func (c *jekyllConfig) defaultApplies(d jekyllDefault, globs map[string][]string, rel, typ string) bool {
	if d.hasType && d.typ != typ {
		return false
	}
	if !d.hasPath || d.path == "" {
		return true
	}
	if strings.Contains(d.path, "*") {
		for _, m := range globs[d.path] {
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

// jekyllMatched returns the defaults that apply to a file, and their merged values
// (FrontmatterDefaults#all).
func (c *jekyllConfig) jekyllMatched(globs map[string][]string, rel, typ string) ([]jekyllDefault, jekyllData) {
	data := jekyllData{}
	var old *jekyllDefault
	var matched []jekyllDefault
	for i := range c.defaults {
		d := c.defaults[i]
		if !c.defaultApplies(d, globs, rel, typ) {
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
