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
// check --record wrote.
func runDiff(_ context.Context, c *cli, o *options, args []string) error {
	if len(args) != 2 {
		return &usageError{"diff", "two records needed: robotsmith diff OLD NEW"}
	}
	for i, side := range []string{"OLD", "NEW"} {
		if isDir(args[i]) {
			return &usageError{"diff", fmt.Sprintf("%s %q is a folder: diff compares record files for now (written by --record FILE)", side, args[i])}
		}
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

	rep, err := c.diff(args[0], args[1], format, failOn)
	if err != nil {
		errs := pipeline.Problems(err)
		if o.json {
			if werr := diff.ErrorJSON(c.stdout, versionString(), args[0], args[1], failOn, pipeline.Messages(errs)); werr != nil {
				return werr
			}
		}
		printErrors(c.stderr, errs)
		c.annotate("", errs)
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

// diff compares the record files old and new and writes the report to stdout, and under GitHub
// Actions, the Markdown report to the job's summary too.
func (c *cli) diff(old, new string, format diff.Format, failOn diff.FailOn) (*diff.Report, error) {
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
	return diff.Run(out, indexability.NewReader(fo, old), indexability.NewReader(fn, new), opt)
}
