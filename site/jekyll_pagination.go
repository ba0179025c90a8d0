package site

// jekyll-paginate's pager pages (pagination.rb, pager.rb of jekyll-paginate 1.1).

import (
	"path"
	"strings"
)

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
		if i, ok := bySource[w.srcRel(path.Join(dir, "index.html"))]; ok && w.pages[i].Output != "" && w.pages[i].NoOutput() == "" {
			w.pages[i].setOthers(func(x *Extra) { x.Pager = &pager })
			return
		}
		if dir == "" {
			return
		}
	}
}
