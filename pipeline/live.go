package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/watch"
)

// Live is `robotsmith watch`'s build (SPEC §8): it keeps an output folder in step with its sources
// while a generator rewrites it and an author edits. Build makes a first pass over every file, as
// `robotsmith build` does; Apply then takes each batch of changes the watcher (package watch)
// delivers and puts through the same per-file step only the files the batch affects:
//
//   - an output file the generator wrote: that file alone;
//   - a source (front matter, cascade, Jekyll's collections): the site is mapped again
//     (site.Remap: the sources the batch names are read again, the others' readings kept) and only
//     the output files whose source page, or that page's directives, changed are processed (a
//     cascade reaches every page below it; a new alias or pager page changes which page a file
//     belongs to);
//   - robotsmith's configuration or the generator's: everything is read again and every file
//     processed, and the files whose decision changed are written;
//   - lost events: a full pass, as Build.
//
// The site-level steps (siteSteps: _headers, robots.txt, the sitemaps pruned and SPEC §7's
// findings, as build runs them) run again whenever a file comes or goes, a decision they read
// changes, or a file they read or wrote changes or is removed (the generator writes its sitemap
// again on every change; Jekyll's cleaner removes every file it did not write).
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
// left as the generator wrote them; the rest of the batch goes on, the previous reading of the
// configuration and the sources is kept, and the edit that fixes it brings everything back in
// step. A problem in a file the site-level steps read (an unclosed robotsmith block in _headers or
// robots.txt) stops the whole batch, as it stops a build: its files wait for the next change.
//
// A Live is used from one goroutine.
type Live struct {
	opt   Options
	own   *watch.Own
	j     *job     // the configuration and the sources as last read without error
	files []record // the output's files, sorted by path, each with its last decision
	ready bool     // a full pass has been made: files and j are the output's
	roots []liveRoot
	cwd   string // the working folder, that changes are named relative to

	retry map[string]bool // record paths to process again once quiet: they changed while read
	// emptied are the pages last read empty, once: a generator that truncates a page before it
	// writes it (Hugo) can be caught in between, so an empty page is read again once quiet, and
	// taken as it is only if it is still empty then.
	emptied   map[string]bool
	siteRetry bool  // the site steps' writes were not put in place: run them again
	tries     int   // updates in a row that asked to be retried
	lastErr   error // why the last commit failed, for the error after maxTries
	// pending are record paths to process with the next batch, and sitePending the site steps:
	// a problem in a site-level file stopped the batch they were in.
	pending     map[string]bool
	sitePending bool
	siteFiles   map[string]bool // output files (slash paths) the site steps read or wrote
	warned      map[string]bool // warnings and findings already reported: each once a session
	// linked are the record paths of files as they were when the records' links were resolved
	// (a link names its target by index, see relink); nlinked is how many links there were then.
	linked  []string
	nlinked int
	moved   bool // files came or went since: the links must be resolved again

	// afterStep, when set, is called once the step has run, before its writes are checked and put
	// in place (tests: the generator writing meanwhile).
	afterStep func()
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

// FirstPass is Update.Why for the first pass over the output.
const FirstPass = "first pass"

// maxTries is how many updates in a row may ask to be retried (the generator wrote a page while
// robotsmith read it) before Live gives those files up with an error: a generator does not write
// the same page for seconds on end.
const maxTries = 10

// Update is what Live did with one batch of changes.
type Update struct {
	// Changes are the batch's paths, relative to the working folder (a folder ends in /).
	Changes []string
	Full    bool   // every file went through the step
	Why     string // for a full pass, why: FirstPass, "configuration changed", "events lost"
	// Roots says the folders and files to watch changed (a new output folder in the
	// configuration): watch Live.Watch's roots from now on.
	Roots     bool
	Processed int      // files put through the step
	Wrote     []string // files written, slash paths relative to the output folder
	Removed   int      // files gone from the output
	Flips     []Flip   // pages whose indexability changed
	Busy      int      // files the generator rewrote while robotsmith read them, or removed before robotsmith could write: left for the next batch
	// Retry asks for Apply to be called again once the folders are quiet, even with no change (an
	// empty Batch): Busy files, or the site steps' files, are waiting.
	Retry bool
	Took  time.Duration
	// Notes are what the author should know that is not a problem.
	Notes    []string
	Warnings []string // new warnings (each is reported once a session)
	Findings []string // new findings of SPEC §7 (each is reported once a session)
	// Errs are the batch's problems, each naming its file and line where it has them. The files a
	// problem touches were left as the generator wrote them; the rest was done.
	Errs []error
	// Report is a full pass's counts, as build reports them; nil otherwise.
	Report *Report
}

// Flip is a page whose indexability changed: it became noindex or public, or it came or went.
type Flip struct {
	URL  string
	From string // "public" or "noindex"; "" for a new page
	To   string // "public" or "noindex"; "" for a page gone
}

func (f Flip) String() string {
	switch {
	case f.From == "":
		return f.URL + " new, " + f.To
	case f.To == "":
		return f.URL + " gone (was " + f.From + ")"
	}
	return f.URL + " " + f.From + " → " + f.To
}

// NewLive reads the configuration and the site's layout (not yet the output, which the generator
// may still have to write). Write and RunCommand are ignored: watch mode writes, and the
// generator runs in its own watch mode (or not at all).
func NewLive(ctx context.Context, opt Options, own *watch.Own) (*Live, error) {
	opt.Write, opt.RunCommand = true, false
	j, err := openLayout(ctx, opt)
	if err != nil {
		return nil, err
	}
	l := &Live{
		opt:       j.opt,
		own:       own,
		j:         j,
		retry:     map[string]bool{},
		emptied:   map[string]bool{},
		pending:   map[string]bool{},
		siteFiles: map[string]bool{},
		warned:    map[string]bool{},
	}
	l.cwd, _ = os.Getwd()
	l.roots = rootsOf(j)
	return l, nil
}

// Output is the output folder.
func (l *Live) Output() string { return l.j.site.Output }

// Generator is the site's generator: site.Hugo, site.Jekyll or site.None.
func (l *Live) Generator() string { return l.j.site.Generator }

// Watch says what to watch (watch.Options.Roots and Skip): the output folder, the content folder,
// robotsmith's configuration (or the names it would have, so that one created later is seen) and
// the generator's. Skip leaves out the folders that Jekyll keeps in the site folder for itself.
func (l *Live) Watch() (roots []string, skip func(path string, dir bool) bool) {
	for _, r := range l.roots {
		roots = append(roots, r.path)
	}
	if l.j.site.Generator != site.Jekyll {
		return roots, nil
	}
	out := absPath(l.j.outDir)
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

// rootsOf is what to watch for the job j.
func rootsOf(j *job) []liveRoot {
	var rs []liveRoot
	add := func(p string, k rootKind) {
		p = absPath(p)
		if !slices.ContainsFunc(rs, func(r liveRoot) bool { return r.path == p }) {
			rs = append(rs, liveRoot{p, k})
		}
	}
	add(j.outDir, outputRoot)
	if j.site.Content != "" {
		add(j.site.Content, contentRoot)
	}
	switch {
	case j.cfg.File != "":
		add(j.cfg.File, configRoot)
	case j.opt.Config == "":
		for _, n := range config.Names() {
			add(filepath.Join(j.opt.Root, n), configRoot)
		}
	}
	// Hugo's config folder is watched whole: a file added to it is read too.
	cfgDir := absPath(filepath.Join(j.opt.Root, "config"))
	for _, f := range j.site.ConfigFiles {
		if within(cfgDir, absPath(f)) {
			add(cfgDir, configRoot)
		} else {
			add(f, configRoot)
		}
	}
	return rs
}

// Build is the first pass: every file of the output goes through the step, as `robotsmith build`
// (but a problem stops only the files it touches). While it has not succeeded (no output folder
// yet, a source that cannot be read), Apply tries it again on every batch.
func (l *Live) Build(ctx context.Context) *Update {
	start := time.Now()
	u := &Update{}
	l.full(ctx, u, FirstPass, l.j, true)
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
		u.Warnings = append(u.Warnings, e.Error())
	}
	var configs bool
	var sources []string // the changes in the content folder: the sources to read again
	var outs []watch.Change
	for _, c := range b.Changes {
		if c.Root < 0 || c.Root >= len(l.roots) {
			continue
		}
		switch l.roots[c.Root].kind {
		case configRoot:
			configs = true
			if l.j.site.Generator == site.Jekyll && slices.ContainsFunc(l.j.site.ConfigFiles, func(f string) bool { return absPath(f) == c.Path }) {
				u.Notes = append(u.Notes, "jekyll does not rebuild when "+filepath.Base(c.Path)+" changes: restart it for the rest of the change to show (robotsmith has read it)")
			}
		case contentRoot:
			sources = append(sources, c.Path)
		case outputRoot:
			outs = append(outs, c)
		}
	}

	if configs {
		j, err := l.reopen(ctx, u)
		if err == nil {
			walk := !l.ready || absPath(j.outDir) != absPath(l.j.outDir) || b.Lost
			l.full(ctx, u, "configuration changed", j, walk)
			return u
		}
		// The previous configuration goes on serving the rest of the batch.
		u.Errs = append(u.Errs, err)
	}
	switch {
	case !l.ready:
		l.full(ctx, u, FirstPass, l.j, true)
		return u
	case b.Lost:
		l.full(ctx, u, "events lost", l.j, true)
		return u
	}

	todo := map[string]bool{}
	siteDirty := l.siteRetry || l.sitePending
	if len(sources) > 0 {
		for _, p := range l.remap(ctx, u, sources) {
			todo[p] = true
		}
	}
	if !l.open(ctx, u, l.j) {
		// The files wait for the next batch.
		for p := range todo {
			l.pending[p] = true
		}
		return u
	}
	defer func() { l.close(u, l.j) }()
	for _, m := range []map[string]bool{l.retry, l.pending} {
		for p := range m {
			todo[p] = true
		}
		clear(m)
	}
	l.siteRetry, l.sitePending = false, false
	for _, c := range outs {
		if l.output(u, c, todo) {
			siteDirty = true
		}
	}
	// A file to do that is no longer there (a retry of a file removed since) is dropped.
	for p := range todo {
		if _, err := l.j.root.Lstat(p[1:]); errors.Is(err, fs.ErrNotExist) {
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
		l.run(ctx, u, idx, siteDirty, true, nil)
	}
	return u
}

// open opens the output folder for one batch with the job j (job.openOutput: the folder, the
// batch's transaction, robots.txt as it is now), with the stamps of the batch's writes. It reports
// whether it could; the caller closes j (job.close) once done. While the output folder is not
// there, the next batch makes a first pass again.
func (l *Live) open(ctx context.Context, u *Update, j *job) bool {
	n := len(j.warnings)
	err := j.checkOutput()
	if err == nil {
		err = j.openOutput(ctx)
	}
	// What opening found (a killed run's transaction undone, robots.txt not a file) is this
	// batch's to say, once.
	l.warn(u, j.warnings[n:]...)
	j.warnings = j.warnings[:n]
	if err != nil {
		u.Errs = append(u.Errs, err)
		if errors.Is(err, ErrNoOutput) {
			l.ready = false
		}
		return false
	}
	j.own = &ownWrites{own: l.own, stamps: map[string]watch.Stamp{}}
	return true
}

// close closes the job j after a batch (job.close): an undo that could not finish is the batch's
// error.
func (l *Live) close(u *Update, j *job) {
	if err := j.close(); err != nil {
		u.Errs = append(u.Errs, err)
	}
}

// finish counts the tries and gives up files that keep changing.
func (l *Live) finish(u *Update) {
	u.Retry = len(l.retry) > 0 || l.siteRetry
	if !u.Retry {
		l.tries = 0
		return
	}
	l.tries++
	if l.tries <= maxTries {
		return
	}
	var names []string
	for p := range l.retry {
		names = append(names, l.j.outName(p[1:]))
	}
	if l.siteRetry {
		names = append(names, "the site-level files (_headers, robots.txt, sitemaps)")
	}
	slices.Sort(names)
	why := "changed while robotsmith read them"
	if l.lastErr != nil {
		why = l.lastErr.Error()
	}
	u.Errs = append(u.Errs, fmt.Errorf("%s: not written %d times in a row (%s); left as they are until the next change", strings.Join(names, ", "), l.tries, why))
	// They wait for the next change, without a timer.
	for p := range l.retry {
		l.pending[p] = true
	}
	l.sitePending = l.sitePending || l.siteRetry
	clear(l.retry)
	l.siteRetry, l.tries, l.lastErr, u.Retry = false, 0, nil, false
}

// reopen reads the configuration, the site's layout and its sources again.
func (l *Live) reopen(ctx context.Context, u *Update) (*job, error) {
	j, err := openLayout(ctx, l.opt)
	if err != nil {
		return nil, err
	}
	// One link table for the session: the records keep theirs across configurations.
	j.linkTab = l.j.linkTab
	return l.reread(ctx, u, j, nil) // a new site: every source is read
}

// full is a pass over every file with the job j, which becomes the current one if it can read the
// output. With walk the output is listed again, and the sources are read again; what was decided
// of the files still there is kept, so that a change of indexability is named.
func (l *Live) full(ctx context.Context, u *Update, why string, j *job, walk bool) {
	u.Full, u.Why = true, why
	if walk {
		if err := j.checkOutput(); err != nil {
			u.Errs = append(u.Errs, err)
			return
		}
		if !l.ready || j == l.j {
			// Events were lost, or nothing was read yet: every source is read again.
			nj, err := l.reread(ctx, u, j, []string{j.site.Root})
			if err != nil {
				u.Errs = append(u.Errs, err)
				return
			}
			j = nj
		}
	}
	if !l.open(ctx, u, j) {
		return
	}
	defer l.close(u, j)
	files := l.files
	if walk {
		var (
			warnings []string
			err      error
		)
		if files, warnings, err = j.walkContext(ctx); err != nil {
			u.Errs = append(u.Errs, err)
			return
		}
		l.warn(u, warnings...)
		for i := range files {
			if k, ok := l.find(files[i].path); ok {
				files[i] = l.files[k]
			}
		}
		l.moved = true
	}
	if roots := rootsOf(j); !slices.Equal(roots, l.roots) {
		l.roots, u.Roots = roots, true
	}
	flips := l.ready
	l.j, l.files, l.ready = j, files, true
	clear(l.retry)
	clear(l.pending)
	l.siteRetry, l.sitePending = false, false
	l.warn(u, j.warnings...)
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	rep := &Report{Site: j.opt.Root, Generator: j.site.Generator, Output: j.site.Output, Symlinks: j.symlinks, Config: j.cfg.File}
	l.run(ctx, u, idx, true, flips, rep)
	for i := range l.files {
		rep.count(&l.files[i])
	}
	rep.listChanged(l.files)
	j.sourceReport(rep, l.files, outputsOf(j.pages))
	rep.Warnings = append(rep.Warnings, u.Warnings...)
	rep.Wrote = len(u.Wrote) > 0
	u.Report = rep
}

// remap reads the sources again and returns the output files (record paths) whose decision may
// have changed with them: those whose source page, or its directives, differ. changed are the
// paths in the content folder that the batch names. While a source cannot be read, the previous
// reading of them all is kept (and the problem reported).
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
	j := l.j
	nj, err := l.reread(ctx, u, j, changed)
	if err != nil {
		u.Errs = append(u.Errs, err)
		return nil
	}
	// Every file is looked up in both maps: on all cores, each a run of the files, in order.
	parts := make([][]string, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := w*len(l.files)/len(parts), (w+1)*len(l.files)/len(parts)
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if f := &l.files[i]; !sameSource(j, nj, f) {
					parts[w] = append(parts[w], f.path)
				}
			}
		})
	}
	wg.Wait()
	l.j = nj
	return slices.Concat(parts...)
}

// reread maps the sources of j again (site.Remap, reading again those named changed, a folder
// for all under it), into a copy of j. A source whose directives did not change keeps its
// compiled form. The site's warnings go to u.
func (l *Live) reread(ctx context.Context, u *Update, j *job, changed []string) (*job, error) {
	m, err := j.site.RemapContext(ctx, changed)
	if m != nil {
		for _, w := range m.Warnings {
			l.warn(u, w.Error())
		}
	}
	if err != nil {
		return nil, err
	}
	nj := *j
	nj.pages = m
	nj.kinds = nj.pageKinds(m)
	// Both maps' pages are in source order: each page meets its previous self walking both.
	var old []site.Page
	if j.pages != nil {
		old = j.pages.Pages
	}
	k := 0
	var slab sourceSlab
	nj.setInfo(func(p *site.Page) *source {
		for k < len(old) && old[k].Source < p.Source {
			k++
		}
		op := -1
		if k < len(old) && old[k].Source == p.Source {
			op = k
			k++
		}
		switch {
		case len(p.Inputs) == 0:
			return nil
		case op >= 0 && j.info[op].src != nil && sameInputs(old[op].Inputs, p.Inputs):
			return j.info[op].src
		}
		return j.compileSource(ctx, p.Inputs, &slab)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &nj, nil
}

// sameInputs reports whether two pages' inputs are the same: most often the very same slice (a
// page whose source was not read again, or that one cascade or default alone reaches).
func sameInputs(a, b []rules.Input) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b))
}

// sameSource reports whether the output file f takes its decision from the same source, saying
// the same, in the jobs a and b.
func sameSource(a, b *job, f *record) bool {
	oa, ob := a.pages.Owner(f.rel()), b.pages.Owner(f.rel())
	if oa.Role != ob.Role {
		return false
	}
	pa, pb := oa.Page, ob.Page
	if pa == nil || pb == nil {
		return pa == pb
	}
	return pa.Source == pb.Source && pa.URL == pb.URL && pa.Lang() == pb.Lang() && pa.Kind() == pb.Kind() &&
		sameInputs(pa.Inputs, pb.Inputs)
}

// output takes one change of the output folder into the records: a file that came is added, one
// that went is dropped, one that is there is to be processed (todo). It reports whether the site
// steps must run again. The job is open (Live.open).
func (l *Live) output(u *Update, c watch.Change, todo map[string]bool) (siteDirty bool) {
	rel := c.Rel
	j := l.j
	fi, err := j.root.Lstat(rel)
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
			siteDirty = l.dropGone(u, rel)
		}
		return siteDirty // the files in a new folder come as changes of their own
	}
	siteDirty = l.siteFiles[rel]
	p := "/" + rel
	fl, warning, ok := j.listed(rel, fs.FileInfoToDirEntry(fi))
	l.warn(u, warning)
	i, found := l.find(p)
	switch {
	case !ok && found:
		// No longer one of the site's files (a file replaced by a FIFO, a link out of the output).
		l.drop(u, i)
		return true
	case !ok:
		return siteDirty
	case !found:
		r := newRecord(p)
		r.flags |= fl
		l.files = slices.Insert(l.files, i, r)
		l.moved = true
		siteDirty = true
	default:
		f := &l.files[i]
		f.flags = f.flags&^(isLink|isSkipped) | fl
	}
	todo[p] = true
	return siteDirty
}

// run puts the files at idx (indices into l.files, in order) through the step and, when siteDirty
// or a decision the site steps read changed, runs the site steps (into rep, when given); then it
// puts what changed in place, in the batch's one transaction. With flips, changes of indexability
// are named in u. The job is open (Live.open).
func (l *Live) run(ctx context.Context, u *Update, idx []int, siteDirty, flips bool, rep *Report) {
	j := l.j
	j.files = l.files
	if l.moved || len(j.linkTab.all) > 4*l.nlinked+4096 {
		l.relink()
	}
	subset := make([]record, len(idx))
	before := make([]fs.FileInfo, len(idx))
	for k, i := range idx {
		old := &l.files[i]
		subset[k] = newRecord(old.path)
		subset[k].flags |= old.flags & isLink
		if old.link() {
			subset[k].flags |= old.flags & isSkipped
		}
		if subset[k].html() {
			before[k], _ = j.root.Lstat(subset[k].rel())
		}
	}
	b := j.process(ctx, subset)
	u.Processed += len(subset)
	if l.afterStep != nil {
		l.afterStep()
	}
	if ctx.Err() != nil {
		return // the transaction is undone when the job is closed
	}

	// A file whose decision has a problem keeps the generator's content (the step did not write
	// it) and its last record, as a failed build leaves every file (fail closed: a misspelt
	// noindex must not publish).
	failed := make([]bool, len(subset))
	for _, e := range b.errs {
		if errors.Is(e.v, fs.ErrNotExist) {
			// Removed since the event (the generator is writing): its removal comes next.
			l.retry[subset[e.i].path] = true
			u.Busy++
		} else {
			u.Errs = append(u.Errs, e.v)
		}
		failed[e.i] = true
	}
	reported := map[*source]bool{}
	for k := range subset {
		var s *source
		if p := j.pageOf(&subset[k]); p != nil {
			s = p.src
		}
		if s == nil || s.problems == nil {
			continue
		}
		l.warn(u, s.problems.warnings...)
		if s.problems.err != nil {
			failed[k] = true
			if !reported[s] {
				reported[s] = true
				u.Errs = append(u.Errs, s.problems.err)
			}
		}
	}
	l.warn(u, b.warnings()...)
	for k := range subset {
		p := subset[k].path
		switch {
		case failed[k] || !subset[k].html():
		case rewritten(j, before[k], subset[k].rel()):
			// The generator wrote the page while it was read (Hugo truncates and writes in
			// place): what was read may be torn, and its decision is not kept. Its write, if
			// any, fails the commit, which puts nothing in place. Again once quiet.
			l.retry[p] = true
			u.Busy++
			failed[k] = true
		case before[k] != nil && before[k].Size() == 0 && !l.emptied[p]:
			// Read between the generator's truncation and its write, the page would be taken
			// for a file that is no HTML document, and its last decision lost. Again once quiet.
			l.emptied[p], l.retry[p] = true, true
			u.Busy++
			failed[k] = true
		default:
			delete(l.emptied, p)
		}
	}

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

	if siteDirty {
		if rep == nil {
			rep = &Report{}
		}
		read, err := j.siteSteps(rep, l.files, true)
		l.warn(u, rep.Warnings...)
		rep.Warnings = nil
		for _, f := range rep.Findings {
			if !l.warned[f] {
				l.warned[f] = true
				u.Findings = append(u.Findings, f)
			}
		}
		for _, r := range read {
			l.siteFiles[r] = true
		}
		if err != nil {
			// As a build: nothing of the batch is put in place while a site-level file has a
			// problem; its files wait for the next change (the fix of that file, say).
			u.Errs = append(u.Errs, err)
			for k, i := range idx {
				if !failed[k] {
					l.pending[l.files[i].path] = true
				}
			}
			l.sitePending = true
			return
		}
	}

	stamps := j.own.stamps
	n := j.tx.Len()
	_, warnings, err := j.commit(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		// Nothing was put in place: another process changed a file between robotsmith's read
		// and the commit (the generator wrote it again), or removed a temporary file (Jekyll's
		// cleaner). Again once the generator is quiet.
		l.lastErr = err
		again := 0
		for k, i := range idx {
			if !failed[k] {
				l.retry[l.files[i].path] = true
				again++
			}
		}
		if again == 0 && u.Busy == 0 {
			again = n // the site steps' files alone
		}
		u.Busy += again
		l.siteRetry = l.siteRetry || siteDirty
		return
	}
	l.warn(u, warnings...)
	l.lastErr = nil
	for rel, s := range stamps {
		if l.own != nil {
			l.own.Record(j.outFile(rel), s)
		}
		u.Wrote = append(u.Wrote, rel)
	}
	slices.Sort(u.Wrote)
}

// relink resolves the records' links again: a link names the file it points at by its index in
// the list of files (links.go), and a file that came or went moves every index after it. Each
// link's target is found again by its path (l.linked: the list the link was made against), a link
// to a file now gone keeps the URL path it pointed at, and one to a URL no file served may now
// have one. The table is built anew from the records, which also drops the links of records
// processed since (the table only grows while the files stay).
func (l *Live) relink() {
	j := l.j
	j.files = l.files
	old, t := j.linkTab, newLinkTable()
	var rs []resolved
	for i := range l.files {
		f := &l.files[i]
		if f.nlinks == 0 {
			continue
		}
		rs = rs[:0]
		for _, k := range old.of(f) {
			r := resolved{link: link{line: k.line, kind: k.kind}, lang: old.lang(k)}
			p := ""
			if to, ok := k.target(); ok && to < len(l.linked) {
				p = URLPath(l.linked[to])
			} else if !ok {
				p = old.missingPath(k)
			}
			r.to = int32(j.fileOf(p))
			if r.to < 0 {
				r.missing = p
			}
			rs = append(rs, r)
		}
		f.links, f.nlinks = t.add(rs)
	}
	j.linkTab = t
	l.linked = l.linked[:0]
	for i := range l.files {
		l.linked = append(l.linked, l.files[i].path)
	}
	l.nlinked = len(t.all)
	l.moved = false
}

// rewritten reports whether the output file rel is no longer the one read (before, its state
// then): the generator wrote it, in place or by a rename, since.
func rewritten(j *job, before fs.FileInfo, rel string) bool {
	now, err := j.root.Lstat(rel)
	return before == nil || err != nil || !os.SameFile(before, now) ||
		now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime())
}

// sameForSite reports whether the site steps see a and b, two records of one file, alike: the
// same decision and kind. A field they come to read is compared here.
func sameForSite(a, b *record) bool {
	const kind = isHTML | isSkipped
	return a.verdict == b.verdict && a.flags&kind == b.flags&kind
}

// flipOf names the change of indexability from the record old to nw of a page, if any.
func flipOf(old, nw *record) (Flip, bool) {
	if !nw.html() || nw.skipped() {
		return Flip{}, false
	}
	to := indexability(nw.verdict)
	if to == "" {
		return Flip{}, false
	}
	from := indexability(old.verdict)
	if from == to {
		return Flip{}, false
	}
	return Flip{URL: nw.url(), From: from, To: to}, true
}

// indexability is "public" or "noindex" for a page with that verdict, "" for anything else (an
// error page, a redirect, no verdict).
func indexability(v *rules.Verdict) string {
	if v == nil || v.Class != rules.Public && v.Class != rules.NonPublic {
		return ""
	}
	return v.Class.String()
}

// find returns the index of the record with path p, or where it would be.
func (l *Live) find(p string) (int, bool) {
	return slices.BinarySearchFunc(l.files, p, func(r record, p string) int { return strings.Compare(r.path, p) })
}

// drop removes record i, and names a page gone.
func (l *Live) drop(u *Update, i int) {
	f := &l.files[i]
	if from := indexability(f.verdict); from != "" && f.html() && !f.skipped() {
		u.Flips = append(u.Flips, Flip{URL: f.url(), From: from})
	}
	delete(l.retry, f.path)
	delete(l.pending, f.path)
	l.files = slices.Delete(l.files, i, i+1)
	l.moved = true
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
	for i < len(l.files) && strings.HasPrefix(l.files[i].path, prefix) {
		l.drop(u, i)
		n++
	}
	return n > 0
}

// dropGone removes the records under the folder rel whose files are not there, and reports
// whether there were any.
func (l *Live) dropGone(u *Update, rel string) bool {
	prefix := "/" + rel + "/"
	i, _ := l.find(prefix)
	any := false
	for i < len(l.files) && strings.HasPrefix(l.files[i].path, prefix) {
		if _, err := l.j.root.Lstat(l.files[i].rel()); errors.Is(err, fs.ErrNotExist) {
			l.drop(u, i)
			any = true
			continue
		}
		i++
	}
	return any
}

// warn adds the warnings not yet reported this session.
func (l *Live) warn(u *Update, ws ...string) {
	for _, w := range ws {
		if !l.warned[w] {
			l.warned[w] = true
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

// relOut is the slash path of the output file name relative to the output folder.
func (l *Live) relOut(name string) string {
	if r, err := filepath.Rel(l.j.outDir, name); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(name)
}

// outFile is the output file rel (a slash path relative to the output folder) as a path to open.
func (j *job) outFile(rel string) string {
	return filepath.Join(j.outDir, filepath.FromSlash(rel))
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

// Line is the one line a batch gets: what changed, what was done and how long it took, and the
// pages whose indexability changed.
//
//	content/blog/a.md, public/blog/a/index.html: 1 file processed, 1 written in 12ms; /blog/a/ public → noindex
func (u *Update) Line() string {
	var b strings.Builder
	b.WriteString(listSome(u.Changes, 3))
	if len(u.Changes) == 0 && !u.Full {
		b.WriteString("(again)") // the files that changed while read, once the generator is quiet
	}
	if u.Full {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("(" + u.Why + ")")
	}
	b.WriteString(": ")
	switch {
	case u.Processed == 0 && len(u.Wrote) == 0 && u.Removed == 0 && len(u.Errs) == 0 && u.Busy == 0:
		b.WriteString("no decision changed")
	default:
		fmt.Fprintf(&b, "%s processed, %d written", Plural(u.Processed, "file"), len(u.Wrote))
		if u.Removed > 0 {
			fmt.Fprintf(&b, ", %d removed", u.Removed)
		}
		if n := len(u.Errs); n > 0 {
			fmt.Fprintf(&b, ", %s", Plural(n, "error"))
		}
	}
	fmt.Fprintf(&b, " in %v", roundDuration(u.Took))
	if len(u.Flips) > 0 {
		names := make([]string, len(u.Flips))
		for i, f := range u.Flips {
			names[i] = f.String()
		}
		b.WriteString("; " + listSome(names, 5))
	}
	if u.Busy > 0 {
		fmt.Fprintf(&b, "; %s changed while robotsmith read them, again shortly", Plural(u.Busy, "file"))
	}
	return b.String()
}

// listSome joins the first n of xs, and says how many more there are.
func listSome(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
}

// roundDuration shows d to the millisecond, or to the hundredth of a second above a second.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
