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
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

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
	loc            *time.Location
	future         bool
	unpublished    bool
	showDrafts     bool
	exclude        []string // with Jekyll's default excludes
	include        []string
	markdownExt    map[string]bool
	paginatePath   string
	time           time.Time // site.time: config `time`, else the build clock
}

// jekyllCollection is one entry of `collections` (posts included).
type jekyllCollection struct {
	label     string
	output    bool
	permalink string // URL template
}

// jekyllDefault is one entry of `defaults`.
type jekyllDefault struct {
	path    string
	hasPath bool
	typ     string
	hasType bool
	values  map[string]*yaml.Node
	raw     map[string]any
	line    int
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
	root, err := readJekyllConfig(s.Root)
	if err != nil {
		return err
	}
	source, dest := ".", "_site"
	markdownExt := "markdown,mkdown,mkdn,mkd,md"
	var perr []error
	bad := func(key string, n *yaml.Node, want string) {
		perr = append(perr, &frontmatter.Error{File: s.jekyllFileName(root.file), Line: n.Line, Col: n.Column, Err: fmt.Errorf("%s: want %s", key, want)})
	}
	if root.node != nil {
		for i := 0; i+1 < len(root.node.Content); i += 2 {
			k, v := root.node.Content[i].Value, root.node.Content[i+1]
			if v.Tag == "!!null" {
				continue
			}
			switch k {
			case "source", "destination", "collections_dir", "baseurl", "permalink", "paginate_path", "markdown_ext", "timezone":
				if v.Kind != yaml.ScalarNode {
					bad(k, v, "a string")
					continue
				}
				switch k {
				case "source":
					source = v.Value
				case "destination":
					dest = v.Value
				case "collections_dir":
					c.collectionsDir = v.Value
				case "baseurl":
					c.baseurl = v.Value
				case "permalink":
					c.style = v.Value
				case "paginate_path":
					c.paginatePath = v.Value
				case "markdown_ext":
					markdownExt = v.Value
				case "timezone":
					l, err := time.LoadLocation(v.Value)
					if err != nil {
						bad(k, v, "an IANA time zone name")
						continue
					}
					c.loc = l
				}
			case "future", "unpublished", "show_drafts":
				var b bool
				if err := v.Decode(&b); err != nil {
					bad(k, v, "true or false")
					continue
				}
				switch k {
				case "future":
					c.future = b
				case "unpublished":
					c.unpublished = b
				case "show_drafts":
					c.showDrafts = b
				}
			case "exclude", "include":
				var list []string
				if err := v.Decode(&list); err != nil {
					bad(k, v, "a list of strings")
					continue
				}
				if k == "exclude" {
					c.exclude = list
				} else {
					c.include = list
				}
			case "time":
				t, err := jekyllNodeDate(v, c.loc)
				if err != nil {
					bad(k, v, "a date")
					continue
				}
				c.time = t
			case "collections":
				cols, err := jekyllCollections(v)
				if err != nil {
					bad(k, v, err.Error())
					continue
				}
				c.collections = cols
			case "defaults":
				defs, errs := jekyllDefaults(v)
				for _, e := range errs {
					perr = append(perr, &frontmatter.Error{File: s.jekyllFileName(root.file), Line: e.line, Err: e.err})
				}
				c.defaults = defs
			}
		}
	}
	if err := errors.Join(perr...); err != nil {
		return err
	}
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
	s.Content = s.abs(source)
	s.Output = s.abs(dest)
	if root.file != "" {
		s.ConfigFiles = []string{filepath.Join(s.Root, root.file)}
	}
	s.jek = c
	return nil
}

// jekyllFileName is a config file's name as errors and sources show it.
func (s *Site) jekyllFileName(name string) string {
	return filepath.ToSlash(name)
}

type jekyllRootConfig struct {
	file string
	node *yaml.Node // the top-level mapping; nil when there is no config
}

// readJekyllConfig reads _config.yml, _config.yaml or _config.toml, the first that exists
// (Configuration#config_files). TOML is turned into the same YAML tree, without line numbers.
func readJekyllConfig(root string) (jekyllRootConfig, error) {
	for _, name := range []string{"_config.yml", "_config.yaml", "_config.toml"} {
		src, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return jekyllRootConfig{}, err
		}
		var doc yaml.Node
		if name == "_config.toml" {
			var m map[string]any
			if _, err := toml.Decode(string(src), &m); err != nil {
				return jekyllRootConfig{}, &frontmatter.Error{File: name, Err: err}
			}
			b, err := yaml.Marshal(m)
			if err != nil {
				return jekyllRootConfig{}, &frontmatter.Error{File: name, Err: err}
			}
			if err := yaml.Unmarshal(b, &doc); err != nil {
				return jekyllRootConfig{}, &frontmatter.Error{File: name, Err: err}
			}
			zeroLines(&doc)
		} else if err := yaml.Unmarshal(src, &doc); err != nil {
			return jekyllRootConfig{}, &frontmatter.Error{File: name, Line: yamlErrLine(err), Err: err}
		}
		out := jekyllRootConfig{file: name}
		if len(doc.Content) > 0 {
			n := doc.Content[0]
			if n.Kind != yaml.MappingNode {
				if n.Tag == "!!null" {
					return out, nil
				}
				return jekyllRootConfig{}, &frontmatter.Error{File: name, Line: n.Line, Err: errors.New("configuration is not a mapping")}
			}
			out.node = n
		}
		return out, nil
	}
	return jekyllRootConfig{}, nil
}

func zeroLines(n *yaml.Node) {
	n.Line, n.Column = 0, 0
	for _, c := range n.Content {
		zeroLines(c)
	}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// jekyllCollections reads `collections`, a list of labels or a map of label to metadata.
func jekyllCollections(n *yaml.Node) ([]*jekyllCollection, error) {
	var out []*jekyllCollection
	switch n.Kind {
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, errors.New("a list of names or a map")
			}
			out = append(out, &jekyllCollection{label: e.Value})
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			col := &jekyllCollection{label: n.Content[i].Value}
			meta := n.Content[i+1]
			if meta.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(meta.Content); j += 2 {
					v := meta.Content[j+1]
					switch meta.Content[j].Value {
					case "output":
						var b bool
						if v.Decode(&b) == nil {
							col.output = b
						} else {
							// Ruby truthiness: any value but false and nil.
							col.output = v.Tag != "!!null"
						}
					case "permalink":
						if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
							col.permalink = v.Value
						}
					}
				}
			}
			out = append(out, col)
		}
	default:
		return nil, errors.New("a list of names or a map")
	}
	return out, nil
}

type lineErr struct {
	line int
	err  error
}

// jekyllDefaults reads `defaults`: entries of {scope: {path, type}, values: {...}}. Entries whose
// values are not a map are skipped, as Jekyll does (with a warning).
func jekyllDefaults(n *yaml.Node) ([]jekyllDefault, []lineErr) {
	if n.Kind != yaml.SequenceNode {
		return nil, []lineErr{{n.Line, errors.New("defaults: want a list")}}
	}
	var out []jekyllDefault
	var errs []lineErr
	for _, e := range n.Content {
		if e.Kind != yaml.MappingNode {
			continue
		}
		d := jekyllDefault{line: e.Line}
		valid := false
		for i := 0; i+1 < len(e.Content); i += 2 {
			v := e.Content[i+1]
			switch e.Content[i].Value {
			case "scope":
				if v.Kind != yaml.MappingNode {
					continue
				}
				for j := 0; j+1 < len(v.Content); j += 2 {
					sv := v.Content[j+1]
					switch v.Content[j].Value {
					case "path":
						if sv.Kind == yaml.ScalarNode && sv.Tag != "!!null" {
							d.path, d.hasPath = sv.Value, true
						}
					case "type":
						d.hasType = true
						d.typ = sv.Value
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
			case "values":
				if v.Kind != yaml.MappingNode {
					continue
				}
				valid = true
				d.values = map[string]*yaml.Node{}
				for j := 0; j+1 < len(v.Content); j += 2 {
					d.values[v.Content[j].Value] = v.Content[j+1]
				}
				if err := v.Decode(&d.raw); err != nil {
					errs = append(errs, lineErr{v.Line, err})
				}
			}
		}
		if valid {
			out = append(out, d)
		}
	}
	return out, errs
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

// jekyllData is a page's or document's top-level data: defaults merged with front matter.
type jekyllData map[string]*yaml.Node

func (d jekyllData) str(key string) (string, bool) {
	n, ok := d[key]
	if !ok || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// isFalse reports a YAML false (Ruby's `== false`).
func (d jekyllData) isFalse(key string) bool {
	n, ok := d[key]
	if !ok || n.Kind != yaml.ScalarNode {
		return false
	}
	var b bool
	return n.Tag == "!!bool" && n.Decode(&b) == nil && !b
}

// strings reads a list or a string as Ruby's Array() would, to_s on each item.
func (d jekyllData) list(key string, split bool) []string {
	n, ok := d[key]
	if !ok || n.Tag == "!!null" {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if split {
			return strings.Fields(n.Value)
		}
		return []string{n.Value}
	case yaml.SequenceNode:
		var out []string
		for _, e := range n.Content {
			if e.Kind == yaml.ScalarNode && e.Tag != "!!null" {
				out = append(out, e.Value)
			}
		}
		return out
	}
	return nil
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
		if precedes(old, d) {
			for k, v := range d.values {
				if v.Tag != "!!null" {
					data[k] = v
				}
			}
			old = &c.defaults[i]
		} else {
			for k, v := range d.values {
				if _, ok := data[k]; !ok && v.Tag != "!!null" {
					data[k] = v
				}
			}
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

// jekyllFrontMatter splits YAML front matter off src (Document::YAML_FRONT_MATTER_REGEXP) and
// returns its top-level keys. No closing line means no data.
func jekyllFrontMatter(src []byte) (jekyllData, int, error) {
	first := bytes.IndexByte(src, '\n')
	if first < 0 {
		return jekyllData{}, 0, nil
	}
	rest := src[first+1:]
	off := first + 1
	for len(rest) > 0 {
		j := bytes.IndexByte(rest, '\n')
		line := rest
		if j >= 0 {
			line = rest[:j]
		}
		t := bytes.TrimRight(line, " \t\r\f\v")
		if bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("...")) {
			block := src[first+1 : off]
			var doc yaml.Node
			if err := yaml.Unmarshal(block, &doc); err != nil {
				return nil, yamlErrLine(err) + 1, err
			}
			data := jekyllData{}
			if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
				m := doc.Content[0]
				for i := 0; i+1 < len(m.Content); i += 2 {
					data[m.Content[i].Value] = m.Content[i+1]
				}
			}
			return data, 0, nil
		}
		if j < 0 {
			break
		}
		rest = rest[j+1:]
		off += j + 1
	}
	return jekyllData{}, 0, nil
}

// jekyllWalk collects pages as Reader#read does.
type jekyllWalk struct {
	s      *Site
	c      *jekyllConfig
	source string // the source folder
	dest   string // the destination folder, cleaned
	pages  []Page
	seen   map[string]bool // page sources already read
	errs   []error
}

func (s *Site) jekyllPages() (pages []Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = nil, fmt.Errorf("jekyll mapping: internal error: %v", r)
		}
	}()
	w := &jekyllWalk{s: s, c: s.jek, source: s.Content, dest: filepath.Clean(s.Output), seen: map[string]bool{}}
	if w.c == nil {
		return nil, errors.New("jekyll mapping: site not opened as Jekyll")
	}
	w.readDirectories("")
	w.readIncluded()
	for _, col := range w.c.collections {
		if col.label != "posts" && col.label != "data" {
			w.readCollection(col)
		}
	}
	sort.SliceStable(w.pages, func(i, j int) bool { return w.pages[i].Source < w.pages[j].Source })
	return w.pages, errors.Join(w.errs...)
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

// inputs reads a file's robots directives: the matching defaults' values first, then the
// front matter's own.
func (w *jekyllWalk) inputs(abs, srcRel string, src []byte, matched []jekyllDefault) []rules.Input {
	var in []rules.Input
	for _, d := range matched {
		got, err := frontmatter.RobotsFrom(d.raw, rules.Source{Kind: rules.FromCascade, File: w.configName(), Line: d.line})
		if err != nil {
			w.errs = append(w.errs, err)
		}
		in = append(in, got...)
	}
	doc, err := frontmatter.Parse(srcRel, src)
	if err != nil {
		w.errs = append(w.errs, err)
		return in
	}
	got, err := doc.Robots()
	if err != nil {
		w.errs = append(w.errs, err)
	}
	return append(in, got...)
}

func (w *jekyllWalk) configName() string {
	if len(w.s.ConfigFiles) == 0 {
		return "_config.yml"
	}
	r, err := filepath.Rel(w.s.Root, w.s.ConfigFiles[0])
	if err != nil {
		return filepath.Base(w.s.ConfigFiles[0])
	}
	return filepath.ToSlash(r)
}

// read loads a file's front matter merged over its defaults.
func (w *jekyllWalk) read(abs, srcRel, defaultsRel, typ string) (jekyllData, []byte, []jekyllDefault, bool) {
	src, err := os.ReadFile(abs)
	if err != nil {
		w.errs = append(w.errs, err)
		return nil, nil, nil, false
	}
	fm, line, err := jekyllFrontMatter(src)
	if err != nil {
		w.errs = append(w.errs, &frontmatter.Error{File: srcRel, Line: line, Err: fmt.Errorf("front matter: %w", err)})
		return nil, nil, nil, false
	}
	matched, data := w.c.jekyllMatched(w.source, defaultsRel, typ)
	for k, v := range fm {
		if v.Tag == "!!null" {
			continue
		}
		data[k] = v
	}
	// Categories union defaults' and front matter's (Document#merge_categories!).
	if fmc, ok := fm["categories"]; ok && fmc.Tag != "!!null" {
		if dc, ok := mergedDefault(matched, "categories"); ok && dc.Kind == yaml.SequenceNode {
			union := &yaml.Node{Kind: yaml.SequenceNode}
			seen := map[string]bool{}
			add := func(vals []string) {
				for _, v := range vals {
					if !seen[v] {
						seen[v] = true
						union.Content = append(union.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: v})
					}
				}
			}
			add(jekyllData{"c": dc}.list("c", true))
			add(jekyllData{"c": fmc}.list("c", true))
			data["categories"] = union
		}
	}
	return data, src, matched, true
}

func mergedDefault(matched []jekyllDefault, key string) (*yaml.Node, bool) {
	var out *yaml.Node
	for _, d := range matched {
		if v, ok := d.values[key]; ok {
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
	data, src, matched, ok := w.read(abs, srcRel, rel, "pages")
	if !ok {
		return
	}
	p := Page{Source: srcRel, Kind: "page", Inputs: w.inputs(abs, srcRel, src, matched)}
	if data.isFalse("published") && !w.c.unpublished {
		p.NoOutput = "published: false"
		w.pages = append(w.pages, p)
		return
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
	data, src, matched, ok := w.read(abs, srcRel, docRel, col.label)
	if !ok {
		return
	}
	kind := col.label
	if kind == "posts" {
		kind = "post"
	}
	p := Page{Source: srcRel, Kind: kind, Inputs: w.inputs(abs, srcRel, src, matched)}
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
			fail(fmt.Errorf("line %d: %w", n.Line, err))
			return
		}
		date, dateSet = t, true
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
	if p.NoOutput != "" {
		w.pages = append(w.pages, p)
		return
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

// jekyllPagerParent maps a jekyll-paginate page ("/page2/", or paginate_path's pattern) to the
// list page it continues. Page 1 is the list page itself, so only N >= 2 match. The list page is
// jekyll-paginate's template page (Pagination#template_page, v1.1): the deepest page named
// index.html (with front matter, so index.md does not count) in paginate_path's folder or a folder
// above it; the answer is that page's URL. Without such a page jekyll-paginate writes no pagers.
func (s *Site) jekyllPagerParent(url string) (string, bool) {
	pp := "/page:num"
	if s.jek != nil && s.jek.paginatePath != "" {
		pp = s.jek.paginatePath
	}
	pp = "/" + strings.Trim(pp, "/")
	i := strings.Index(pp, ":num")
	if i < 0 {
		return "", false
	}
	u := strings.TrimSuffix(url, "index.html")
	u = "/" + strings.Trim(u, "/")
	prefix, suffix := pp[:i], pp[i+len(":num"):]
	if !strings.HasPrefix(u, prefix) || !strings.HasSuffix(u, suffix) || len(u) < len(prefix)+len(suffix)+1 {
		return "", false
	}
	n, err := strconv.Atoi(u[len(prefix) : len(u)-len(suffix)])
	if err != nil || n < 2 || strconv.Itoa(n) != u[len(prefix):len(u)-len(suffix)] {
		return "", false
	}
	return s.jekyllPagerTemplate(strings.Trim(path.Dir(pp), "/"))
}

// jekyllPagerTemplate finds jekyll-paginate's template page for paginate_path's folder dir (slash,
// relative to the source, "" for the top) and returns its URL. It reads only the index.html files
// on the way up, not the whole site.
func (s *Site) jekyllPagerTemplate(dir string) (url string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			url, ok = "", false
		}
	}()
	if s.jek == nil {
		return "", false
	}
	w := &jekyllWalk{s: s, c: s.jek, source: s.Content, dest: filepath.Clean(s.Output), seen: map[string]bool{}}
	for {
		if w.readable(dir) && hasYAMLHeader(filepath.Join(w.source, filepath.FromSlash(dir), "index.html")) {
			n := len(w.pages)
			w.page(dir, "index.html")
			if len(w.pages) > n && w.pages[n].Output != "" {
				return w.pages[n].URL, true
			}
		}
		if dir == "" {
			return "", false
		}
		dir = parentDir(dir)
	}
}

// readable reports whether Reader#read_directories reaches dir's index.html: no folder on the way,
// nor the file, is filtered out (underscore and dot names, exclude) or is the destination.
func (w *jekyllWalk) readable(dir string) bool {
	rel := ""
	names := []string{}
	if dir != "" {
		names = strings.Split(dir, "/")
	}
	for _, name := range append(names, "index.html") {
		if len(w.filter([]string{name}, rel)) == 0 {
			return false
		}
		rel = path.Join(rel, name)
		if name != "index.html" && filepath.Clean(filepath.Join(w.source, filepath.FromSlash(rel))) == w.dest {
			return false
		}
	}
	return true
}
