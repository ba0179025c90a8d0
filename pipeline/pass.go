package pipeline

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"runtime"
	"slices"
	"sync"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
)

// pass is one application of a plan to the output's files, in a folder held open: the files as
// listed (sorted by path), each with its record, which a link or a sitemap's <loc> names by its
// index, and the links of the pages among them. The per-file step (process) fills in the records;
// the site-level steps (siteSteps) read them. Build, check and explain make one; watch mode one
// for each batch, over the records it keeps.
type pass struct {
	p     *plan.Plan
	out   *output
	files []plan.Record
	links *plan.Links
	// workers is how many files are processed at once, progress is called as they are
	// (Options.Workers, Options.Progress).
	workers  int
	progress func(phase Phase, done, total int)
	// rec, when set, keeps what the indexability record needs of each file as the step decides
	// it (Options.Record); model is the site-level steps' model, for it.
	rec   *recorder
	model *model
	// memo, in watch mode, is what the session keeps of the sitemaps between batches
	// (sitemapMemo).
	memo *sitemapMemo
	// crawlPaths, in watch mode, are the crawl paths of the files' URLs (crawlPaths).
	crawlPaths *crawlPaths
}

// batch is what processing a set of files gathered besides their records, in file order.
type batch struct {
	mu    sync.Mutex
	errs  []indexed[error]
	warns []indexed[problem.Problem]
}

type indexed[T any] struct {
	i int
	v T
}

func (b *batch) add(i int, err error, warnings []problem.Problem) {
	if err == nil && len(warnings) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.errs = append(b.errs, indexed[error]{i, err})
	}
	for _, w := range warnings {
		b.warns = append(b.warns, indexed[problem.Problem]{i, w})
	}
}

func (b *batch) errors() []error             { return inFileOrder(b.errs) }
func (b *batch) warnings() []problem.Problem { return inFileOrder(b.warns) }

func inFileOrder[T any](xs []indexed[T]) []T {
	slices.SortStableFunc(xs, func(x, y indexed[T]) int { return cmp.Compare(x.i, y.i) })
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = x.v
	}
	return out
}

// worker is one of the goroutines that run the step, with the buffers it reuses from page to page:
// a run holds a fixed number of them, so memory does not grow with the site's bytes.
type worker struct {
	in []byte // the page being processed
	a  plan.Applier
}

// step is the one per-file step of every command, around the plan's (plan.Applier.Apply): read the
// page, apply the plan to it, keep its links, and write what changed. For a page that changes,
// build writes the new content (writeFile: to a temporary file beside it, put in place by commit)
// and check only notes the change. A file the plan decides by its path alone is never opened.
func (ps *pass) step(w *worker, f *plan.Record, explain bool) (plan.Result, error) {
	var fi fs.FileInfo
	if f.Opened() {
		var err error
		if w.in, fi, err = ps.out.readFile(f.Rel(), w.in); err != nil {
			return plan.Result{}, err
		}
	}
	var r plan.Result
	if explain {
		r = w.a.Explain(ps.p, f, w.in, ps.files)
	} else {
		r = w.a.Apply(ps.p, f, w.in, ps.files)
	}
	ps.links.Keep(f, &r)
	if r.Err != nil || r.Out == nil {
		return r, r.Err
	}
	return r, ps.out.writeFile(f.Rel(), fi, r.Out)
}

// process runs the step over files on a fixed number of workers. Any subset of a site's files can
// be given (watch mode: the files a batch affects), each file's record filled in place; the links
// of its pages name files of ps.files. On cancellation the files not yet started are left as they
// are.
func (ps *pass) process(ctx context.Context, files []plan.Record) *batch {
	b := &batch{}
	workers := ps.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		next = make(chan int, workers)
	)
	if ps.progress != nil {
		ps.progress(ProcessingPages, 0, len(files))
	}
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w worker
			w.a.Record = ps.rec != nil
			for i := range next {
				if ctx.Err() != nil {
					continue // stopped: the files queued are left as they are
				}
				r, err := ps.step(&w, &files[i], false)
				b.add(i, err, r.Warnings)
				if ps.rec != nil {
					ps.rec.keep(i, files[i].URL(), ps.out.outName(files[i].Rel()), &r)
				}
				if ps.progress != nil {
					mu.Lock()
					done++
					ps.progress(ProcessingPages, done, len(files))
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

// siteSteps are the steps that look at the whole site once every file is decided: _headers,
// robots.txt (and its refusal of a Disallow that would hide a noindex), and the indexability model
// (sitemaps pruned, SPEC §7's findings); ok says that the files' own steps found no error, without
// which only robots.txt's checks run. Run and watch mode (Live, after a batch that changed a
// decision, the set of files or one of the files these steps read) both call them through here,
// so that a step added here runs in both. It returns the files of the output the steps read
// (slash paths relative to the output folder): a change to one of them is a reason to run them
// again.
func (ps *pass) siteSteps(rep *Report, ok bool) (read []string, err error) {
	var errs []error
	read = append(read, "_headers", ps.out.robots.rel)
	if ok {
		if err := ps.headers(rep); err != nil {
			errs, ok = append(errs, err), false
		}
	}
	if err := ps.robotsTxtStep(rep, ok); err != nil {
		errs, ok = append(errs, err), false
	}
	if ok {
		m, err := ps.indexability(rep)
		if err != nil {
			errs = append(errs, err)
		} else {
			ps.model = m
			read = append(read, m.sitemaps...)
			read = append(read, m.llms...)
		}
	}
	return read, errors.Join(errs...)
}

// fileIndex is the index in ps.files of the output file rel (slash path relative to the output
// folder), or -1.
func (ps *pass) fileIndex(rel string) int { return plan.Index(ps.files, rel) }

// fileOf is the index in ps.files of the file that serves the site's URL path p, or -1.
func (ps *pass) fileOf(p string) int { return plan.Serving(ps.files, p) }
