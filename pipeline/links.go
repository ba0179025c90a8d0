package pipeline

import (
	"sort"
	"strings"
	"sync"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/rewrite"
)

// A page's canonical and hreflang links are read by the step's one scan of the page (rewrite's
// Page.Links), resolved there, and kept in a few words each: the output file a link points at is
// its index in the walk's list, and a string of its own is kept only for what no file stands for
// (an hreflang value, shared by every page that uses it, and the path of a URL of the site that no
// file serves). A record names its links by their place in the run's link table. Links to other
// sites are not kept: nothing is checked about them, and explain reads them again from the page it
// explains.

type linkKind uint8

const (
	canonicalLink linkKind = iota // <link rel="canonical">
	hreflangLink                  // <link rel="alternate" hreflang>
)

func (k linkKind) String() string {
	if k == canonicalLink {
		return "canonical"
	}
	return "hreflang"
}

// link is one canonical or hreflang link of a page, to a URL of the site.
type link struct {
	// to is the index in job.files of the file the URL is served from; for a URL of the site that
	// no file serves, -1 minus the interned URL path.
	to   int32
	line int32  // the link's line in the page
	lang uint32 // the interned hreflang value ("" for a canonical)
	kind linkKind
	// relative is an hreflang link whose href is not an absolute URL, which search engines ignore
	// (it is resolved all the same, as a browser would).
	relative bool
}

// target is the file a link points at and whether there is one.
func (l link) target() (int, bool) { return int(l.to), l.to >= 0 }

// linkTable holds every page's links, and the strings they share; records refer to their links by
// offset. Safe for concurrent use while the step runs; read without locking once it has.
type linkTable struct {
	mu    sync.Mutex
	all   []link
	names []string
	ids   map[string]uint32
}

func newLinkTable() *linkTable { return &linkTable{ids: map[string]uint32{}} }

// resolved is a link as the step resolves it, before the table interns its strings.
type resolved struct {
	link
	lang, missing string
}

// add stores one page's links and returns where they start and how many there are (at most
// 65,535, which no page comes near).
func (t *linkTable) add(ls []resolved) (uint32, uint16) {
	ls = ls[:min(len(ls), 1<<16-1)]
	t.mu.Lock()
	defer t.mu.Unlock()
	start := uint32(len(t.all))
	for _, r := range ls {
		l := r.link
		l.lang = t.intern(r.lang)
		if r.missing != "" {
			l.to = -1 - int32(t.intern(r.missing))
		}
		t.all = append(t.all, l)
	}
	return start, uint16(len(ls))
}

func (t *linkTable) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.names))
	t.names = append(t.names, strings.Clone(s))
	t.ids[s] = id
	return id
}

// of is f's links.
func (t *linkTable) of(f *record) []link { return t.all[f.links : f.links+uint32(f.nlinks)] }

// lang is l's hreflang value.
func (t *linkTable) lang(l link) string { return t.names[l.lang] }

// missingPath is the URL path of a link whose URL no file serves.
func (t *linkTable) missingPath(l link) string { return t.names[-1-l.to] }

// fileIndex is the index in j.files of the output file rel (slash path relative to the output
// folder), or -1.
func (j *job) fileIndex(rel string) int { return indexOf(j.files, rel) }

// indexOf is the index in files (sorted by path) of the output file rel, or -1. Only each
// record's path is read: the step calls this while other workers fill in other records' verdicts
// (a search that copied whole records would race with them).
func indexOf(files []record, rel string) int {
	i := sort.Search(len(files), func(i int) bool { return files[i].path[1:] >= rel })
	if i < len(files) && files[i].path[1:] == rel {
		return i
	}
	return -1
}

// fileOf is the index in j.files of the file that serves the site's URL path p, or -1.
func (j *job) fileOf(p string) int {
	at := -1
	servedBy(p, func(rel string) bool {
		at = j.fileIndex(rel)
		return at >= 0
	})
	return at
}

// resolveLink resolves href as a browser would on the page (its URL, and base, the page's <base
// href>), and says whether the URL is the site's, and if so its path within the site and the
// file that serves it (-1 for none). abs is nil for an href that does not resolve.
func (j *job) resolveLink(page *whatwg.Url, base, href string) (abs *whatwg.Url, p string, to int, ours bool) {
	abs, p, ours = j.urls.resolve(page, base, href)
	if !ours {
		return abs, "", -1, false
	}
	return abs, p, j.fileOf(p), true
}

// pageLinks resolves the canonical and hreflang links of a page the step scanned, appending those
// to URLs of the site to dst. A redirect stub's links are not kept: its canonical names the page it
// sends visitors to, which is what it is for.
func (j *job) pageLinks(dst []resolved, f *record, pg rewrite.Page) []resolved {
	if len(pg.Links) == 0 || pg.Redirect {
		return dst
	}
	var page *whatwg.Url // parsed for the first link quickPath does not answer
	for _, l := range pg.Links {
		p, ours := j.urls.quickPath(pg.Base, l.Href)
		to := -1
		if ours {
			to = j.fileOf(p)
		} else {
			if page == nil {
				page = j.urls.pageURL(f.url())
			}
			if _, p, to, ours = j.resolveLink(page, pg.Base, l.Href); !ours {
				continue
			}
		}
		r := resolved{link: link{to: int32(to), line: int32(l.Line), kind: canonicalLink}}
		if l.Rel == "alternate" {
			r.kind, r.lang, r.relative = hreflangLink, l.Hreflang, !absoluteURL(l.Href)
		}
		if to < 0 {
			r.missing = p
		}
		dst = append(dst, r)
	}
	return dst
}
