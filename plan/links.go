package plan

import (
	"strings"
	"sync"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/rewrite"
)

// A page's canonical and hreflang links are read by Apply's one scan of the page (rewrite's
// Page.Links), resolved there, and kept in a few words each: the output file a link points at is
// its index in the listing of the output's files, and a string of its own is kept only for what no
// file stands for (an hreflang value, shared by every page that uses it, and the path of a URL of
// the site that no file serves). A record names its links by their place in the run's link table
// (Links). Links to other sites are not kept: nothing is checked about them, and explain reads
// them again from the page it explains.

// LinkKind is what a link is to its page.
type LinkKind uint8

// The kinds of link kept.
const (
	Canonical LinkKind = iota // <link rel="canonical">
	Hreflang                  // <link rel="alternate" hreflang>
)

func (k LinkKind) String() string {
	if k == Canonical {
		return "canonical"
	}
	return "hreflang"
}

// Link is one canonical or hreflang link of a page, to a URL of the site, as a run keeps it.
type Link struct {
	// to is the index in the output's files of the file the URL is served from; for a URL of the
	// site that no file serves, -1 minus the interned URL path.
	to   int32
	line int32  // the link's line in the page
	lang uint32 // the interned hreflang value ("" for a canonical)
	kind LinkKind
	// relative is an hreflang link whose href is not an absolute URL, which search engines ignore
	// (it is resolved all the same, as a browser would).
	relative bool
}

// Target is the index in the output's files of the file the link points at, and whether there is
// one.
func (l Link) Target() (int, bool) { return int(l.to), l.to >= 0 }

// Line is the link's line in its page.
func (l Link) Line() int { return int(l.line) }

// Kind is what the link is: canonical or hreflang.
func (l Link) Kind() LinkKind { return l.kind }

// Relative reports an hreflang link whose href is not an absolute URL, which search engines ignore.
func (l Link) Relative() bool { return l.relative }

// Links is a run's link table: every page's links, and the strings they share; records refer to
// their links by offset. Safe for concurrent use while Apply runs; read without locking once it
// has.
type Links struct {
	mu    sync.Mutex
	all   []Link
	names []string
	ids   map[string]uint32
}

// NewLinks is an empty link table.
func NewLinks() *Links { return &Links{ids: map[string]uint32{}} }

// resolved is a link as Apply resolves it, before the table interns its strings.
type resolved struct {
	Link
	lang, missing string
}

// Keep stores the links r found in f's page in the table, and records where they are in f.
func (t *Links) Keep(f *Record, r *Result) {
	if len(r.links) > 0 {
		f.links, f.nlinks = t.add(r.links)
	}
}

// add stores one page's links and returns where they start and how many there are (at most
// 65,535, which no page comes near).
func (t *Links) add(ls []resolved) (uint32, uint16) {
	ls = ls[:min(len(ls), 1<<16-1)]
	t.mu.Lock()
	defer t.mu.Unlock()
	start := uint32(len(t.all))
	for _, r := range ls {
		l := r.Link
		l.lang = t.intern(r.lang)
		if r.missing != "" {
			l.to = -1 - int32(t.intern(r.missing))
		}
		t.all = append(t.all, l)
	}
	return start, uint16(len(ls))
}

func (t *Links) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.names))
	t.names = append(t.names, strings.Clone(s))
	t.ids[s] = id
	return id
}

// Of is f's links.
func (t *Links) Of(f *Record) []Link { return t.all[f.links : f.links+uint32(f.nlinks)] }

// Lang is l's hreflang value.
func (t *Links) Lang(l Link) string { return t.names[l.lang] }

// MissingPath is the URL path of a link whose URL no file serves.
func (t *Links) MissingPath(l Link) string { return t.names[-1-l.to] }

// Len is how many links the table holds, those of records processed again since included.
func (t *Links) Len() int { return len(t.all) }

// Relink is the table anew for files, whose records' links name their targets by index in linked
// (the paths of the files as they were listed when the links were resolved): a file that came or
// went moves every index after it. Each link's target is found again by its path, a link to a file
// now gone keeps the URL path it pointed at, and one to a URL no file served may now have one. It
// resets every record's links to the new table, which also drops the links of records processed
// since (the table only grows while the files stay).
func (t *Links) Relink(files []Record, linked []string) *Links {
	nt := NewLinks()
	var rs []resolved
	for i := range files {
		f := &files[i]
		if f.nlinks == 0 {
			continue
		}
		rs = rs[:0]
		for _, k := range t.Of(f) {
			r := resolved{Link: Link{line: k.line, kind: k.kind}, lang: t.Lang(k)}
			p := ""
			if to, ok := k.Target(); ok && to < len(linked) {
				p = URLPath(linked[to])
			} else if !ok {
				p = t.MissingPath(k)
			}
			r.to = int32(Serving(files, p))
			if r.to < 0 {
				r.missing = p
			}
			rs = append(rs, r)
		}
		f.links, f.nlinks = nt.add(rs)
	}
	return nt
}

// pageLinks resolves the canonical and hreflang links of a page Apply scanned (f, served at
// f.URL(); files, the output's, which a link names by index), appending those to URLs of the site
// to dst. A redirect stub's links are not kept: its canonical names the page it sends visitors to,
// which is what it is for.
func (p *Plan) pageLinks(dst []resolved, f *Record, files []Record, pg rewrite.Page) []resolved {
	if len(pg.Links) == 0 || pg.Redirect {
		return dst
	}
	var page *whatwg.Url // parsed for the first link quickPath does not answer
	for _, l := range pg.Links {
		path, ours := p.urls.quickPath(pg.Base, l.Href)
		to := -1
		if ours {
			to = Serving(files, path)
		} else {
			if page == nil {
				page = p.urls.Page(f.URL())
			}
			if _, path, ours = p.urls.Resolve(page, pg.Base, l.Href); !ours {
				continue
			}
			to = Serving(files, path)
		}
		r := resolved{Link: Link{to: int32(to), line: int32(l.Line), kind: Canonical}}
		if l.Rel == "alternate" {
			r.kind, r.lang, r.relative = Hreflang, l.Hreflang, !AbsoluteURL(l.Href)
		}
		if to < 0 {
			r.missing = path
		}
		dst = append(dst, r)
	}
	return dst
}
