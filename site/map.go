package site

import (
	"path"
	"strings"
)

// Role is what an output file is to the source page it belongs to.
type Role uint8

// The roles of an output file.
const (
	RoleNone     Role = iota // no source page: a taxonomy list Hugo made, a 404 page, a static file
	RolePage                 // the page's own output
	RolePager                // page N >= 2 of the page's list (Hugo /page/N/, jekyll-paginate /pageN/)
	RoleFormat               // another output format of the page (index.xml, index.json, index.md)
	RoleResource             // a bundle file published with the page
	RoleAlias                // a redirect stub that points at the page
)

var roleNames = [...]string{"none", "page", "pager", "output format", "resource", "alias"}

func (r Role) String() string { return roleNames[r] }

// Owner is what an output file belongs to. Page is nil for RoleNone. It is the place for more
// that a file's rules may select on (the kind and language of a file with no source).
type Owner struct {
	Page *Page
	Role Role
}

// Pager says where the pages continuing a list page are written: Prefix + N + Suffix for N >= 2
// (Hugo "blog/page/" + N + "/index.html"; jekyll-paginate "blog/page" + N + "/index.html").
type Pager struct {
	Prefix, Suffix string
	First          int // the first N written as a pager page: Hugo's page/1/ is a redirect stub, 1; jekyll-paginate's, 2
}

// Map is a site's pages indexed by every output file they own, built once by Site.Map.
type Map struct {
	Pages []Page
	// Warnings are problems the generator lets pass (an unreadable date it reads, Jekyll front
	// matter it builds without), each once per source file.
	Warnings []error

	byOutput   map[string]*Page
	byResource map[string]*Page
	byAlias    map[string]*Page
	byPager    map[Pager]*Page
	byStem     map[string]*Page // a page's output file without its extension
}

// Map maps every source page (Pages) and indexes the output files each owns.
func (s *Site) Map() (*Map, error) {
	pages, warnings, err := s.gen.pages()
	m := &Map{Pages: pages, Warnings: warnings}
	m.index()
	return m, err
}

func (m *Map) index() {
	m.byOutput = map[string]*Page{}
	m.byResource = map[string]*Page{}
	m.byAlias = map[string]*Page{}
	m.byPager = map[Pager]*Page{}
	m.byStem = map[string]*Page{}
	for i := range m.Pages {
		p := &m.Pages[i]
		if p.Output == "" {
			continue
		}
		// A page the generator publishes under the flags read wins a file over one it would not
		// (a draft whose path a published page also takes).
		if old := m.byOutput[p.Output]; old == nil || old.NoOutput != "" && p.NoOutput == "" {
			m.byOutput[p.Output] = p
			m.byStem[stem(p.Output)] = p
		}
		for _, r := range p.Resources {
			m.byResource[r] = p
		}
		for _, a := range p.Aliases {
			m.byAlias[a] = p
		}
		if p.Pager != nil {
			m.byPager[Pager{Prefix: p.Pager.Prefix, Suffix: p.Pager.Suffix}] = p
		}
	}
}

// stem is a file's path without its extension: "blog/index.html" is "blog/index".
func stem(rel string) string { return strings.TrimSuffix(rel, path.Ext(rel)) }

// Owner says which page the output file rel (slash path relative to the output folder) belongs
// to and in what role. A file that exists is served, so it takes its page's decision whatever
// flags built it: a draft's file belongs to the draft.
func (m *Map) Owner(rel string) Owner {
	if p := m.byOutput[rel]; p != nil {
		return Owner{Page: p, Role: RolePage}
	}
	if p := m.byResource[rel]; p != nil {
		return Owner{Page: p, Role: RoleResource}
	}
	if p := m.byAlias[rel]; p != nil {
		return Owner{Page: p, Role: RoleAlias}
	}
	if p := m.pager(rel); p != nil {
		return Owner{Page: p, Role: RolePager}
	}
	ext := strings.ToLower(path.Ext(rel))
	if ext != ".html" && ext != ".htm" {
		if p := m.byStem[stem(rel)]; p != nil {
			return Owner{Page: p, Role: RoleFormat}
		}
	}
	return Owner{}
}

// pager finds the list page a pager file continues: the last run of digits in rel is N.
func (m *Map) pager(rel string) *Page {
	end := len(rel)
	for end > 0 && (rel[end-1] < '0' || rel[end-1] > '9') {
		end--
	}
	start := end
	for start > 0 && rel[start-1] >= '0' && rel[start-1] <= '9' {
		start--
	}
	n := rel[start:end]
	if n == "" || n[0] == '0' || len(n) > 9 {
		return nil
	}
	p := m.byPager[Pager{Prefix: rel[:start], Suffix: rel[end:]}]
	if p == nil || atoi(n) < p.Pager.First {
		return nil
	}
	return p
}

// PageOf returns the page whose source is src (slash path relative to the site root).
func (m *Map) PageOf(src string) *Page {
	for i := range m.Pages {
		if m.Pages[i].Source == src {
			return &m.Pages[i]
		}
	}
	return nil
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
