// Package site finds a static site's layout and maps every source page to the output file its
// generator wrote for it, exactly as Hugo and Jekyll do.
//
// Usage:
//
//	s, err := site.Open("my-site", site.Options{})        // detects Hugo, Jekyll or a plain folder
//	m, err := s.Map()                                      // every source page, with its output file
//	for _, p := range m.Pages {
//		fmt.Println(p.Source, "->", p.Output, p.URL)
//	}
//	o := m.Owner("blog/page/2/index.html")                 // {Page: content/blog/_index.md, Role: RolePager}
//	m, err = s.Remap([]string{"/abs/my-site/content/a.md"}) // mapped again, a.md alone read again (watch mode)
//	for _, src := range s.Sources() {                       // what mapping reads: what watch mode watches
//		fmt.Println(src.Kind, src.Path, src.Lang)             // content content.en en, config-dir config/_default, ...
//	}
//
// Open reads the generator's own configuration (Hugo's hugo.* / config.* / config/_default, Jekyll's
// _config.yml) for what changes paths. Map reads every source page's front matter once, through
// package frontmatter; problems in them are returned together (errors.Join), each a
// *frontmatter.Error naming file and line, and problems the generator itself lets pass are
// Map.Warnings.
//
// Hugo and Jekyll each implement one interface, generator: the pages of the site, each with every
// output file it owns (its page, its pager pages, its other output formats, its bundle resources,
// its alias stubs), and the pages the generator makes without a source (Hugo's homes, sections,
// taxonomy and term lists and 404 pages, in every language). Map indexes those files, so that
// Owner answers for any output file which page it belongs to, in what role, and with the page's
// kind and language, the same way for both.
//
// Remap maps a site again and again while it is edited (watch mode): it keeps what reading each
// source produced and reads again only the sources named changed (reuse.go).
//
// Sources lists the files and folders mapping reads (each content root with its language, the
// folders themes and modules mount, Jekyll's collections, every configuration file and folder),
// from what Open read and the roots Map walks: a watcher that watches them sees every edit that
// can change the Map.
//
// Files by concern: site.go and map.go (the interface and the index); sources.go (what mapping
// reads); reuse.go and read.go (reading the sources, and what a site mapped again keeps of them); hugo_config.go, hugo_read.go,
// hugo_modules.go (themes' and modules' configuration), hugo_outputs.go (output formats),
// hugo_cascade.go, hugo_pages.go, hugo_lists.go (pages with no content file), hugo_paths.go
// (target paths), hugo_permalinks.go; jekyll_config.go, jekyll_reader.go, jekyll_documents.go,
// jekyll_pagination.go, jekyll_url.go, jekyll_dates.go.
package site

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/rules"
)

// Generator names.
const (
	Hugo   = "hugo"
	Jekyll = "jekyll"
	None   = "none"
)

// Options override what Open detects. The zero value detects everything.
type Options struct {
	Generator string // "hugo", "jekyll", "none"; "" detects
	Content   string // content folder, relative to the root (or absolute); "" for the generator's
	Output    string // output folder, relative to the root (or absolute); "" for the generator's
	// Env looks up environment variables (HUGO_ENVIRONMENT, JEKYLL_ENV, ...); nil means none set.
	Env func(string) string
	// Now is the build clock, for future and expired pages; the zero value means time.Now().
	Now time.Time
}

// Site is a site's layout.
type Site struct {
	Root      string // the site's root folder, as given to Open
	Generator string // Hugo, Jekyll or None
	Content   string // content folder (absolute, or relative to the working directory like Root); "" for None
	Output    string // output folder (absolute, or relative to the working directory like Root)
	// ConfigFiles are the generator configuration files that were read (watch mode follows them).
	ConfigFiles []string
	// BaseURL is the URL the site is published at, as its generator's configuration says: Hugo's
	// baseURL (HUGO_BASEURL overrides it), Jekyll's url followed by its baseurl. Pages' links and
	// sitemaps' <loc> are absolute URLs under it. "" when the configuration sets none.
	BaseURL string
	// Title is the site's title, as its generator's configuration says: Hugo's title (the default
	// language's own title over it; HUGO_TITLE overrides both), Jekyll's title. "" when it sets
	// none.
	Title string

	opt  Options
	gen  generator
	hugo *hugoConfig   // set when Generator == Hugo
	jek  *jekyllConfig // set when Generator == Jekyll
	kept *readings     // what reading each source produced, kept by Remap
	read []Source      // the configuration's sources, as Open reads them (Sources)
}

// generator is what Hugo and Jekyll each implement: every source page of the site with what its
// generator writes for it, the pages it makes without a source, and the problems it lets pass
// (warnings) apart from those it does not (the error). It reads each source through readSources,
// which reuses the readings r kept of the sources that did not change (nil: none, keep none).
type generator interface {
	mapSite(ctx context.Context, r *readings) (mapped, error)
}

// mapped is what a generator maps.
type mapped struct {
	pages      []Page
	sourceless []Page
	warnings   []error
}

// plain is a site with no generator: its pages are not known, only its files.
type plain struct{}

func (plain) mapSite(context.Context, *readings) (mapped, error) { return mapped{}, nil }

// Page is one source page and what its generator writes for it, or (Source "") a page the
// generator makes without a source: a list page or a 404 page (Map.Sourceless).
type Page struct {
	Source string // slash path relative to Site.Root: "content/blog/a.md"; "" for a page with no source
	URL    string // URL path as served, "/blog/a/"; "" when the page has no output
	Output string // output file, slash path relative to Site.Output: "blog/a/index.html"; "" when none
	// Inputs are the page's robots directives: its cascades' or front matter defaults'
	// (rules.FromCascade, rules.FromFrontMatterDefaults) first, then its own front matter's
	// (rules.FromFrontMatter); those the generator does not give the page, as a key of the same
	// name replaces them, are marked (rules.Input.ReplacedBy). A page made without a source has
	// its cascades'. The pages that one cascade or default alone gives inputs to share its slice
	// (same first element, same length): read it, never change it.
	Inputs []rules.Input
	// Extra are the files the page owns beside its own output; nil for a page that has none, the
	// usual case (a Hugo page with only its HTML): a site keeps a small Page for each of its
	// pages, and only the few with more files pay for them. Read them with Others.
	Extra *Extra
	// class is the page's kind, language and why it has no output (Kind, Lang, NoOutput): a site
	// has a handful of each and may have 100,000 pages, which point at one copy of theirs instead
	// of holding three strings each (40 bytes a page; the pages are the most a run holds at once).
	class *pageClass
}

// Kind is the page's kind in the generator's words: "home", "section", "page", "taxonomy", "term"
// (Hugo); "pages", "posts", "drafts" or a collection's label (Jekyll).
func (p *Page) Kind() string { return p.classOf().kind }

// Lang is the page's language: Hugo's language code (defaultContentLanguage on a site with one); ""
// for Jekyll.
func (p *Page) Lang() string { return p.classOf().lang }

// NoOutput says why the generator would write nothing for the page under the flags and clock
// robotsmith read (draft, future, expired, "build.render: never", headless, "published: false");
// "" when it writes the page. Output is still set where it can be worked out: a file that exists
// there was written by some build (`hugo -D`, a stale file), is served, and belongs to the page.
// Only when the file is absent is the page "not published", and then this is why.
func (p *Page) NoOutput() string { return p.classOf().noOutput }

// SetClass sets the page's kind, language and why it has no output (Kind, Lang, NoOutput): the
// generators' mappings set them, and a caller that makes a Map of its own (a test).
func (p *Page) SetClass(kind, lang, noOutput string) {
	p.class = classes.of(pageClass{kind, lang, noOutput})
}

func (p *Page) classOf() *pageClass {
	if p.class == nil {
		return &noClass
	}
	return p.class
}

// pageClass is what many pages of a site share: see Page.class.
type pageClass struct{ kind, lang, noOutput string }

var noClass pageClass

// classes is the one copy of every pageClass the process has met. It is the process's, not a
// Map's, so that pages need no table beside them to be read; it holds the kinds, languages and
// reasons of the sites mapped, a few dozen entries.
var classes = classTable{m: map[pageClass]*pageClass{}}

type classTable struct {
	mu sync.Mutex
	m  map[pageClass]*pageClass
}

func (t *classTable) of(c pageClass) *pageClass {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.m[c]; ok {
		return p
	}
	p := &c
	t.m[c] = p
	return p
}

// Extra are the files a page owns beside its own output.
type Extra struct {
	// Resources are the bundle files published with the page, slash paths relative to Site.Output;
	// they inherit the page's decision.
	Resources []string
	// Aliases are the output files of the page's alias (redirect) stubs, relative to Site.Output.
	Aliases []string
	// Pager says where the pages that continue this list page are written; nil when none can be.
	Pager *Pager
	// Formats are the page's other output formats (Hugo's outputs: index.xml, index.json, an AMP
	// page, a custom format): each takes the page's decision. A Jekyll page's Markdown twins
	// (twinOf) are not listed: Map.Owner finds them by their names.
	Formats []Format
}

// Others are the files the page owns beside its own output (none when Extra is nil).
func (p *Page) Others() Extra {
	if p.Extra == nil {
		return Extra{}
	}
	return *p.Extra
}

// setOthers changes the files the page owns beside its own output in a copy of its Extra: a page
// kept from the last Map (Remap) shares that Map's Extra, which must stay as it was.
func (p *Page) setOthers(set func(*Extra)) {
	x := p.Others()
	set(&x)
	p.Extra = &x
}

// extra is the page's Extra, made when it has none yet, for the mapping of a new page to fill.
func (p *Page) extra() *Extra {
	if p.Extra == nil {
		p.Extra = &Extra{}
	}
	return p.Extra
}

// Format is one of a page's other output formats.
type Format struct {
	Name  string // the generator's name for it: "rss", "json", "amp", "markdown"
	File  string // slash path relative to Site.Output
	Pager *Pager // where a list page's pages 2..N go in this format; nil when none can be
}

// ErrNoSite is returned by Open when root is not a folder.
var ErrNoSite = errors.New("not a folder")

// Open detects the site at root: Hugo when a Hugo config (hugo.toml|yaml|json, config.toml|yaml|json
// or config/_default/) is there, Jekyll when _config.yml is there, else None, where root itself is the
// output folder.
func Open(root string, opt Options) (*Site, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: %w", root, ErrNoSite)
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.Env == nil {
		opt.Env = func(string) string { return "" }
	}
	s := &Site{Root: root, opt: opt, Generator: opt.Generator}
	if s.Generator == "" {
		s.Generator = detect(root)
	}
	switch s.Generator {
	case Hugo:
		err = s.openHugo()
	case Jekyll:
		err = s.openJekyll()
	case None:
		s.Output = root
		s.gen = plain{}
	default:
		return nil, fmt.Errorf("unknown generator %q (want hugo, jekyll or none)", s.Generator)
	}
	if err != nil {
		return nil, err
	}
	if opt.Content != "" {
		s.Content = s.abs(opt.Content)
	}
	if opt.Output != "" {
		s.Output = s.abs(opt.Output)
	}
	return s, nil
}

// Kinds are the kinds the site's pages can have, in the generator's words: Hugo's page kinds
// (home, section, page, taxonomy, term, and 404 for its 404 pages); Jekyll's document types
// (pages, posts, drafts, and each collection's label); none for a plain folder.
func (s *Site) Kinds() []string {
	switch {
	case s.hugo != nil:
		return []string{"home", "section", "page", "taxonomy", "term", "404"}
	case s.jek != nil:
		kinds := []string{"pages", "posts", "drafts"}
		for _, c := range s.jek.collections {
			if !contains(kinds, c.label) {
				kinds = append(kinds, c.label)
			}
		}
		return kinds
	}
	return nil
}

// KindsOf are the kinds a page of kind is, for rules to select it by: its own, and for a Jekyll
// draft "posts" as well (Jekyll 4.3 gives a draft its collection's type, posts, in `defaults`
// scopes, and lists it among site.posts). None for "".
func (s *Site) KindsOf(kind string) []string {
	switch {
	case kind == "":
		return nil
	case s.jek != nil && kind == "drafts":
		return []string{"drafts", "posts"}
	}
	return []string{kind}
}

// Langs are the languages the generator's configuration defines: Hugo's language codes, in
// weight order, then the disabled ones (defined, though nothing is built for them); the default
// language alone on a site that configures none. Jekyll has no languages: none.
func (s *Site) Langs() []string {
	if s.hugo == nil {
		return nil
	}
	var out []string
	for _, l := range s.hugo.langs {
		out = append(out, l.code)
	}
	return append(out, s.hugo.disabledLangs...)
}

// Pages maps every source page to its output (Map's Pages). For None it returns no pages.
func (s *Site) Pages() ([]Page, error) {
	m, err := s.Map()
	return m.Pages, err
}

// detect names the generator whose configuration is in root.
func detect(root string) string {
	for _, name := range []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"} {
		if fileExists(filepath.Join(root, name)) {
			return Hugo
		}
	}
	if fi, err := os.Stat(filepath.Join(root, "config", "_default")); err == nil && fi.IsDir() {
		return Hugo
	}
	if fileExists(filepath.Join(root, "_config.yml")) || fileExists(filepath.Join(root, "_config.yaml")) || fileExists(filepath.Join(root, "_config.toml")) {
		return Jekyll
	}
	return None
}

// abs resolves p against the site root unless it is absolute.
func (s *Site) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Root, p)
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
