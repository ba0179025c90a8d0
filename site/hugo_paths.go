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

// hugoTarget is where Hugo writes a page: its file, link and the folder of its resources.
type hugoTarget struct {
	file string // relative to the output folder, no leading slash
	link string // URL path
	dir  string // SubResourceBaseTarget, with a leading slash ("" at the root)
}

// targetPaths is Hugo's CreateTargetPaths (resources/page/page_paths.go) for the HTML output.
func (h *hugoConfig) targetPaths(p *hugoSrc, sections map[sectionKey]*hugoSrc) (hugoTarget, error) {
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
	// A slug or path with ".." (`slug: ../../x`) is resolved when the file is written, never
	// above the output folder: Hugo's permalink keeps "/blog/../../x/", its file is x/index.html.
	file := cleanKeepSlash(join(els))
	link := file
	if linkUp {
		link = cleanKeepSlash(join(els[:len(els)-1]) + "/")
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

// cleanKeepSlash is path.Clean on a rooted path, keeping a trailing slash.
func cleanKeepSlash(p string) string {
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}
