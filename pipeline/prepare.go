package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/watch"
)

// job is one run once every input has been read: the configuration and its rules, and every source
// page with its directives compiled once. Its step (step.go) processes any set of output files, one
// at a time or on every core; it is safe for concurrent use and is never changed after prepare.
type job struct {
	opt     Options
	cfg     *config.Config
	site    *site.Site
	res     *rules.Resolver
	memo    *rules.Memo
	env     *rules.Compiled // the preview environment's noindex, nil when not a preview
	format  headers.Format
	cfgInfo os.FileInfo // the configuration file, nil when there is none

	pages *site.Map // every source page, indexed by the output files it owns
	// sources are the compiled directives of the pages that have any, by page.
	sources map[*site.Page]*source

	warnings []string // the configuration's and the site's warnings, each once
	// defaultLines are the X-Robots-Tag lines of a file that only the defaults decide.
	defaultLines []rules.HeaderLine
	// own, in watch mode, is told what each write puts in a file (write.go), so that the watcher
	// does not report robotsmith's own writes back; nil otherwise.
	own *watch.Own
}

// source is a source page's directives, compiled once, and their problems.
type source struct {
	inputs   *rules.Compiled
	problems *problems   // nil for the many sources that have none
	used     atomic.Bool // an output file took its decision from it: its problems are the run's
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
// reports them with every other problem of the site.
func prepare(ctx context.Context, opt Options) (*job, error) {
	j, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	return j, j.readSources()
}

// open is prepare up to reading the sources: the configuration, the rules, the command, and the
// site's layout, with its output folder checked.
func open(ctx context.Context, opt Options) (*job, error) {
	j, err := openLayout(ctx, opt)
	if err != nil {
		return nil, err
	}
	if err := j.checkOutput(); err != nil {
		return nil, err
	}
	return j, nil
}

// openLayout is open without looking at the output folder, which watch mode may have to wait for
// (the generator it runs writes it).
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
	j.res, j.memo = res, res.Memo()
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
	return j, nil
}

// checkOutput fails with ErrNoOutput when the output folder is not there.
func (j *job) checkOutput() error {
	if fi, err := os.Stat(j.site.Output); err != nil || !fi.IsDir() {
		hint := ""
		if j.cfg.Command != "" && !j.opt.RunCommand {
			hint = " (run `robotsmith build` or the generator first)"
		}
		return fmt.Errorf("%s: %w%s", j.site.Output, ErrNoOutput, hint)
	}
	return nil
}

// readSources maps every source page to its output files and compiles its directives.
func (j *job) readSources() error {
	m, err := j.site.Map()
	if err != nil {
		return err
	}
	j.pages = m
	for _, w := range m.Warnings {
		j.warnings = append(j.warnings, w.Error())
	}
	j.compile()
	return nil
}

// compile compiles the directives of every page that has any, once. Their warnings and errors are
// reported (once each) by the run only for the pages an output file takes its decision from: a
// draft that nothing was built for decides nothing.
func (j *job) compile() {
	j.sources = map[*site.Page]*source{}
	for i := range j.pages.Pages {
		if p := &j.pages.Pages[i]; len(p.Inputs) > 0 {
			j.sources[p] = compileSource(p.Inputs)
		}
	}
}

// compileSource compiles one page's directives.
func compileSource(inputs []rules.Input) *source {
	c, ws, err := rules.Compile(inputs)
	s := &source{inputs: c}
	if err != nil || len(ws) > 0 {
		s.problems = &problems{err: err}
		for _, w := range ws {
			s.problems.warnings = append(s.problems.warnings, w.String())
		}
	}
	return s
}

// sourceOf is the one place that says which source page an output file takes its decision from:
// the page that wrote it (whatever flags built it), the list page a pager page continues, the page
// another output format of it (index.xml, index.md) belongs to, or the page a bundle resource
// belongs to; nil for none, and for an alias stub, which is a redirect.
func (j *job) sourceOf(f *record) *site.Page {
	o := j.pages.Owner(f.rel())
	if o.Role == site.RoleAlias {
		return nil
	}
	return o.Page
}

// sourceProblems are the warnings and errors of the sources the run's files took their decisions
// from, in site order.
func (j *job) sourceProblems() (warnings []string, errs []error) {
	for i := range j.pages.Pages {
		if s := j.sources[&j.pages.Pages[i]]; s != nil && s.problems != nil && s.used.Load() {
			warnings = append(warnings, s.problems.warnings...)
			if s.problems.err != nil {
				errs = append(errs, s.problems.err)
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
