package plan

import (
	"path"
	"sort"
	"strings"

	"github.com/robotsmith/robotsmith/rules"
)

// Record is what a run keeps of one output file: a few words, whatever the file's size. The
// decision is shared with every file decided alike (rules.Memo), so a site of 100,000 pages keeps
// 100,000 records and a handful of verdicts. What Apply learns in its one scan of a page beside
// the decision, its canonical and hreflang links, is a span of the run's link table (Links).
// With the run's robots.txt and sitemaps this is the file's indexability record.
type Record struct {
	path    string         // "/" + the slash path relative to the output folder: "/blog/a/index.html"
	verdict *rules.Verdict // the file's decision; nil until Apply ran, and for a page it could not read
	links   uint32         // the page's first link in the run's link table
	// tagLine is the line of the page's first robots tag that says noindex (as explain names its
	// source), 0 for none: the page's side of a finding about its noindex.
	tagLine int32
	nlinks  uint16 // how many links the page has there
	flags   recordFlags
	// page is 1 + the index, in the plan's pages, of the page the file takes its decision from,
	// 0 for none (Locate).
	page uint32
}

type recordFlags uint8

const (
	isHTML    recordFlags = 1 << iota // a .html or .htm file
	isSkipped                         // an .html file left byte-identical: not an HTML document, or a link
	isChanged                         // build wrote it, or would (check)
	isLink                            // a symbolic link to a file of the output, decided as a file, never opened
)

// NewRecord is the record of the output file at path ("/" and the slash path relative to the
// output folder) before Apply: link says it is a symbolic link to another file of the output,
// which is decided by its own path as a file, never opened (an .html link is left byte-identical).
func NewRecord(path string, link bool) Record {
	r := Record{path: path}
	if isHTMLName(path) {
		r.flags |= isHTML
	}
	r.SetLink(link)
	return r
}

// SetLink says the file is now a symbolic link to another file of the output, or no longer one
// (watch mode: the generator replaced it).
func (f *Record) SetLink(link bool) {
	f.flags &^= isLink | isSkipped
	if link {
		f.flags |= isLink
		if f.HTML() {
			f.flags |= isSkipped
		}
	}
}

// Undecided is the record as it was before Apply: its path, what it is, and its page.
func (f *Record) Undecided() Record {
	r := NewRecord(f.path, f.Link())
	r.page = f.page
	return r
}

// Path is "/" and the file's slash path relative to the output folder: "/blog/a/index.html".
func (f *Record) Path() string { return f.path }

// Rel is the file's slash path relative to the output folder: "blog/a/index.html".
func (f *Record) Rel() string { return f.path[1:] }

// HTML reports whether the file is a page by its name (.html or .htm).
func (f *Record) HTML() bool { return f.flags&isHTML != 0 }

// Skipped reports whether the file is an .html file left byte-identical: not an HTML document, or a
// link.
func (f *Record) Skipped() bool { return f.flags&isSkipped != 0 }

// Changed reports whether build writes the file, or would (check).
func (f *Record) Changed() bool { return f.flags&isChanged != 0 }

// Link reports whether the file is a symbolic link to another file of the output.
func (f *Record) Link() bool { return f.flags&isLink != 0 }

// Opened reports whether Apply reads the file: a page (HTML, not a link). Every other file is
// decided by its path and page alone.
func (f *Record) Opened() bool { return f.HTML() && !f.Link() }

// Verdict is the file's decision; nil until Apply ran, and for a page it could not read.
func (f *Record) Verdict() *rules.Verdict { return f.verdict }

// URL is the URL path the file is served at (URLPath), without a copy.
func (f *Record) URL() string {
	if strings.HasSuffix(f.path, "/index.html") {
		return f.path[:len(f.path)-len("index.html")]
	}
	return f.path
}

// isHTMLName reports whether a file is a page by its name: .html or .htm.
func isHTMLName(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".html" || ext == ".htm"
}

// URLPath is the URL path a host serves an output file at: posts/a/index.html is /posts/a/,
// files/x.pdf is /files/x.pdf (SPEC §2).
func URLPath(rel string) string {
	u := "/" + strings.TrimPrefix(rel, "/")
	if path.Base(u) == "index.html" {
		return strings.TrimSuffix(u, "index.html")
	}
	return u
}

// Index is the index in files (the output's, sorted by path) of the output file rel (slash path
// relative to the output folder), or -1. Only each record's path is read: Apply asks while other
// goroutines fill in other records' verdicts (a search that copied whole records would race with
// them).
func Index(files []Record, rel string) int {
	i := sort.Search(len(files), func(i int) bool { return files[i].path[1:] >= rel })
	if i < len(files) && files[i].path[1:] == rel {
		return i
	}
	return -1
}

// Serving is the index in files of the file that serves the site's URL path p, or -1.
func Serving(files []Record, p string) int {
	at := -1
	ServedBy(p, func(rel string) bool {
		at = Index(files, rel)
		return at >= 0
	})
	return at
}
