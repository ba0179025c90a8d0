package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/sitemap"
)

// maxSitemap bounds a sitemap's size: the protocol allows 50 MB (uncompressed); robotsmith reads one
// twice that long, and no longer.
const maxSitemap = 100 << 20

// listing is one <url> of a sitemap that names a file of the site.
type listing struct {
	file    int32  // index in job.files
	line    int32  // the line of its <loc>
	sitemap uint16 // index in model.sitemaps
}

// sitemapMode is what the run does with the sitemaps' entries for URLs that are noindex or have no
// file (SPEC §7).
type sitemapMode uint8

const (
	pruneSitemaps sitemapMode = iota // sitemap: prune, the default: leave them out
	keepSitemaps                     // sitemap: keep: leave the sitemaps alone, each such entry a finding
	listSitemaps                     // explain: only learn which sitemaps list which files
)

// sitemaps reads each sitemap of the site once: sitemap.xml at the output root, every sitemap an
// index lists, every one a Sitemap: line of robots.txt names, when they are files of the site. It
// records which files each lists (m.listed) and, as mode says, leaves out (build) or counts as
// changes (check) the <url> entries and hreflang alternates of URLs that are noindex for every
// crawler or have no file, or reports each as a finding. A kept entry that robots.txt disallows
// for every crawler is a finding too. A pruned sitemap is written with the run's other files
// (writeFile).
func (j *job) sitemaps(m *model, fs *findings, rep *Report, mode sitemapMode) error {
	var queue []int
	queued := map[int]bool{}
	add := func(i int) {
		if i >= 0 && !queued[i] {
			queued[i] = true
			queue = append(queue, i)
		}
	}
	add(j.fileIndex("sitemap.xml"))
	for _, l := range m.robots.file.Sitemaps {
		// A Sitemap: line of another host names no file of the site; without a base URL of its
		// own, the host cannot be told, and the path decides.
		if u, err := j.urls.base.Parse(l.Value); err == nil {
			if p, ok := j.urls.sitePath(u, !j.urls.own); ok {
				add(j.fileOf(p))
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		err := j.sitemap(m, fs, rep, mode, i, add)
		switch {
		case errors.As(err, new(*frontmatter.Error)), errors.Is(err, safefs.ErrNotRegular), errors.Is(err, safefs.ErrTooLarge):
			// The sitemap is the generator's or the site's, not robotsmith's: one it cannot read
			// is left as it is, and said so.
			rep.Warnings = append(rep.Warnings, err.Error()+" (left as it is)")
		case err != nil:
			return err
		}
	}
	slices.SortStableFunc(m.listed, func(a, b listing) int { return cmp.Compare(a.file, b.file) })
	return nil
}

// sitemap reads (and prunes) one sitemap, files[i], calling queue with each sitemap an index lists.
func (j *job) sitemap(m *model, fs *findings, rep *Report, mode sitemapMode, i int, queue func(int)) error {
	rel := j.files[i].rel()
	if j.files[i].link() {
		// A link to a file of the output (the walk let no other in): the file it leads to is read
		// and written, and the link stays a link.
		var err error
		if rel, err = safefs.ResolveLink(j.site.Output, rel); err != nil {
			return j.fileError(rel, err)
		}
	}
	name := j.outName(rel)
	fh, fi, err := safefs.OpenIn(j.root, rel)
	if err != nil {
		return j.fileError(rel, err)
	}
	defer fh.Close()
	if fi.Size() > maxSitemap {
		return &safefs.SizeError{Name: name, Size: fi.Size(), Limit: maxSitemap}
	}
	id := uint16(len(m.sitemaps))
	m.sitemaps = append(m.sitemaps, rel)
	out := &pruneOut{keep: mode == pruneSitemaps && j.opt.Write}
	keep := func(ref sitemap.Ref) bool {
		u, err := j.urls.base.Parse(ref.URL) // a <loc> is absolute; one that is not is read as a browser would
		if err != nil {
			return true // not a URL: nothing to say about it
		}
		p, ok := j.urls.sitePath(u, true)
		if !ok {
			return true
		}
		to := j.fileOf(p)
		if ref.Index {
			queue(to)
			return true
		}
		if !ref.Alternate && to >= 0 {
			m.listed = append(m.listed, listing{file: int32(to), line: int32(ref.Line), sitemap: id})
		}
		if mode == listSitemaps {
			return true
		}
		if j.indexable(to) {
			if !ref.Alternate {
				j.sitemapDisallowed(m, fs, name, ref, u)
			}
			return true
		}
		switch mode {
		case pruneSitemaps:
			out.changed = true
			return false
		case keepSitemaps:
			what := "lists " + ref.URL
			if ref.Alternate {
				what = fmt.Sprintf("lists %s as the %s alternate of %s", ref.URL, ref.Hreflang, ref.Entry)
			}
			fs.add(SeverityError, fmt.Sprintf("%s:%d", name, ref.Line), "%s:%d: sitemap %s, which %s; with `sitemap: keep` robotsmith leaves it there",
				name, ref.Line, what, j.whyNotIndexable(to))
		}
		return true
	}
	p, err := sitemap.Prune(out, fh, keep)
	if fe := (*frontmatter.Error)(nil); errors.As(err, &fe) {
		fe.File = name
	}
	if err != nil {
		return err
	}
	if !p.Changed() || mode != pruneSitemaps {
		return nil
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, rel)
	if !out.keep {
		return nil
	}
	// What Prune wrote before it left the first thing out is the sitemap's first out.n bytes: they
	// were not kept, and are read again now (the bytes, not the XML).
	data := make([]byte, out.n, out.n+int64(len(out.buf)))
	if _, err := fh.ReadAt(data, 0); err != nil && err != io.EOF {
		return j.fileError(rel, err)
	}
	return j.writeFile(rel, fi, append(data, out.buf...))
}

// pruneOut is where Prune writes a sitemap. Until the first entry is left out the output is the
// input itself: only its length is counted, so a sitemap that does not change (every rebuild, every
// check) costs no memory. What follows is kept (build) to be written.
type pruneOut struct {
	keep    bool  // build with `sitemap: prune`: the new sitemap is written
	changed bool  // something was left out: what is written from now on is kept
	n       int64 // bytes written before that: the input's first n bytes
	buf     []byte
}

func (o *pruneOut) Write(p []byte) (int, error) {
	if !o.changed {
		o.n += int64(len(p))
	} else if o.keep {
		o.buf = append(o.buf, p...)
	}
	return len(p), nil
}

// indexable reports whether a sitemap keeps a URL served by files[to] (to < 0: no file serves it):
// not when there is no file, nor when the file is noindex for every crawler. A file the step could
// not decide is kept.
func (j *job) indexable(to int) bool {
	if to < 0 {
		return false
	}
	v := j.files[to].verdict
	return v == nil || !v.Noindex("robots")
}

// whyNotIndexable says why a URL served by files[to] is not indexable: "has no file in public" or
// "is noindex (front matter robots at content/a.md:3)".
func (j *job) whyNotIndexable(to int) string {
	if to < 0 {
		return "has no file in " + j.site.Output
	}
	return "is noindex (" + j.noindexSource(&j.files[to], "robots").String() + ")"
}

// sitemapDisallowed reports a sitemap entry that robots.txt keeps every crawler from (finding 2).
func (j *job) sitemapDisallowed(m *model, fs *findings, name string, ref sitemap.Ref, u *whatwg.Url) {
	r := m.robots.disallowedForAll(crawlPath(u.Pathname() + u.Search()))
	if r == nil {
		return
	}
	fs.add(SeverityError, fmt.Sprintf("%s:%d", name, ref.Line),
		"%s:%d: sitemap lists %s, which robots.txt disallows for every crawler (%s:%d: %s: %s): a sitemap asks crawlers for what robots.txt forbids them",
		name, ref.Line, ref.URL, m.robots.name, r.Num, r.Key, r.Value)
}

// listedIn are the listings of files[i], in the order the sitemaps were read.
func (m *model) listedIn(i int) []listing {
	lo, _ := slices.BinarySearchFunc(m.listed, int32(i), func(l listing, i int32) int { return cmp.Compare(l.file, i) })
	hi := lo
	for hi < len(m.listed) && m.listed[hi].file == int32(i) {
		hi++
	}
	return m.listed[lo:hi]
}
