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
// (its decision in compact form, shared by every file decided alike), never its bytes: memory
// grows with the number of files, not with their size.
//
// Every command first finishes or undoes a build that was killed in the output folder (a build
// before it runs the generator). A build then holds the folder in one internal/safefs
// transaction: a changed file goes to a temporary file beside it (writeFile, the one way a run
// writes), and only when every file is ready, and nothing failed, are they all put in place
// (commit), or, on a failure or SIGINT/SIGTERM, none. Files are read only as regular files, never
// through a link, and bounded (readFile); the walk decides what links, FIFOs and devices mean.
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
	// Agents are the crawler tokens (explain --agent: "GPTBot") for which Explain also shows what
	// robots.txt lets each do and the AI preferences that apply.
	Agents []string
	// Strict makes every warning a finding (check --strict): check then exits 1 on it.
	Strict bool
}

// ErrCommand is returned (wrapped) when the configured generator command fails.
var ErrCommand = errors.New("command failed")

// ErrNoOutput is returned (wrapped) when the output folder does not exist.
var ErrNoOutput = errors.New("output folder not found")

// Run does `build` (opt.Write) or `check`. A build that returns an error has changed no output
// file; one stopped by ctx (SIGINT, SIGTERM) returns ctx's error among its errors.
func Run(ctx context.Context, opt Options) (_ *Report, err error) {
	j, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer func() {
		// A build not committed is undone, whatever the path out; an undo that cannot finish is
		// one more error.
		if cerr := j.close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	// The sources are read first and the output folder listed once the pages are let go: the
	// pages, with their inputs and paths, and the walk's records are the two largest things a run
	// holds, and only one of them is ever held whole at a time.
	if err := j.readSources(ctx); err != nil {
		return nil, err
	}
	out := j.letPagesGo()
	files, walkWarnings, err := j.walkContext(ctx)
	if err != nil {
		return nil, err
	}
	j.files = files
	if !slices.ContainsFunc(files, func(f record) bool { return f.html() }) {
		// Never a green run that did nothing: the wrong folder, a generator that wrote elsewhere.
		walkWarnings = append(walkWarnings, fmt.Sprintf("%s: no page (.html file) in the output folder: no robots tag to write (is it the folder the generator writes?)", filepath.ToSlash(j.site.Output)))
	}
	rep := &Report{Site: j.opt.Root, Generator: j.site.Generator, Output: j.site.Output, Symlinks: j.symlinks, Config: j.cfg.File}
	j.sourceReport(rep, files, out)
	out.givePages(files)
	b := j.process(ctx, files)

	srcWarnings, errs := j.sourceProblems()
	rep.Warnings = append(rep.Warnings, j.warnings...)
	rep.Warnings = append(rep.Warnings, walkWarnings...)
	rep.Warnings = append(rep.Warnings, srcWarnings...)
	rep.Warnings = append(rep.Warnings, b.warnings()...)
	for i := range files {
		rep.count(&files[i])
	}
	errs = append(errs, b.errors()...)
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	if _, err := j.siteSteps(rep, files, len(errs) == 0); err != nil {
		errs = append(errs, err)
	}
	if opt.Strict {
		rep.Findings = append(rep.Findings, rep.Warnings...)
		rep.Warnings = nil
	}
	if len(errs) > 0 {
		rep.listChanged(files)
		return rep, errors.Join(errs...)
	}
	// Every file is ready: put them all in place, or none.
	wrote, warnings, err := j.commit(ctx)
	rep.listChanged(files)
	if err != nil {
		return rep, err
	}
	rep.Wrote = wrote
	rep.Warnings = append(rep.Warnings, warnings...)
	sort.Strings(rep.ChangedFiles)
	return rep, nil
}

// siteSteps are the steps that look at the whole site once every file is decided: _headers,
// robots.txt (and its refusal of a Disallow that would hide a noindex), and the indexability model
// (sitemaps pruned, SPEC §7's findings); ok says that the files' own steps found no error, without
// which only robots.txt's checks run. Run and watch mode (Live, after a batch that changed a
// decision, the set of files or one of the files these steps read) both call them through here,
// so that a step added here runs in both. It returns the files of the output the steps read
// (slash paths relative to the output folder): a change to one of them is a reason to run them
// again.
func (j *job) siteSteps(rep *Report, files []record, ok bool) (read []string, err error) {
	var errs []error
	read = append(read, "_headers", j.robots.rel)
	if ok {
		if err := j.headers(rep, files); err != nil {
			errs, ok = append(errs, err), false
		}
	}
	if err := j.robotsTxtStep(rep, files, ok); err != nil {
		errs, ok = append(errs, err), false
	}
	if ok {
		m, err := j.indexability(rep)
		if err != nil {
			errs = append(errs, err)
		} else {
			read = append(read, m.sitemaps...)
		}
	}
	return read, errors.Join(errs...)
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

// headerFiles are the _headers entries of the processed files, one per URL the host serves a file
// at. Every served file has them, those without lines too, so that a folded Cloudflare rule is
// proved to cover no other file. A page file not named index.html (about.html) is served at /about
// as well by both hosts; Cloudflare answers /about.html with a redirect to /about, so only /about
// counts there. Each entry is worked out from the file's record when asked, from the record's own
// path: a site's entries are not held as a slice of their own beside its records.
type headerFiles struct {
	j     *job
	files []record
	// at is each entry's file, as its index in files times two, plus one for a page's URL
	// without .html.
	at []uint32
}

func (j *job) headerFiles(files []record) *headerFiles {
	hf := &headerFiles{j: j, files: files, at: make([]uint32, 0, len(files))}
	for i := range files {
		f := &files[i]
		n := uint32(i) << 1
		switch {
		case !f.html() || !strings.HasSuffix(f.url(), ".html"):
			hf.at = append(hf.at, n)
		case j.format == headers.Cloudflare:
			hf.at = append(hf.at, n|1)
		default:
			hf.at = append(hf.at, n, n|1)
		}
	}
	return hf
}

func (hf *headerFiles) Len() int { return len(hf.at) }

func (hf *headerFiles) At(i int) headers.File {
	f := &hf.files[hf.at[i]>>1]
	u := f.url()
	if hf.at[i]&1 != 0 {
		u = strings.TrimSuffix(u, ".html")
	}
	return headers.File{Path: u, Lines: hf.j.headerLines(f)}
}

// headers writes the _headers file (writeFile), when any file needs a rule or the output already
// has one. A _headers that is a link into the output is kept a link, and the file it leads to gets
// the rules; one that cannot be read or written (a link outside the output, a FIFO) is left alone
// with a warning.
func (j *job) headers(rep *Report, files []record) error {
	const rel = "_headers"
	sf, err := j.readSiteFile(rel)
	if err != nil {
		return err
	}
	hf := j.headerFiles(files)
	for i := range hf.Len() {
		if len(hf.At(i).Lines) > 0 {
			rep.HeaderRules++
		}
	}
	if sf.skip != "" {
		if rep.HeaderRules > 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s; the X-Robots-Tag rules of %s are not written", sf.skip, Plural(rep.HeaderRules, "file")))
		}
		return nil
	}
	existing := sf.data
	name := j.outName(sf.rel)
	rep.Warnings = append(rep.Warnings, j.headerFindings(name, existing, files)...)
	usage := j.cfg.AI.ContentUsage() // sent for every path (SPEC §9)
	if rep.HeaderRules == 0 && usage == "" && !bytes.Contains(existing, []byte(headers.BeginMarker)) {
		return nil
	}
	block, err := headers.BlockFiles(hf, headers.Options{Format: j.format, Existing: existing, ContentUsage: usage})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, f := range headers.LintFiles(existing, hf, j.format) {
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s:%d: %s: %s", name, f.Line, f.Path, f.Msg))
	}
	if usage != "" {
		for _, f := range headers.LintContentUsage(existing, j.format) {
			rep.Findings = append(rep.Findings, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(name), f.Line, f.Msg))
		}
	}
	out, err := headers.Merge(existing, block)
	if me := (*headers.MarkerError)(nil); errors.As(err, &me) {
		me.File = name
	}
	if err != nil {
		return err
	}
	if bytes.Equal(out, existing) {
		return nil
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, sf.rel)
	return j.writeFile(sf.rel, sf.info, out)
}

// sourceReport counts the source pages the generator publishes nothing for, and reports those whose
// output cannot be found (SPEC §2), by the walk: no file is stat'ed again. A page whose file is
// there is published, whatever the generator's flags; one whose file is absent is not published
// when the generator would not write it (a draft without -D), else it is a finding.
func (j *job) sourceReport(rep *Report, files []record, out *outputs) {
	for i, file := range out.files {
		if file != "" && has(files, file) {
			continue
		}
		source := j.info[i].source
		if reason := out.noOutput(i); reason != "" || file == "" {
			if reason == "" {
				reason = "no output"
			}
			rep.NoOutput++
			rep.Unpublished = append(rep.Unpublished, source+" ("+reason+")")
			continue
		}
		rep.Findings = append(rep.Findings, fmt.Sprintf("%s: no output found (expected %s)", source, j.outName(file)))
	}
}
