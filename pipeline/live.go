package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/watch"
)

// Live is `robotsmith watch`'s build (SPEC §8): it keeps an output folder in step with its sources
// while a generator rewrites it and an author edits. Build makes a first pass over every file, as
// `robotsmith build` does; Apply then takes each batch of changes the watcher (package watch)
// delivers and puts through the same per-file step only the files the batch affects:
//
//   - an output file the generator wrote: that file alone;
//   - a source (front matter, cascade, Jekyll's collections): a new plan is made from the last one
//     and the sources the batch names (plan.Plan.Remap: those are read again, the others'
//     readings kept), and only the output files the new plan decides otherwise are processed
//     (plan.Plan.Changed: a file whose page, or whose page's directives, changed; a cascade
//     reaches every page below it; a new alias or pager page changes which page a file belongs
//     to);
//   - robotsmith's configuration or the generator's: a new plan is read whole and every file
//     processed, and the files whose decision changed are written;
//   - lost events: a full pass, as Build.
//
// The site-level steps (siteSteps: _headers, robots.txt, the sitemaps pruned and SPEC §7's
// findings, as build runs them) run again whenever a file comes or goes, a decision they read
// changes, or a file they read or wrote changes or is removed (the generator writes its sitemap
// again on every change; Jekyll's cleaner removes every file it did not write). A sitemap is
// pruned again from what the session kept of it (sitemapMemo) while its file holds what was last
// read or written there, and each URL's crawl path is kept (crawlPaths).
//
// Usage:
//
//	own := watch.NewOwn()
//	l, err := pipeline.NewLive(ctx, pipeline.Options{Root: "my-site"}, own)
//	if err != nil {
//		return err
//	}
//	roots, skip := l.Watch()
//	w, err := watch.New(watch.Options{Roots: roots, Skip: skip, Own: own})
//	...
//	fmt.Println(l.Build(ctx).Line())
//	for {
//		b, err := w.Next(ctx)
//		if err != nil {
//			return err
//		}
//		fmt.Println(l.Apply(ctx, b).Line())
//	}
//
// Every batch is one internal/safefs transaction, as a build is: it opens the output folder (and
// first finishes or undoes a transaction a killed robotsmith left), writes every changed file
// through writeFile to a temporary file beside it, and puts them all in place at once, or none; so
// a watch killed at any moment leaves no file half-written, and the next command recovers. If the
// generator rewrites a file between robotsmith's read and the commit, the commit puts nothing in
// place and the batch goes again once the generator is quiet (Update.Retry). What each write put
// in its file is recorded in own by content, so the watcher drops the events of robotsmith's own
// writes. A problem (a broken front matter, a misspelt value, a broken
// configuration) is reported in the Update with its file and line, and the files it touches are
// left as the generator wrote them; the rest of the batch goes on, the last plan made without
// error is kept, and the edit that fixes it brings everything back in step. A problem in a file
// the site-level steps read (an unclosed robotsmith block in _headers or robots.txt) stops the
// whole batch, as it stops a build: its files wait for the next change.
//
// A Live is used from one goroutine.
type Live struct {
	opt   Options
	own   *watch.Own
	plan  *plan.Plan    // the configuration and the sources as last read without error
	where place         // the output folder, as last found
	files []plan.Record // the output's files, sorted by path, each with its last decision
	links liveLinks     // the records' links
	ready bool          // a full pass has been made: files and plan are the output's
	roots []liveRoot
	cwd   string // the working folder, that changes are named relative to

	wait      backlog         // what is still to do: files and site steps to retry, or pending
	siteFiles map[string]bool // output files (slash paths) the site steps read or wrote
	warned    map[string]bool // warnings and findings already reported: each once a session
	sitemaps  *sitemapMemo    // the sitemaps as last read, to prune them again
	crawl     crawlPaths      // the crawl paths of the files' URLs

	// afterStep, when set, is called once the step has run, before its writes are checked and put
	// in place (tests: the generator writing meanwhile).
	afterStep func()
}

// liveLinks is the session's link table, which the records keep across batches and plans. A link
// names the file it points at by its index in the list of files, and a file that came or went
// moves every index after it: the table is then built anew (plan.Links.Relink).
type liveLinks struct {
	table *plan.Links
	// linked are the record paths of files as they were when the records' links were resolved;
	// n is how many links there were then.
	linked []string
	n      int
	moved  bool // files came or went since: the links must be resolved again
}

// What a watched root is to Live.
type rootKind uint8

const (
	outputRoot  rootKind = iota // the output folder
	contentRoot                 // the content folder (Jekyll: the site folder)
	configRoot                  // robotsmith's configuration or the generator's
)

type liveRoot struct {
	path string // absolute
	kind rootKind
}

// NewLive reads the configuration and the site's layout (not yet the output, which the generator
// may still have to write). Write and RunCommand are ignored: watch mode writes, and the
// generator runs in its own watch mode (or not at all).
func NewLive(ctx context.Context, opt Options, own *watch.Own) (*Live, error) {
	opt.Write, opt.RunCommand = true, false
	p, err := plan.Open(opt.plan())
	if err != nil {
		return nil, err
	}
	l := &Live{
		opt:       opt,
		own:       own,
		plan:      p,
		where:     placeOf(p),
		links:     liveLinks{table: plan.NewLinks()},
		wait:      newBacklog(),
		siteFiles: map[string]bool{},
		warned:    map[string]bool{},
		sitemaps:  newSitemapMemo(),
	}
	l.cwd, _ = os.Getwd()
	l.roots = rootsOf(p, l.where)
	return l, nil
}

// Output is the output folder.
func (l *Live) Output() string { return l.plan.Site().Output }

// Generator is the site's generator: site.Hugo, site.Jekyll or site.None.
func (l *Live) Generator() string { return l.plan.Site().Generator }

// Format is the format of the _headers robotsmith writes, the host's (watch --serve serves the
// output as that host does).
func (l *Live) Format() headers.Format { return l.plan.Format() }

// Watch says what to watch (watch.Options.Roots and Skip): the output folder, robotsmith's
// configuration (or the names it would have, so that one created later is seen), and every file
// and folder the site's map reads (rootsOf). They change with the configuration (Update.Roots).
// Skip leaves out the folders that Jekyll keeps in the site folder for itself.
func (l *Live) Watch() (roots []string, skip func(path string, dir bool) bool) {
	for _, r := range l.roots {
		roots = append(roots, r.path)
	}
	if l.plan.Site().Generator != site.Jekyll {
		return roots, nil
	}
	out := absPath(l.where.dir)
	return roots, func(p string, dir bool) bool {
		if within(out, p) {
			return false // the output's own files are all the site's
		}
		switch filepath.Base(p) {
		case ".jekyll-cache", ".jekyll-metadata", ".sass-cache", ".bundle", "node_modules", "vendor":
			return true
		}
		return false
	}
}

// rootsOf is what to watch for the plan p, its output folder at pl: the output folder,
// robotsmith's configuration (or the names it would have, so that one created later is seen), and
// every file and folder the site's map reads (site.Site.Sources: each language's content folder,
// the content that modules and themes mount, Jekyll's collections, the generator's configuration
// files and folders, go.mod), never a list of its own. A content or collection folder is a source
// (its changes are mapped again); the rest is configuration (a new plan). A configuration file in
// a configuration folder watched whole is left to the folder. A source not on disk yet whose
// folder is not either (config/_default without config/) is watched as the first folder missing on
// its way, since a watcher needs the parent folder of what it watches, and sees what is made in it.
func rootsOf(p *plan.Plan, pl place) []liveRoot {
	var rs []liveRoot
	add := func(path string, k rootKind) {
		path = absPath(path)
		if !slices.ContainsFunc(rs, func(r liveRoot) bool { return r.path == path }) {
			rs = append(rs, liveRoot{path, k})
		}
	}
	opt, cfg := p.Options(), p.Config()
	add(pl.dir, outputRoot)
	switch {
	case cfg.File != "":
		add(cfg.File, configRoot)
	case opt.Config == "":
		for _, n := range config.Names() {
			add(filepath.Join(opt.Root, n), configRoot)
		}
	}
	srcs := p.Site().Sources()
	for _, src := range srcs {
		k := configRoot
		if src.Kind == site.SourceContent || src.Kind == site.SourceCollection {
			k = contentRoot
		}
		path := absPath(src.Path)
		if !src.Dir && slices.ContainsFunc(srcs, func(d site.Source) bool {
			return d.Dir && d.Kind == site.SourceConfigDir && within(absPath(d.Path), path)
		}) {
			continue
		}
		add(firstMissing(path), k)
	}
	return rs
}

// firstMissing is p, or when p's parent folder is not there, the first folder missing on the way
// to p.
func firstMissing(p string) string {
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		if _, err := os.Stat(parent); !errors.Is(err, fs.ErrNotExist) {
			return p
		}
		p = parent
	}
}

// Build is the first pass: every file of the output goes through the step, as `robotsmith build`
// (but a problem stops only the files it touches). While it has not succeeded (no output folder
// yet, a source that cannot be read), Apply tries it again on every batch.
func (l *Live) Build(ctx context.Context) *Update {
	start := time.Now()
	u := &Update{}
	l.full(ctx, u, FirstPass, l.plan, l.where, true)
	l.finish(u)
	u.Took = time.Since(start)
	return u
}

// Apply brings the output in step with one batch of changes.
func (l *Live) Apply(ctx context.Context, b watch.Batch) *Update {
	start := time.Now()
	u := &Update{}
	defer func() {
		l.finish(u)
		u.Took = time.Since(start)
	}()
	for _, c := range b.Changes {
		u.Changes = append(u.Changes, l.show(c))
	}
	for _, e := range b.Errs {
		u.Warnings = append(u.Warnings, watchWarning(e))
	}
	configs, sources, outs := l.sortChanges(u, b)
	if configs {
		p, pl, err := l.reopen(ctx, u)
		if err == nil {
			// The output is listed again when files came or went in the same batch: the pass
			// covers the files it knows, and the generator's new pages (a language added) would
			// otherwise wait for their next write.
			walk := !l.ready || absPath(pl.dir) != absPath(l.where.dir) || b.Lost ||
				slices.ContainsFunc(outs, func(c watch.Change) bool { return c.Op&(watch.Create|watch.Remove) != 0 })
			l.full(ctx, u, "configuration changed", p, pl, walk)
			return u
		}
		// The last plan goes on serving the rest of the batch.
		u.Errs = append(u.Errs, err)
	}
	switch {
	case !l.ready:
		l.full(ctx, u, FirstPass, l.plan, l.where, true)
	case b.Lost:
		l.full(ctx, u, "events lost", l.plan, l.where, true)
	default:
		l.partial(ctx, u, sources, outs)
	}
	return u
}

// partial is a pass over the files that the changes of a batch affect, with the current plan, or a
// new one made from it and the sources changed (remap): the output files those sources decide
// otherwise, the output files changed (outs), and those waiting (backlog); and the site steps when
// they may have changed.
func (l *Live) partial(ctx context.Context, u *Update, sources []string, outs []watch.Change) {
	todo := map[string]bool{}
	siteDirty := l.wait.waiting()
	if len(sources) > 0 {
		for _, p := range l.remap(ctx, u, sources) {
			todo[p] = true
		}
	}
	out, ok := l.open(ctx, u, l.plan, &l.where)
	if !ok {
		// The files wait for the next batch.
		for p := range todo {
			l.wait.later(p, false)
		}
		return
	}
	defer l.close(u, out)
	l.wait.take(todo)
	for _, c := range outs {
		if l.output(u, out, c, todo) {
			siteDirty = true
		}
	}
	// A file to do that is no longer there (a retry of a file removed since) is dropped.
	for p := range todo {
		if _, err := out.root.Lstat(p[1:]); errors.Is(err, fs.ErrNotExist) {
			if i, ok := l.find(p); ok {
				l.drop(u, i)
				siteDirty = true
			}
			delete(todo, p)
		}
	}
	var idx []int
	for p := range todo {
		if i, ok := l.find(p); ok {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	if len(idx) > 0 || siteDirty {
		l.run(ctx, u, l.pass(out), idx, siteDirty, true, nil)
	}
}

// sortChanges sorts a batch's changes by what they changed: robotsmith's configuration or the
// generator's, the sources (paths in the content folder, to read again), the output's files.
func (l *Live) sortChanges(u *Update, b watch.Batch) (configs bool, sources []string, outs []watch.Change) {
	s := l.plan.Site()
	for _, c := range b.Changes {
		if c.Root < 0 || c.Root >= len(l.roots) {
			continue
		}
		switch l.roots[c.Root].kind {
		case configRoot:
			configs = true
			if s.Generator == site.Jekyll && slices.ContainsFunc(s.ConfigFiles, func(f string) bool { return absPath(f) == c.Path }) {
				u.Notes = append(u.Notes, "jekyll does not rebuild when "+filepath.Base(c.Path)+" changes: restart it for the rest of the change to show (robotsmith has read it)")
			}
		case contentRoot:
			sources = append(sources, c.Path)
		case outputRoot:
			outs = append(outs, c)
		}
	}
	return configs, sources, outs
}

// pass is a pass of the current plan over the output's files, in the folder out holds for the
// batch.
func (l *Live) pass(out *output) *pass {
	clear(l.sitemaps.pending) // a batch that was not put in place wrote nothing
	l.crawl.reset(l.plan.URLs(), len(l.files))
	return &pass{p: l.plan, out: out, files: l.files, links: l.links.table, workers: l.opt.Workers, progress: l.opt.Progress,
		memo: l.sitemaps, crawlPaths: &l.crawl}
}

// crawlPaths keeps the path a crawler asks robots.txt about for each URL of the output's files
// that the site steps looked up (pass.fileCrawlPath: SPEC §7's first finding, §9's refusal), from
// one batch to the next: it depends on the URL and the site's base URL alone, and parsing the URLs
// again is most of the time those steps take on a large site.
type crawlPaths struct {
	base  string            // the base URL the paths are of
	paths map[string]string // by URL path (plan.Record.URL)
}

// reset forgets the paths when the base URL is not the one they were found with (a new
// configuration), and those of files gone when there are many more than n, the output's files.
func (c *crawlPaths) reset(urls plan.URLs, n int) {
	base := urls.Base().Href(false)
	if c.paths == nil || base != c.base || len(c.paths) > 2*n+1024 {
		c.base, c.paths = base, map[string]string{}
	}
}

// path is the crawl path of the URL path u, under the base URL urls (the one of the last reset).
func (c *crawlPaths) path(urls plan.URLs, u string) string {
	p, ok := c.paths[u]
	if !ok {
		p = crawlPathOf(urls, u)
		c.paths[u] = p
	}
	return p
}

// open opens the output folder at *pl for one batch with the plan p (openOutput: the folder, the
// batch's transaction, robots.txt as it is now), with the stamps of the batch's writes; pl is
// found again while it was not (place.check). It reports whether it could; the caller closes the
// output (Live.close) once done. While the output folder is not there, the next batch makes a
// first pass again.
func (l *Live) open(ctx context.Context, u *Update, p *plan.Plan, pl *place) (*output, bool) {
	var (
		out *output
		err error
	)
	if *pl, err = pl.check(p, false); err == nil {
		out, err = openOutput(ctx, p, *pl, true)
		// What opening found (a killed run's transaction undone, robots.txt not a file) is this
		// batch's to say, once.
		l.warn(u, out.warnings...)
	}
	if err != nil {
		u.Errs = append(u.Errs, err)
		if errors.Is(err, ErrNoOutput) {
			l.ready = false
		}
		return nil, false
	}
	out.own = &ownWrites{own: l.own, stamps: map[string]watch.Stamp{}}
	return out, true
}

// close closes the output after a batch (output.close): an undo that could not finish is the
// batch's error.
func (l *Live) close(u *Update, out *output) {
	if err := out.close(); err != nil {
		u.Errs = append(u.Errs, err)
	}
}

// finish counts the tries and gives up files that keep changing (backlog.finish).
func (l *Live) finish(u *Update) {
	var err error
	u.Retry, err = l.wait.finish(func(p string) string { return l.plan.OutName(p[1:]) })
	if err != nil {
		u.Errs = append(u.Errs, err)
	}
}

// reopen reads the configuration, the site's layout and its sources again: a new plan, with its
// output folder.
func (l *Live) reopen(ctx context.Context, u *Update) (*plan.Plan, place, error) {
	p, err := plan.Open(l.opt.plan())
	if err != nil {
		return nil, place{}, err
	}
	pl := placeOf(p)
	p, ws, err := p.Remap(ctx, nil) // a new site: every source is read
	l.warn(u, ws...)
	return p, pl, err
}

// full is a pass over every file with the plan p, which becomes the current one, with its output
// folder at pl, if it can read the output. With walk the output is listed again, and the sources
// are read again (unless p is a new plan, read whole); what was decided of the files still there
// is kept, so that a change of indexability is named.
func (l *Live) full(ctx context.Context, u *Update, why string, p *plan.Plan, pl place, walk bool) {
	u.Full, u.Why = true, why
	if walk {
		var err error
		if pl, err = pl.check(p, false); err != nil {
			u.Errs = append(u.Errs, err)
			return
		}
		if !l.ready || p == l.plan {
			// Events were lost, or nothing was read yet: every source is read again.
			np, ws, err := p.Remap(ctx, []string{p.Site().Root})
			l.warn(u, ws...)
			if err != nil {
				u.Errs = append(u.Errs, err)
				return
			}
			p = np
		}
	}
	out, ok := l.open(ctx, u, p, &pl)
	if !ok {
		return
	}
	defer l.close(u, out)
	files := l.files
	if walk {
		var (
			warnings []problem.Problem
			err      error
		)
		if files, warnings, err = out.walk(ctx); err != nil {
			u.Errs = append(u.Errs, err)
			return
		}
		l.warn(u, warnings...)
		for i := range files {
			if k, ok := l.find(files[i].Path()); ok {
				files[i] = l.files[k]
			}
		}
		l.links.moved = true
	}
	p.Locate(files)
	if roots := rootsOf(p, pl); !slices.Equal(roots, l.roots) {
		l.roots, u.Roots = roots, true
	}
	flips := l.ready
	l.plan, l.where, l.files, l.ready = p, pl, files, true
	l.wait.clear()
	l.warn(u, p.Warnings()...)
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	rep := newReport(p, out)
	l.run(ctx, u, l.pass(out), idx, true, flips, rep)
	for i := range l.files {
		rep.count(&l.files[i])
	}
	rep.listChanged(l.files)
	rep.sources(p, p.Outputs(), l.files)
	rep.Warnings = append(rep.Warnings, u.Warnings...)
	rep.Wrote = len(u.Wrote) > 0
	u.Report = rep
}

// remap makes a new plan from the last one and the sources again (plan.Plan.Remap), and returns
// the output files (record paths) the new plan may decide otherwise (plan.Plan.Changed). changed
// are the paths in the content folder that the batch names. While a source cannot be read, the
// last plan is kept (and the problem reported).
//
// The site is mapped again (site.Remap), to the same Map as a first mapping, but only the sources
// the batch names (and new ones) are read: what reading the others produced was kept, and the
// watcher reports every write. The folders that changed are listed again (new and removed
// sources), and the generator's mapping (cascades, Jekyll defaults, permalinks, aliases, pagers,
// bundles) is done again over the readings where it may have changed, so that an edit reaches
// every page it can without an index from each source to what it reaches, which would have to
// redo that mapping outside of site. Only the files whose decision may have changed are put
// through the step.
func (l *Live) remap(ctx context.Context, u *Update, changed []string) []string {
	p, ws, err := l.plan.Remap(ctx, changed)
	l.warn(u, ws...)
	if err != nil {
		u.Errs = append(u.Errs, err)
		return nil
	}
	todo := p.Changed(l.plan, l.files)
	p.Locate(l.files)
	l.plan = p
	return todo
}

// output takes one change of the output folder, held open by out, into the records: a file that
// came is added, one that went is dropped, one that is there is to be processed (todo). It reports
// whether the site steps must run again.
func (l *Live) output(u *Update, out *output, c watch.Change, todo map[string]bool) (siteDirty bool) {
	rel := c.Rel
	fi, err := out.root.Lstat(rel)
	if err != nil {
		// Gone: the file, or a folder with everything in it (a folder moved away is reported
		// once, not file by file).
		if rel == "." {
			siteDirty = l.dropUnder(u, "") || siteDirty
		} else {
			if i, ok := l.find("/" + rel); ok {
				l.drop(u, i)
				siteDirty = true
			}
			siteDirty = l.dropUnder(u, rel) || siteDirty
		}
		return siteDirty || l.siteFiles[rel]
	}
	if fi.IsDir() {
		if c.Op&watch.Remove != 0 {
			// Replaced by another folder: what was under the old one may not be under the new.
			siteDirty = l.dropGone(u, out, rel)
		}
		return siteDirty // the files in a new folder come as changes of their own
	}
	siteDirty = l.siteFiles[rel]
	p := "/" + rel
	link, warning, ok := out.listed(rel, fs.FileInfoToDirEntry(fi))
	if warning != nil {
		l.warn(u, *warning)
	}
	i, found := l.find(p)
	switch {
	case !ok && found:
		// No longer one of the site's files (a file replaced by a FIFO, a link out of the output).
		l.drop(u, i)
		return true
	case !ok:
		return siteDirty
	case !found:
		l.files = slices.Insert(l.files, i, plan.NewRecord(p, link))
		l.plan.Locate(l.files[i : i+1])
		l.links.moved = true
		siteDirty = true
	default:
		l.files[i].SetLink(link)
	}
	todo[p] = true
	return siteDirty
}

// run puts the files at idx (indices into l.files, in order) through the step, in the pass ps and
// its batch's one transaction, and keeps what it decided of those the batch did not fail; when
// siteDirty or a decision the site steps read changed, it runs the site steps (into rep, when
// given); then it puts what changed in place. With flips, changes of indexability are named in u.
func (l *Live) run(ctx context.Context, u *Update, ps *pass, idx []int, siteDirty, flips bool, rep *Report) {
	if l.links.moved || l.links.table.Len() > 4*l.links.n+4096 {
		l.relink()
		ps.links = l.links.table
	}
	subset := make([]plan.Record, len(idx))
	before := make([]fs.FileInfo, len(idx))
	for k, i := range idx {
		subset[k] = l.files[i].Undecided()
		if subset[k].HTML() {
			before[k], _ = ps.out.root.Lstat(subset[k].Rel())
		}
	}
	b := ps.process(ctx, subset)
	u.Processed += len(subset)
	if l.afterStep != nil {
		l.afterStep()
	}
	if ctx.Err() != nil {
		return // the transaction is undone when the output is closed
	}
	failed := l.failed(u, ps, subset, before, b)
	for k, i := range idx {
		if failed[k] {
			continue
		}
		old, nw := &l.files[i], &subset[k]
		if !sameForSite(old, nw) {
			siteDirty = true
		}
		if flips {
			if f, ok := flipOf(old, nw); ok {
				u.Flips = append(u.Flips, f)
			}
		}
		*old = *nw
	}
	if siteDirty && !l.siteSteps(u, ps, rep, idx, failed) {
		return
	}
	l.commit(ctx, u, ps.out, idx, failed, siteDirty)
}

// failed says which of the files of subset (processed in batch b, before their state when the step
// began) failed, and so keep the generator's content (the step did not write them) and their last
// record, as a failed build leaves every file (fail closed: a misspelt noindex must not publish):
// those whose decision has a problem, and those the generator wrote while they were read, which go
// again once it is quiet.
func (l *Live) failed(u *Update, ps *pass, subset []plan.Record, before []fs.FileInfo, b *batch) []bool {
	failed := make([]bool, len(subset))
	for _, e := range b.errs {
		if errors.Is(e.v, fs.ErrNotExist) {
			// Removed since the event (the generator is writing): its removal comes next.
			l.wait.again(subset[e.i].Path())
			u.Busy++
		} else {
			u.Errs = append(u.Errs, e.v)
		}
		failed[e.i] = true
	}
	reported := map[*plan.Source]bool{}
	for k := range subset {
		s := ps.p.Source(&subset[k])
		l.warn(u, s.Warnings()...)
		if err := s.Err(); err != nil {
			failed[k] = true
			if !reported[s] {
				reported[s] = true
				u.Errs = append(u.Errs, err)
			}
		}
	}
	l.warn(u, b.warnings()...)
	for k := range subset {
		p := subset[k].Path()
		switch {
		case failed[k] || !subset[k].HTML():
		case rewritten(ps.out, before[k], subset[k].Rel()):
			// The generator wrote the page while it was read (Hugo truncates and writes in
			// place): what was read may be torn, and its decision is not kept. Its write, if
			// any, fails the commit, which puts nothing in place. Again once quiet.
			l.wait.again(p)
			u.Busy++
			failed[k] = true
		case l.wait.emptyOnce(p, before[k] != nil && before[k].Size() == 0):
			// Read between the generator's truncation and its write, the page would be taken
			// for a file that is no HTML document, and its last decision lost. Again once quiet.
			u.Busy++
			failed[k] = true
		}
	}
	return failed
}

// siteSteps runs the site steps over the pass (into rep, when given), reports what they found once
// a session, and notes the files they read. A problem in a site-level file stops the batch, as it
// stops a build: the batch's files (idx, those not failed) wait for the next change (the fix of
// that file, say), and it reports false.
func (l *Live) siteSteps(u *Update, ps *pass, rep *Report, idx []int, failed []bool) bool {
	if rep == nil {
		rep = &Report{}
	}
	read, err := ps.siteSteps(rep, true)
	l.warn(u, rep.Warnings...)
	rep.Warnings = nil
	for _, f := range rep.Findings {
		if t := f.Text(); !l.warned[t] {
			l.warned[t] = true
			u.Findings = append(u.Findings, f)
		}
	}
	for _, r := range read {
		l.siteFiles[r] = true
	}
	if err == nil {
		return true
	}
	u.Errs = append(u.Errs, err)
	for k, i := range idx {
		if !failed[k] {
			l.wait.later(l.files[i].Path(), false)
		}
	}
	l.wait.later("", true)
	return false
}

// commit puts the batch's writes in place (output.commit), and tells the watcher what they wrote.
// When the commit puts nothing in place (another process changed a file between robotsmith's read
// and the commit: the generator wrote it again, or removed a temporary file, as Jekyll's cleaner
// does), the batch's files (idx, those not failed), and the site steps when siteDirty, go again
// once the generator is quiet.
func (l *Live) commit(ctx context.Context, u *Update, out *output, idx []int, failed []bool, siteDirty bool) {
	stamps := out.own.stamps
	n := out.tx.Len()
	_, warnings, err := out.commit(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		again := 0
		for k, i := range idx {
			if !failed[k] {
				l.wait.again(l.files[i].Path())
				again++
			}
		}
		if again == 0 && u.Busy == 0 {
			again = n // the site steps' files alone
		}
		u.Busy += again
		l.wait.failed(err, siteDirty)
		return
	}
	l.warn(u, warnings...)
	l.wait.committed()
	l.sitemaps.committed()
	for rel, s := range stamps {
		if l.own != nil {
			l.own.Record(out.outFile(rel), s)
		}
		u.Wrote = append(u.Wrote, rel)
	}
	slices.Sort(u.Wrote)
}

// relink resolves the records' links again (plan.Links.Relink), against the files as they are now.
func (l *Live) relink() {
	l.links.table = l.links.table.Relink(l.files, l.links.linked)
	l.links.linked = l.links.linked[:0]
	for i := range l.files {
		l.links.linked = append(l.links.linked, l.files[i].Path())
	}
	l.links.n = l.links.table.Len()
	l.links.moved = false
}

// rewritten reports whether the output file rel is no longer the one read (before, its state
// then): the generator wrote it, in place or by a rename, since.
func rewritten(out *output, before fs.FileInfo, rel string) bool {
	now, err := out.root.Lstat(rel)
	return before == nil || err != nil || !os.SameFile(before, now) ||
		now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime())
}

// sameForSite reports whether the site steps see a and b, two records of one file, alike: the
// same decision (a verdict is shared by every file decided alike: the same decision is the same
// verdict) and kind. A field they come to read is compared here.
func sameForSite(a, b *plan.Record) bool {
	return a.Verdict() == b.Verdict() && a.HTML() == b.HTML() && a.Skipped() == b.Skipped()
}

// find returns the index of the record with path p, or where it would be.
func (l *Live) find(p string) (int, bool) {
	return slices.BinarySearchFunc(l.files, p, func(r plan.Record, p string) int { return strings.Compare(r.Path(), p) })
}

// drop removes record i, and names a page gone.
func (l *Live) drop(u *Update, i int) {
	f := &l.files[i]
	if from := indexability(f.Verdict()); from != "" && f.HTML() && !f.Skipped() {
		u.Flips = append(u.Flips, Flip{URL: f.URL(), From: from})
	}
	l.wait.forget(f.Path())
	l.files = slices.Delete(l.files, i, i+1)
	l.links.moved = true
	u.Removed++
}

// dropUnder removes the records under the folder rel ("" for all) and reports whether there were
// any.
func (l *Live) dropUnder(u *Update, rel string) bool {
	prefix := "/"
	if rel != "" {
		prefix = "/" + rel + "/"
	}
	i, _ := l.find(prefix)
	n := 0
	for i < len(l.files) && strings.HasPrefix(l.files[i].Path(), prefix) {
		l.drop(u, i)
		n++
	}
	return n > 0
}

// dropGone removes the records under the folder rel whose files are not there (in the folder out
// holds), and reports whether there were any.
func (l *Live) dropGone(u *Update, out *output, rel string) bool {
	prefix := "/" + rel + "/"
	i, _ := l.find(prefix)
	any := false
	for i < len(l.files) && strings.HasPrefix(l.files[i].Path(), prefix) {
		if _, err := out.root.Lstat(l.files[i].Rel()); errors.Is(err, fs.ErrNotExist) {
			l.drop(u, i)
			any = true
			continue
		}
		i++
	}
	return any
}

// warn adds the warnings not yet reported this session.
func (l *Live) warn(u *Update, ws ...problem.Problem) {
	for _, w := range ws {
		if t := w.Text(); !l.warned[t] {
			l.warned[t] = true
			u.Warnings = append(u.Warnings, w)
		}
	}
}

// show names a change for the person watching: relative to the working folder where it is in it.
func (l *Live) show(c watch.Change) string {
	p := c.Path
	if l.cwd != "" {
		if r, err := filepath.Rel(l.cwd, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			p = r
		}
	}
	p = filepath.ToSlash(p)
	if c.Dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// absPath is p made absolute and clean; p as it is if that fails.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or under it (both absolute and clean).
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}
