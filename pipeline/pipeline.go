// Package pipeline is robotsmith's commands over a site's output: `robotsmith build`, `check`,
// `explain` and `watch` (SPEC §1–§10), each a loop over one plan (package plan) and the output
// folder.
//
// Usage:
//
//	rep, err := pipeline.Run(ctx, pipeline.Options{Root: "my-site", Write: true, RunCommand: true})
//	if err != nil {
//		return err // every problem found, joined; no output file was changed
//	}
//	fmt.Print(rep.Summary(true, false)) // write: true (build); verbose: false
//
// Every command makes one plan (plan.Read): it reads the configuration and compiles its rules,
// and reads and compiles every source page's directives once (each problem in them is reported
// once, however many output files the page has). It lists the output folder (walk), and then
// every output file goes through one step, the same for build, check, explain and watch: read
// the file, apply the plan to it (scan the page once, decide it, splice the decision in:
// plan.Applier), write what changed. A fixed number of workers run the step, each with its own
// buffers, and what is kept of a file is its plan.Record (its decision in compact form, shared by
// every file decided alike), never its bytes: memory grows with the number of files, not with
// their size. Then the site-level steps look at the whole site once: _headers, robots.txt, the
// sitemaps and the indexability model's findings (siteSteps).
//
// Every command first finishes or undoes a build that was killed in the output folder (a build
// before it runs the generator). A build then holds the folder in one internal/safefs
// transaction: a changed file goes to a temporary file beside it (writeFile, the one way a run
// writes), and only when every file is ready, and nothing failed, are they all put in place
// (commit), or, on a failure or SIGINT/SIGTERM, none. Files are read only as regular files, never
// through a link, and bounded (readFile); the walk decides what links, FIFOs and devices mean.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
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
	// Progress, when set, is called as each phase of the run begins, with done and total 0, and
	// as each file is processed (ProcessingPages: done of total files), from one goroutine at a
	// time: a progress line names the phase from the moment it begins, however long it lasts.
	Progress func(phase Phase, done, total int)
	// Workers is how many files are processed at once; 0 means one per CPU.
	Workers int
	// Agents are the crawler tokens (explain --agent: "GPTBot") for which Explain also shows what
	// robots.txt lets each do and the AI preferences that apply.
	Agents []string
	// Strict makes every warning a finding (check --strict): check then exits 1 on it.
	Strict bool
	// Record, when set, receives the site's indexability record (build --record, check
	// --record: package indexability), written in the same pass once every file is decided, and
	// only when the run finds no error; a build writes it before putting its files in place.
	Record io.Writer
}

// Phase is a step of a run, as a progress line names it (SPEC §1). Run goes through them in
// this order; watch mode's batches report only ProcessingPages.
type Phase int

const (
	ReadingSources  Phase = iota + 1 // the sources' directives (plan.Read)
	ListingOutput                    // the output folder's files (walk)
	ProcessingPages                  // every file through the step (pass.process)
	Writing                          // build: _headers, robots.txt, the sitemaps (pass.siteSteps)
	Checking                         // check: the same files, and the whole site's findings
	Committing                       // build: every file written put in place (output.commit)
)

// String is the phase as the progress line names it: "reading sources".
func (ph Phase) String() string {
	switch ph {
	case ReadingSources:
		return "reading sources"
	case ListingOutput:
		return "listing the output"
	case ProcessingPages:
		return "processing pages"
	case Writing:
		return "writing _headers, robots.txt, sitemaps"
	case Checking:
		return "checking _headers, robots.txt, sitemaps"
	case Committing:
		return "committing"
	}
	return fmt.Sprintf("Phase(%d)", int(ph))
}

// plan is what the plan is read with.
func (opt Options) plan() plan.Options {
	return plan.Options{Root: opt.Root, Config: opt.Config, Output: opt.Output, Env: opt.Env, Now: opt.Now}
}

// ErrCommand is returned (wrapped) when the configured generator command fails: a problem of code
// problem.CommandFailed, which the errors that wrap it take.
var ErrCommand error = problem.New(problem.CommandFailed, problem.Position{}, "command failed")

// ErrNoOutput is returned (wrapped) when the output folder does not exist: a problem of code
// problem.OutputNotFound.
var ErrNoOutput error = problem.New(problem.OutputNotFound, problem.Position{}, "output folder not found")

// ErrOutputWritten is wrapped in the error of a build that put the output's files in place and
// then could not put the site's own host files (vercel.json, firebase.json, committed after the
// output's) in place: the one failed build that wrote files, which its last line must say.
var ErrOutputWritten = errors.New("the output's files were written")

// Run does `build` (opt.Write) or `check`. A build that returns an error has changed no output
// file, unless the error wraps ErrOutputWritten (then Report.Wrote says so); one stopped by ctx (SIGINT, SIGTERM) returns ctx's error among its errors. Every error it
// joins is (or wraps) a problem.Problem with its code (Problems takes them apart).
func Run(ctx context.Context, opt Options) (rep *Report, err error) {
	defer func() { err = coded(err) }()
	p, out, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer func() {
		// A build not committed is undone, whatever the path out; an undo that cannot finish is
		// one more error.
		if cerr := out.close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	phase := func(ph Phase) {
		if opt.Progress != nil {
			opt.Progress(ph, 0, 0)
		}
	}
	// The sources are read first and the output folder listed once the pages are let go: the
	// pages, with their inputs and paths, and the walk's records are the two largest things a run
	// holds, and only one of them is ever held whole at a time.
	phase(ReadingSources)
	if p, err = p.Read(ctx); err != nil {
		return nil, err
	}
	p, pages := p.LetPagesGo()
	phase(ListingOutput)
	files, walkWarnings, err := out.walk(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(files, func(f plan.Record) bool { return f.HTML() }) {
		// Never a green run that did nothing: the wrong folder, a generator that wrote elsewhere.
		walkWarnings = append(walkWarnings, *problem.New(problem.NoPages, problem.Position{File: filepath.ToSlash(out.name)},
			"no page (.html file) in the output folder: no robots tag to write (is it the folder the generator writes?)"))
	}
	pages.Locate(files)
	rep = newReport(p, out)
	rep.sources(p, pages, files) // the last of the site's map the run holds
	ps := &pass{p: p, out: out, files: files, links: plan.NewLinks(), workers: opt.Workers, progress: opt.Progress}
	if opt.Record != nil {
		ps.rec = newRecorder(p.Options().Root, p.URLs(), len(files))
	}
	b := ps.process(ctx, files)

	srcWarnings, errs := p.SourceProblems(files)
	rep.Warnings = append(rep.Warnings, p.Warnings()...)
	rep.Warnings = append(rep.Warnings, out.warnings...)
	rep.Warnings = append(rep.Warnings, p.PageWarnings()...)
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
	if opt.Write {
		phase(Writing)
	} else {
		phase(Checking)
	}
	if _, err := ps.siteSteps(rep, len(errs) == 0); err != nil {
		errs = append(errs, err)
	}
	if opt.Strict {
		for _, w := range rep.Warnings {
			rep.Findings = append(rep.Findings, w.Strict())
		}
		rep.Warnings = nil
	}
	if len(errs) == 0 && opt.Record != nil {
		if err := ps.writeRecord(opt.Record, ps.model); err != nil {
			errs = append(errs, problem.Wrap(problem.IOError, problem.Position{}, err))
		}
	}
	if len(errs) > 0 {
		rep.listChanged(files)
		return rep, errors.Join(errs...)
	}
	// Every file is ready: put them all in place, or none.
	if opt.Write {
		phase(Committing)
	}
	wrote, warnings, err := out.commit(ctx)
	rep.listChanged(files)
	if err != nil {
		rep.Wrote = wrote
		return rep, err
	}
	rep.Wrote = wrote
	rep.Warnings = append(rep.Warnings, warnings...)
	sort.Strings(rep.ChangedFiles)
	return rep, nil
}

// open opens the plan (plan.Open: the configuration, the rules, the site's layout) and the output
// folder for a run: it first finishes or undoes a build that was killed there, runs the configured
// command (opt.RunCommand), then opens the folder, for a build in a transaction (openOutput).
// Everything it returns as an error is an input problem; nothing has been written. The caller
// closes the output (output.close) once done with it, whatever happened.
func open(ctx context.Context, opt Options) (*plan.Plan, *output, error) {
	p, err := plan.Open(opt.plan())
	if err != nil {
		return nil, nil, err
	}
	pl := placeOf(p)
	// Before anything reads or writes the output, even the generator.
	recovery, err := recoverOutput(ctx, pl)
	if err != nil {
		return nil, nil, err
	}
	if opt.RunCommand && p.Config().Command != "" {
		if err := runCommand(ctx, p.Options().Root, p.Config().Command, opt.CommandOutput); err != nil {
			return nil, nil, err
		}
	}
	if pl, err = pl.check(p, opt.RunCommand); err != nil {
		return nil, nil, err
	}
	out, err := openOutput(ctx, p, pl, opt.Write)
	if err != nil {
		return nil, nil, err
	}
	if recovery != nil {
		out.warnings = slices.Insert(out.warnings, 0, *recovery)
	}
	return p, out, nil
}
