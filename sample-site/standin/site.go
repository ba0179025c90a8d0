package standin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"
)

// Error is a problem with one input file of the site.
type Error struct {
	File string // path relative to the site root, slash-separated
	Err  error
}

func (e *Error) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrUnsupported is wrapped by errors for Hugo settings the stand-in does not
// implement (such as uglyURLs = true), so that output is never silently wrong.
var ErrUnsupported = errors.New("not supported by the stand-in generator")

// Page kinds, named as Hugo names them.
const (
	kindHome     = "home"
	kindSection  = "section"
	kindPage     = "page"
	kindTaxonomy = "taxonomy"
	kindTerm     = "term"
	kind404      = "404"
)

// config is the part of hugo.toml the stand-in reads.
type config struct {
	BaseURL      string            `toml:"baseURL"`
	Title        string            `toml:"title"`
	LanguageCode string            `toml:"languageCode"`
	UglyURLs     bool              `toml:"uglyURLs"`
	Taxonomies   map[string]string `toml:"taxonomies"`
	Pagination   struct {
		PagerSize int `toml:"pagerSize"`
	} `toml:"pagination"`
	Params struct {
		Description  string   `toml:"description"`
		Author       string   `toml:"author"`
		MainSections []string `toml:"mainSections"`
	} `toml:"params"`
}

func readConfig(root string) (*config, error) {
	const name = "hugo.toml"
	var c config
	src, err := os.ReadFile(filepath.Join(root, name))
	if err == nil {
		err = toml.Unmarshal(src, &c)
	}
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	if c.UglyURLs {
		return nil, &Error{File: name, Err: fmt.Errorf("uglyURLs = true: %w", ErrUnsupported)}
	}
	if c.BaseURL == "" {
		c.BaseURL = "/"
	}
	if !strings.HasSuffix(c.BaseURL, "/") {
		c.BaseURL += "/"
	}
	if c.LanguageCode == "" {
		c.LanguageCode = "en-us"
	}
	if c.Taxonomies == nil { // Hugo's default taxonomies
		c.Taxonomies = map[string]string{"tag": "tags", "category": "categories"}
	}
	if c.Pagination.PagerSize <= 0 {
		c.Pagination.PagerSize = 10
	}
	return &c, nil
}

// page is one page of the site, with or without a content file.
type page struct {
	kind    string
	file    string         // content file relative to the site root ("" if none)
	dir     string         // content folder of a branch page or bundle, slash-separated
	logical string         // Hugo's logical path, e.g. /blog/my-post (for cascade targets)
	params  map[string]any // front matter, keys lower-cased, cascade applied
	content template.HTML  // rendered Markdown

	title       string
	description string
	date        time.Time
	weight      int

	rel     string // URL path as served, e.g. /blog/my-post/
	outFile string // output file relative to public/
	aliases []string
	terms   map[string][]string // taxonomy plural -> terms as written

	section   *page    // the section (or home) the page is listed in
	pages     []*page  // for lists: the regular pages and subsections listed
	resources []string // bundle files relative to dir, copied beside the page
	render    bool     // false for drafts, expired, future and render-never pages
}

// cascadeEntry is one entry of a cascade front matter key.
type cascadeEntry struct {
	path, kind string // target globs ("" matches all)
	params     map[string]any
}

// site is everything read from the site folder.
type site struct {
	root     string
	cfg      *config
	now      time.Time
	pages    []*page          // every content page, branch pages included
	branches map[string]*page // content folder -> home/section page
	statics  []string         // files under static/, relative to it
}

// fmFormats are the front matter formats Hugo reads: the opening line, the closing line, and the
// decoder, which the JSON object's braces are part of.
var fmFormats = [...]struct {
	open, close string
	unmarshal   func([]byte, any) error
	delims      bool
}{
	{"---", "---", yaml.Unmarshal, false},
	{"+++", "+++", toml.Unmarshal, false},
	{"{", "}", json.Unmarshal, true},
}

// parseFrontMatter decodes the front matter of a content file into fm and returns the body after
// it. The block is found as Hugo finds it: its opening line is the first line that is not blank,
// and it ends at its closing line; a JSON object's closing line is followed by a blank line or the
// end of the file. A file without a block, or with one that is never closed, is all body.
func parseFrontMatter(data []byte, fm *map[string]any) ([]byte, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	off, i := 0, 0
	for i < len(lines) && len(bytes.TrimSpace(lines[i])) == 0 {
		off += len(lines[i])
		i++
	}
	if i == len(lines) {
		return data, nil
	}
	open := string(bytes.TrimSpace(lines[i]))
	for _, f := range fmFormats {
		if open != f.open {
			continue
		}
		start := off + len(lines[i])
		if f.delims {
			start = off
		}
		at := off + len(lines[i])
		for j := i + 1; j < len(lines); j++ {
			end := at
			at += len(lines[j])
			if string(bytes.TrimSpace(lines[j])) != f.close {
				continue
			}
			if f.delims {
				end = at
				if j+1 < len(lines) && len(bytes.TrimSpace(lines[j+1])) > 0 {
					continue // not the object's end: it is followed by more than a blank line
				}
				if j+1 < len(lines) {
					at += len(lines[j+1])
				}
			}
			if err := f.unmarshal(data[start:end], fm); err != nil {
				return nil, err
			}
			return data[at:], nil
		}
		return data, nil
	}
	return data, nil
}

func isContent(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".md" || ext == ".markdown"
}

func baseNoExt(name string) string { return strings.TrimSuffix(name, path.Ext(name)) }

// load reads the configuration, content and static folders.
func load(root string, now time.Time) (*site, error) {
	cfg, err := readConfig(root)
	if err != nil {
		return nil, err
	}
	s := &site{root: root, cfg: cfg, now: now, branches: map[string]*page{}}

	var files []string
	contentDir := filepath.Join(root, "content")
	err = filepath.WalkDir(contentDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(contentDir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	sort.Strings(files)

	// Leaf bundles: folders holding an index.md. Everything else below them
	// is a page resource, not a page.
	bundles := map[string]bool{}
	for _, f := range files {
		if b := path.Base(f); isContent(b) && baseNoExt(b) == "index" {
			bundles[path.Dir(f)] = true
		}
	}
	bundleOf := func(f string) string {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			if bundles[d] {
				return d
			}
		}
		return ""
	}

	var errs []error
	resources := map[string][]string{} // bundle or branch folder -> files
	for _, f := range files {
		name := path.Base(f)
		dir := path.Dir(f)
		if dir == "." {
			dir = ""
		}
		if b := bundleOf(f); b != "" && !(dir == b && isContent(name) && baseNoExt(name) == "index") {
			resources[b] = append(resources[b], strings.TrimPrefix(f, b+"/"))
			continue
		}
		if !isContent(name) {
			resources[dir] = append(resources[dir], name)
			continue
		}
		p, err := s.readPage(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch baseNoExt(name) {
		case "_index":
			p.kind = kindSection
			if dir == "" {
				p.kind = kindHome
			}
			p.dir = dir
			p.logical = "/" + strings.ToLower(dir)
			s.branches[dir] = p
		case "index":
			p.kind = kindPage
			p.dir = dir
			p.logical = "/" + strings.ToLower(dir)
		default:
			p.kind = kindPage
			p.dir = dir
			p.logical = path.Join("/", strings.ToLower(dir), strings.ToLower(baseNoExt(name)))
		}
		s.pages = append(s.pages, p)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	// Implicit branch pages: the home and every top-level folder.
	if s.branches[""] == nil {
		s.addBranch("", kindHome)
	}
	for _, p := range s.pages {
		if first, _, _ := strings.Cut(p.dir, "/"); first != "" && s.branches[first] == nil {
			s.addBranch(first, kindSection)
		}
	}
	owners := s.dirOwners()
	for dir, files := range resources {
		if p := owners[dir]; p != nil {
			p.resources = append(p.resources, files...)
		}
	}

	if err := s.applyCascades(); err != nil {
		return nil, err
	}
	for _, p := range s.pages {
		if err := s.resolve(p); err != nil {
			errs = append(errs, &Error{File: p.file, Err: err})
		}
	}
	if err := s.readStatic(); err != nil {
		errs = append(errs, err)
	}
	return s, errors.Join(errs...)
}

func (s *site) addBranch(dir, kind string) {
	p := &page{kind: kind, dir: dir, logical: "/" + strings.ToLower(dir), params: map[string]any{}}
	s.branches[dir] = p
	s.pages = append(s.pages, p)
}

// dirOwners maps each folder to the bundle or branch page that owns its non-content files: the
// first such page of the folder.
func (s *site) dirOwners() map[string]*page {
	owners := map[string]*page{}
	for _, p := range s.pages {
		if _, taken := owners[p.dir]; taken {
			continue
		}
		if p.kind != kindPage || p.file != "" && baseNoExt(path.Base(p.file)) == "index" {
			owners[p.dir] = p
		}
	}
	return owners
}

func (s *site) readPage(f string) (*page, error) {
	rel := "content/" + f
	data, err := os.ReadFile(filepath.Join(s.root, "content", filepath.FromSlash(f)))
	if err != nil {
		return nil, err
	}
	var fm map[string]any
	if _, err := parseFrontMatter(data, &fm); err != nil {
		return nil, &Error{File: rel, Err: fmt.Errorf("front matter: %w", err)}
	}
	params := make(map[string]any, len(fm))
	for k, v := range fm {
		params[strings.ToLower(k)] = v
	}
	return &page{file: rel, params: params}, nil
}

// body reads p's Markdown when it is rendered: a site of 100,000 pages is never held in memory.
func (s *site) body(p *page) ([]byte, error) {
	if p.file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(p.file)))
	if err != nil {
		return nil, err
	}
	var fm map[string]any
	body, err := parseFrontMatter(data, &fm)
	if err != nil {
		return nil, &Error{File: p.file, Err: fmt.Errorf("front matter: %w", err)}
	}
	return body, nil
}

// ancestors returns the branch pages above p, nearest first, p itself
// included when it is a branch page.
func (s *site) ancestors(p *page) []*page {
	dir := p.dir
	if p.kind == kindPage && p.file != "" && baseNoExt(path.Base(p.file)) == "index" {
		dir = path.Dir(dir)
	}
	return s.ancestorsOfDir(dir)
}

// ancestorsOfDir returns the branch pages of content folder dir and the
// folders above it, nearest first.
func (s *site) ancestorsOfDir(dir string) []*page {
	var out []*page
	for {
		if dir == "." {
			dir = ""
		}
		if b := s.branches[dir]; b != nil {
			out = append(out, b)
		}
		if dir == "" {
			return out
		}
		dir = path.Dir(dir)
	}
}

// applyCascades fills every page's unset front matter keys from the cascade
// of its own branch page and its ancestors, nearest first, as Hugo does.
func (s *site) applyCascades() error {
	cascades := map[*page][]cascadeEntry{}
	var errs []error
	for _, b := range s.branches {
		es, err := parseCascade(b.params["cascade"])
		if err != nil {
			errs = append(errs, &Error{File: b.file, Err: fmt.Errorf("cascade: %w", err)})
		}
		cascades[b] = es
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, p := range s.pages {
		for _, a := range s.ancestors(p) {
			for _, e := range cascades[a] {
				if !e.matches(p) {
					continue
				}
				for k, v := range e.params {
					if _, set := p.params[k]; !set {
						p.params[k] = v
					}
				}
			}
		}
	}
	return nil
}

func parseCascade(v any) ([]cascadeEntry, error) {
	var maps []map[string]any
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		maps = append(maps, v)
	case []any:
		for _, m := range v {
			mm, ok := m.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("entry is %T, want a map", m)
			}
			maps = append(maps, mm)
		}
	case []map[string]any: // TOML arrays of tables
		maps = v
	default:
		return nil, fmt.Errorf("is %T, want a map or a list of maps", v)
	}
	var out []cascadeEntry
	for _, m := range maps {
		e := cascadeEntry{params: map[string]any{}}
		for k, v := range m {
			k = strings.ToLower(k)
			if k == "target" || k == "_target" {
				t, _ := v.(map[string]any)
				for tk, tv := range t {
					s, _ := tv.(string)
					switch strings.ToLower(tk) {
					case "path":
						e.path = strings.ToLower(s)
					case "kind":
						e.kind = s
					}
				}
				continue
			}
			e.params[k] = v
		}
		out = append(out, e)
	}
	return out, nil
}

// matches reports whether a cascade target selects page p. Hugo matches the
// path glob with "/" as separator and "**" crossing it; unlike doublestar,
// "/docs/**" there needs the "/docs/" prefix, so it does not select /docs.
func (e cascadeEntry) matches(p *page) bool {
	if e.kind != "" {
		if ok, _ := doublestar.Match(e.kind, p.kind); !ok {
			return false
		}
	}
	if e.path != "" {
		if strings.HasSuffix(e.path, "/**") && p.logical == strings.TrimSuffix(e.path, "/**") {
			return false
		}
		if ok, _ := doublestar.Match(e.path, p.logical); !ok {
			return false
		}
	}
	return true
}

// resolve computes p's title, dates, output path and render status.
func (s *site) resolve(p *page) error {
	var errs []error
	p.title = str(p.params["title"])
	p.description = str(p.params["description"])
	if p.description == "" {
		p.description = str(p.params["summary"])
	}
	var err error
	if p.date, err = dateParam(p.params, "date"); err != nil {
		errs = append(errs, err)
	}
	publish, err := dateParam(p.params, "publishdate")
	errs = append(errs, err)
	expiry, err := dateParam(p.params, "expirydate")
	errs = append(errs, err)
	if w, ok := p.params["weight"]; ok {
		p.weight, _ = strconv.Atoi(fmt.Sprint(w))
	}

	p.render = !truthy(p.params["draft"]) && !truthy(p.params["headless"]) &&
		!(!publish.IsZero() && publish.After(s.now)) && !(!expiry.IsZero() && !expiry.After(s.now))
	if b, ok := p.params["build"].(map[string]any); ok && strings.EqualFold(str(b["render"]), "never") {
		p.render = false
	}
	if b, ok := p.params["_build"].(map[string]any); ok && strings.EqualFold(str(b["render"]), "never") {
		p.render = false
	}

	// Output path (Hugo's CreateTargetPaths for the default layout).
	switch {
	case p.kind != kindHome && str(p.params["url"]) != "":
		p.rel, p.outFile = urlTarget(str(p.params["url"]))
	case p.kind == kindPage:
		dir := p.dir
		name := baseNoExt(path.Base(p.file))
		if name == "index" { // leaf bundle: named after its folder
			dir, name = path.Dir(p.dir), path.Base(p.dir)
			if dir == "." {
				dir = ""
			}
		}
		if slug := strings.Trim(str(p.params["slug"]), "-"); slug != "" {
			name = slug
		}
		p.rel, p.outFile = dirTarget(strings.Trim(path.Join(sanitizeDir(dir), sanitize(name)), "/"))
	default:
		p.rel, p.outFile = dirTarget(sanitizeDir(p.dir))
	}
	if p.title == "" {
		switch p.kind {
		case kindHome:
			p.title = s.cfg.Title
		default:
			p.title = titleCase(path.Base("/" + p.dir))
		}
	}

	p.aliases = strList(p.params["aliases"])
	p.terms = map[string][]string{}
	for _, plural := range s.cfg.Taxonomies {
		if ts := strList(p.params[plural]); len(ts) > 0 && p.kind == kindPage {
			p.terms[plural] = ts
		}
	}
	return errors.Join(errs...)
}

func (s *site) readStatic() error {
	dir := filepath.Join(s.root, "static")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			s.statics = append(s.statics, filepath.ToSlash(rel))
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(v)
		return b
	}
	return false
}

func strList(v any) []string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s := str(x); s != "" {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return v
	}
	return nil
}

var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02",
}

// dateParam reads a front matter date: TOML and YAML may already have
// decoded it to a time.Time; JSON gives a string.
func dateParam(params map[string]any, key string) (time.Time, error) {
	switch v := params[key].(type) {
	case nil:
		return time.Time{}, nil
	case time.Time:
		return v, nil
	case toml.LocalDate: // TOML's dates and date-times without a zone, which Hugo reads as UTC
		return v.AsTime(time.UTC), nil
	case toml.LocalDateTime:
		return v.AsTime(time.UTC), nil
	case string:
		for _, l := range dateLayouts {
			if t, err := time.Parse(l, v); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("%s: cannot read date %q", key, v)
	default:
		return time.Time{}, fmt.Errorf("%s: want a date, got %T", key, v)
	}
}

func titleCase(s string) string {
	s = strings.ReplaceAll(s, "-", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
