// Package pipeline is robotsmith's build: it wires config, site, rules, rewrite and headers into the
// work that `robotsmith build`, `check` and `explain` do (SPEC §1–§6).
//
// Usage:
//
//	rep, err := pipeline.Run(ctx, pipeline.Options{Root: "my-site", Write: true, RunCommand: true})
//	if err != nil {
//		return err // every problem found, joined; no output file was changed
//	}
//	fmt.Print(rep.Summary(true, false)) // write: true (build); verbose: false
//
// Run validates every input first (the configuration, its rules, every page's front matter and the
// robots tags already in the generated pages) and only then writes: each changed file goes to a
// temporary file beside it, and only when every file is ready are they renamed into place, so a build
// that fails leaves every output file as it was.
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/rewrite"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
)

// Options says what to do. The zero value (with Root set) is `robotsmith check` without the
// configured command.
type Options struct {
	Root       string // the site's root folder (SITE); "" means "."
	Config     string // --config: the configuration file; "" finds it in Root
	Output     string // --output: overrides the output folder
	Write      bool   // build writes; check does not
	RunCommand bool   // run the configured command first (build)
	// Env looks up environment variables (CONTEXT, CF_PAGES_BRANCH, HUGO_ENVIRONMENT, ...);
	// nil means none are set.
	Env func(string) string
	// Now is the build clock for future and expired pages; zero means time.Now().
	Now time.Time
	// CommandOutput receives the configured command's stdout and stderr; nil discards them.
	CommandOutput io.Writer
	// Progress, when set, is called as pages are processed.
	Progress func(done, total int)
	// Workers is how many pages are processed at once; 0 means one per CPU.
	Workers int
}

// ErrCommand is returned (wrapped) when the configured generator command fails.
var ErrCommand = errors.New("command failed")

// ErrNoOutput is returned (wrapped) when the output folder does not exist.
var ErrNoOutput = errors.New("output folder not found")

// job is one run's state once every input has been read.
type job struct {
	opt      Options
	cfg      *config.Config
	site     *site.Site
	res      *rules.Resolver
	agents   []string
	env      []rules.Input
	pages    *site.Map // every source page, indexed by the output files it owns
	warnings []string
	cfgInfo  os.FileInfo // the configuration file, nil when there is none
	// defaultLines are the X-Robots-Tag lines of a file that only the defaults decide.
	defaultLines []string
}

// prepare reads the configuration, runs the command, opens the site, reads every page and compiles
// the rules. Everything it returns as an error is an input problem; nothing has been written.
func prepare(ctx context.Context, opt Options) (*job, error) {
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
	j := &job{opt: opt, cfg: cfg}
	if cfg.File != "" {
		j.cfgInfo, _ = os.Stat(cfg.File)
	}
	res, err := rules.New(cfg.Rules())
	if err != nil {
		return nil, err
	}
	j.res = res
	for _, w := range res.Warnings() {
		j.warnings = append(j.warnings, w.String())
	}
	j.agents = cfg.Agents()
	base, err := rules.New(rules.Config{Defaults: cfg.Defaults, Style: cfg.Tags})
	if err != nil {
		return nil, err
	}
	d, _, err := base.Decide(rules.Item{Path: "/", Asset: true})
	if err != nil {
		return nil, err
	}
	j.defaultLines = d.HeaderLines()
	j.env = previewInputs(cfg, opt.Env)

	if opt.RunCommand && cfg.Command != "" {
		if err := runCommand(ctx, opt.Root, cfg.Command, opt.CommandOutput); err != nil {
			return nil, err
		}
	}

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
	j.site = s
	if fi, err := os.Stat(s.Output); err != nil || !fi.IsDir() {
		hint := ""
		if cfg.Command != "" && !opt.RunCommand {
			hint = " (run `robotsmith build` or the generator first)"
		}
		return nil, fmt.Errorf("%s: %w%s", s.Output, ErrNoOutput, hint)
	}
	m, err := s.Map()
	if err != nil {
		return nil, err
	}
	j.pages = m
	for _, w := range m.Warnings {
		j.warnings = append(j.warnings, w.Error())
	}
	return j, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
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

// previewInputs is SPEC §3.5: with `previews: noindex`, a Netlify deploy preview or branch deploy
// (CONTEXT other than production) or a Cloudflare Pages preview (CF_PAGES_BRANCH other than the
// production branch) makes every page and file noindex.
func previewInputs(cfg *config.Config, env func(string) string) []rules.Input {
	if cfg.Previews != "noindex" {
		return nil
	}
	key := ""
	if c := env("CONTEXT"); c != "" && c != "production" {
		key = "CONTEXT=" + c
	} else if env("CF_PAGES") == "1" {
		prod := firstOf(cfg.ProductionBranch, "main")
		if b := env("CF_PAGES_BRANCH"); b != "" && b != prod {
			key = "CF_PAGES_BRANCH=" + b
		}
	}
	if key == "" {
		return nil
	}
	return []rules.Input{{Agent: "robots", Value: "noindex", Source: rules.Source{Kind: rules.FromEnvironment, Key: key}}}
}

// file is one file of the output.
type file struct {
	rel  string // slash path relative to the output folder
	url  string // URL path as served
	html bool
}

// hostFiles are files that hosts read as configuration and never serve.
var hostFiles = map[string]bool{"_headers": true, "_redirects": true, "_routes.json": true, "_worker.js": true}

const tempPrefix = ".robotsmith-"

// walk lists the output's files, sorted.
func (j *job) walk() ([]file, error) {
	var files []file
	err := filepath.WalkDir(j.site.Output, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		rel, err := filepath.Rel(j.site.Output, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if hostFiles[rel] || j.isConfig(p) {
			return nil
		}
		files = append(files, newFile(rel))
		return nil
	})
	sort.Slice(files, func(a, b int) bool { return files[a].rel < files[b].rel })
	return files, err
}

// newFile describes the output file rel (slash path relative to the output folder).
func newFile(rel string) file {
	ext := strings.ToLower(path.Ext(rel))
	return file{rel: rel, url: URLPath(rel), html: ext == ".html" || ext == ".htm"}
}

// isConfig reports whether p is robotsmith's configuration file, which stands in the output folder
// when the site is a plain folder (`robotsmith build public/`): it is not one of the site's files.
func (j *job) isConfig(p string) bool {
	if j.cfgInfo == nil || filepath.Base(p) != j.cfgInfo.Name() {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && os.SameFile(fi, j.cfgInfo)
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

// sourcePage is the page whose decision an output file takes: the page that wrote it (whatever
// flags built it), the list page a pager page continues, the page another output format of it
// (index.xml, index.md) belongs to, or the page a bundle resource belongs to. An alias stub takes
// none: it is a redirect. A list page the generator made without a source (and its pager pages
// and formats) has an owner, with its kind and language, but no source page.
func (j *job) sourcePage(f file) *site.Page {
	o := j.pages.Owner(f.rel)
	if o.Role == site.RoleAlias || o.Page == nil || o.Page.Source == "" {
		return nil
	}
	return o.Page
}

// result is what processing one output file found.
type result struct {
	f        file
	decision rules.Decision
	skipped  bool // an .html file that is not an HTML document, left byte-identical
	changed  bool
	temp     string // the temporary file holding the new content (build only)
	warnings []string
	err      error
}

// Run does `build` (opt.Write) or `check`.
func Run(ctx context.Context, opt Options) (*Report, error) {
	j, err := prepare(ctx, opt)
	if err != nil {
		return nil, err
	}
	files, err := j.walk()
	if err != nil {
		return nil, err
	}
	results := j.process(ctx, files)

	rep := &Report{Site: j.opt.Root, Generator: j.site.Generator, Output: j.site.Output, Config: j.cfg.File}
	rep.Warnings = append(rep.Warnings, j.warnings...)
	var (
		errs  []error
		temps []string
		hdrs  []headers.File
	)
	for i := range results {
		r := &results[i]
		rep.Warnings = append(rep.Warnings, r.warnings...)
		if r.err != nil {
			errs = append(errs, r.err)
			continue
		}
		if r.temp != "" {
			temps = append(temps, r.temp)
		}
		rep.count(r)
		hdrs = append(hdrs, j.headerFiles(r)...)
	}
	j.missingOutputs(rep)
	if len(errs) == 0 {
		t, err := j.headers(rep, hdrs)
		if err != nil {
			errs = append(errs, err)
		} else if t != "" {
			temps = append(temps, t)
		}
	}
	if len(errs) > 0 || ctx.Err() != nil {
		removeAll(temps)
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
		}
		return rep, errors.Join(errs...)
	}
	// Every file is ready: put them all in place.
	for _, t := range temps {
		if err := os.Rename(t, finalName(t)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		removeAll(temps)
		return rep, errors.Join(errs...)
	}
	rep.Wrote = opt.Write && len(temps) > 0
	sort.Strings(rep.ChangedFiles)
	return rep, nil
}

// process decides and rewrites every file on all cores.
func (j *job) process(ctx context.Context, files []file) []result {
	results := make([]result, len(files))
	workers := j.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		next = make(chan int)
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = j.one(files[i])
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
	return results
}

// one processes one output file.
func (j *job) one(f file) (r result) {
	r.f = f
	defer func() {
		// A bug in one page must not take the others down with it, nor leave temporary files behind.
		if p := recover(); p != nil {
			r.err = fmt.Errorf("%s: internal error: %v", j.outName(f.rel), p)
		}
	}()
	if !f.html {
		d, ws, err := j.res.Decide(j.item(f, rewrite.Page{}))
		r.decision, r.warnings, r.err = d, warningStrings(ws), err
		return r
	}
	name := filepath.Join(j.site.Output, filepath.FromSlash(f.rel))
	src, err := os.ReadFile(name)
	if err != nil {
		r.err = err
		return r
	}
	decided := false
	out, changed, err := rewrite.Process(src, j.agents, func(pg rewrite.Page) rules.Directives {
		decided = true
		d, ws, err := j.res.Decide(j.item(f, pg))
		r.decision, r.warnings, r.err = d, warningStrings(ws), err
		if err != nil {
			return rules.Directives{}
		}
		return d.Directives()
	})
	switch {
	case err != nil:
		r.err = fmt.Errorf("%s: %w", j.outName(f.rel), err)
		return r
	case r.err != nil:
		return r
	case !decided:
		// Not an HTML document (a `layout: null` fragment): it cannot carry a tag, so its
		// decision goes to _headers as X-Robots-Tag, like any other file's.
		r.skipped = true
		it := j.item(f, rewrite.Page{})
		it.Asset = true
		d, ws, err := j.res.Decide(it)
		r.decision, r.warnings, r.err = d, warningStrings(ws), err
		return r
	case !changed:
		return r
	}
	r.changed = true
	if j.opt.Write {
		r.temp, r.err = writeTemp(name, out)
	}
	return r
}

// item is what the resolver decides for an output file: its source page's directives (cascade and
// front matter), the robots tags already in it (unless `existing: replace`), and the environment.
func (j *job) item(f file, pg rewrite.Page) rules.Item {
	var inputs []rules.Input
	if page := j.sourcePage(f); page != nil {
		inputs = append(inputs, page.Inputs...)
	}
	if !j.cfg.ReplaceExisting() {
		for _, t := range pg.Tags {
			inputs = append(inputs, rules.Input{Agent: t.Name, Value: t.Content, Source: rules.Source{
				Kind: rules.FromPage, File: j.outName(f.rel), Line: t.Line, Key: t.Name,
			}})
		}
	}
	inputs = append(inputs, j.env...)
	return rules.Item{Path: f.url, Inputs: inputs, Redirect: pg.Redirect, Asset: !f.html}
}

// outName names an output file the way messages show it: relative to the working directory.
func (j *job) outName(rel string) string {
	return filepath.ToSlash(filepath.Join(j.site.Output, filepath.FromSlash(rel)))
}

func warningStrings(ws []rules.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

// headerLines are the X-Robots-Tag lines _headers gives a processed file: none for a file whose lines
// mean what the defaults mean (a theme's `index, follow` needs no rule), for pages unless
// `headers: {html: true}`, and for error pages and redirect stubs.
func (j *job) headerLines(r *result) []string {
	switch {
	case r.skipped:
		// decided as a file: a fragment's noindex is sent as X-Robots-Tag
	case r.f.html && !(j.cfg.Headers.HTML && (r.decision.Class == rules.Public || r.decision.Class == rules.NonPublic)):
		return nil
	}
	lines := r.decision.HeaderLines()
	if slices.Equal(lines, j.defaultLines) {
		return nil
	}
	return lines
}

// headerFiles are the _headers entries for a processed file, one per URL the host serves it at.
// Every served file has them, those without lines too, so that a folded Cloudflare rule is proved
// to cover no other file. A page file not named index.html (about.html) is served at /about as well
// by both hosts; Cloudflare answers /about.html with a redirect to /about, so only /about counts
// there.
func (j *job) headerFiles(r *result) []headers.File {
	lines := j.headerLines(r)
	u := r.f.url
	if !r.f.html || !strings.HasSuffix(u, ".html") {
		return []headers.File{{Path: u, Lines: lines}}
	}
	bare := strings.TrimSuffix(u, ".html")
	if j.cfg.Headers.Format == "cloudflare" {
		return []headers.File{{Path: bare, Lines: lines}}
	}
	return []headers.File{{Path: u, Lines: lines}, {Path: bare, Lines: lines}}
}

// headers writes (to a temporary file) the _headers file, when any file needs a rule or the output
// already has one.
func (j *job) headers(rep *Report, files []headers.File) (string, error) {
	name := filepath.Join(j.site.Output, "_headers")
	existing, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	needed := false
	for _, f := range files {
		if len(f.Lines) > 0 {
			needed = true
			rep.HeaderRules++
		}
	}
	if !needed && !bytes.Contains(existing, []byte(headers.BeginMarker)) {
		return "", nil
	}
	format := headers.Netlify
	if j.cfg.Headers.Format == "cloudflare" {
		format = headers.Cloudflare
	}
	block, err := headers.Block(files, headers.Options{Format: format, Existing: existing})
	if err != nil {
		return "", fmt.Errorf("%s: %w", filepath.ToSlash(name), err)
	}
	for _, f := range headers.Lint(existing, files, format) {
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s:%d: %s: %s", filepath.ToSlash(name), f.Line, f.Path, f.Msg))
	}
	out := headers.Merge(existing, block)
	if bytes.Equal(out, existing) {
		return "", nil
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, "_headers")
	if !j.opt.Write {
		return "", nil
	}
	return writeTemp(name, out)
}

// missingOutputs reports source pages whose output cannot be found (SPEC §2). A page whose file
// is there is published, whatever the generator's flags; one whose file is absent is counted as
// not published when the generator would not write it (a draft without -D), else it is a finding.
func (j *job) missingOutputs(rep *Report) {
	for _, p := range j.pages.Pages {
		if p.Output != "" {
			if _, err := os.Stat(filepath.Join(j.site.Output, filepath.FromSlash(p.Output))); err == nil {
				continue
			}
		}
		if p.NoOutput != "" || p.Output == "" {
			reason := p.NoOutput
			if reason == "" {
				reason = "no output"
			}
			rep.NoOutput++
			rep.Unpublished = append(rep.Unpublished, p.Source+" ("+reason+")")
			continue
		}
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s: no output found (expected %s)", p.Source, j.outName(p.Output)))
	}
}

// writeTemp writes data to a temporary file beside name, with name's mode, and returns its path.
func writeTemp(name string, data []byte) (string, error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), tempPrefix+filepath.Base(name)+".*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// finalName is the file a temporary file replaces: ".robotsmith-index.html.123" -> "index.html".
func finalName(temp string) string {
	dir, base := filepath.Split(temp)
	base = strings.TrimPrefix(base, tempPrefix)
	if i := strings.LastIndex(base, "."); i > 0 {
		base = base[:i]
	}
	return filepath.Join(dir, base)
}

func removeAll(temps []string) {
	for _, t := range temps {
		os.Remove(t)
	}
}
