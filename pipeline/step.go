package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
)

// worker is one of the goroutines that run the step, with the buffers it reuses from page to page:
// a run holds a fixed number of them, so memory does not grow with the site's bytes.
type worker struct {
	in     []byte       // the page being processed
	out    bytes.Buffer // the page rewritten, when it changes
	proc   rewrite.Processor
	inputs []rules.Input
	links  []resolved // the page's canonical and hreflang links to URLs of the site
}

// outcome is what the step found beyond the file's record: what explain shows, and what a failed
// file reports.
type outcome struct {
	from     *pageInfo      // the page the file takes its decision from, nil for none
	decision rules.Decision // every value with its source (only when asked for: explain)
	matches  []rules.Matched
	warnings []string
	err      error
	// page is, with full, the page's links and <base> as written (explain shows every link, those
	// to other sites too); nil for a file that is not an HTML document.
	page *rewrite.Page
}

// step is the one per-file step of every command: scan the page once, decide it, apply the
// decision. It fills in f's record (verdict, flags). For a page that changes, build writes the new
// content (writeFile: to a temporary file beside it, put in place by commit) and check only notes
// the change. A non-HTML file, and a link to another file of the output, is decided by its path and
// source page alone: it is never opened. With full, the outcome also holds the decision with every
// value's source.
func (j *job) step(w *worker, f *record, full bool) (o outcome) {
	o.from = j.pageOf(f)
	var (
		kinds []string
		lang  string
		src   *source
	)
	if o.from != nil {
		kl := j.kindLangs[o.from.kl]
		kinds, lang, src = kl.kinds, kl.lang, o.from.src
	}
	// The third source, ai.meta's noai, is for HTML pages alone: cs[:2] decides files.
	cs := []*rules.Compiled{nil, j.env, j.aiMeta}
	if src != nil {
		cs[0] = src.inputs
		src.used.Store(true)
	}
	// What the file is decided as; a page adds the tags it carries.
	file := rules.Item{Path: f.url(), Kinds: kinds, Lang: lang, Compiled: cs[:2], Asset: true}
	if !f.html() || f.link() {
		o.decide(j, f, file, full)
		return o
	}
	name := j.outName(f.rel())
	var (
		fi  fs.FileInfo
		err error
	)
	w.in, fi, err = j.readFile(f.rel(), w.in)
	if err != nil {
		o.err = err
		return o
	}
	// Scan, decide, splice: the page is scanned once, and its decision applied to what the scan found.
	pg, err := w.proc.Scan(w.in, func(meta string) bool { return j.res.IsAgent(meta, cs...) })
	if err != nil {
		o.err = fmt.Errorf("%s: %w", name, err)
		return o
	}
	if !pg.HTML {
		// Not an HTML document (a `layout: null` fragment): it cannot carry a tag, so it is
		// decided as a file, and its decision goes to _headers as X-Robots-Tag.
		f.flags |= isSkipped
		o.decide(j, f, file, full)
		return o
	}
	w.links = j.pageLinks(w.links[:0], f, pg)
	f.tagLine = 0
	if !j.cfg.ReplaceExisting() {
		f.tagLine = noindexTagLine(pg.Tags)
	}
	if full {
		o.page = &rewrite.Page{Links: pg.Links, Base: pg.Base, Redirect: pg.Redirect}
	}
	it := file
	it.Compiled, it.Asset, it.Inputs, it.Redirect = cs, false, w.pageInputs(j, name, pg), pg.Redirect
	if !o.decide(j, f, it, full) {
		return o
	}
	changed, err := w.proc.Splice(&w.out, f.verdict.Directives)
	if err != nil {
		o.err = fmt.Errorf("%s: %w", name, err)
		return o
	}
	if len(w.links) > 0 {
		f.links, f.nlinks = j.linkTab.add(w.links)
	}
	switch {
	case !changed:
		return o
	}
	f.flags |= isChanged
	if src.err() != nil {
		// A malformed value of its source fails the run (SPEC: fail closed): the page is not
		// written. A build fails whole; watch mode writes the batch's other files.
		return o
	}
	o.err = j.writeFile(f.rel(), fi, w.out.Bytes())
	return o
}

// decide records the verdict of it in f (and, with full, the whole decision in o), and reports whether
// the file may be rewritten: not when one of its values is malformed.
func (o *outcome) decide(j *job, f *record, it rules.Item, full bool) bool {
	v, ws, err := j.memo.Verdict(it)
	for _, w := range ws {
		o.warnings = append(o.warnings, w.String())
	}
	f.verdict, o.err = v, err
	if full {
		o.decision, _, _ = j.res.Decide(it)
		o.matches = j.res.Matching(it)
	}
	return err == nil
}

// noindexTagLine is the line of the first of a page's robots tags that says noindex (or none),
// 0 when none does.
func noindexTagLine(tags []rewrite.Found) int32 {
	for _, t := range tags {
		for v := range strings.SplitSeq(t.Content, ",") {
			v = strings.ToLower(strings.TrimSpace(v))
			if v == "noindex" || v == "none" {
				return int32(t.Line)
			}
		}
	}
	return 0
}

// pageInputs are the robots tags the page already carries, as inputs (unless `existing: replace`).
func (w *worker) pageInputs(j *job, file string, pg rewrite.Page) []rules.Input {
	w.inputs = w.inputs[:0]
	if j.cfg.ReplaceExisting() || len(pg.Tags) == 0 {
		return nil
	}
	for _, t := range pg.Tags {
		w.inputs = append(w.inputs, rules.Input{Agent: t.Name, Value: t.Content, Source: rules.Source{
			Kind: rules.FromPage, File: file, Line: t.Line, Key: t.Name,
		}})
	}
	return w.inputs
}

// batch is what processing a set of files gathered besides their records, in file order.
type batch struct {
	mu    sync.Mutex
	errs  []indexed[error]
	warns []indexed[string]
}

type indexed[T any] struct {
	i int
	v T
}

func (b *batch) add(i int, o *outcome) {
	if o.err == nil && len(o.warnings) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if o.err != nil {
		b.errs = append(b.errs, indexed[error]{i, o.err})
	}
	for _, w := range o.warnings {
		b.warns = append(b.warns, indexed[string]{i, w})
	}
}

func (b *batch) errors() []error    { return inFileOrder(b.errs) }
func (b *batch) warnings() []string { return inFileOrder(b.warns) }

func inFileOrder[T any](xs []indexed[T]) []T {
	slices.SortStableFunc(xs, func(x, y indexed[T]) int { return cmp.Compare(x.i, y.i) })
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = x.v
	}
	return out
}

// workers is how many files are processed at once.
func (j *job) workers() int {
	if j.opt.Workers > 0 {
		return j.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// process runs the step over files on a fixed number of workers. Any subset of a site's files can
// be given: each file's record is filled in place. On cancellation the files not yet started are
// left as they are.
func (j *job) process(ctx context.Context, files []record) *batch {
	b := &batch{}
	workers := j.workers()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		next = make(chan int, workers)
	)
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w worker
			for i := range next {
				if ctx.Err() != nil {
					continue // stopped: the files queued are left as they are
				}
				o := j.step(&w, &files[i], false)
				b.add(i, &o)
				if j.opt.Progress != nil {
					mu.Lock()
					done++
					j.opt.Progress(done, len(files))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return b
}
