package site

// Where Jekyll writes each page and document (page.rb, document.rb, url.rb, drops/url_drop.rb).

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
)

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

// findPage finds a page to read, once.
func (w *jekyllWalk) findPage(dirRel, name string) {
	rel := path.Join(dirRel, name)
	if !w.seen[rel] {
		w.seen[rel] = true
		w.found = append(w.found, jekyllFound{dirRel: dirRel, name: name})
	}
}

// findDocument finds a post, draft or collection document to read, once; rel is relative to the
// source folder.
func (w *jekyllWalk) findDocument(col *jekyllCollection, rel string, draft bool) {
	if !w.seen[rel] {
		w.seen[rel] = true
		w.found = append(w.found, jekyllFound{col: col, rel: rel, draft: draft})
	}
}

// page maps one page (Page#initialize, Page#url, Page#destination) from rd, what reading its
// front matter produced; ok is false when it is not mapped. It only reads the walk, so pages are
// mapped on many goroutines at once.
func (w *jekyllWalk) page(dirRel, name string, rd *jekyllRead, pr *jekyllProblems) (Page, bool) {
	rel := path.Join(dirRel, name)
	srcRel := w.srcRel(rel)
	data, in, ok := w.merge(rd, rel, "pages", pr)
	if !ok {
		return Page{}, false
	}
	p := Page{Source: srcRel, Inputs: in}
	noOutput := ""
	if data.isFalse("published") && !w.c.unpublished {
		noOutput = "published: false"
	}
	p.SetClass("pages", "", noOutput)
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
	return p, true
}

// document maps one post, draft or collection document (Document#read, #url, #destination), as
// page maps a page; rel is relative to the source folder.
func (w *jekyllWalk) document(col *jekyllCollection, rel string, draft bool, rd *jekyllRead, pr *jekyllProblems) (Page, bool) {
	d := &jekyllDoc{col: col, draft: draft, rel: rel, src: w.srcRel(rel)}
	// relative_path is relative to the collections folder.
	d.docRel = rel
	if cd := w.c.collectionsDir; cd != "" {
		d.docRel = strings.TrimPrefix(rel, cd+"/")
	}
	data, in, ok := w.merge(rd, d.docRel, col.label, pr)
	if !ok {
		return Page{}, false
	}
	p := Page{Source: d.src, Inputs: in}
	d.cats = d.categories(data, rd.noData)
	if err := w.docDate(d, data, rd, pr); err != nil {
		pr.errs = append(pr.errs, &frontmatter.Error{File: d.src, Code: problem.FileNameDateInvalid, Err: err})
		return Page{}, false
	}
	p.SetClass(d.kind(), "", w.docNoOutput(d, data))
	permalink, hasPermalink := data.str("permalink")
	d.ext = rubyExtname(d.docRel)
	d.outExt = w.c.outputExt(d.ext, permalink, hasPermalink)
	template := col.permalink
	if hasPermalink {
		template = permalink
	}
	url, err := jekyllURLDrop(template, d.lookup)
	if err != nil {
		pr.errs = append(pr.errs, &frontmatter.Error{File: d.src, Code: problem.PermalinkInvalid, Err: err})
		return Page{}, false
	}
	p.Output = outputOf(url, d.outExt, false)
	p.URL = servedURL(p.Output)
	return p, true
}

// jekyllDoc is one document being read: what its URL placeholders are filled from.
type jekyllDoc struct {
	col         *jekyllCollection
	draft       bool
	rel, docRel string // relative to the source folder, and to the collections folder
	src         string // as Page.Source
	cats        []string
	date        time.Time
	slug        string
	ext, outExt string
}

// kind is the document's type in the words of Jekyll's defaults scopes: posts, drafts or the
// collection's label.
func (d *jekyllDoc) kind() string {
	if d.draft {
		return "drafts"
	}
	return d.col.label
}

// categories is Document#categories_from_path, then merge_categories! with the data's categories
// and populate_categories, which reads `category` too; Jekyll does not get that far in a document
// whose front matter it cannot read (noData).
func (d *jekyllDoc) categories(data jekyllData, noData bool) []string {
	relDir := "_" + d.col.label
	if d.draft {
		relDir = "_drafts"
	}
	var cats []string
	if !strings.HasPrefix(d.docRel, relDir) {
		super := d.docRel
		if i := strings.Index(d.docRel, relDir); i >= 0 {
			super = d.docRel[:i]
		}
		base := path.Base(d.docRel)
		for _, c := range strings.Split(super, "/") {
			if c != "" && c != relDir && c != base {
				cats = append(cats, c)
			}
		}
	}
	cats = appendUnique(cats, data.list("categories", true)...)
	if _, ok := data["category"]; ok && !noData {
		cats = appendUnique(cats, data.list("category", false)...)
	}
	return cats
}

// docDate sets the document's date and slug: the date from its data, else its file name, else the
// build time (a draft's: its file's mtime, as read); the slug from the data, else the file name.
// A document whose front matter Jekyll cannot read takes neither from its file name
// (Document#read stops before populate_title): the URL's title is its whole base name.
func (w *jekyllWalk) docDate(d *jekyllDoc, data jekyllData, rd *jekyllRead, pr *jekyllProblems) error {
	dateSet := false
	if n, ok := data["date"]; ok {
		t, err := jekyllNodeDate(n, w.c.loc)
		if err != nil {
			// Jekyll built the site, so it read this date; robotsmith reads the forms Ruby's
			// Time.parse reads in practice, and says so where it cannot, using the file name's.
			pr.warnings = append(pr.warnings, &frontmatter.Error{File: d.src, Line: rd.dateLine, Code: problem.DateUnreadable,
				Err: fmt.Errorf("front matter: date: %v, which robotsmith cannot read as Jekyll does; the date in the file name is used", err)})
		} else {
			d.date, dateSet = t, true
		}
	}
	if rd.noData {
		base := path.Base(d.docRel)
		d.slug = strings.TrimSuffix(base, rubyExtname(base))
	} else if m := postNameRE.FindStringSubmatch(d.docRel); m != nil {
		d.slug = m[2]
		if !dateSet || d.date.Unix() == w.c.time.Unix() {
			t, err := jekyllParseTime(m[1], w.c.loc)
			if err != nil {
				return err
			}
			d.date, dateSet = t, true
		}
	} else if m := draftNameRE.FindStringSubmatch(d.docRel); m != nil {
		d.slug = m[1]
	}
	if base := path.Base(d.docRel); d.slug == "" && !strings.Contains(base, ".") {
		d.slug = base
	}
	if !rd.noData {
		d.slug = strings.TrimRight(d.slug, ".")
	}
	if !dateSet {
		d.date = w.c.time
		if d.draft && !rd.mtime.IsZero() {
			d.date = rd.mtime.In(w.c.loc)
		}
	}
	if s, ok := data.str("slug"); ok {
		d.slug = s
	}
	return nil
}

// docNoOutput says why Jekyll writes nothing for the document (Document#write?, Publisher).
func (w *jekyllWalk) docNoOutput(d *jekyllDoc, data jekyllData) string {
	switch {
	case d.draft && !w.c.showDrafts:
		return "draft"
	case data.isFalse("published") && !w.c.unpublished:
		return "published: false"
	case !d.col.output:
		return fmt.Sprintf("collection %q has output: false", d.col.label)
	case !w.c.future && d.date.Unix() > w.c.time.Unix():
		return "future date"
	}
	return ""
}

// lookup fills one URL placeholder (Drops::UrlDrop).
func (d *jekyllDoc) lookup(key string) (string, bool) {
	if f, ok := jekyllDateKeys[key]; ok {
		return rubyStrftime(d.date, f), true
	}
	switch key {
	case "collection":
		return d.col.label, true
	case "path":
		cleaned := strings.TrimSuffix(d.docRel, d.ext)
		cleaned = strings.Replace(cleaned, "_"+d.col.label, "", 1)
		return strings.TrimRight(cleaned, "."), true
	case "output_ext":
		return d.outExt, true
	case "name":
		base := path.Base(d.docRel)
		return jekyllSlugify(strings.TrimSuffix(base, rubyExtname(base)), false, false), true
	case "title":
		// data["slug"]: the front matter's, else the file name's (Document#populate_title).
		return jekyllSlugify(d.slug, true, true), true
	case "slug":
		return jekyllSlugify(d.slug, false, false), true
	case "categories", "slugified_categories":
		var out []string
		for _, c := range d.cats {
			if key == "categories" {
				out = appendUnique(out, lowerASCII(c))
			} else {
				out = appendUnique(out, jekyllSlugify(c, false, false))
			}
		}
		return strings.Join(out, "/"), true
	}
	return "", false
}

// twinOf are the page files whose Markdown twin rel could be. Sites publish a page's Markdown
// beside its HTML with a plugin, since Jekyll has no output formats of its own: for a page written
// to blog/a/index.html, blog/a.md (what the page's URL /blog/a/ becomes with .md), blog/a/index.md
// and blog/a/index.html.md (llmstxt.org's convention); for about.html, about.md and about.html.md.
// A twin that exists is the page's content in another format, so it takes the page's decision.
// Twins are found from their names (Map.Owner) rather than listed for every page: few sites have
// them, and listing three per page would triple the owner index. None unless rel ends in .md.
func twinOf(rel string) []string {
	base, ok := strings.CutSuffix(rel, ".md")
	if !ok || base == "" {
		return nil
	}
	if ext := path.Ext(base); ext == ".html" || ext == ".htm" {
		return []string{base}
	}
	return []string{base + ".html", base + ".htm", base + "/index.html", base + "/index.htm"}
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
