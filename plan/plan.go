// Package plan is what decides every file of a site's output (SPEC §2–§5): the configuration and
// its rules compiled, the site's layout, and every source page with its directives compiled, read
// once into one Plan that nothing changes afterwards; and the one step that applies it to a file,
// a function of the plan and the file's bytes that gives the file's new bytes and its record.
// It reads the site's sources and configuration, and never the output: the commands (package
// pipeline) list the output, read each file, write what Apply returns, and look at the whole site
// once every file is decided.
//
// Usage:
//
//	p, err := plan.Open(plan.Options{Root: "my-site"}) // the configuration, the rules, the layout
//	if err != nil {
//		return err
//	}
//	if p, err = p.Read(ctx); err != nil { // every source page, compiled
//		return err
//	}
//	files := []plan.Record{plan.NewRecord("/index.html", false)} // the output's, sorted by path
//	p.Locate(files)                                              // each file's page
//	links := plan.NewLinks()
//	var a plan.Applier // one for each goroutine
//	r := a.Apply(p, &files[0], src, files) // scan, decide, splice: src is the file's bytes
//	links.Keep(&files[0], &r)               // the page's canonical and hreflang links
//	if r.Out != nil {
//		// write r.Out in place of the file
//	}
//
// A run keeps of each file its Record, a few words whatever the file's size, the decision shared
// with every file decided alike (rules.Memo); a build that lets the site's map go before it lists
// the output (LetPagesGo) holds only a few words a page of it. Watch mode makes a new plan from the
// old one and the sources that changed (Remap), and asks it which files it decides otherwise
// (Changed).
package plan

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
)

// Options says where the site is and what to read it with.
type Options struct {
	Root   string // the site's root folder (SITE); "" means "."
	Config string // --config: the configuration file; "" finds it in Root
	Output string // --output: overrides the output folder
	// Env looks up environment variables (CONTEXT, CF_PAGES_BRANCH, HUGO_ENVIRONMENT, ...);
	// nil means none are set.
	Env func(string) string
	// Now is the build clock for future and expired pages; zero means time.Now().
	Now time.Time
}

// Plan is what decides every file of a site's output, read once: the configuration and its rules
// compiled, the site's layout, and every source page with its directives compiled (Read). Nothing
// changes a Plan once it is made: a new reading of the sources is a new Plan (Remap), which shares
// with the old one what did not change. It is safe for concurrent use.
type Plan struct {
	opt  Options
	cfg  *config.Config
	site *site.Site
	res  *rules.Resolver
	memo *rules.Memo
	// compiler compiles the sources: the many that say the same share one parsed form.
	compiler *rules.Compiler
	env      *rules.Compiled // the preview environment's noindex, nil when not a preview
	aiMeta   *rules.Compiled // ai.meta's noai, noimageai for every page, nil without it
	format   headers.Format
	hosts    Hosts       // headers.format, resolved (hosts.go)
	cfgInfo  os.FileInfo // the configuration file, nil when there is none
	// defaultLines are the X-Robots-Tag lines of a file that only the defaults decide.
	defaultLines []rules.HeaderLine
	urls         URLs              // the site's base URL: pages' links and sitemaps' locs resolve under it
	warnings     []problem.Problem // the configuration's and its rules' warnings, each once

	// What reading the sources made (Read, Remap): none for a plan that Open made.
	//
	// pages is every page of the site, indexed by the output files it owns; nil once let go
	// (LetPagesGo), when each file has its page in its record (Locate). Watch mode and explain
	// keep it.
	pages *site.Map
	// info is what a plan keeps of each page of pages, a few words, by its index there
	// (site.Owner.Index).
	info      []pageInfo
	kindLangs []kindLang // the kinds and language of pages, each pair once (pageInfo.kl)
	// pageWarnings are the site's mapping's warnings (site.Map.Warnings), each once.
	pageWarnings []problem.Problem
}

// pageInfo is what an output file takes its decision from, of its page: the page's source, its
// compiled directives, its kinds and language. A plan keeps one for each page of the site, a few
// words, where the site's map keeps the page with every file it owns.
type pageInfo struct {
	source string  // site.Page.Source; "" for a page the generator made without one
	src    *Source // its compiled directives; nil for none
	kl     uint16  // its kinds and language: Plan.kindLangs[kl]
}

// kindLang are a page's kinds (site.KindsOf) and language, as rules select files by them.
type kindLang struct {
	kinds []string
	lang  string
}

// Source is a source page's directives, compiled once, and their problems.
type Source struct {
	inputs   *rules.Compiled
	problems *problems // nil for the many sources that have none
}

// problems are what compiling a source found.
type problems struct {
	warnings []problem.Problem
	err      error // its malformed values
}

// Warnings are the source's warnings (an unknown or obsolete value), each naming its file and
// line.
func (s *Source) Warnings() []problem.Problem {
	if s == nil || s.problems == nil {
		return nil
	}
	return s.problems.warnings
}

// Err is the source's malformed values, or nil: a file that takes its decision from it is not
// written (fail closed).
func (s *Source) Err() error {
	if s == nil || s.problems == nil {
		return nil
	}
	return s.problems.err
}

// sourceSlab hands out sources from slabs of them: a plan keeps one for each source page with
// directives, as long as it is used, and as objects of their own they were 100,000 small things
// that the collector marked on every cycle. A compile fills its own slab (watch mode compiles
// again for each new plan, and a slab shared with the old plan would be written by both).
type sourceSlab struct{ free []Source }

func (s *sourceSlab) cut() *Source {
	if len(s.free) == 0 {
		s.free = make([]Source, 256)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// Open reads the configuration and compiles its rules, and opens the site's layout (its
// generator's configuration): a plan with no page read yet (Read). Everything it returns as an
// error is an input problem.
func Open(opt Options) (*Plan, error) {
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
	p := &Plan{opt: opt, cfg: cfg}
	if cfg.File != "" {
		p.cfgInfo, _ = os.Stat(cfg.File)
	}
	if p.hosts, err = resolveHosts(cfg, opt.Root); err != nil {
		return nil, err
	}
	for _, h := range p.hosts.List {
		if f, ok := h.Dialect(); ok {
			p.format = f
		}
	}
	res, err := rules.New(cfg.Rules())
	if err != nil {
		return nil, err
	}
	p.res, p.memo, p.compiler = res, res.Memo(), rules.NewCompiler()
	for _, w := range res.Warnings() {
		p.warnings = append(p.warnings, w.Problem())
	}
	p.warnings = append(p.warnings, cfg.AIWarnings()...) // ai's settings that contradict each other (SPEC §9)
	base, err := rules.New(rules.Config{Defaults: cfg.Defaults, Style: cfg.Tags})
	if err != nil {
		return nil, err
	}
	d, _, err := base.Decide(rules.Item{Path: "/", Asset: true})
	if err != nil {
		return nil, err
	}
	p.defaultLines = d.HeaderLines()
	// The environment's input is ours, and well-formed.
	p.env, _, _ = rules.Compile(previewInputs(cfg, opt.Env))
	p.aiMeta, _, _ = rules.Compile(aiMetaInputs(cfg))

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
	p.site = s
	p.urls = newURLs(s.BaseURL)
	return p, nil
}

// Read maps every source page to its output files and compiles its directives, once: the pages
// that share one slice of inputs (those one cascade or default alone reaches) share one compiled
// source. It returns the new plan, which keeps the site's map (LetPagesGo lets it go). Malformed
// values in the sources do not stop it: they are kept with their source (Source.Err), so that a
// run reports them with every other problem of the site. Once ctx ends (SIGINT, SIGTERM) it reads
// and compiles no more, and returns ctx's error.
func (p *Plan) Read(ctx context.Context) (*Plan, error) {
	m, err := p.site.MapContext(ctx)
	if err != nil {
		return nil, err
	}
	type sliceKey struct {
		first *rules.Input
		n     int
	}
	shared := map[sliceKey]*Source{}
	var slab sourceSlab
	np := p.with(m, func(pg *site.Page) *Source {
		if len(pg.Inputs) == 0 {
			return nil
		}
		k := sliceKey{&pg.Inputs[0], len(pg.Inputs)}
		s := shared[k]
		if s == nil {
			s = p.compile(ctx, pg.Inputs, &slab)
			shared[k] = s
		}
		return s
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return np, nil
}

// Remap is Read for a site that is read again and again while its author edits it (watch mode):
// the new plan of the site once the paths changed have changed (site.Remap: the sources they name
// are read again, the others' readings kept; the site's root for all). A source whose directives
// did not change keeps its compiled form, and its problems. The mapping's warnings are returned
// with its error too.
func (p *Plan) Remap(ctx context.Context, changed []string) (np *Plan, warnings []problem.Problem, err error) {
	m, err := p.site.RemapContext(ctx, changed)
	if m != nil {
		for _, w := range m.Warnings {
			warnings = append(warnings, problem.List(w)...)
		}
	}
	if err != nil {
		return nil, warnings, err
	}
	// Both maps' pages are in source order: each page meets its previous self walking both.
	var old []site.Page
	if p.pages != nil {
		old = p.pages.Pages
	}
	k := 0
	var slab sourceSlab
	np = p.with(m, func(pg *site.Page) *Source {
		for k < len(old) && old[k].Source < pg.Source {
			k++
		}
		op := -1
		if k < len(old) && old[k].Source == pg.Source {
			op = k
			k++
		}
		switch {
		case len(pg.Inputs) == 0:
			return nil
		case op >= 0 && p.info[op].src != nil && sameInputs(old[op].Inputs, pg.Inputs):
			return p.info[op].src
		}
		return p.compile(ctx, pg.Inputs, &slab)
	})
	if err := ctx.Err(); err != nil {
		return nil, warnings, err
	}
	return np, warnings, nil
}

// with is p with the pages of m, each page's compiled directives from src (called in site order,
// the pages made without a source after the others: the cascades that reach those are theirs).
func (p *Plan) with(m *site.Map, src func(pg *site.Page) *Source) *Plan {
	np := *p
	np.pages, np.kindLangs, np.pageWarnings = m, nil, nil
	for _, w := range m.Warnings {
		np.pageWarnings = append(np.pageWarnings, problem.List(w)...)
	}
	// site.KindsOf, worked out once for every page kind of the site.
	kinds := map[string][]string{}
	kls := map[[2]string]uint16{}
	kl := func(pg *site.Page) uint16 {
		k := [2]string{pg.Kind(), pg.Lang()}
		i, ok := kls[k]
		if !ok {
			ks, ok := kinds[pg.Kind()]
			if !ok {
				ks = p.site.KindsOf(pg.Kind())
				kinds[pg.Kind()] = ks
			}
			i = uint16(len(np.kindLangs))
			kls[k] = i
			np.kindLangs = append(np.kindLangs, kindLang{ks, pg.Lang()})
		}
		return i
	}
	np.info = make([]pageInfo, 0, len(m.Pages)+len(m.Sourceless))
	for i := range m.Pages {
		pg := &m.Pages[i]
		np.info = append(np.info, pageInfo{source: pg.Source, src: src(pg), kl: kl(pg)})
	}
	for i := range m.Sourceless {
		pg := &m.Sourceless[i]
		np.info = append(np.info, pageInfo{src: src(pg), kl: kl(pg)})
	}
	return &np
}

// compile compiles one page's directives, sharing what they say with the pages that say the
// same (rules.Compiler), into a source cut from slab.
// Once ctx has ended it compiles nothing: the run is given up.
func (p *Plan) compile(ctx context.Context, inputs []rules.Input, slab *sourceSlab) *Source {
	if ctx.Err() != nil {
		return nil
	}
	c, ws, err := p.compiler.CompileContext(ctx, inputs)
	s := slab.cut()
	s.inputs = c
	if err != nil || len(ws) > 0 {
		s.problems = &problems{err: err}
		for _, w := range ws {
			s.problems.warnings = append(s.problems.warnings, w.Problem())
		}
	}
	return s
}

// sameInputs reports whether two pages' inputs are the same: most often the very same slice (a
// page whose source was not read again, or that one cascade or default alone reaches).
func sameInputs(a, b []rules.Input) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b))
}

// Changed are the paths of the records among files whose decision the plan may make otherwise than
// old did: those whose page, or whose page's directives, differ. It looks every file up in both
// plans' maps, on all cores.
func (p *Plan) Changed(old *Plan, files []Record) []string {
	parts := make([][]string, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := w*len(files)/len(parts), (w+1)*len(files)/len(parts)
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if f := &files[i]; !sameSource(old, p, f.Rel()) {
					parts[w] = append(parts[w], f.path)
				}
			}
		})
	}
	wg.Wait()
	return slices.Concat(parts...)
}

// sameSource reports whether the output file rel takes its decision from the same page, saying
// the same, in the plans a and b.
func sameSource(a, b *Plan, rel string) bool {
	oa, ob := a.pages.Owner(rel), b.pages.Owner(rel)
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

// Locate records in every file's record the page it takes its decision from, by the plan's map:
// the page that wrote it (whatever flags built it), the list page a pager page continues, the page
// another output format of it (index.xml, index.md) belongs to, or the page a bundle resource
// belongs to; none for an alias stub, which is a redirect, or a file of no page.
func (p *Plan) Locate(files []Record) { locate(p.pages.Owners(), files) }

func locate(own *site.Owners, files []Record) {
	for i := range files {
		files[i].page = 0
		if k, ok := pageIn(own, files[i].Rel()); ok {
			files[i].page = uint32(k) + 1
		}
	}
}

// pageIn is the index of the page the output file rel takes its decision from, by the site's
// index of output files (Locate): none for an alias stub.
func pageIn(own *site.Owners, rel string) (int, bool) {
	i, r, ok := own.Index(rel)
	return i, ok && r != site.RoleAlias
}

// pageOf is the page the file f takes its decision from (Locate), nil for none. Its pageInfo has
// the page's source (none when the generator made the page without one: a list, a 404 page) and
// the kinds and language that rules select the file by: its page's (site.KindsOf), for every one
// of the roles Locate gives a file (a bundle resource, being a file, is `kind: file` as well).
func (p *Plan) pageOf(f *Record) *pageInfo {
	if f.page == 0 {
		return nil
	}
	return &p.info[f.page-1]
}

// SourceOf is the source page the file f takes its decision from (content/blog/a.md), "" for none.
func (p *Plan) SourceOf(f *Record) string {
	if pi := p.pageOf(f); pi != nil {
		return pi.source
	}
	return ""
}

// Home reports whether the file f is a home page: the site's or a language's, the HTML page of
// kind home at "/" or a language's "/fr/". The home's other pages of a list (/page/2/) are of kind
// home too, but a search engine's way in is the first.
func (p *Plan) Home(f *Record) bool {
	pi := p.pageOf(f)
	if pi == nil || !f.HTML() || !slices.Contains(p.kindLangs[pi.kl].kinds, "home") {
		return false
	}
	u := strings.Trim(f.URL(), "/")
	return f.URL() == "/" || strings.HasSuffix(f.URL(), "/") && u != "" && !strings.Contains(u, "/")
}

// Source is the compiled directives the file f takes its decision from, nil for none: those of its
// page, one each for the pages that say the same.
func (p *Plan) Source(f *Record) *Source {
	if pi := p.pageOf(f); pi != nil {
		return pi.src
	}
	return nil
}

// AliasOf is the source page that the output file rel redirects to, when it is an alias stub; ""
// otherwise. The plan keeps its map (explain).
func (p *Plan) AliasOf(rel string) string {
	if a := p.pages.Owner(rel); a.Role == site.RoleAlias {
		return a.Page.Source
	}
	return ""
}

// SourceProblems are the warnings and errors of the sources that files take their decisions from,
// in site order, each once: a cascade's bad value is in the inputs of every page below it, shared
// (one source) or beside the page's own values (a source of the page's own).
func (p *Plan) SourceProblems(files []Record) (warnings []problem.Problem, errs []error) {
	used := make([]bool, len(p.info))
	for i := range files {
		if k := files[i].page; k != 0 {
			used[k-1] = true
		}
	}
	seen := map[*Source]bool{}
	said := map[string]bool{}
	for i := range p.info {
		s := p.info[i].src
		if s == nil || s.problems == nil || !used[i] || seen[s] {
			continue
		}
		seen[s] = true
		for _, w := range s.problems.warnings {
			if m := w.Error(); !said[m] {
				said[m] = true
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

// unjoin lists the errors errors.Join put together in err, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// Options are the options the plan was opened with, "" and nil made their defaults.
func (p *Plan) Options() Options { return p.opt }

// Config is the configuration, as read: not to be changed.
func (p *Plan) Config() *config.Config { return p.cfg }

// Site is the site's layout, as opened: to be read, never remapped (the plan does: Remap).
func (p *Plan) Site() *site.Site { return p.site }

// ConfigInfo is the configuration file as it was read, nil when there is none.
func (p *Plan) ConfigInfo() os.FileInfo { return p.cfgInfo }

// Format is the _headers file's host.
func (p *Plan) Format() headers.Format { return p.format }

// URLs is the site's URL space.
func (p *Plan) URLs() URLs { return p.urls }

// Warnings are the configuration's and its rules' warnings, each once.
func (p *Plan) Warnings() []problem.Problem { return p.warnings }

// PageWarnings are the warnings of the site's mapping (Read), each once: problems the generator
// lets pass.
func (p *Plan) PageWarnings() []problem.Problem { return p.pageWarnings }

// Preview reports whether the build is a preview (SPEC §3.5): a Netlify deploy preview or branch
// deploy, a Cloudflare Pages preview.
func (p *Plan) Preview() bool { return previewKey(p.cfg, p.opt.Env) != "" }

// ErrorPage is the error_pages pattern that makes the URL path an error page, "" for none.
func (p *Plan) ErrorPage(url string) string { return p.res.ErrorPage(url) }

// Outputs is what a run keeps of the site's map from the moment it lets the pages go until every
// output file has its page (LetPagesGo): the index of output files to pages (which keeps the files'
// paths, not the pages) and what the source report needs of each source page. The map's pages,
// with their inputs and every file they own, are the largest thing a run holds; the output folder
// is listed once they are gone.
type Outputs struct {
	own  *site.Owners
	info []pageInfo // the plan's, for the pages' sources
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

// LetPagesGo is the plan without the site's map, and what a run needs of the map until each output
// file has its page (Outputs.Locate): from then on what the plan needs of a page is its pageInfo,
// a few words a page.
func (p *Plan) LetPagesGo() (*Plan, *Outputs) {
	o := p.Outputs()
	np := *p
	np.pages = nil
	return &np, o
}

// Outputs takes what Outputs keeps from the plan's map.
func (p *Plan) Outputs() *Outputs {
	m := p.pages
	o := &Outputs{own: m.Owners(), info: p.info, files: make([]string, len(m.Pages)), reason: make([]uint8, len(m.Pages)), reasons: []string{""}}
	at := map[string]uint8{"": 0}
	for i := range m.Pages {
		o.files[i] = m.Pages[i].Output
		r := m.Pages[i].NoOutput()
		k, ok := at[r]
		switch {
		case ok:
			o.reason[i] = k
		case len(o.reasons) <= 255:
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

// Locate is Plan.Locate by the map's index the Outputs keep.
func (o *Outputs) Locate(files []Record) { locate(o.own, files) }

// noOutput is why the generator writes nothing for page i (site.Page.NoOutput).
func (o *Outputs) noOutput(i int) string {
	if r := o.reasons[o.reason[i]]; r != "" {
		return r
	}
	return o.more[i]
}

// Missing is a source page the generator publishes whose output file is not in the output.
type Missing struct {
	Source string // the source page: content/blog/a.md
	File   string // the file expected, slash path relative to the output folder
}

// Unpublished says, by the output's files (sorted by path), which source pages the generator
// publishes nothing for, each with why ("content/blog/wip.md (draft)"), and which it publishes
// though their output file cannot be found (SPEC §2): no file is stat'ed. A page whose file is there
// is published, whatever the generator's flags; one whose file is absent is not published when the
// generator would not write it (a draft without -D), else it is missing.
func (o *Outputs) Unpublished(files []Record) (unpublished []string, missing []Missing) {
	for i, file := range o.files {
		if file != "" && Index(files, file) >= 0 {
			continue
		}
		source := o.info[i].source
		if reason := o.noOutput(i); reason != "" || file == "" {
			if reason == "" {
				reason = "no output"
			}
			unpublished = append(unpublished, source+" ("+reason+")")
			continue
		}
		missing = append(missing, Missing{Source: source, File: file})
	}
	return unpublished, missing
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
		prod := cfg.ProductionBranch
		if prod == "" {
			prod = "main"
		}
		if b := env("CF_PAGES_BRANCH"); b != "" && b != prod {
			return "CF_PAGES_BRANCH=" + b
		}
	}
	return ""
}
