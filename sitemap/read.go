package sitemap

import "io"

// Entry is a <url> of a sitemap or a <sitemap> of a sitemap index.
type Entry struct {
	// Loc is the text of the first <loc>: entities and CDATA decoded, white space around it
	// trimmed. It is "" when the entry has no <loc>.
	Loc  string
	Line int // line of the <loc> start tag
	// Alternates are the entry's <xhtml:link rel="alternate"> children, in order (urlset only).
	Alternates []Alternate
}

// Alternate is an <xhtml:link rel="alternate" hreflang="…" href="…"> of an entry.
type Alternate struct {
	Hreflang string
	Href     string // white space around it trimmed
	Line     int    // line of the <xhtml:link start tag
}

// Reader reads the entries of a sitemap or sitemap index one at a time; memory does not grow
// with the file.
type Reader struct {
	s     *scanner
	links []link
}

// NewReader returns a Reader of the sitemap or sitemap index r.
func NewReader(r io.Reader) *Reader { return &Reader{s: newScanner(r)} }

// Kind is what the file is, known once Next has read the root element.
func (r *Reader) Kind() Kind { return r.s.kind }

// Next returns the next entry, or io.EOF after the last. XML that is not well-formed is an
// *Error with Line and Col (File is left for the caller to set); a file that is not
// a sitemap (Kind NotSitemap) has no entries and is no error.
func (r *Reader) Next() (Entry, error) {
	for {
		t, err := r.s.next()
		if err != nil {
			return Entry{}, err
		}
		if !r.s.isEntry(t) {
			r.s.rec.discard(t.end)
			continue
		}
		var e Entry
		r.links = r.links[:0]
		end, err := r.s.entry(t, &e, &r.links)
		if err != nil {
			return Entry{}, err
		}
		r.s.rec.discard(end)
		if len(r.links) > 0 {
			e.Alternates = make([]Alternate, len(r.links))
			for i, l := range r.links {
				e.Alternates[i] = l.Alternate
			}
		}
		return e, nil
	}
}
