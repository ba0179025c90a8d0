// Command robotsmith makes a static site's robots signals right and consistent: it resolves the
// robots directives of every page and file, rewrites the robots <meta> tags in the generated HTML and
// writes _headers for X-Robots-Tag. See README.md and SPEC.md.
//
// Exit status: 0 success (check: nothing would change); 1 errors, or check found something that
// would change or a lint finding, or explain got an unknown path; 2 usage errors.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/robotsmith/robotsmith/pipeline"
)

// version is set at release time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// errFindings is check's "something would change or a lint finding": exit status 1, already reported.
var errFindings = errors.New("check failed")

func exitCode(err error, stderr io.Writer) int {
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "robotsmith: %v\n%s", err, usage)
		return 2
	case errors.Is(err, errFindings):
		return 1
	default:
		fmt.Fprintf(stderr, "robotsmith: %v\n", strings.ReplaceAll(err.Error(), "\n", "\nrobotsmith: "))
		return 1
	}
}

const usage = `usage:
  robotsmith build   [flags] [SITE]          run the configured command, then fix every page and _headers
  robotsmith check   [flags] [SITE]          report what build would change and every lint finding
  robotsmith explain [flags] [SITE] PATH...  show each agent's directives for a URL path or output file
  robotsmith version
flags:
  --config FILE   the configuration file (default SITE/robotsmith.yaml, .yml, .toml or .json)
  --output DIR    the generated site's folder (overrides the configuration and the generator's)
  --no-command    build: do not run the configured command
  --json          print a JSON report on stdout instead of the summary
  -q              print nothing but errors
  -v              also list every file that changed
`

// run is robotsmith: it parses args and writes to stdout and stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"no command given"}
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "version", "--version":
		fmt.Fprintf(stdout, "robotsmith %s\n", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "build", "check", "explain":
	default:
		return &usageError{fmt.Sprintf("unknown command %q", cmd)}
	}

	fs := flag.NewFlagSet("robotsmith "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		configFile = fs.String("config", "", "")
		output     = fs.String("output", "", "")
		noCommand  = fs.Bool("no-command", false, "")
		asJSON     = fs.Bool("json", false, "")
		quiet      = fs.Bool("q", false, "")
		verbose    = fs.Bool("v", false, "")
	)
	// Flags may come before or after SITE and PATHs (`robotsmith build site -q`), as in hugo and go.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return err
			}
			return &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			rest = append(rest, args[1:]...)
			break
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
	opt := pipeline.Options{
		Config: *configFile,
		Output: *output,
		Env:    os.Getenv,
	}
	if cmd == "explain" {
		if len(rest) == 0 {
			return &usageError{"explain: no PATH given"}
		}
		// SITE is optional: the first argument is SITE when it is a folder and more follow.
		if len(rest) > 1 && isDir(rest[0]) {
			opt.Root, rest = rest[0], rest[1:]
		}
		return explain(ctx, opt, rest, stdout, *asJSON)
	}
	if len(rest) > 1 {
		return &usageError{fmt.Sprintf("%s: one SITE at most, got %q", cmd, rest)}
	}
	if len(rest) == 1 {
		opt.Root = rest[0]
	}
	opt.Write = cmd == "build"
	opt.RunCommand = cmd == "build" && !*noCommand
	if !*quiet && !*asJSON {
		opt.CommandOutput = stderr
	} else {
		opt.CommandOutput = io.Discard
	}
	if !*quiet && isTerminal(stderr) {
		opt.Progress = progress(stderr)
	}
	rep, err := pipeline.Run(ctx, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	case !*quiet:
		fmt.Fprint(stdout, rep.Summary(opt.Write))
		if *verbose {
			for _, f := range rep.ChangedFiles {
				fmt.Fprintf(stdout, "  %s\n", f)
			}
		}
	}
	if cmd == "check" && (rep.Changed > 0 || len(rep.Findings) > 0) {
		return errFindings
	}
	return nil
}

func explain(ctx context.Context, opt pipeline.Options, paths []string, stdout io.Writer, asJSON bool) error {
	es, err := pipeline.Explain(ctx, opt, paths)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if eerr := enc.Encode(es); eerr != nil {
			return eerr
		}
	} else {
		for i, e := range es {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprint(stdout, e.Text())
		}
	}
	return err
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isTerminal reports whether w is a character device (a terminal), where a progress line belongs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progress returns a Progress func that redraws one line on stderr every 100 files.
func progress(w io.Writer) func(done, total int) {
	return func(done, total int) {
		if done%100 == 0 || done == total {
			fmt.Fprintf(w, "\rrobotsmith: %d/%d files", done, total)
		}
	}
}
