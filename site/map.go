package site

// Role is what an output file is to the page it belongs to.
type Role uint8

// The roles of an output file.
const (
	RoleNone     Role = iota // no page: a static file, a redirect Hugo made to a language's home
	RolePage                 // the page's own output
	RolePager                // page N >= 2 of the page's list (Hugo /page/N/, jekyll-paginate /pageN/)
	RoleFormat               // another output format of the page (index.xml, index.json, AMP, index.md)
	RoleResource             // a bundle file published with the page
	RoleAlias                // a redirect stub that points at the page
)

var roleNames = [...]string{"none", "page", "pager", "output format", "resource", "alias"}

func (r Role) String() string { return roleNames[r] }

// Owner is what an output file belongs to: a page and the file's role to it. Page is nil for
// RoleNone. The page may have no source (Page.Source ""): a list or 404 page the generator made,
// with the generator's kind and language; its pager pages and output formats are its too.
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
	// Pages are the source pages.
	Pages []Page
	// Sourceless are the pages the generator makes without a source (Hugo's home, section,
	// taxonomy and term lists and 404 pages, in every language), with their kind and language.
	Sourceless []Page
	// Warnings are problems the generator lets pass (an unreadable date it reads, Jekyll front
	// matter it builds without), each once per source file.
	Warnings []error

	owners map[string]Owner // every file a page names: its own, formats, resources, aliases
	pagers map[pagerKey]pagerRef
}

// pagerKey is where a run of pager pages goes, without the number.
type pagerKey struct{ prefix, suffix string }

type pagerRef struct {
	page  *Page
	first int
}

// Map maps every source page (Pages), the pages the generator makes without one (Sourceless),
// and indexes the output files each owns.
func (s *Site) Map() (*Map, error) {
	return s.mapWith(nil)
}

// mapWith is Map, reusing the readings r kept of the sources that did not change (Remap); nil
// reads every source and keeps nothing.
func (s *Site) mapWith(r *readings) (*Map, error) {
	got, err := s.gen.mapSite(r)
	m := &Map{Pages: got.pages, Sourceless: got.sourceless, Warnings: got.warnings}
	m.index()
	return m, err
}

// index records the owner of every file the pages name. A file two pages name goes to the
// first: a source page before a page made without one; a page the generator publishes under the
// flags read before one it would not (a draft whose path a published page also takes); its own
// output before another's format, resource or alias.
func (m *Map) index() {
	files := 0
	for _, pages := range [][]Page{m.Pages, m.Sourceless} {
		for i := range pages {
			p := &pages[i]
			files += 1 + len(p.Formats) + len(p.Resources) + len(p.Aliases)
		}
	}
	m.owners = make(map[string]Owner, files) // made once to its size: it is a site's largest index
	m.pagers = map[pagerKey]pagerRef{}
	all := make([]*Page, 0, len(m.Pages)+len(m.Sourceless))
	for i := range m.Pages {
		if m.Pages[i].NoOutput == "" {
			all = append(all, &m.Pages[i])
		}
	}
	for i := range m.Pages {
		if m.Pages[i].NoOutput != "" {
			all = append(all, &m.Pages[i])
		}
	}
	for i := range m.Sourceless {
		all = append(all, &m.Sourceless[i])
	}
	for _, p := range all {
		m.claim(p.Output, Owner{p, RolePage})
		m.claimPager(p.Pager, p)
	}
	for _, p := range all {
		for _, f := range p.Formats {
			m.claim(f.File, Owner{p, RoleFormat})
			m.claimPager(f.Pager, p)
		}
		for _, r := range p.Resources {
			m.claim(r, Owner{p, RoleResource})
		}
		for _, a := range p.Aliases {
			m.claim(a, Owner{p, RoleAlias})
		}
	}
}

func (m *Map) claim(rel string, o Owner) {
	if _, ok := m.owners[rel]; rel != "" && !ok {
		m.owners[rel] = o
	}
}

func (m *Map) claimPager(pg *Pager, p *Page) {
	if pg == nil {
		return
	}
	k := pagerKey{pg.Prefix, pg.Suffix}
	if _, ok := m.pagers[k]; !ok {
		m.pagers[k] = pagerRef{p, pg.First}
	}
}

// Owner says which page the output file rel (slash path relative to the output folder) belongs
// to and in what role. A file that exists is served, so it takes its page's decision whatever
// flags built it: a draft's file belongs to the draft.
func (m *Map) Owner(rel string) Owner {
	if o, ok := m.owners[rel]; ok {
		return o
	}
	if p := m.pager(rel); p != nil {
		return Owner{Page: p, Role: RolePager}
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
	ref, ok := m.pagers[pagerKey{rel[:start], rel[end:]}]
	if !ok || atoi(n) < ref.first {
		return nil
	}
	return ref.page
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
