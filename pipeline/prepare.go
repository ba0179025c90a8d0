package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/site"
)

// job is one run once every input has been read: the configuration and its rules, every source
// page compiled once, and the index that says which source page an output file takes its decision
// from. Its step (step.go) processes any set of output files, one at a time or on every core; it is
// safe for concurrent use and is never changed after prepare.
type job struct {
	opt     Options
	cfg     *config.Config
	site    *site.Site
	res     *rules.Resolver
	memo    *rules.Memo
	env     *rules.Compiled // the preview environment's noindex, nil when not a preview
	format  headers.Format
	cfgInfo os.FileInfo // the configuration file, nil when there is none

	sources  []source    // every source page with an output file, in site order
	outputs  []outputRef // output file -> source, sorted by file
	bundled  []outputRef // bundle resource -> source, sorted by file
	aliases  []outputRef // alias stub -> the source it redirects to, sorted by file
	unlisted []string    // source pages the generator publishes nothing for: "content/a.md (draft)"

	warnings []string         // the configuration's and the sources' warnings, each once
	problems []indexed[error] // malformed values in the sources, each once, by source
	// defaultLines are the X-Robots-Tag lines of a file that only the defaults decide.
	defaultLines []rules.HeaderLine
}

// source is a source page as the step needs it.
type source struct {
	path   string          // slash path relative to the site root: "content/blog/a.md"
	output string          // its output file, slash path relative to the output folder
	inputs *rules.Compiled // its cascade and front matter, compiled once; nil when none
}

// outputRef maps an output file (slash path relative to the output folder) to a source.
type outputRef struct {
	file string
	src  int32 // index in job.sources
}

// find returns the source of file in refs (sorted by file), or -1.
func find(refs []outputRef, file string) int32 {
	i, ok := slices.BinarySearchFunc(refs, file, func(r outputRef, f string) int { return strings.Compare(r.file, f) })
	if !ok {
		return -1
	}
	return refs[i].src
}

// prepare reads the configuration, runs the command, opens the site, reads and compiles every page
// and the rules. Everything it returns as an error is an input problem; nothing has been written.
// Malformed values in the sources do not stop it: they are kept in problems, so that a run reports
// them with every other problem of the site.
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
	if fi, err := os.Stat(s.Output); err != nil || !fi.IsDir() {
		hint := ""
		if cfg.Command != "" && !opt.RunCommand {
			hint = " (run `robotsmith build` or the generator first)"
		}
		return nil, fmt.Errorf("%s: %w%s", s.Output, ErrNoOutput, hint)
	}
	pages, err := s.Pages()
	if err != nil {
		return nil, err
	}
	j.index(pages)
	return j, nil
}

// index compiles every page's directives once and indexes the pages by output file. The pages
// themselves are not kept: only what the step and the report need of them.
func (j *job) index(pages []site.Page) {
	for i := range pages {
		p := &pages[i]
		if p.Output == "" {
			reason := p.NoOutput
			if reason == "" {
				reason = "no output"
			}
			j.unlisted = append(j.unlisted, p.Source+" ("+reason+")")
		}
		if p.Output == "" && len(p.Resources) == 0 && len(p.Aliases) == 0 {
			continue
		}
		var c *rules.Compiled
		if p.Output != "" || len(p.Resources) > 0 {
			var ws []rules.Warning
			var err error
			c, ws, err = rules.Compile(p.Inputs)
			for _, w := range ws {
				j.warnings = append(j.warnings, w.String())
			}
			if err != nil {
				j.problems = append(j.problems, indexed[error]{len(j.sources), err})
			}
		}
		n := int32(len(j.sources))
		j.sources = append(j.sources, source{path: p.Source, output: p.Output, inputs: c})
		if p.Output != "" {
			j.outputs = append(j.outputs, outputRef{p.Output, n})
		}
		for _, r := range p.Resources {
			j.bundled = append(j.bundled, outputRef{r, n})
		}
		for _, a := range p.Aliases {
			j.aliases = append(j.aliases, outputRef{a, n})
		}
	}
	j.outputs, j.bundled, j.aliases = lastClaim(j.outputs), lastClaim(j.bundled), lastClaim(j.aliases)
}

// lastClaim sorts refs by file and keeps one ref per file: where two pages claim one file, the
// later in site order, as the generator writes them in that order.
func lastClaim(refs []outputRef) []outputRef {
	slices.SortStableFunc(refs, func(a, b outputRef) int { return strings.Compare(a.file, b.file) })
	out := refs[:0]
	for i, r := range refs {
		if i+1 < len(refs) && refs[i+1].file == r.file {
			continue
		}
		out = append(out, r)
	}
	return slices.Clip(out)
}

// problem is the malformed values of source src, or nil.
func (j *job) problem(src int32) error {
	for _, p := range j.problems {
		if p.i == int(src) {
			return p.v
		}
	}
	return nil
}

// sourceOf is the one place that says which source page an output file takes its decision from: the
// page that wrote it, the list page a pager page continues, or the page a bundle resource belongs
// to; -1 for none (a taxonomy list Hugo made, a 404 page, a static file).
func (j *job) sourceOf(f *record) int32 {
	rel := f.rel()
	if s := find(j.outputs, rel); s >= 0 {
		return s
	}
	if !f.html() {
		return find(j.bundled, rel)
	}
	if parent, ok := j.site.PagerParent(f.url()); ok {
		// The list page is found by its output file, the inverse of URLPath: /blog/ is
		// blog/index.html, and under Hugo's uglyURLs /blog/index.html names the same file.
		p := strings.TrimPrefix(parent, "/")
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		return find(j.outputs, p)
	}
	return -1
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
