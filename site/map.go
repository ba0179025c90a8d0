package site

import (
	"context"
	"slices"
	"strings"
)

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
	// Index is the page's place in Pages followed by Sourceless (0 for RoleNone): a caller that
	// keeps something per page keeps it by this, not by the page's address.
	Index int
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
	// taxonomy and term lists and 404 pages, in every language), with their kind and language,
	// and the inputs of the cascades that reach them.
	Sourceless []Page
	// Warnings are problems the generator lets pass (an unreadable date it reads, Jekyll front
	// matter it builds without), each once per source file.
	Warnings []error

	own Owners
}

// Owners is the part of a Map that says which page owns an output file, by the page's index:
// what a caller that lets the pages go (a build keeps a few words a page of its own) still asks
// while it lists the output folder. It holds no Page; it keeps their output paths.
type Owners struct {
	// owners are every file a page names (its own, formats, resources, aliases), sorted by file,
	// each once. A sorted slice of small entries rather than a hash map: it is the site's largest
	// index, and this way costs a third of the memory for a lookup that stays fast (binary search).
	owners []owned
	pagers map[pagerKey]pagerRef
	// twins says that pages may publish Markdown twins of their HTML (twinOf, Jekyll):
	// found by their names, not listed, since few sites have them and every page could.
	twins bool
}

// Owners returns the map's index of output files to pages, which stays valid once the map is let go.
// It is a copy of the map's own header, not a pointer into the map: a pointer into a Map keeps the
// whole Map, every page with it, from being collected for as long as the index is held.
func (m *Map) Owners() *Owners {
	own := m.own
	return &own
}

// owned is one entry of the owner index: a file, the index of its page in Pages followed by
// Sourceless, and the file's role.
type owned struct {
	file string
	page uint32
	role Role
}

// pagerKey is where a run of pager pages goes, without the number.
type pagerKey struct{ prefix, suffix string }

type pagerRef struct {
	page  uint32 // index in Pages followed by Sourceless
	first int
}

// Map maps every source page (Pages), the pages the generator makes without one (Sourceless),
// and indexes the output files each owns.
func (s *Site) Map() (*Map, error) {
	return s.MapContext(context.Background())
}

// MapContext is Map, given up once ctx ends (SIGINT, SIGTERM): no source is opened after that, and
// it returns ctx's error alone, no Map.
func (s *Site) MapContext(ctx context.Context) (*Map, error) {
	return s.mapWith(ctx, nil)
}

// mapWith is Map, reusing the readings r kept of the sources that did not change (Remap); nil
// reads every source and keeps nothing.
func (s *Site) mapWith(ctx context.Context, r *readings) (*Map, error) {
	got, err := s.gen.mapSite(ctx, r)
	if cerr := ctx.Err(); cerr != nil {
		// The sources not read are mapped as unreadable: not the site.
		return nil, cerr
	}
	m := &Map{Pages: got.pages, Sourceless: got.sourceless, Warnings: got.warnings, own: Owners{twins: s.jek != nil}}
	m.index()
	return m, err
}

// page is the page at index i of Pages followed by Sourceless.
func (m *Map) page(i uint32) *Page {
	if n := uint32(len(m.Pages)); i >= n {
		return &m.Sourceless[i-n]
	}
	return &m.Pages[i]
}

// index records the owner of every file the pages name. A file two pages name goes to the
// first: a source page before a page made without one; a page the generator publishes under the
// flags read before one it would not (a draft whose path a published page also takes); its own
// output before another's format, resource or alias.
func (m *Map) index() {
	files := 0
	for _, pages := range [][]Page{m.Pages, m.Sourceless} {
		for i := range pages {
			x := pages[i].Others()
			files += 1 + len(x.Formats) + len(x.Resources) + len(x.Aliases)
		}
	}
	// Claimed in the order of precedence; the stable sort keeps the first claim of a file first.
	claims := make([]owned, 0, files)
	m.own.pagers = map[pagerKey]pagerRef{}
	all := make([]uint32, 0, len(m.Pages)+len(m.Sourceless))
	for i := range m.Pages {
		if m.Pages[i].NoOutput() == "" {
			all = append(all, uint32(i))
		}
	}
	for i := range m.Pages {
		if m.Pages[i].NoOutput() != "" {
			all = append(all, uint32(i))
		}
	}
	for i := range m.Sourceless {
		all = append(all, uint32(len(m.Pages)+i))
	}
	claim := func(file string, i uint32, r Role) {
		if file != "" {
			claims = append(claims, owned{file, i, r})
		}
	}
	for _, i := range all {
		p := m.page(i)
		claim(p.Output, i, RolePage)
		if p.Extra != nil {
			m.claimPager(p.Extra.Pager, i)
		}
	}
	for _, i := range all {
		x := m.page(i).Others()
		for _, f := range x.Formats {
			claim(f.File, i, RoleFormat)
			m.claimPager(f.Pager, i)
		}
		for _, r := range x.Resources {
			claim(r, i, RoleResource)
		}
		for _, a := range x.Aliases {
			claim(a, i, RoleAlias)
		}
	}
	slices.SortStableFunc(claims, func(a, b owned) int { return strings.Compare(a.file, b.file) })
	m.own.owners = slices.CompactFunc(claims, func(a, b owned) bool { return a.file == b.file })
}

func (m *Map) claimPager(pg *Pager, p uint32) {
	if pg == nil {
		return
	}
	k := pagerKey{pg.Prefix, pg.Suffix}
	if _, ok := m.own.pagers[k]; !ok {
		m.own.pagers[k] = pagerRef{p, pg.First}
	}
}

// Owner says which page the output file rel (slash path relative to the output folder) belongs
// to and in what role. A file that exists is served, so it takes its page's decision whatever
// flags built it: a draft's file belongs to the draft.
func (m *Map) Owner(rel string) Owner {
	i, r, ok := m.own.Index(rel)
	if !ok {
		return Owner{}
	}
	return Owner{Page: m.page(uint32(i)), Role: r, Index: i}
}

// Index is Map.Owner without the page: the index of the page that owns the output file rel (in
// Pages followed by Sourceless) and the file's role; ok is false for a file of no page.
func (o *Owners) Index(rel string) (page int, role Role, ok bool) {
	if i, ok := o.owner(rel); ok {
		return int(o.owners[i].page), o.owners[i].role, true
	}
	if i, ok := o.pager(rel); ok {
		return int(i), RolePager, true
	}
	if o.twins {
		for _, html := range twinOf(rel) {
			if i, ok := o.owner(html); ok && o.owners[i].role == RolePage {
				return int(o.owners[i].page), RoleFormat, true
			}
		}
	}
	return 0, RoleNone, false
}

// owner looks rel up in the owner index: its place there.
func (o *Owners) owner(rel string) (int, bool) {
	return slices.BinarySearchFunc(o.owners, rel, func(o owned, rel string) int { return strings.Compare(o.file, rel) })
}

// pager finds the list page a pager file continues (its index in Pages followed by Sourceless):
// the last run of digits in rel is N.
func (o *Owners) pager(rel string) (uint32, bool) {
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
		return 0, false
	}
	ref, ok := o.pagers[pagerKey{rel[:start], rel[end:]}]
	if !ok || atoi(n) < ref.first {
		return 0, false
	}
	return ref.page, true
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
