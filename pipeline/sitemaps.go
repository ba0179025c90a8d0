package pipeline

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/sitemap"
)

// maxSitemap bounds a sitemap's size: the protocol allows 50 MB (uncompressed); robotsmith reads one
// twice that long, and no longer.
const maxSitemap = 100 << 20

// listing is one <url> of a sitemap that names a file of the site.
type listing struct {
	file    int32  // index in the pass's files
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
func (ps *pass) sitemaps(m *model, fs *findings, rep *Report, mode sitemapMode) error {
	var queue []int
	queued := map[int]bool{}
	add := func(i int) {
		if i >= 0 && !queued[i] {
			queued[i] = true
			queue = append(queue, i)
		}
	}
	add(ps.fileIndex("sitemap.xml"))
	urls := ps.p.URLs()
	for _, l := range m.robots.file.Sitemaps {
		if !plan.AbsoluteURL(l.Value) {
			fs.add(problem.RobotsSitemapRelative, strconv.Itoa(l.Num), problem.Position{File: m.robots.name, Line: l.Num}, nil,
				"Sitemap: %.80s is a relative URL: search engines take only an absolute URL there; %s",
				l.Value, ps.absoluteAdvice())
		}
		// A Sitemap: line of another host names no file of the site; without a base URL of its
		// own, the host cannot be told, and the path decides. A relative one is followed as a
		// browser resolves it, against the base URL.
		if u, err := urls.Base().Parse(l.Value); err == nil {
			if p, ok := urls.SitePath(u, !urls.Own()); ok {
				add(ps.fileOf(p))
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		err := ps.sitemap(m, fs, rep, mode, i, add)
		switch {
		case errors.As(err, new(*sitemap.Error)), errors.Is(err, safefs.ErrNotRegular), errors.Is(err, safefs.ErrTooLarge):
			// The sitemap is the generator's or the site's, not robotsmith's: one it cannot read
			// is left as it is, and said so: a warning of its code.
			p, _ := problem.Of(err)
			if errors.Is(err, safefs.ErrTooLarge) {
				p.Code = problem.SitemapTooLarge
			}
			p.Msg += " (left as it is)"
			p.Severity = p.Code.Severity()
			rep.Warnings = append(rep.Warnings, p)
		case err != nil:
			return err
		}
	}
	slices.SortStableFunc(m.listed, func(a, b listing) int { return cmp.Compare(a.file, b.file) })
	return nil
}

// sitemap reads (and prunes) one sitemap, files[i], calling queue with each sitemap an index lists.
func (ps *pass) sitemap(m *model, fs *findings, rep *Report, mode sitemapMode, i int, queue func(int)) error {
	out := ps.out
	rel := ps.files[i].Rel()
	if ps.files[i].Link() {
		// A link to a file of the output (the walk let no other in): the file it leads to is read
		// and written, and the link stays a link.
		var err error
		if rel, err = safefs.ResolveLink(out.dir, rel); err != nil {
			return out.fileError(rel, err)
		}
	}
	name := out.outName(rel)
	fh, fi, err := out.folder.Open(rel)
	if err != nil {
		return out.fileError(rel, err)
	}
	defer fh.Close()
	if fi.Size() > maxSitemap {
		return &safefs.SizeError{Name: name, Size: fi.Size(), Limit: maxSitemap}
	}
	id := uint16(len(m.sitemaps))
	m.sitemaps = append(m.sitemaps, rel)
	po := &pruneOut{keep: mode == pruneSitemaps && out.tx != nil}
	defer po.close()
	keep := func(ref sitemap.Ref) bool {
		if !plan.AbsoluteURL(ref.URL) {
			// A sitemap's relative URLs are one warning, at the first.
			fs.add(problem.SitemapRelativeURL, name, problem.Position{File: name, Line: ref.Line}, nil,
				"sitemap lists %.80s as a relative URL: search engines take only absolute URLs in a sitemap; %s",
				ref.URL, ps.absoluteAdvice())
		}
		p, crawl, ok := ps.p.URLs().Loc(ref.URL)
		if !ok {
			return true // not a URL of the site: nothing to say about it
		}
		to := ps.fileOf(p)
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
		if ps.indexable(to) {
			if !ref.Alternate {
				ps.sitemapDisallowed(m, fs, name, ref, crawl)
			}
			return true
		}
		switch mode {
		case pruneSitemaps:
			po.changed = true
			return false
		case keepSitemaps:
			what := "lists " + ref.URL
			if ref.Alternate {
				what = fmt.Sprintf("lists %s as the %s alternate of %s", ref.URL, ref.Hreflang, ref.Entry)
			}
			fs.add(problem.SitemapListsUnindexable, fmt.Sprintf("%s:%d", name, ref.Line), problem.Position{File: name, Line: ref.Line}, ps.notIndexableAt(to),
				"sitemap %s, which %s; with `sitemap: keep` robotsmith leaves it there",
				what, ps.whyNotIndexable(to))
		}
		return true
	}
	var (
		p    sitemap.Pruned
		data []byte // watch mode: the new sitemap whole
		same bool   // watch mode: data is what the file holds (robotsmith's last write)
	)
	if ps.memo != nil && fi.Size() <= maxMemoSitemap {
		p, data, same, err = ps.memo.prune(rel, name, fh, keep)
	} else {
		p, err = sitemap.Prune(po, fh, keep)
	}
	if se := (*sitemap.Error)(nil); errors.As(err, &se) {
		se.File = name
	}
	if err != nil {
		return err
	}
	if !p.Changed() || mode != pruneSitemaps {
		return nil
	}
	if same {
		return nil // the file holds it already: robotsmith's last write of it
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, rel)
	if !po.keep {
		return nil
	}
	if data != nil {
		if err := out.writeFile(rel, fi, data); err != nil {
			return err
		}
		ps.memo.wrote(rel, data)
		return nil
	}
	// The new sitemap is the old one's first po.n bytes, read again now (the bytes, not the XML),
	// then what Prune wrote after it first left something out.
	return out.createFile(rel, fi, func(w io.Writer) error {
		if _, err := io.Copy(w, io.NewSectionReader(fh, 0, po.n)); err != nil {
			return err
		}
		return po.rest.writeTo(w)
	})
}

// maxMemoSitemap is the largest sitemap watch mode keeps in memory between batches (sitemapMemo),
// with its layout about twice that: Hugo's sitemap of 50,000 URLs without alternates is about 6 MB,
// the 10,000-page synthetic site's 0.8 MB. A larger one is read again in every batch, as build
// reads it, streamed.
const maxMemoSitemap = 16 << 20

// sitemapMemo is what watch mode keeps of each sitemap from one batch to the next (pass.memo; nil in
// build, check and explain, which read each sitemap once): its bytes as last read and their
// sitemap.Layout, so that a batch in which only the decisions changed (a page flipped to noindex or
// back) prunes it again from those without reading its XML, which is nearly all a flip's time on a
// large site. What is in the file now decides, by a stamp of its whole content (its length and a
// 64-bit hash with a seed of the session's own, so that no content can be made to match): the same
// bytes as those kept, or the bytes of robotsmith's last write of it (then the bytes kept are the
// generator's, which that write pruned). Any other content (the generator wrote it again, an author
// edited it, a write was not put in place) is read whole again, as build reads it, and kept in
// place of the last. So the result is always the sitemap as the generator last wrote it, pruned
// with this batch's decisions: what build gives. A page flipped back to index comes back into the
// sitemap, which a prune of robotsmith's own write could not do, since its entry is no longer
// there.
type sitemapMemo struct {
	seed    maphash.Seed
	files   map[string]*memoSitemap // by the sitemap's slash path in the output
	pending map[string]memoStamp    // this batch's writes, until they are put in place
}

type memoSitemap struct {
	src    []byte // the sitemap as the generator (or whoever) wrote it, as last read
	layout *sitemap.Layout
	read   memoStamp // src's stamp
	ours   memoStamp // robotsmith's last write of it in place (a pruning of src); zero if none
}

type memoStamp struct {
	size int
	sum  uint64
}

func newSitemapMemo() *sitemapMemo {
	return &sitemapMemo{seed: maphash.MakeSeed(), files: map[string]*memoSitemap{}, pending: map[string]memoStamp{}}
}

func (m *sitemapMemo) stamp(b []byte) memoStamp {
	return memoStamp{len(b), maphash.Bytes(m.seed, b)}
}

// prune prunes the sitemap rel (name, to the user), open in r, with keep, as sitemap.Prune would what the generator
// last wrote, and returns the new sitemap whole, and whether the file holds it already (the
// file is robotsmith's last write, and the decisions that made it have not changed).
func (m *sitemapMemo) prune(rel, name string, r io.Reader, keep func(sitemap.Ref) bool) (p sitemap.Pruned, data []byte, same bool, err error) {
	now, err := io.ReadAll(io.LimitReader(r, maxSitemap+1))
	if err != nil {
		return p, nil, false, err
	}
	if len(now) > maxSitemap {
		return p, nil, false, &safefs.SizeError{Name: name, Size: int64(len(now)), Limit: maxSitemap}
	}
	var out bytes.Buffer
	out.Grow(len(now))
	s := m.stamp(now)
	if f := m.files[rel]; f != nil && (s == f.read || s == f.ours) {
		p, err = f.layout.Prune(&out, f.src, keep)
		return p, out.Bytes(), err == nil && s == f.ours && m.stamp(out.Bytes()) == s, err
	}
	delete(m.files, rel)
	p, layout, err := sitemap.PruneLayout(&out, bytes.NewReader(now), keep)
	if err != nil {
		return p, nil, false, err
	}
	m.files[rel] = &memoSitemap{src: now, layout: layout, read: s}
	return p, out.Bytes(), false, nil
}

// wrote notes that this batch writes data to the sitemap rel; committed keeps it once in place.
func (m *sitemapMemo) wrote(rel string, data []byte) { m.pending[rel] = m.stamp(data) }

// committed notes that the batch's writes are in place.
func (m *sitemapMemo) committed() {
	for rel, s := range m.pending {
		if f := m.files[rel]; f != nil {
			f.ours = s
		}
	}
	clear(m.pending)
}

// pruneOut is where Prune writes a sitemap. Until the first entry is left out the output is the
// input itself: only its length is counted, so a sitemap that does not change (every rebuild, every
// check) costs neither memory nor a write. What follows is kept (build) to be written once Prune
// has read the whole sitemap without error: a sitemap that turns out not to be well-formed after
// its first pruned entry is left as it is, so nothing goes to the build's transaction before then.
type pruneOut struct {
	keep    bool  // build with `sitemap: prune`: the new sitemap is written
	changed bool  // something was left out: what is written from now on is kept
	n       int64 // bytes written before that: the input's first n bytes
	rest    spill
}

func (o *pruneOut) Write(p []byte) (int, error) {
	if !o.changed {
		o.n += int64(len(p))
		return len(p), nil
	}
	if !o.keep {
		return len(p), nil
	}
	return o.rest.Write(p)
}

func (o *pruneOut) close() { o.rest.close() }

// spillAt is how much of a pruned sitemap's new bytes a run holds in memory; past it they go to a
// temporary file, so that pruning a sitemap of 50 MB takes no more memory than one of 50 KB.
const spillAt = 1 << 20

// spill holds bytes in memory up to spillAt, then in a temporary file of the system's temporary
// folder (not the output's: it is never the site's, whatever becomes of the run). Written by hand:
// the standard library has no such writer, and bytes.Buffer with a file behind it is all it takes.
type spill struct {
	mem []byte
	f   *os.File
}

func (s *spill) Write(p []byte) (int, error) {
	if s.f == nil && len(s.mem)+len(p) <= spillAt {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "robotsmith-sitemap-*")
		if err != nil {
			return 0, err
		}
		s.f = f
		if _, err := f.Write(s.mem); err != nil {
			return 0, err
		}
		s.mem = nil
	}
	return s.f.Write(p)
}

// writeTo writes everything written so far to w.
func (s *spill) writeTo(w io.Writer) error {
	if s.f == nil {
		_, err := w.Write(s.mem)
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

// close removes the temporary file, if there is one.
func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f = nil
	}
	s.mem = nil
}

// indexable reports whether a sitemap keeps a URL served by files[to] (to < 0: no file serves it):
// not when there is no file, nor when the file is noindex for every crawler, nor when it is an
// error page (which has no robots tag, but is never a page to index: jekyll-sitemap lists a
// 404.html with permalink: /404). A file the step could not decide is kept.
func (ps *pass) indexable(to int) bool {
	if to < 0 {
		return false
	}
	v := ps.files[to].Verdict()
	return v == nil || !v.Noindex("robots") && v.Class != rules.ErrorPage
}

// whyNotIndexable says why a URL served by files[to] is not indexable: "has no file in public",
// "is an error page (error_pages: /404.html)" or "is noindex (front matter robots at
// content/a.md:3)".
func (ps *pass) whyNotIndexable(to int) string {
	if to < 0 {
		return "has no file in " + ps.out.name
	}
	f := &ps.files[to]
	if v := f.Verdict(); v != nil && v.Class == rules.ErrorPage {
		return "is an error page (error_pages: " + ps.p.ErrorPage(f.URL()) + ")"
	}
	return "is noindex (" + ps.p.NoindexSource(f, "robots").String() + ")"
}

// notIndexableAt is the other side of a sitemap entry for a URL served by files[to] that is
// noindex: where the noindex comes from; none for a URL with no file or an error page.
func (ps *pass) notIndexableAt(to int) []problem.Related {
	if to < 0 {
		return nil
	}
	f := &ps.files[to]
	if v := f.Verdict(); v != nil && v.Class == rules.ErrorPage {
		return nil
	}
	return []problem.Related{ps.noindexAt(ps.p.NoindexSource(f, "robots"), f)}
}

// sitemapDisallowed reports a sitemap entry that robots.txt keeps every crawler from (finding 2);
// crawl is its path as plan.URLs.Loc gives it.
func (ps *pass) sitemapDisallowed(m *model, fs *findings, name string, ref sitemap.Ref, crawl string) {
	r := m.robots.disallowedForAll(crawl)
	if r == nil {
		return
	}
	disallow := problem.Related{Position: problem.Position{File: m.robots.name, Line: r.Num}, Msg: r.Key + ": " + r.Value + " disallows it for every crawler"}
	fs.add(problem.SitemapListsDisallowed, fmt.Sprintf("%s:%d", name, ref.Line), problem.Position{File: name, Line: ref.Line}, []problem.Related{disallow},
		"sitemap lists %s, which robots.txt disallows for every crawler (%s:%d: %s: %s): a sitemap asks crawlers for what robots.txt forbids them",
		ref.URL, m.robots.name, r.Num, r.Key, r.Value)
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
