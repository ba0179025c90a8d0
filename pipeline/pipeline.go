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
// Run first prepares the job: it reads the configuration and compiles its rules, and reads and
// compiles every source page's directives once (each problem in them is reported once, however
// many output files the page has). Then every output file goes through one step, the same for
// build, check and explain: scan the page once, decide it, apply the decision. A fixed number of
// workers run the step, each with its own buffers, and what is kept of a file is a small record
// (its decision in compact form, shared by every file decided alike, and its mode), never its
// bytes: memory grows with the number of files, not with their size. A changed page goes to a
// temporary file beside it; only when every file is ready, and nothing failed, are they all renamed
// into place, so a build that fails leaves every output file as it was.
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/rules"
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
	// Progress, when set, is called as files are processed.
	Progress func(done, total int)
	// Workers is how many files are processed at once; 0 means one per CPU.
	Workers int
}

// ErrCommand is returned (wrapped) when the configured generator command fails.
var ErrCommand = errors.New("command failed")

// ErrNoOutput is returned (wrapped) when the output folder does not exist.
var ErrNoOutput = errors.New("output folder not found")

// Run does `build` (opt.Write) or `check`.
func Run(ctx context.Context, opt Options) (*Report, error) {
	j, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	// The output folder is listed while the sources are read: the one reads folders, the other
	// files, and neither needs the other.
	type walked struct {
		files []record
		err   error
	}
	wc := make(chan walked, 1)
	go func() {
		files, err := j.walk()
		wc <- walked{files, err}
	}()
	err = j.readSources()
	w := <-wc
	if err != nil {
		return nil, err
	}
	if w.err != nil {
		return nil, w.err
	}
	files := w.files
	b := j.process(ctx, files)

	rep := &Report{Site: j.opt.Root, Generator: j.site.Generator, Output: j.site.Output, Config: j.cfg.File}
	srcWarnings, errs := j.sourceProblems()
	rep.Warnings = append(rep.Warnings, j.warnings...)
	rep.Warnings = append(rep.Warnings, srcWarnings...)
	rep.Warnings = append(rep.Warnings, b.warnings()...)
	for i := range files {
		rep.count(&files[i])
	}
	j.sourceReport(rep, files)
	errs = append(errs, b.errors()...)
	if len(errs) == 0 {
		ws, err := j.siteSteps(rep, files)
		if err != nil {
			errs = append(errs, err)
		}
		b.writes = append(b.writes, ws...)
	}
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		discard(b.writes)
		return rep, errors.Join(errs...)
	}
	// Every file is ready: put them all in place.
	if err := commit(b.writes, j.workers()); err != nil {
		return rep, err
	}
	rep.Wrote = opt.Write && len(b.writes) > 0
	sort.Strings(rep.ChangedFiles)
	return rep, nil
}

// siteSteps are the steps that look at the whole site once every file is decided (_headers), each
// writing at most one file. Run and watch mode (Live, after a batch that changed a decision or the
// set of files) both call them through here, so that a step added to the list runs in both. On an
// error nothing is left to write.
func (j *job) siteSteps(rep *Report, files []record) ([]pending, error) {
	var ws []pending
	for _, step := range []func(*Report, []record) (*pending, error){j.headers} {
		w, err := step(rep, files)
		if err != nil {
			discard(ws)
			return nil, err
		}
		if w != nil {
			ws = append(ws, *w)
		}
	}
	return ws, nil
}

// headerLines are the X-Robots-Tag lines _headers gives a processed file: none for a file whose lines
// mean what the defaults mean (a theme's `index, follow` needs no rule), for pages unless
// `headers: {html: true}`, and for error pages and redirect stubs.
func (j *job) headerLines(f *record) []rules.HeaderLine {
	v := f.verdict
	switch {
	case v == nil:
		return nil
	case f.skipped():
		// decided as a file: a fragment's noindex is sent as X-Robots-Tag
	case f.html() && !(j.cfg.Headers.HTML && (v.Class == rules.Public || v.Class == rules.NonPublic)):
		return nil
	}
	if slices.Equal(v.Lines, j.defaultLines) {
		return nil
	}
	return v.Lines
}

// headerFiles appends the _headers entries for a processed file, one per URL the host serves it at.
// Every served file has them, those without lines too, so that a folded Cloudflare rule is proved
// to cover no other file. A page file not named index.html (about.html) is served at /about as well
// by both hosts; Cloudflare answers /about.html with a redirect to /about, so only /about counts
// there. The paths are the record's own string: nothing is copied per file.
func (j *job) headerFiles(hf []headers.File, f *record) []headers.File {
	lines := j.headerLines(f)
	u := f.url()
	if !f.html() || !strings.HasSuffix(u, ".html") {
		return append(hf, headers.File{Path: u, Lines: lines})
	}
	bare := strings.TrimSuffix(u, ".html")
	if j.format == headers.Cloudflare {
		return append(hf, headers.File{Path: bare, Lines: lines})
	}
	return append(hf, headers.File{Path: u, Lines: lines}, headers.File{Path: bare, Lines: lines})
}

// headers writes (to a temporary file) the _headers file, when any file needs a rule or the output
// already has one.
func (j *job) headers(rep *Report, files []record) (*pending, error) {
	name := filepath.Join(j.site.Output, "_headers")
	existing, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	hf := make([]headers.File, 0, len(files))
	for i := range files {
		hf = j.headerFiles(hf, &files[i])
	}
	for _, f := range hf {
		if len(f.Lines) > 0 {
			rep.HeaderRules++
		}
	}
	if rep.HeaderRules == 0 && !bytes.Contains(existing, []byte(headers.BeginMarker)) {
		return nil, nil
	}
	block, err := headers.Block(hf, headers.Options{Format: j.format, Existing: existing})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.ToSlash(name), err)
	}
	for _, f := range headers.Lint(existing, hf, j.format) {
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s:%d: %s: %s", filepath.ToSlash(name), f.Line, f.Path, f.Msg))
	}
	out, err := headers.Merge(existing, block)
	if me := (*headers.MarkerError)(nil); errors.As(err, &me) {
		me.File = filepath.ToSlash(name)
	}
	if err != nil {
		return nil, err
	}
	if bytes.Equal(out, existing) {
		return nil, nil
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, "_headers")
	if !j.opt.Write {
		return nil, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return j.write(name, out, mode)
}

// sourceReport counts the source pages the generator publishes nothing for, and reports those whose
// output cannot be found (SPEC §2), by the walk: no file is stat'ed again. A page whose file is
// there is published, whatever the generator's flags; one whose file is absent is not published
// when the generator would not write it (a draft without -D), else it is a finding.
func (j *job) sourceReport(rep *Report, files []record) {
	for _, p := range j.pages.Pages {
		if p.Output != "" && has(files, p.Output) {
			continue
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
