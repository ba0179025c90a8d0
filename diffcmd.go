package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/robotsmith/robotsmith/diff"
	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/problem"
)

// runDiff is `robotsmith diff OLD NEW` (SPEC §11): each side a record file that build --record or
// check --record wrote, or a site's folder (SITE, as check takes it: the site's root, or a folder of
// HTML that is itself the output), whose record check's run computes, writing nothing.
func runDiff(ctx context.Context, c *cli, o *options, args []string) error {
	if len(args) != 2 {
		return &usageError{"diff", "two records needed: robotsmith diff OLD NEW"}
	}
	if o.json && o.markdown {
		return &usageError{"diff", "--json and --markdown: one format at a time"}
	}
	failOn, err := diff.ParseFailOn(o.failOn)
	if err != nil {
		return &usageError{"diff", "--fail-on: " + err.Error()}
	}
	format := diff.Text
	switch {
	case o.json:
		format = diff.JSON
	case o.markdown:
		format = diff.Markdown
	}

	// fail reports a run's errors, where they are about the side on (annotations name it), as
	// diff's errors are reported in every form: how many there were.
	fail := func(on string, err error) (int, error) {
		errs := pipeline.Problems(err)
		if o.json {
			if werr := diff.ErrorJSON(c.stdout, versionString(), args[0], args[1], failOn, pipeline.Messages(errs)); werr != nil {
				return 0, werr
			}
		}
		printErrors(c.stderr, errs)
		c.annotate(on, errs)
		return len(errs), nil
	}
	sides := [2]string{args[0], args[1]}
	for i := range sides {
		if !isDir(sides[i]) {
			continue
		}
		rec, err := c.siteRecord(ctx, sides[i])
		if rec != "" {
			defer os.Remove(rec)
		}
		if err != nil {
			n, werr := fail(sides[i], err)
			if werr != nil {
				return werr
			}
			fmt.Fprintf(c.stderr, "robotsmith diff: the site %s cannot be read (%s)\n", sides[i], pipeline.Plural(n, "error"))
			return errFailed
		}
		sides[i] = rec
	}
	rep, err := c.diff(sides[0], sides[1], args[0], args[1], format, failOn)
	if err != nil {
		if _, werr := fail("", err); werr != nil {
			return werr
		}
		return errFailed
	}
	if len(rep.Failures) == 0 {
		return nil
	}
	var msgs []problem.Problem
	for _, f := range rep.Failures {
		// The comparison's verdict, as check's "check failed": no problem of the site, no code.
		line := fmt.Sprintf("robotsmith diff fails on %s: %s", f.Rule, f.Reason)
		msgs = append(msgs, problem.Problem{Severity: problem.Error, Msg: line})
		if format != diff.Text { // the text report ends with them already
			fmt.Fprintf(c.stderr, "robotsmith diff: fails on %s: %s\n", f.Rule, f.Reason)
		}
	}
	c.annotate("", msgs)
	return errFailed
}

// siteRecord runs check over the site in dir (without its configured command; nothing is
// written) and writes its indexability record to a temporary file (in $RUNNER_TEMP under GitHub
// Actions), whose name it returns for the caller to remove.
func (c *cli) siteRecord(ctx context.Context, dir string) (string, error) {
	f, err := os.CreateTemp(c.getenv("RUNNER_TEMP"), "robotsmith-record-*.jsonl")
	if err != nil {
		return "", err
	}
	_, err = pipeline.Run(ctx, pipeline.Options{Root: dir, Env: c.getenv, Record: f})
	if cerr := f.Close(); err == nil && cerr != nil {
		err = problem.Wrap(problem.IOError, problem.Position{File: f.Name()}, cerr)
	}
	return f.Name(), err
}

// diff compares the record files old and new (named oldName and newName in the report: a site's
// folder rather than the temporary file its record went to) and writes the report to stdout, and
// under GitHub Actions, the Markdown report to the job's summary too.
func (c *cli) diff(old, new, oldName, newName string, format diff.Format, failOn diff.FailOn) (*diff.Report, error) {
	fo, err := os.Open(old)
	if err != nil {
		return nil, err
	}
	defer fo.Close()
	fn, err := os.Open(new)
	if err != nil {
		return nil, err
	}
	defer fn.Close()
	out := c.stdout
	if format == diff.Markdown && c.getenv("GITHUB_ACTIONS") == "true" {
		if p := c.getenv("GITHUB_STEP_SUMMARY"); p != "" {
			// The report goes to the job's summary as it is written to stdout: a comparison that
			// fails writes nothing to either.
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return nil, fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
			}
			defer f.Close()
			out = io.MultiWriter(c.stdout, f)
		}
	}
	opt := diff.Options{Format: format, FailOn: failOn, Version: versionString(), TempDir: c.getenv("RUNNER_TEMP")}
	return diff.Run(out, indexability.NewReader(fo, oldName), indexability.NewReader(fn, newName), opt)
}
