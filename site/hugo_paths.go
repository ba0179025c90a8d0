package site

import (
	"path"
	"strings"
	"unicode"
)

// hugoSanitize is Hugo's paths.Sanitize (common/paths/path.go), written out because Hugo's
// packages cannot be imported without the whole of Hugo: spaces become one "-", characters other
// than letters, digits, marks, "._~+#@-/\" and %XX escapes are dropped.
func hugoSanitize(s string) string {
	allowed := func(i int, r rune) bool {
		if r == ' ' {
			return false
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			return true
		}
		switch r {
		case '.', '/', '\\', '_', '#', '+', '~', '-', '@':
			return true
		case '%':
			return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		}
		return false
	}
	var b strings.Builder
	prependHyphen, wasHyphen, any := false, false, false
	for i, r := range s {
		if allowed(i, r) {
			wasHyphen = r == '-'
			if prependHyphen {
				if !wasHyphen {
					b.WriteByte('-')
				}
				prependHyphen = false
			}
			b.WriteRune(r)
			any = true
		} else if any && !wasHyphen && unicode.IsSpace(r) {
			prependHyphen = true
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hugoTarget is where Hugo writes a page in one output format: its file, link and the folder of
// its resources.
type hugoTarget struct {
	file string // relative to the output folder, no leading slash
	link string // URL path
	dir  string // SubResourceBaseTarget, with a leading slash ("" at the root)
}

// hugoDesc is what Hugo's CreateTargetPaths needs of a page (TargetPathDescriptor less the output
// format), worked out once per page; target then places each of its output formats.
type hugoDesc struct {
	kind     string
	path     string // the page's logical path, "/blog/a"
	section  string // its current section, "/blog"; "/" for the home
	baseName string // slug, else the last element of path
	bundle   bool
	url      string // front matter url, :tokens expanded; "" for the home
	expanded string // the permalink pattern that matched, expanded
	prefix   string // the language's URL and file prefix
	ugly     bool   // uglyURLs for its section
}

// targetPaths is where Hugo writes the page's HTML file.
func (h *hugoConfig) targetPaths(p *hugoSrc, sections map[sectionKey]*hugoSrc) (hugoTarget, error) {
	d, err := h.descriptor(p, sections)
	if err != nil {
		return hugoTarget{}, err
	}
	return h.target(d, h.formats["html"], ""), nil
}

// descriptor is createTargetPathDescriptor (hugolib/page__paths.go) for one page.
func (h *hugoConfig) descriptor(p *hugoSrc, sections map[sectionKey]*hugoSrc) (hugoDesc, error) {
	d := hugoDesc{kind: p.kind, path: p.path, section: p.section, bundle: p.bundle,
		prefix: h.prefix(p.lang), ugly: h.ugly(firstSeg(p.path)), baseName: p.slug}
	if d.baseName == "" {
		d.baseName = path.Base(p.path)
	}
	if p.kind != "home" {
		d.url = strOr(p.meta["url"], "")
	}
	if strings.Contains(d.url, ":") {
		u, err := h.expand(d.url, p, sections)
		if err != nil {
			return d, err
		}
		d.url = u
	}
	for _, pl := range h.permalinks {
		if (pl.kind == "" || pl.kind == p.kind) && (pl.glob == "" || globMatch(pl.glob, p.path)) {
			e, err := h.expand(pl.pattern, p, sections)
			if err != nil {
				return d, err
			}
			if e != "" {
				d.expanded = path.Clean(e)
			}
			break
		}
	}
	return d, nil
}

// target is Hugo's CreateTargetPaths (resources/page/page_paths.go) for the page in format f;
// addends is a pager page's "/page/N".
func (h *hugoConfig) target(d hugoDesc, f hugoFormat, addends string) hugoTarget {
	url, prefix := d.url, d.prefix
	forcePrefix := !f.root && url != "" && !strings.HasPrefix(url, "/")
	if url != "" && strings.Contains(url, "..") {
		url = path.Join("/", url)
	}
	if f.root && !forcePrefix {
		prefix = ""
	}
	b := &hugoPathBuilder{suffix: f.suffix, baseName: f.baseName}
	b.ugly = (d.ugly || f.ugly) && !f.noUgly
	baseNameSameAsType := !d.bundle && d.baseName != "" && d.baseName == f.baseName
	indexIsUgly := b.ugly && (d.kind == "home" || d.kind == "section" || d.kind == "taxonomy")
	if d.expanded == "" && baseNameSameAsType {
		b.ugly = true
	}
	b.add(f.path)
	needsBase, noSub := true, false
	if f.name == "404" || f.name == "sitemap" || f.name == "robots" {
		noSub = true
	} else if d.kind != "page" && url == "" && d.section != "/" {
		if d.expanded != "" {
			b.add(d.expanded)
		} else {
			b.add(d.section)
		}
		needsBase = false
	}
	switch {
	case d.kind != "home" && url != "":
		b.byURL(url, addends)
		if !forcePrefix || strings.HasPrefix(url, "/"+prefix) {
			prefix = ""
		}
	case !hugoBranch(d.kind):
		b.leaf(d, addends)
	default:
		b.branch(addends, needsBase && addends == "", indexIsUgly)
	}
	if url == "" {
		for i, e := range b.els {
			b.els[i] = h.sanitize(e)
		}
	}
	return b.paths(prefix, baseNameSameAsType, d.baseName, noSub)
}

// hugoBranch reports whether a kind is a list page (kinds.IsBranch).
func hugoBranch(kind string) bool {
	return kind == "home" || kind == "section" || kind == "taxonomy" || kind == "term"
}

// hugoPathBuilder is Hugo's pagePathBuilder: the elements of a target path, joined at the end.
type hugoPathBuilder struct {
	els              []string
	suffix, baseName string
	ugly, linkUp     bool
}

func (b *hugoPathBuilder) add(xs ...string) {
	for _, x := range xs {
		if x != "" && x != "/" {
			b.els = append(b.els, x)
		}
	}
}

func (b *hugoPathBuilder) concatLast(s string) {
	if len(b.els) == 0 {
		b.add(s)
		return
	}
	b.els[len(b.els)-1] = strings.TrimSuffix(b.els[len(b.els)-1], "/") + s
}

// byURL places a page whose front matter sets url: kept as written, a file name when its last
// element has a dot, else a folder.
func (b *hugoPathBuilder) byURL(url, addends string) {
	b.add(strings.FieldsFunc(url, func(r rune) bool { return r == '/' })...)
	b.add(addends)
	if strings.HasSuffix(url, "/") || !strings.Contains(url, ".") {
		b.add(b.baseName + b.suffix)
	} else {
		b.suffix = path.Ext(url)
	}
	b.linkUp = last(b.els) == "index.html"
}

// leaf places a regular page: its permalink, else its folder and base name.
func (b *hugoPathBuilder) leaf(d hugoDesc, addends string) {
	if d.expanded != "" {
		b.add(d.expanded)
	} else {
		b.add(parentDir(strings.TrimPrefix(d.path, "/")), d.baseName)
	}
	b.add(addends)
	if b.ugly {
		b.concatLast(b.suffix)
	} else {
		b.add(b.baseName + b.suffix)
	}
	b.linkUp = last(b.els) == "index.html"
}

// branch places a list page (home, section, taxonomy, term) after its section elements.
func (b *hugoPathBuilder) branch(addends string, needsBase, indexIsUgly bool) {
	b.add(addends)
	if needsBase || !b.ugly || indexIsUgly {
		b.add(b.baseName + b.suffix)
	} else {
		b.concatLast(b.suffix)
	}
	b.linkUp = !indexIsUgly && last(b.els) == "index.html"
}

// paths joins the elements into the target's file, link and resource folder. A slug or path
// with ".." (`slug: ../../x`) is resolved when the file is written, never above the output
// folder: Hugo's permalink keeps "/blog/../../x/", its file is x/index.html.
func (b *hugoPathBuilder) paths(prefix string, baseNameSameAsType bool, baseName string, noSub bool) hugoTarget {
	join := func(xs []string) string {
		var sb strings.Builder
		for _, x := range xs {
			sb.WriteString("/")
			sb.WriteString(strings.Trim(x, "/"))
		}
		return sb.String()
	}
	file := cleanKeepSlash(join(b.els))
	link := file
	if b.linkUp {
		link = cleanKeepSlash(join(b.els[:len(b.els)-1]) + "/")
	}
	if baseNameSameAsType {
		link = strings.TrimSuffix(link, baseName)
	}
	dir := ""
	if !noSub {
		dir = file
		if strings.HasPrefix(last(b.els), b.baseName+".") {
			dir = path.Dir(dir)
		} else {
			dir = strings.TrimSuffix(dir, b.suffix)
		}
		if dir == "/" {
			dir = ""
		}
	}
	if prefix != "" {
		file, link = "/"+prefix+file, "/"+prefix+link
		if !noSub {
			dir = "/" + prefix + dir
		}
	}
	if link == "" {
		link = "/"
	}
	return hugoTarget{file: strings.TrimPrefix(file, "/"), link: link, dir: dir}
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

// cleanKeepSlash is path.Clean on a rooted path, keeping a trailing slash.
func cleanKeepSlash(p string) string {
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}
