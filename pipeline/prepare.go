package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
)

// job is one run once every input has been read: the configuration and its rules, and every source
// page with its directives compiled once. Its step (step.go) processes any set of output files, one
// at a time or on every core; it is safe for concurrent use and is never changed after prepare.
type job struct {
	opt  Options
	cfg  *config.Config
	site *site.Site
	res  *rules.Resolver
	memo *rules.Memo
	// compiler compiles the sources: the many that say the same share one parsed form.
	compiler *rules.Compiler
	env      *rules.Compiled // the preview environment's noindex, nil when not a preview
	aiMeta   *rules.Compiled // ai.meta's noai, noimageai for every page, nil without it
	robots   *robotsTxt      // robots.txt as the run leaves it, parsed (robots.go)
	format   headers.Format
	cfgInfo  os.FileInfo // the configuration file, nil when there is none

	// outDir is the output folder as every read and write of it names it: site.Output with the
	// symbolic links on its way resolved, once (followLinks). Messages name the output's files by
	// site.Output, as the user gave it.
	outDir   string
	symlinks []Symlink // the links followed to the site's folder and to outDir (Report.Symlinks)

	root *os.Root       // the output folder: every read and write of it goes through here (write.go)
	out  *safefs.Folder // root, to open its files for reading
	tx   *safefs.Tx     // build: the transaction that replaces the output's changed files; nil in check

	// pages is every page of the site, indexed by the output files it owns. Run lets it go before
	// it lists the output folder (letPagesGo), and each file gets its page (record.page) from the
	// index it keeps: what the run needs of a page is in info. Watch mode and explain keep it.
	pages *site.Map
	kinds map[string][]string // site.KindsOf of every page kind of the site, worked out once
	// info is what the run keeps of each page of pages, by its index there (site.Owner.Index).
	info      []pageInfo
	kindLangs []kindLang // the kinds and language of pages, each pair once (pageInfo.kl)

	warnings []string // the configuration's and the site's warnings, each once
	// defaultLines are the X-Robots-Tag lines of a file that only the defaults decide.
	defaultLines []rules.HeaderLine

	urls siteURLs // the site's base URL: pages' links and sitemaps' locs resolve under it
	// files are the output's files, as the walk lists them (sorted by path), set once before the
	// step runs: a link or a sitemap's <loc> names a file by its index here.
	files   []record
	linkTab *linkTable // every page's canonical and hreflang links (links.go)
	// own, in watch mode, stamps the content of each write (write.go), so that the watcher does
	// not report robotsmith's own writes back; nil otherwise.
	own *ownWrites
}

// pageInfo is what an output file takes its decision from, of its page: the page's source, its
// compiled directives, its kinds and language. A run keeps one for each page of the site, a few
// words, where the site's map keeps the page with every file it owns.
type pageInfo struct {
	source string  // site.Page.Source; "" for a page the generator made without one
	src    *source // its compiled directives; nil for none
	kl     uint16  // its kinds and language: job.kindLangs[kl]
}

// kindLang are a page's kinds (site.KindsOf) and language, as rules select files by them.
type kindLang struct {
	kinds []string
	lang  string
}

// source is a source page's directives, compiled once, and their problems.
type source struct {
	inputs   *rules.Compiled
	problems *problems   // nil for the many sources that have none
	used     atomic.Bool // an output file took its decision from it: its problems are the run's
}

// sourceSlab hands out sources from slabs of them: a run keeps one for each source page with
// directives, as long as it runs, and as objects of their own they were 100,000 small things that
// the collector marked on every cycle. A compile fills its own slab (watch mode compiles again in a
// copy of the job, and a slab shared with the job copied would be written by both).
type sourceSlab struct{ free []source }

func (s *sourceSlab) cut() *source {
	if len(s.free) == 0 {
		s.free = make([]source, 256)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// problems are what compiling a source found.
type problems struct {
	warnings []string
	err      error // its malformed values
}

// err is the source's malformed values, or nil.
func (s *source) err() error {
	if s == nil || s.problems == nil {
		return nil
	}
	return s.problems.err
}

// prepare reads the configuration, runs the command, opens the site, reads and compiles every page
// and the rules. Everything it returns as an error is an input problem; nothing has been written.
// Malformed values in the sources do not stop it: they are kept with their source, so that a run
// reports them with every other problem of the site. The caller closes the job (job.close) once
// done with it, whatever happened.
func prepare(ctx context.Context, opt Options) (*job, error) {
	j, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	if err := j.readSources(ctx); err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

// open is prepare up to reading the sources: the configuration, the rules, the site's layout, the
// recovery of an interrupted build, the command, and the output folder, opened (and for a build
// locked, in a transaction). The caller closes the job.
func open(ctx context.Context, opt Options) (*job, error) {
	j, err := openLayout(ctx, opt)
	if err != nil {
		return nil, err
	}
	s := j.site
	// Before anything reads or writes the output, even the generator: finish or undo a build that
	// was killed there, so that no temporary file of it is left and every file is whole (SPEC §10).
	if fi, err := os.Stat(j.outDir); err == nil && fi.IsDir() {
		rec, err := safefs.Recover(ctx, j.outDir)
		if err != nil {
			return nil, recoveryError(s.Output, err)
		}
		if w := j.recovered(rec); w != "" {
			j.warnings = append(j.warnings, w)
		}
	}

	if opt.RunCommand && j.cfg.Command != "" {
		if err := runCommand(ctx, opt.Root, j.cfg.Command, opt.CommandOutput); err != nil {
			return nil, err
		}
	}

	if err := j.checkOutput(); err != nil {
		return nil, err
	}
	if err := j.openOutput(ctx); err != nil {
		return nil, err
	}
	return j, nil
}

// openLayout is open up to the site's layout, without looking at the output folder, which watch
// mode may have to wait for (the generator it runs writes it).
func openLayout(ctx context.Context, opt Options) (*job, error) {
	if opt.Root == "" {
		opt.Root = "."
	}
	if opt.Env == nil {
		opt.Env = func(string) string { return "" }
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	cfg, err := config.Load(opt.Root, opt.Config)
	if err != nil {
		return nil, err
	}
	if err := cfg.CheckInside(opt.Root, opt.Output != ""); err != nil {
		return nil, err
	}
	j := &job{opt: opt, cfg: cfg}
	if cfg.File != "" {
		j.cfgInfo, _ = os.Stat(cfg.File)
	}
	if cfg.Headers.Format == "cloudflare" {
		j.format = headers.Cloudflare
	}
	res, err := rules.New(cfg.Rules())
	if err != nil {
		return nil, err
	}
	j.res, j.memo, j.compiler = res, res.Memo(), rules.NewCompiler()
	for _, w := range res.Warnings() {
		j.warnings = append(j.warnings, w.String())
	}
	base, err := rules.New(rules.Config{Defaults: cfg.Defaults, Style: cfg.Tags})
	if err != nil {
		return nil, err
	}
	d, _, err := base.Decide(rules.Item{Path: "/", Asset: true})
	if err != nil {
		return nil, err
	}
	j.defaultLines = d.HeaderLines()
	// The environment's input is ours, and well-formed.
	j.env, _, _ = rules.Compile(previewInputs(cfg, opt.Env))
	j.aiMeta, _, _ = rules.Compile(aiMetaInputs(cfg))

	s, err := site.Open(opt.Root, site.Options{
		Generator: cfg.Generator,
		Content:   cfg.Content,
		Output:    cfg.Output,
		Env:       opt.Env,
		Now:       opt.Now,
	})
	if err != nil {
		return nil, err
	}
	if opt.Output != "" {
		// --output is relative to the working directory, like every path on the command line.
		s.Output = opt.Output
	}
	// The kinds and languages rules may select depend on the generator and its configuration.
	if err := cfg.CheckSite(config.Site{Generator: s.Generator, Kinds: s.Kinds(), Langs: s.Langs()}); err != nil {
		return nil, err
	}
	j.site = s
	j.followLinks()
	j.urls = newSiteURLs(s.BaseURL)
	j.linkTab = newLinkTable()
	return j, nil
}

// followLinks resolves the symbolic links on the way to the site's folder and to the output folder,
// once (SPEC §1: a SITE or an output folder that is a link is followed to the folder it names, and
// the summary says so). Every read and write of the output then names the folder the links led
// to (os.Root, the walk, the transaction, watch mode's watcher), so that a link changed during the
// run cannot move it, and below it the walk's rule holds unchanged: no link there is followed out
// of it (SPEC §10). Before, the walk stopped at a linked output folder and found no file at all. An
// output folder that is not there yet (a link to nothing, a folder the generator makes) is
// resolved by checkOutput, once it is.
func (j *job) followLinks() {
	root := j.opt.Root
	j.symlinks = nil
	rootTo, rootLinked := followed(root)
	if rootLinked {
		j.symlinks = append(j.symlinks, Symlink{filepath.ToSlash(root), filepath.ToSlash(rootTo)})
	}
	out := j.site.Output
	j.outDir = out
	to, linked := followed(out)
	if !linked {
		return
	}
	j.outDir = to
	// An output folder in a linked site's folder (the folder itself, with no generator) is said by
	// the site's link.
	if rootLinked {
		rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(out))
		if err == nil && filepath.IsLocal(rel) && filepath.Join(rootTo, rel) == to {
			return
		}
	}
	j.symlinks = append(j.symlinks, Symlink{filepath.ToSlash(out), filepath.ToSlash(to)})
}

// followed is p with every symbolic link on its way resolved, and whether that is another path
// than p's own; p itself (false) when it cannot be resolved (it is not there).
func followed(p string) (string, bool) {
	to, err := filepath.EvalSymlinks(p)
	if err != nil || to == filepath.Clean(p) {
		return p, false
	}
	return to, true
}

// checkOutput fails with ErrNoOutput when the output folder is not there. An output folder that
// was not there when the run began (the generator made it, or the folder a link names) has its
// links followed now (followLinks).
func (j *job) checkOutput() error {
	if j.outDir == j.site.Output {
		j.followLinks()
	}
	if fi, err := os.Stat(j.outDir); err != nil || !fi.IsDir() {
		hint := ""
		if j.cfg.Command != "" && !j.opt.RunCommand {
			hint = " (run `robotsmith build` or the generator first)"
		}
		return fmt.Errorf("%s: %w%s", j.site.Output, ErrNoOutput, hint)
	}
	return nil
}

// openOutput opens the output folder for the run: every read and write of it goes through j.root,
// a build's writes through a transaction (which first finishes or undoes a killed run's), and
// robots.txt is read once. On an error the job is closed. Watch mode (Live) opens it this way for
// each batch, and closes it after.
func (j *job) openOutput(ctx context.Context) error {
	s := j.site
	var err error
	if j.root, err = os.OpenRoot(j.outDir); err != nil {
		return err
	}
	j.out = safefs.NewFolder(j.root)
	if j.opt.Write {
		tx, err := safefs.Begin(ctx, j.outDir)
		if err != nil {
			j.close()
			return recoveryError(s.Output, err)
		}
		j.tx = tx
		if w := j.recovered(tx.Recovered); w != "" {
			j.warnings = append(j.warnings, w)
		}
	}
	if j.robots, err = j.readRobotsTxt(); err != nil {
		j.close()
		return err
	}
	return nil
}

// recoveryError is an error from locking the output folder or recovering an interrupted build in
// it, named as messages name it: a journal robotsmith cannot read names itself, with its line.
func recoveryError(output string, err error) error {
	var je *safefs.JournalError
	if errors.As(err, &je) || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%s: recovering an interrupted robotsmith build: %w", output, err)
}

// readSources maps every source page to its output files and compiles its directives; once ctx
// ends (SIGINT, SIGTERM) it reads and compiles no more, and returns ctx's error.
func (j *job) readSources(ctx context.Context) error {
	m, err := j.site.MapContext(ctx)
	if err != nil {
		return err
	}
	j.pages = m
	j.kinds = j.pageKinds(m)
	for _, w := range m.Warnings {
		j.warnings = append(j.warnings, w.Error())
	}
	return j.compile(ctx)
}

// pageKinds works out site.KindsOf once for every page kind of m.
func (j *job) pageKinds(m *site.Map) map[string][]string {
	kinds := map[string][]string{}
	for _, ps := range [][]site.Page{m.Pages, m.Sourceless} {
		for i := range ps {
			if _, ok := kinds[ps[i].Kind()]; !ok {
				kinds[ps[i].Kind()] = j.site.KindsOf(ps[i].Kind())
			}
		}
	}
	return kinds
}

// compile compiles the directives of every page that has any, once: the pages that share one
// slice of inputs (those one cascade or default alone reaches) share one compiled source. Their
// warnings and errors are reported (once each) by the run only for the sources an output file
// takes its decision from: a draft that nothing was built for decides nothing.
func (j *job) compile(ctx context.Context) error {
	type sliceKey struct {
		first *rules.Input
		n     int
	}
	shared := map[sliceKey]*source{}
	var slab sourceSlab
	j.setInfo(func(p *site.Page) *source {
		if len(p.Inputs) == 0 {
			return nil
		}
		k := sliceKey{&p.Inputs[0], len(p.Inputs)}
		s := shared[k]
		if s == nil {
			s = j.compileSource(ctx, p.Inputs, &slab)
			shared[k] = s
		}
		return s
	})
	return ctx.Err()
}

// setInfo fills j.info from j.pages, each page's compiled directives from src (called in site
// order, the pages made without a source after the others: the cascades that reach those are
// theirs).
func (j *job) setInfo(src func(p *site.Page) *source) {
	m := j.pages
	j.info = make([]pageInfo, 0, len(m.Pages)+len(m.Sourceless))
	j.kindLangs = nil // a job copied from another (watch mode) must not append to its table
	kls := map[[2]string]uint16{}
	kl := func(p *site.Page) uint16 {
		k := [2]string{p.Kind(), p.Lang()}
		i, ok := kls[k]
		if !ok {
			i = uint16(len(j.kindLangs))
			kls[k] = i
			j.kindLangs = append(j.kindLangs, kindLang{j.kinds[p.Kind()], p.Lang()})
		}
		return i
	}
	for i := range m.Pages {
		p := &m.Pages[i]
		j.info = append(j.info, pageInfo{source: p.Source, src: src(p), kl: kl(p)})
	}
	for i := range m.Sourceless {
		p := &m.Sourceless[i]
		j.info = append(j.info, pageInfo{src: src(p), kl: kl(p)})
	}
}

// compileSource compiles one page's directives, sharing what they say with the pages that say the
// same (rules.Compiler), into a source cut from slab.
// Once ctx has ended it compiles nothing: the run is given up.
func (j *job) compileSource(ctx context.Context, inputs []rules.Input, slab *sourceSlab) *source {
	if ctx.Err() != nil {
		return nil
	}
	c, ws, err := j.compiler.CompileContext(ctx, inputs)
	s := slab.cut()
	s.inputs = c
	if err != nil || len(ws) > 0 {
		s.problems = &problems{err: err}
		for _, w := range ws {
			s.problems.warnings = append(s.problems.warnings, w.String())
		}
	}
	return s
}

// pageOf is the one place that says which page an output file takes its decision from: the page
// that wrote it (whatever flags built it), the list page a pager page continues, the page another
// output format of it (index.xml, index.md) belongs to, or the page a bundle resource belongs to;
// none (nil) for an alias stub, which is a redirect, or a file of no page. Its pageInfo has the
// page's source (none when the generator made the page without one: a list, a 404 page) and the
// kinds and language that rules select the file by: its page's (site.KindsOf), for every one of
// those roles (a bundle resource, being a file, is `kind: file` as well). While the run keeps the
// site's map it is asked; once Run has let the map go, the file's record has the answer.
func (j *job) pageOf(f *record) *pageInfo {
	if i, ok := j.pageIndex(f); ok {
		return &j.info[i]
	}
	return nil
}

// pageIndex is the index in j.info of the page the file f takes its decision from (pageOf).
func (j *job) pageIndex(f *record) (int, bool) {
	if j.pages == nil {
		return int(f.page) - 1, f.page != 0
	}
	return pageIn(j.pages.Owners(), f.rel())
}

// pageIn is the index of the page the output file rel takes its decision from, by the site's
// index of output files (pageOf): none for an alias stub.
func pageIn(own *site.Owners, rel string) (int, bool) {
	i, r, ok := own.Index(rel)
	return i, ok && r != site.RoleAlias
}

// outputs is what a run keeps of the site's map from the moment it lets the pages go until every
// output file has its page: the index of output files to pages (which keeps the files' paths, not
// the pages) and what the source report needs of each source page. The map's pages, with their
// inputs and every file they own, are the largest thing a run holds; the output folder is listed
// once they are gone.
type outputs struct {
	own *site.Owners
	// files are each source page's own output file (site.Page.Output), by its index in Pages.
	files []string
	// reason says why the generator writes nothing for each page (site.Page.NoOutput), by its
	// index in Pages, as an index in reasons: a site has a handful of reasons ("draft", "future")
	// and may give one to most of its pages (dates ahead of the clock robotsmith reads).
	reason  []uint8
	reasons []string // reasons[0] is "", no reason
	// more are the reasons of pages past the 255th distinct one, which no generator gives.
	more map[int]string
}

// outputsOf takes what outputs keeps from the site's map m.
func outputsOf(m *site.Map) *outputs {
	o := &outputs{own: m.Owners(), files: make([]string, len(m.Pages)), reason: make([]uint8, len(m.Pages)), reasons: []string{""}}
	at := map[string]uint8{"": 0}
	for i := range m.Pages {
		o.files[i] = m.Pages[i].Output
		r := m.Pages[i].NoOutput()
		k, ok := at[r]
		switch {
		case ok:
			o.reason[i] = k
		case len(o.reasons) <= math.MaxUint8:
			at[r] = uint8(len(o.reasons))
			o.reason[i] = uint8(len(o.reasons))
			o.reasons = append(o.reasons, r)
		default:
			if o.more == nil {
				o.more = map[int]string{}
			}
			o.more[i] = r
		}
	}
	return o
}

// noOutput is why the generator writes nothing for page i (site.Page.NoOutput).
func (o *outputs) noOutput(i int) string {
	if r := o.reasons[o.reason[i]]; r != "" {
		return r
	}
	return o.more[i]
}

// letPagesGo lets the site's map go and returns what the run needs of it until each output file
// has its page (givePages): from then on what the run needs of a page is in j.info, a few words a
// page.
func (j *job) letPagesGo() *outputs {
	o := outputsOf(j.pages)
	j.pages = nil
	return o
}

// givePages records in every file's record the page it takes its decision from (pageOf).
func (o *outputs) givePages(files []record) {
	for i := range files {
		if k, ok := pageIn(o.own, files[i].rel()); ok {
			files[i].page = uint32(k) + 1
		}
	}
}

// sourceProblems are the warnings and errors of the sources the run's files took their decisions
// from, in site order, each once: a cascade's bad value is in the inputs of every page below it,
// shared (one source) or beside the page's own values (a source of the page's own).
func (j *job) sourceProblems() (warnings []string, errs []error) {
	seen := map[*source]bool{}
	said := map[string]bool{}
	for i := range j.info {
		s := j.info[i].src
		if s == nil || s.problems == nil || !s.used.Load() || seen[s] {
			continue
		}
		seen[s] = true
		for _, w := range s.problems.warnings {
			if !said[w] {
				said[w] = true
				warnings = append(warnings, w)
			}
		}
		if s.problems.err == nil {
			continue
		}
		for _, err := range unjoin(s.problems.err) {
			if m := err.Error(); !said[m] {
				said[m] = true
				errs = append(errs, err)
			}
		}
	}
	return warnings, errs
}

// runCommand runs the configured generator command in the site's root through the shell, as a
// Netlify or Cloudflare Pages build command is run.
func runCommand(ctx context.Context, root, command string, out io.Writer) error {
	if out == nil {
		out = io.Discard
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = root
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCommand, command, err)
	}
	return nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// aiMetaInputs are ai.meta's values (SPEC §9): noai, noimageai for every page, from the config
// line that asks for them, so that explain names it.
func aiMetaInputs(cfg *config.Config) []rules.Input {
	vals := cfg.AI.MetaValues()
	if len(vals) == 0 {
		return nil
	}
	src := rules.Source{Kind: rules.FromRule, File: cfg.File, Line: cfg.AI.MetaLine, Key: "ai.meta"}
	return []rules.Input{{Agent: "robots", Value: strings.Join(vals, ", "), Source: src}}
}

// previewInputs is SPEC §3.5: with `previews: noindex`, a preview build (previewKey) makes every
// page and file noindex.
func previewInputs(cfg *config.Config, env func(string) string) []rules.Input {
	if cfg.Previews != "noindex" {
		return nil
	}
	key := previewKey(cfg, env)
	if key == "" {
		return nil
	}
	return []rules.Input{{Agent: "robots", Value: "noindex", Source: rules.Source{Kind: rules.FromEnvironment, Key: key}}}
}

// previewKey names what makes the build a preview, "" for none: a Netlify deploy preview or branch
// deploy (CONTEXT other than production), a Cloudflare Pages preview (CF_PAGES_BRANCH other than
// the production branch).
func previewKey(cfg *config.Config, env func(string) string) string {
	if c := env("CONTEXT"); c != "" && c != "production" {
		return "CONTEXT=" + c
	}
	if env("CF_PAGES") == "1" {
		prod := firstOf(cfg.ProductionBranch, "main")
		if b := env("CF_PAGES_BRANCH"); b != "" && b != prod {
			return "CF_PAGES_BRANCH=" + b
		}
	}
	return ""
}
