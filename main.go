// Command robotsmith makes a static site's robots signals right and consistent: it resolves the
// robots directives of every page and file, rewrites the robots <meta> tags in the generated HTML and
// writes _headers for X-Robots-Tag. README.md is the front door, docs/ the user's manual.
//
// Usage:
//
//	robotsmith build [flags] [SITE]            fix every page and _headers (after the configured command)
//	robotsmith check [flags] [SITE]            report what build would change, writing nothing
//	robotsmith explain [flags] [SITE] PATH...  where each directive of a page or file comes from
//	robotsmith watch [flags] [SITE] [-- CMD ARGS...]
//	                                           fix every page, then keep the output in step while the site is edited
//	robotsmith diff [flags] OLD NEW            what a change does to what search engines see: two records compared
//	robotsmith help [COMMAND]                  a command's usage, flags and an example
//	robotsmith version
//
// Exit status: 0 success (check: nothing would change; watch: stopped by SIGINT or SIGTERM); 1
// errors, or check found something that would change or a finding, or explain got an unknown path;
// 2 a usage error (one line on stderr says what was wrong and where to get help); 130 and 143 when
// SIGINT or SIGTERM stopped the run (watch: its CMD's own status when CMD fails). diff exits 1 when
// a change meets a rule of --fail-on, or a record cannot be read.
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
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/diff"
	"github.com/robotsmith/robotsmith/internal/heapcap"
	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/problem"
)

// version is set at release time (GoReleaser's ldflags: -X main.version=1.2.3). Left empty, it is the
// module's version (go install ...@v1.2.3), or "devel" for a build in a clone. The commit and its time
// always come from what the go command recorded in the binary.
var version string

func main() {
	// robotsmith writes no heap profile, and the runtime's sampling of allocations for one keeps a
	// record of every call stack it sampled: 1.5 MB of the 56 MiB budget at 100,000 pages.
	runtime.MemProfileRate = 0
	heapcap.Start(os.Getenv) // for the whole process: it ends with os.Exit
	ctx, stop := signalContext()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err))
}

// signalContext is cancelled on SIGINT or SIGTERM, with an *interrupted as its cause. A second signal
// gets the default action (the process ends at once).
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&interrupted{s.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// interrupted is a run stopped by a signal: exit status 128 plus the signal's number (130 for
// SIGINT, 143 for SIGTERM), as shells report it (SPEC §10).
type interrupted struct{ sig syscall.Signal }

func (e *interrupted) Error() string { return "interrupted (" + e.sig.String() + ")" }

// Problem is the interruption as the reports give it: of code problem.Interrupted.
func (e *interrupted) Problem() problem.Problem {
	return *problem.New(problem.Interrupted, problem.Position{}, e.Error())
}

// usageError is a mistake on the command line: exit status 2. It is printed as one line: what was
// wrong, and where to get help.
type usageError struct {
	cmd string // the command whose usage was broken; "" for the command name itself
	msg string
}

func (e *usageError) Error() string { return e.msg }

// line is the one line printed for e: `robotsmith build: unknown flag --x (see robotsmith help build)`.
func (e *usageError) line() string {
	who, help := "robotsmith", "robotsmith help"
	if e.cmd != "" {
		who += " " + e.cmd
		if e.cmd != "help" {
			help += " " + e.cmd
		}
	}
	return who + ": " + e.msg + " (see " + help + ")"
}

// errFailed is a run that has already reported why it failed (the errors, or check's changes and
// findings): exit status 1, nothing more to print.
var errFailed = errors.New("failed")

// exitCode is the exit status for what run returned.
func exitCode(err error) int {
	var (
		ue     *usageError
		sig    *interrupted
		status exitStatus
	)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &ue):
		return 2
	case errors.As(err, &sig):
		return 128 + int(sig.sig)
	default:
		return 1
	}
}

// cli is where a command's output goes and what it may read of its surroundings.
type cli struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	// terminal reports whether w is a terminal, where a progress line belongs (isTerminal); now is
	// the clock of the progress line and of the run's time (time.Now); after runs a function
	// once a time is up (afterFunc; nil is afterFunc). Tests set them to draw the line off a
	// terminal, on a clock of their own.
	terminal func(w io.Writer) bool
	now      func() time.Time
	after    func(time.Duration, func()) (stop func() bool)
}

// options are the flags' values; each command's FlagSet binds the ones it takes.
type options struct {
	config, output  string
	noCommand, json bool
	format          string // build and check --format: text, json or sarif ("" is --json's or text)
	quiet, verbose  bool
	poll            bool
	serve           string // watch --serve ADDR
	strict          bool
	agents          agentList
	markdown        bool   // diff --markdown
	failOn          string // diff --fail-on, parsed by diff.ParseFailOn
	record          string // build and check --record FILE
}

// agentList is explain's --agent: repeated (--agent GPTBot --agent CCBot) or comma-separated.
type agentList []string

func (l *agentList) String() string { return strings.Join(*l, ",") }

func (l *agentList) Set(v string) error {
	for a := range strings.SplitSeq(v, ",") {
		if a = strings.TrimSpace(a); a != "" {
			*l = append(*l, a)
		}
	}
	return nil
}

// command is one entry of the command table: adding a command is adding one.
type command struct {
	name    string
	args    string // what follows the flags in the usage line: "[SITE] PATH..."
	summary string // one line, for the list of commands
	about   string // what it does, for `robotsmith help NAME`
	example string // command lines, each with a comment
	exit    string // its exit status
	// cmdline says the command takes a command line of its own after "--" (watch): parse keeps
	// the "--" among the arguments, to tell it from SITE.
	cmdline bool
	flags   func(*flag.FlagSet, *options)
	run     func(ctx context.Context, c *cli, o *options, args []string) error
}

// commands is the command table, in the order `robotsmith help` lists them.
func commands() []*command {
	return []*command{
		{
			name:    "build",
			args:    "[SITE]",
			summary: "run the configured command, then fix every page's robots tags and _headers",
			about: `Runs the configured generator command (command: in robotsmith.yaml), unless --no-command,
then resolves the robots directives of every page and file in the output folder, and writes
there, each only when it changes:
  - every page's robots <meta> tags, rewritten in place;
  - _headers: the X-Robots-Tag of PDFs, images and other files (of pages too with
    headers.html), and the Content-Usage of the ai policy;
  - the sitemaps, pruned of the URLs that are noindex, error pages or have no file
    (sitemap: prune);
  - robotsmith's block of robots.txt (robots_txt and ai), made when there is none.
Every input is checked before anything is written: if there is an error, no file is changed.
SITE is the site's root folder (default: the current folder); a folder with no generator
config is itself the output.`,
			example: `robotsmith build                           # in a Hugo or Jekyll site's root
hugo --minify && robotsmith build --no-command
robotsmith build public/                   # any folder of HTML`,
			exit: "0 ok; 1 errors (nothing written); 2 usage error",
			flags: func(fs *flag.FlagSet, o *options) {
				siteFlags(fs, o)
				formatFlag(fs, o)
				recordFlag(fs, o)
				noCommandFlag(fs, o)
				quietFlags(fs, o)
			},
			run: runSite(true),
		},
		{
			name:    "check",
			args:    "[SITE]",
			summary: "report what build would change and every finding, writing nothing",
			about: `Does the work of build without writing anything, and without running the configured
command (it would overwrite the output being checked): reports how many files build would
change (-v lists them) and every finding: a noindex page robots.txt hides from crawlers, a
sitemap entry or a canonical or hreflang link for a URL that is noindex or has no file, and
(warnings) mixed signals such as a noindex page canonical to another URL.`,
			example: `robotsmith check                           # after hugo or jekyll build
robotsmith check --strict                  # in CI: warnings fail too
robotsmith check --json site/ > report.json
robotsmith check --format sarif > robotsmith.sarif   # for code scanning`,
			exit: "0 clean; 1 something would change, a finding or an error (with --strict, a warning too); 2 usage error",
			flags: func(fs *flag.FlagSet, o *options) {
				siteFlags(fs, o)
				formatFlag(fs, o)
				recordFlag(fs, o)
				quietFlags(fs, o)
				strictFlag(fs, o)
				noCommandAccepted(fs, o, "check")
			},
			run: runSite(false),
		},
		{
			name:    "explain",
			args:    "[SITE] PATH...",
			summary: "show where each robots directive of a page or file comes from",
			about: `For each PATH, a URL path as served (/blog/post/) or an output file (public/blog/post/index.html):
the effective directives per crawler and the source of each (a default, a rule at
file:line, front matter at file:line, a tag the page carried), the tags the page gets,
the X-Robots-Tag and Content-Usage headers a host will send, what robots.txt lets crawlers
do (the crawlers a category of ai.block disallows in one line; -v lists them), and the
links of llms.txt to it and why a build prunes them. With --agent, for each crawler
named: what robotsmith's crawler catalogue says of it, whether robots.txt (with robotsmith's
block) lets it fetch the path and which line decided, and the Content-Usage preference
robots.txt states for it there. The first argument is SITE when it is a folder and more
arguments follow.`,
			example: `robotsmith explain /blog/hello-world/ /files/terms.pdf
robotsmith explain sample-site /docs/guide/report.pdf
robotsmith explain --agent GPTBot,Googlebot sample-site /blog/hello-world/`,
			exit: "0 ok; 1 a PATH is not in the output, or an error; 2 usage error",
			flags: func(fs *flag.FlagSet, o *options) {
				siteFlags(fs, o)
				noCommandAccepted(fs, o, "explain")
				fs.Var(&o.agents, "agent", "also show what robots.txt lets the crawler `TOKEN` do and its AI preferences (repeat, or GPTBot,CCBot)")
				fs.BoolVar(&o.verbose, "v", false, "list every crawler ai.block disallows, not one line per category")
			},
			run: runExplain,
		},
		{
			name:    "watch",
			args:    "[SITE] [-- CMD ARGS...]",
			summary: "fix every page, then keep the output in step while the site is edited",
			about: `Does build's work once (without the configured command), then watches the output folder,
the content folder and the configuration, and re-processes what each change affects: a page
the generator rewrote, the pages an edited front matter reaches, every page after a change to
robotsmith's or the generator's configuration; _headers, robots.txt and the sitemaps follow.
Each batch's files are put in place at once, or none. One line per batch says what
changed, how long it took, and which pages became noindex or public. A broken edit prints its
error (file:line), the files it touches are left as the generator wrote them, and the watch
goes on; the fix brings them back in step.

With -- CMD ARGS, runs CMD (the generator in its own watch mode) in SITE as a child, passes it
Ctrl-C and SIGTERM, and exits when it exits. Hugo: hugo server --disableFastRender (without it,
pages other than the ones last visited stay stale on disk until a browser asks for them) or
hugo --watch; not --renderToMemory (-M) or --renderStaticToDisk, which keep the pages in memory.
Jekyll: jekyll serve or jekyll build --watch (Jekyll does not rebuild when _config.yml changes).
A flag the installed generator no longer has (hugo server --renderToDisk) is left out, or
replaced, with a line that says so.

With --serve ADDR (:1313 is 127.0.0.1:1313; name a host to serve beyond this machine), serves
the output folder as its host would (the _headers format's), and every open page reloads
after each of robotsmith's batches: the preview is the page as it will be deployed.`,
			example: `robotsmith watch -- hugo server --disableFastRender   # in a Hugo site's root
robotsmith watch --serve :1313 -- hugo --watch        # preview at http://127.0.0.1:1313/
robotsmith watch my-site -- jekyll serve
robotsmith watch --poll public/                        # a folder of HTML on a network file system`,
			exit:    "0 after Ctrl-C or SIGTERM, or when CMD exits 0; CMD's own status when it fails (128+N when a signal ended it); 1 when the watch cannot start; 2 usage error",
			cmdline: true,
			flags: func(fs *flag.FlagSet, o *options) {
				pathFlags(fs, o)
				fs.BoolVar(&o.poll, "poll", false, "look for changes by listing the folders every half second, instead of asking the system (network and virtual machine file systems)")
				fs.StringVar(&o.serve, "serve", "", "serve the output at `ADDR` (:1313 is 127.0.0.1:1313) with the headers its host sends, each page reloading once robotsmith has fixed it")
				quietFlags(fs, o)
				noCommandAccepted(fs, o, "watch")
			},
			run: runWatch,
		},
		{
			name:    "diff",
			args:    "OLD NEW",
			summary: "compare two builds' indexability records: what leaves the index, the sitemaps, robots.txt",
			about: `Compares two indexability records URL by URL (files that build --record FILE and check
--record FILE write) and prints the counts first, then each changed URL with old -> new and
the source of the new value: which URLs leave or enter the index and why (noindex, robots.txt,
a canonical link to another URL), which leave the sitemaps, what robots.txt newly keeps
Googlebot, Bingbot or an AI category from, and every change of directives, canonical, AI
preferences and X-Robots-Tag. A URL is in the index when Googlebot or Bingbot indexes it as
itself. A record compared with itself has no change. OLD and NEW are each a record file or a
site's folder (SITE, as check reads it: its record is made without writing anything).

--fail-on names what makes diff exit 1, rules separated by commas: home (a home page leaves
the index), noindex:N or noindex:N% (more than N URLs, or N per cent of those in the index,
leave it), sitemap:N or sitemap:N%, robots (robots.txt newly keeps Googlebot or Bingbot from
a URL they may index), any (any change), or none. Under GitHub Actions (GITHUB_ACTIONS=true)
each rule met is an error annotation, and --markdown also appends the report to the job's
summary ($GITHUB_STEP_SUMMARY).`,
			example: `robotsmith diff base.jsonl site.jsonl
robotsmith diff base.jsonl .                    # the site just built, against the last deploy's record
robotsmith diff --fail-on home,noindex:5,robots base.jsonl site.jsonl
robotsmith diff --markdown base.jsonl site.jsonl > comment.md   # a pull-request comment`,
			exit: "0 no change --fail-on names; 1 such a change, or a record that cannot be read; 2 usage error",
			flags: func(fs *flag.FlagSet, o *options) {
				fs.BoolVar(&o.json, "json", false, "print the JSON report (schema/diff.schema.json) on stdout instead of the text")
				fs.BoolVar(&o.markdown, "markdown", false, "print the report as Markdown, for a pull-request comment")
				fs.StringVar(&o.failOn, "fail-on", diff.DefaultFailOn, "exit 1 on these `RULES`: home, noindex:N[%], sitemap:N[%], robots, any, none (default "+diff.DefaultFailOn+")")
			},
			run: runDiff,
		},
		{
			name:    "help",
			args:    "[COMMAND]",
			summary: "show a command's usage, flags and an example",
			about:   `Without COMMAND, lists the commands. 'robotsmith COMMAND -h' is the same as 'robotsmith help COMMAND'.`,
			example: `robotsmith help build`,
			exit:    "0; 2 for an unknown COMMAND",
			run:     runHelp,
		},
		{
			name:    "version",
			summary: "print robotsmith's version",
			about:   `Prints robotsmith's version; built from a clone, the commit it was built from.`,
			example: `robotsmith version`,
			exit:    "0",
			run:     runVersion,
		},
	}
}

func siteFlags(fs *flag.FlagSet, o *options) {
	pathFlags(fs, o)
	fs.BoolVar(&o.json, "json", false, "print the JSON report on stdout instead of the summary (errors included)")
}

// formatFlag is build's and check's --format: text (the summary), json (--json's report) or sarif.
func formatFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.format, "format", "", "print the report as `FORMAT`: text (the summary, the default), json (as --json) or sarif (SARIF 2.1.0, for code scanning)")
}

// formats are --format's values.
var formats = []string{"text", "json", "sarif"}

// reportFormat is the report's format that --format and --json ask for, or a usage error.
func reportFormat(cmd string, o *options) (string, error) {
	f := strings.ToLower(o.format)
	switch {
	case f == "" && o.json, f == "json":
		return "json", nil
	case f == "":
		return "text", nil
	case !slices.Contains(formats, f):
		msg := fmt.Sprintf("--format %q is not one of %s", f, strings.Join(formats, ", "))
		if near, ok := suggest.Resembles(f, formats); ok {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return "", &usageError{cmd, msg}
	case o.json:
		return "", &usageError{cmd, "--json and --format " + f + ": one format at a time"}
	}
	return f, nil
}

func pathFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.config, "config", "", "read the configuration from `FILE` (default SITE/robotsmith.yaml, .yml, .toml or .json)")
	fs.StringVar(&o.output, "output", "", "the generated site is in `DIR` (overrides the configuration and the generator's)")
}

func noCommandFlag(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.noCommand, "no-command", false, "do not run the configured command first")
}

// noCommandAccepted is --no-command on a command that never runs the configured command: it changes
// nothing there, and is accepted so that a script can give every command the flags it gives build
// (SPEC §1). Of build's other flags none is harmless elsewhere: --strict on build, -q on explain or
// --json on watch would each be ignored where the user asked for something.
func noCommandAccepted(fs *flag.FlagSet, o *options, cmd string) {
	fs.BoolVar(&o.noCommand, "no-command", false, "accepted, and changes nothing: "+cmd+" never runs the configured command")
}

func strictFlag(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.strict, "strict", false, "make every warning an error: check exits 1 on it")
}

func quietFlags(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.quiet, "q", false, "print nothing but errors")
	fs.BoolVar(&o.verbose, "v", false, "also list the changed files and the source pages not published")
}

// lookup finds a command by name.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is robotsmith: it parses args, runs the command and writes to stdout and stderr. Errors are
// printed here; the returned error only decides the exit status (exitCode).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := &cli{stdout: stdout, stderr: stderr, getenv: getenv, terminal: isTerminal, now: time.Now}
	return c.run(ctx, args)
}

// run is run with c's surroundings.
func (c *cli) run(ctx context.Context, args []string) error {
	err := dispatch(ctx, c, args)
	if ctx.Err() != nil && !errors.As(err, new(exitStatus)) {
		// A signal stopped the run: whatever the command said, the exit status says so (but
		// for watch, which a signal ends as it should, and which says its own status).
		if sig, ok := context.Cause(ctx).(*interrupted); ok {
			fmt.Fprintf(c.stderr, "robotsmith: %v\n", sig)
			return sig
		}
	}
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(c.stderr, ue.line())
	case err != nil && !errors.Is(err, errFailed) && !errors.Is(err, flag.ErrHelp) && !errors.As(err, new(exitStatus)):
		fmt.Fprintf(c.stderr, "robotsmith: %v\n", err)
	}
	return err
}

func dispatch(ctx context.Context, c *cli, args []string) error {
	if len(args) == 0 {
		// Asked for nothing: the list of commands, as go and git print it, and the usage status.
		fmt.Fprint(c.stderr, overview())
		return &usageError{msg: "no command given"}
	}
	name, args := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		fmt.Fprint(c.stdout, overview())
		return nil
	case "-version", "--version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		if strings.HasPrefix(name, "-") {
			next := "COMMAND"
			if i := slices.IndexFunc(args, func(a string) bool { return lookup(a) != nil }); i >= 0 {
				next = args[i]
			}
			return &usageError{msg: fmt.Sprintf("flag %s before the command; flags follow it: robotsmith %s %s", name, next, name)}
		}
		return &usageError{msg: fmt.Sprintf("unknown command %q", name) + didYouMean(name, commandNames(), quoted)}
	}
	var o options
	pos, err := cmd.parse(args, &o)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, cmd.usage())
		return err
	}
	if err != nil {
		return err
	}
	return cmd.run(ctx, c, &o, pos)
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// flagSet is the command's flags.
func (cmd *command) flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("robotsmith "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.flags != nil {
		cmd.flags(fs, o)
	}
	return fs
}

// boolFlag is the flag package's own test for a flag that takes no value.
type boolFlag interface{ IsBoolFlag() bool }

// parse sets o from the flags in args and returns the other arguments. Flags may come before or
// after them (`robotsmith build site -q`), as in hugo and go; everything after "--" is an argument.
// A command that takes a command line of its own after "--" (cmd.cmdline: watch) gets the "--"
// too, to tell the two apart.
// The flag package's FlagSet holds the definitions, but the loop is ours: fs.Parse stops at the first
// argument that is not a flag and words its errors for Go programmers ("flag provided but not
// defined"), where a user needs the flag's name, the nearest valid one, and which command takes it.
func (cmd *command) parse(args []string, o *options) ([]string, error) {
	fs := cmd.flagSet(o)
	var pos []string
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			if cmd.cmdline {
				pos = append(pos, a)
			}
			pos = append(pos, args...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "h" || name == "help" {
			return nil, flag.ErrHelp
		}
		f := fs.Lookup(name)
		if f == nil {
			return nil, cmd.unknownFlag(name)
		}
		if b, ok := f.Value.(boolFlag); ok && b.IsBoolFlag() {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if len(args) == 0 {
				return nil, &usageError{cmd.name, fmt.Sprintf("flag %s needs a value: %s %s", dashed(name), dashed(name), flagArg(f))}
			}
			value, args = args[0], args[1:]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, &usageError{cmd.name, fmt.Sprintf("invalid value %q for flag %s", value, dashed(name))}
		}
	}
	return pos, nil
}

// unknownFlag words the usage error for a flag cmd does not take: the nearest flag it does take, or
// the commands that take this one.
func (cmd *command) unknownFlag(name string) error {
	var o options
	var names []string
	cmd.flagSet(&o).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s := didYouMean(name, names, dashed); s != "" {
		return &usageError{cmd.name, "unknown flag " + dashed(name) + s}
	}
	var others []string
	for _, c := range commands() {
		if c != cmd && c.flagSet(&o).Lookup(name) != nil {
			others = append(others, c.name)
		}
	}
	switch n := len(others); {
	case n == 1:
		return &usageError{cmd.name, fmt.Sprintf("%s takes no flag %s (%s does)", cmd.name, dashed(name), others[0])}
	case n > 1:
		list := strings.Join(others[:n-1], ", ") + " and " + others[n-1]
		return &usageError{cmd.name, fmt.Sprintf("%s takes no flag %s (%s do)", cmd.name, dashed(name), list)}
	}
	return &usageError{cmd.name, "unknown flag " + dashed(name)}
}

// dashed is a flag as a user types it: -q, --config.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }

// didYouMean is `; did you mean X?` for the candidate nearest to typed, or "" when none is near
// enough to be the one meant: the same but for case, or at most two edits away (two neighbouring
// letters swapped are one) and fewer edits than typed has letters (so `-x` suggests nothing).
// Candidates are command and flag names, all lower case.
func didYouMean(typed string, candidates []string, show func(string) string) string {
	best, d := suggest.Nearest(strings.ToLower(typed), candidates)
	if best == "" || d > 2 || (d >= len(typed) && d > 0) {
		return ""
	}
	return "; did you mean " + show(best) + "?"
}

// overview is `robotsmith help`: the commands, one line each.
func overview() string {
	var b strings.Builder
	b.WriteString("robotsmith makes a static site's robots signals right and consistent.\n\n")
	b.WriteString("Usage:\n  robotsmith COMMAND [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun 'robotsmith help COMMAND' (or 'robotsmith COMMAND -h') for a command's flags and an example.\n")
	b.WriteString("Exit status: 0 ok; 1 errors (check: also changes or findings); 2 usage error; 130/143 interrupted.\n")
	return b.String()
}

// usage is `robotsmith help NAME`: the usage line, what it does, its flags, an example, its exit
// status.
func (cmd *command) usage() string {
	var b strings.Builder
	var o options
	fs := cmd.flagSet(&o)
	line := "robotsmith " + cmd.name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		line += " [flags]"
	}
	if cmd.args != "" {
		line += " " + cmd.args
	}
	fmt.Fprintf(&b, "Usage: %s\n\n%s\n", line, cmd.about)
	if hasFlags {
		b.WriteString("\nFlags:\n")
		fs.VisitAll(func(f *flag.Flag) {
			name, text := flag.UnquoteUsage(f)
			left := dashed(f.Name)
			if name != "" {
				left += " " + name
			}
			fmt.Fprintf(&b, "  %-16s %s\n", left, text)
		})
	}
	b.WriteString("\nExample:\n")
	for l := range strings.SplitSeq(cmd.example, "\n") {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	fmt.Fprintf(&b, "\nExit status: %s.\n", cmd.exit)
	return b.String()
}

func flagArg(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	return name
}

func runHelp(_ context.Context, c *cli, _ *options, args []string) error {
	switch len(args) {
	case 0:
		fmt.Fprint(c.stdout, overview())
		return nil
	case 1:
		cmd := lookup(args[0])
		if cmd == nil {
			return &usageError{"help", fmt.Sprintf("unknown command %q", args[0]) + didYouMean(args[0], commandNames(), quoted)}
		}
		fmt.Fprint(c.stdout, cmd.usage())
		return nil
	}
	return &usageError{"help", fmt.Sprintf("one COMMAND at most, got %q", args)}
}

func runVersion(_ context.Context, c *cli, _ *options, args []string) error {
	if len(args) > 0 {
		return &usageError{"version", fmt.Sprintf("takes no arguments, got %q", args)}
	}
	fmt.Fprintf(c.stdout, "robotsmith %s\n", stamp().String())
	return nil
}

// buildStamp is what robotsmith knows of its own build.
type buildStamp struct {
	version  string // v1.2.3, or "devel" for a build from a clone
	commit   string // the commit, shortened to 12 characters; "" when unknown
	date     string // when the commit was made, RFC 3339; "" when unknown
	modified bool   // built from a clone with uncommitted changes
}

// String is `v1.2.3 (commit 0123456789ab, 2026-11-27T10:00:00Z)`, leaving out what is unknown.
func (b buildStamp) String() string {
	var extra []string
	if b.commit != "" {
		c := "commit " + b.commit
		if b.modified {
			c += ", modified"
		}
		extra = append(extra, c)
	}
	if b.date != "" {
		extra = append(extra, b.date)
	}
	if len(extra) == 0 {
		return b.version
	}
	return b.version + " (" + strings.Join(extra, ", ") + ")"
}

// stamp is the release's version where ldflags set it, else the module's, and the VCS revision and
// time that the go command recorded in the binary (runtime/debug.ReadBuildInfo; a build with
// -buildvcs=false, or outside a repository, has none).
func stamp() buildStamp {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	return stampOf(version, bi)
}

// stampOf reads a build's record: the version given (ldflags) or the main module's, and its VCS
// settings.
func stampOf(version string, bi *debug.BuildInfo) buildStamp {
	b := buildStamp{version: version}
	if v := bi.Main.Version; b.version == "" && v != "" && v != "(devel)" {
		b.version = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.commit = s.Value
		case "vcs.time":
			b.date = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	if b.version == "" {
		b.version = "devel"
	}
	if len(b.commit) > 12 {
		b.commit = b.commit[:12]
	}
	return b
}

// versionString is robotsmith's version alone (v1.2.3, or devel), as the JSON report gives it.
func versionString() string { return stamp().version }

// runSite is build (write) or check.
func runSite(write bool) func(context.Context, *cli, *options, []string) error {
	name := "check"
	if write {
		name = "build"
	}
	return func(ctx context.Context, c *cli, o *options, args []string) error {
		start := c.now()
		if len(args) > 1 {
			return &usageError{name, fmt.Sprintf("one SITE at most, got %q", args)}
		}
		format, err := reportFormat(name, o)
		if err != nil {
			return err
		}
		opt := pipeline.Options{
			Config:     o.config,
			Output:     o.output,
			Env:        c.getenv,
			Write:      write,
			RunCommand: write && !o.noCommand,
			Strict:     o.strict,
		}
		if len(args) == 1 {
			opt.Root = args[0]
		}
		// The generator's own output goes to stderr (stdout is the report's); with -q it is kept and
		// shown only if the command fails.
		var held strings.Builder
		opt.CommandOutput = c.stderr
		if o.quiet {
			opt.CommandOutput = &held
		}
		var prog *progress
		if !o.quiet && c.terminal(c.stderr) {
			after := c.after
			if after == nil {
				after = afterFunc
			}
			prog = newProgress(c.stderr, c.now, after)
			opt.Progress = prog.update
		}
		var record *recordFile
		if o.record != "" {
			if record, err = createRecord(o.record); err != nil {
				fmt.Fprintf(c.stderr, "robotsmith: --record: %v\n", err)
				return errFailed
			}
			defer record.discard() // after commit, there is nothing left to discard
			opt.Record = record.tmp
		}
		rep, err := pipeline.Run(ctx, opt)
		prog.clear()
		if record != nil && err == nil && ctx.Err() == nil {
			if cerr := record.commit(); cerr != nil {
				err = problem.Wrap(problem.IOError, problem.Position{File: o.record}, cerr)
			}
		}
		if ctx.Err() != nil {
			// Stopped by a signal: run says so in one line, and the JSON report and the SARIF log
			// say so too.
			cause := context.Cause(ctx)
			if format != "text" {
				if rep == nil {
					rep = &pipeline.Report{Site: firstOf(opt.Root, "."), Config: o.config, Output: o.output}
				}
				c.writeReport(format, name, opt.Root, rep, cause, false)
			}
			return cause
		}
		if errors.Is(err, pipeline.ErrCommand) && held.Len() > 0 {
			fmt.Fprint(c.stderr, held.String())
		}
		failed := err != nil || (!write && rep != nil && (rep.Changed > 0 || len(rep.Findings) > 0))

		var warnings, findings []problem.Problem
		if rep != nil && err == nil {
			warnings, findings = rep.Warnings, rep.Findings
		}
		errs := pipeline.Problems(err)
		switch {
		case format != "text":
			if rep == nil {
				rep = &pipeline.Report{Site: firstOf(opt.Root, "."), Config: o.config, Output: o.output}
			}
			if werr := c.writeReport(format, name, opt.Root, rep, err, !failed); werr != nil {
				return werr
			}
		case err == nil && !o.quiet:
			// The run's time last, as Hugo's "Total in 29 ms" and Jekyll's "done in 0.031
			// seconds.": the generator's command included, when build ran it.
			fmt.Fprint(c.stdout, rep.Summary(write, o.verbose))
			fmt.Fprintf(c.stdout, "done in %s\n", pipeline.Elapsed(c.now().Sub(start)))
		}
		printErrors(c.stderr, errs)
		c.annotate(opt.Root, errs, findings, warnings)
		if err != nil {
			what := "check failed"
			switch {
			case errors.Is(err, pipeline.ErrOutputWritten):
				// The site's host files are committed after the output's: their failure leaves
				// the output's files in place.
				what = "build failed, the output's files were written, the site's host files were not"
			case write:
				what = "build failed, no file was written"
			}
			fmt.Fprintf(c.stderr, "robotsmith: %s (%s)\n", what, pipeline.Plural(len(errs), "error"))
			return errFailed
		}
		if failed {
			return errFailed
		}
		return nil
	}
}

// writeReport writes the report of build or check (name) on stdout in format (json or sarif):
// rep's counts and problems and err's, ok saying the command exits 0. root is the site's root.
func (c *cli) writeReport(format, name, root string, rep *pipeline.Report, err error, ok bool) error {
	if format == "json" {
		return writeJSON(c.stdout, pipeline.Document{Command: name, Version: versionString(), OK: ok, Report: rep, Err: err})
	}
	log := pipeline.SARIF{Version: versionString(), Errors: pipeline.Problems(err), Findings: rep.Findings, Warnings: rep.Warnings}
	log.BaseID, log.BaseURI, log.Locate = c.sarifBase(root)
	return writeJSON(c.stdout, log)
}

// sarifBase is the folder a SARIF log's URIs are relative to, its base URI and how a file robotsmith
// names is placed in it: the site's root (SITEROOT); under GitHub Actions the repository's
// (%SRCROOT%, GITHUB_WORKSPACE) when the site is in it, since code scanning reads a relative URI
// as relative to the repository whatever its base.
func (c *cli) sarifBase(root string) (id, uri string, locate func(string) (string, bool)) {
	base, err := filepath.Abs(firstOf(root, "."))
	if err != nil {
		base = firstOf(root, ".")
	}
	id = "SITEROOT"
	if ws := c.getenv("GITHUB_WORKSPACE"); c.getenv("GITHUB_ACTIONS") == "true" && ws != "" {
		if abs, err := filepath.Abs(ws); err == nil && within(abs, base) {
			id, base = "%SRCROOT%", abs
		}
	}
	locate = func(file string) (string, bool) {
		abs, err := filepath.Abs(sitePath(file, root))
		if err != nil {
			return filepath.ToSlash(file), true
		}
		rel, err := filepath.Rel(base, abs)
		if err != nil || !filepath.IsLocal(rel) {
			return filepath.ToSlash(abs), false
		}
		return filepath.ToSlash(rel), true
	}
	return id, pipeline.FileURI(filepath.ToSlash(base)), locate
}

// within reports whether path is the folder dir or in it (both absolute and clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func runExplain(ctx context.Context, c *cli, o *options, args []string) error {
	if len(args) == 0 {
		return &usageError{"explain", "no PATH given: robotsmith explain /url/path/"}
	}
	for _, a := range o.agents {
		if !crawlers.ValidToken(a) {
			return &usageError{"explain", fmt.Sprintf("--agent %q is not a user-agent token (letters, digits, '.', '-' and '_')", a)}
		}
		if want, ok := crawlers.Default().Resembles(a); ok {
			return &usageError{"explain", fmt.Sprintf("--agent %q is not a crawler robotsmith knows; did you mean %q?", a, want)}
		}
	}
	opt := pipeline.Options{Config: o.config, Output: o.output, Env: c.getenv, Agents: o.agents}
	// SITE is optional: the first argument is SITE when it is a folder and more follow.
	if len(args) > 1 && isDir(args[0]) {
		opt.Root, args = args[0], args[1:]
	}
	es, err := pipeline.Explain(ctx, opt, args)
	errs := pipeline.Problems(err)
	if o.json {
		doc := pipeline.ExplainDocument{Command: "explain", Version: versionString(), OK: err == nil, Paths: es, Err: err}
		if werr := writeJSON(c.stdout, doc); werr != nil {
			return werr
		}
	} else {
		for i, e := range es {
			if i > 0 {
				fmt.Fprintln(c.stdout)
			}
			if o.verbose {
				fmt.Fprint(c.stdout, e.VerboseText())
			} else {
				fmt.Fprint(c.stdout, e.Text())
			}
		}
	}
	printErrors(c.stderr, errs)
	c.annotate(opt.Root, errs)
	if err != nil {
		return errFailed
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printErrors prints each error on its own line, in the form editors jump to, with its code and
// name (problem.Problem.Text), with nothing before it.
func printErrors(w io.Writer, errs []problem.Problem) {
	for _, p := range errs {
		fmt.Fprintln(w, p.Text())
	}
}

// maxAnnotations is how many workflow commands of one severity annotate prints: GitHub shows only
// the first few of a step on the pull request, and a theme's typo repeats on every page.
const maxAnnotations = 50

// annotate prints each list of problems, under GitHub Actions (GITHUB_ACTIONS=true), as workflow
// commands (::error file=F,line=N,col=C,title=RS0103 noindex-blocked-by-robots-txt::message),
// which the runner reads from stderr as well as stdout and shows on the pull request. root is the
// site's root folder.
func (c *cli) annotate(root string, lists ...[]problem.Problem) {
	if c.getenv("GITHUB_ACTIONS") != "true" {
		return
	}
	workspace := c.getenv("GITHUB_WORKSPACE")
	for _, ps := range lists {
		for i, p := range ps {
			if i == maxAnnotations {
				fmt.Fprintf(c.stderr, "::%s::%s\n", annotationLevel(p.Severity), escapeData(fmt.Sprintf("... and %d more (robotsmith --json lists them all)", len(ps)-i)))
				break
			}
			fmt.Fprintln(c.stderr, workflowCommand(p, root, workspace))
		}
	}
}

// annotationLevel is the workflow command a problem of severity s is: error for an error and a
// finding (each fails check), warning for a warning.
func annotationLevel(s problem.Severity) string {
	if s == problem.Warning {
		return "warning"
	}
	return "error"
}

// workflowCommand is p as a GitHub Actions workflow command, its file named relative to the
// repository (workspace), as annotations need it, its code and name the title.
func workflowCommand(p problem.Problem, root, workspace string) string {
	var props []string
	if p.File != "" {
		props = append(props, "file="+escapeProperty(repoPath(p.File, root, workspace)))
		if p.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", p.Line))
		}
		if p.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", p.Col))
		}
	}
	if t := p.Code.Title(); t != "" {
		props = append(props, "title="+escapeProperty(t))
	}
	cmd := "::" + annotationLevel(p.Severity)
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeData(p.Msg)
}

// sitePath is file as a path to open from the working directory. Source files are named relative
// to the site's root (content/blog/a.md), output files and the configuration relative to the
// working directory (public/blog/a/index.html): a name that is not a file here is looked for in
// root.
func sitePath(file, root string) string {
	if root != "" && !filepath.IsAbs(file) && !exists(file) && exists(filepath.Join(root, file)) {
		return filepath.Join(root, file)
	}
	return file
}

// repoPath is file relative to the repository's root when it lies inside it (sitePath).
func repoPath(file, root, workspace string) string {
	file = sitePath(file, root)
	if workspace == "" {
		return filepath.ToSlash(file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(workspace, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// escapeData escapes a workflow command's message: '%', CR and LF, which would otherwise end the
// command or be read as an escape (the rules of GitHub's actions/toolkit, command.ts).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value: as escapeData, and ':' and ',', which separate properties.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isTerminal reports whether w is a terminal, where a progress line belongs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress draws the run's phase on one terminal line, redrawn in place: "robotsmith: reading
// sources", "robotsmith: processing pages, 5200/14305 files". Nothing is drawn in a run's first
// second (a quick run shows no flicker); then the phase the run is in, at the latest when the
// second is up, however long the phase lasts without a word; then each new phase at once, and the
// files done at most ten times a second. A nil *progress does nothing.
type progress struct {
	w     io.Writer
	now   func() time.Time
	after func(time.Duration, func()) (stop func() bool)
	start time.Time

	mu          sync.Mutex // the pipeline's calls and the timer's
	stop        func() bool
	phase       pipeline.Phase
	done, total int
	drawn       pipeline.Phase // the phase last drawn; 0 before the first line
	last        time.Time      // when the line was last drawn
	cleared     bool
}

// progressDelay is how long a run goes before its progress line appears; progressEvery is how often
// the files done are redrawn after that.
const (
	progressDelay = time.Second
	progressEvery = 100 * time.Millisecond
)

// newProgress starts the clock of a run's progress line on w. after is time.AfterFunc's Stop, or
// a test's stand-in for it.
func newProgress(w io.Writer, now func() time.Time, after func(time.Duration, func()) func() bool) *progress {
	return &progress{w: w, now: now, after: after, start: now()}
}

// afterFunc is time.AfterFunc, as progress takes it.
func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// update is pipeline.Options.Progress.
func (p *progress) update(phase pipeline.Phase, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cleared {
		return
	}
	p.phase, p.done, p.total = phase, done, total
	t := p.now()
	if wait := progressDelay - t.Sub(p.start); wait > 0 {
		// The first line is drawn when the second is up, whether or not the run says more by
		// then: a phase can last seconds without a word (sources, a large output's commit). The
		// clock starts before the configured command, but the first line waits for the first
		// phase, so that it never cuts into the generator's own output.
		if p.stop == nil {
			p.stop = p.after(wait, p.tick)
		}
		return
	}
	if p.drawn == phase && t.Sub(p.last) < progressEvery && done != total {
		return
	}
	p.draw(t)
}

// tick draws the first line once the run's first second is up, if no update has drawn one.
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.cleared && p.drawn == 0 {
		p.draw(p.now())
	}
}

// draw draws the line for where the run is; p.mu is held.
func (p *progress) draw(t time.Time) {
	p.drawn, p.last = p.phase, t
	if p.phase == pipeline.ProcessingPages {
		fmt.Fprintf(p.w, "\rrobotsmith: %s, %d/%d files\033[K", p.phase, p.done, p.total)
		return
	}
	fmt.Fprintf(p.w, "\rrobotsmith: %s\033[K", p.phase)
}

// clear erases the progress line, if one was drawn, so the summary starts on a clean line, and
// draws none after.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleared = true
	if p.stop != nil {
		p.stop()
	}
	if p.drawn != 0 {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
