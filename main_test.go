package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// generate runs the stand-in generator on the site in dir.
func generate(t *testing.T, gen, dir string) {
	t.Helper()
	if b, err := exec.Command(gen, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
}

// plainSite is a folder of HTML with no generator and no configuration: the folder is the output.
func plainSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	page := "<!DOCTYPE html>\n<html><head>\n<meta charset=\"utf-8\">\n<title>A</title>\n</head><body>a</body></html>\n"
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeFile writes a file under dir, making its folder.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot hashes every file under dir, with its mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		m[rel] = fi.Mode().String() + " " + fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameSnapshot(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s: %s changed", what, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			t.Errorf("%s: %s appeared", what, k)
		}
	}
}

type runResult struct {
	code           int
	stdout, stderr string
}

// runEnv runs robotsmith with args in the environment env (nothing else is set). Every JSON report
// it prints is validated against schema/report.schema.json (diff's against schema/diff.schema.json),
// so every report the tests produce is.
func runEnv(t *testing.T, env map[string]string, args ...string) runResult {
	t.Helper()
	return runCtx(t, context.Background(), env, args...)
}

func runCtx(t *testing.T, ctx context.Context, env map[string]string, args ...string) runResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(ctx, args, func(k string) string { return env[k] }, &stdout, &stderr)
	r := runResult{exitCode(err), stdout.String(), stderr.String()}
	help := slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" })
	switch format := formatArg(args); {
	case r.code == 2 || help:
	case format == "json" && args[0] == "diff":
		validateAgainst(t, diffSchemaFile, []byte(r.stdout))
	case format == "json":
		validateReport(t, []byte(r.stdout))
	case format == "sarif":
		validateSARIF(t, []byte(r.stdout))
	}
	return r
}

// formatArg is the report's format that args ask for: json (--json, --format json), sarif, or "".
func formatArg(args []string) string {
	for i, a := range args {
		switch {
		case a == "--json" || a == "-json":
			return "json"
		case (a == "--format" || a == "-format") && i+1 < len(args):
			return strings.ToLower(args[i+1])
		case strings.HasPrefix(a, "--format="), strings.HasPrefix(a, "-format="):
			return strings.ToLower(a[strings.Index(a, "=")+1:])
		}
	}
	return ""
}

func runCmd(t *testing.T, args ...string) runResult {
	t.Helper()
	return runEnv(t, nil, args...)
}

// TestRunArgs is the table of command lines, their exit status and what they print (SPEC §1;
// STYLE 24): usage errors (one line on stderr, nothing on stdout) with their suggestions, and the
// exit status of each command's outcomes. TestHelp covers every command's help.
func TestRunArgs(t *testing.T) {
	plain := plainSite(t)
	saying, failing := plainSite(t), plainSite(t)
	writeFile(t, saying, "robotsmith.yaml", "command: echo from the generator >&2\n")
	writeFile(t, failing, "robotsmith.yaml", "command: echo from the generator >&2; exit 3\n")
	tests := []struct {
		desc   string
		args   []string
		code   int
		stdout string // must contain
		stderr string // must contain; for exit 2, the whole one line
	}{
		// Commands, and the nearest one for a typo.
		{"unknown command", []string{"deploy"}, 2, "", `robotsmith: unknown command "deploy" (see robotsmith help)`},
		{"misspelt build", []string{"buidl"}, 2, "", `robotsmith: unknown command "buidl"; did you mean "build"? (see robotsmith help)`},
		{"misspelt check", []string{"chekc", "."}, 2, "", `robotsmith: unknown command "chekc"; did you mean "check"? (see robotsmith help)`},
		{"misspelt explain", []string{"explian", "/"}, 2, "", `robotsmith: unknown command "explian"; did you mean "explain"? (see robotsmith help)`},
		{"misspelt version", []string{"verison"}, 2, "", `robotsmith: unknown command "verison"; did you mean "version"? (see robotsmith help)`},
		{"command in capitals", []string{"BUILD"}, 2, "", `robotsmith: unknown command "BUILD"; did you mean "build"? (see robotsmith help)`},
		{"flag before the command", []string{"--json", "check", "."}, 2, "", `robotsmith: flag --json before the command; flags follow it: robotsmith check --json (see robotsmith help)`},
		{"flag and no command", []string{"-q"}, 2, "", `robotsmith: flag -q before the command; flags follow it: robotsmith COMMAND -q (see robotsmith help)`},
		{"help for an unknown command", []string{"help", "buidl"}, 2, "", `robotsmith help: unknown command "buidl"; did you mean "build"? (see robotsmith help)`},
		{"help for two commands", []string{"help", "build", "check"}, 2, "", `robotsmith help: one COMMAND at most, got ["build" "check"] (see robotsmith help)`},

		// Flags: the nearest one the command takes, or which commands take it.
		{"misspelt --no-command", []string{"build", "--no-comand"}, 2, "", `robotsmith build: unknown flag --no-comand; did you mean --no-command? (see robotsmith help build)`},
		{"misspelt --json", []string{"check", "--jsno"}, 2, "", `robotsmith check: unknown flag --jsno; did you mean --json? (see robotsmith help check)`},
		{"misspelt --output", []string{"explain", "--ouptut", "x", "/"}, 2, "", `robotsmith explain: unknown flag --ouptut; did you mean --output? (see robotsmith help explain)`},
		{"misspelt --config, one dash", []string{"build", "-confg", "x"}, 2, "", `robotsmith build: unknown flag --confg; did you mean --config? (see robotsmith help build)`},
		{"-Q for -q", []string{"check", "-Q"}, 2, "", `robotsmith check: unknown flag -Q; did you mean -q? (see robotsmith help check)`},
		{"unknown flag", []string{"build", "--frobnicate"}, 2, "", `robotsmith build: unknown flag --frobnicate (see robotsmith help build)`},
		{"unknown one-letter flag", []string{"build", "-x"}, 2, "", `robotsmith build: unknown flag -x (see robotsmith help build)`},
		{"flag after SITE", []string{"check", "does-not-exist", "--frobnicate"}, 2, "", `robotsmith check: unknown flag --frobnicate (see robotsmith help check)`},
		{"explain -q", []string{"explain", "-q", "--no-command", "/"}, 2, "", `robotsmith explain: explain takes no flag -q (build, check and watch do) (see robotsmith help explain)`},
		{"check --strict misspelt", []string{"check", "--strcit"}, 2, "", `robotsmith check: unknown flag --strcit; did you mean --strict? (see robotsmith help check)`},
		{"build --strict", []string{"build", "--strict"}, 2, "", `robotsmith build: build takes no flag --strict (check does) (see robotsmith help build)`},
		{"version --json", []string{"version", "--json"}, 2, "", `robotsmith version: version takes no flag --json (build, check, explain and diff do) (see robotsmith help version)`},
		{"flag without its value", []string{"build", "--config"}, 2, "", `robotsmith build: flag --config needs a value: --config FILE (see robotsmith help build)`},
		{"bad boolean", []string{"check", "--json=maybe"}, 2, "", `robotsmith check: invalid value "maybe" for flag --json (see robotsmith help check)`},
		{"an unknown format", []string{"check", "--format", "xml", plain}, 2, "", `robotsmith check: --format "xml" is not one of text, json, sarif (see robotsmith help check)`},
		{"a misspelt format", []string{"build", "--format=sraif", plain}, 2, "", `robotsmith build: --format "sraif" is not one of text, json, sarif; did you mean "sarif"? (see robotsmith help build)`},
		{"--json and --format sarif", []string{"check", "--json", "--format", "sarif", plain}, 2, "", `robotsmith check: --json and --format sarif: one format at a time (see robotsmith help check)`},
		{"explain --format", []string{"explain", "--format", "json", plain, "/"}, 2, "", `robotsmith explain: explain takes no flag --format (build and check do) (see robotsmith help explain)`},

		// Arguments.
		{"two sites", []string{"check", "a", "b"}, 2, "", `robotsmith check: one SITE at most, got ["a" "b"] (see robotsmith help check)`},
		{"explain without path", []string{"explain"}, 2, "", `robotsmith explain: no PATH given: robotsmith explain /url/path/ (see robotsmith help explain)`},
		{"version with an argument", []string{"version", "x"}, 2, "", `robotsmith version: takes no arguments, got ["x"] (see robotsmith help version)`},
		{"explain --agent misspelt", []string{"explain", "--agent", "GPTbto", plain, "/"}, 2, "", `robotsmith explain: --agent "GPTbto" is not a crawler robotsmith knows; did you mean "GPTBot"? (see robotsmith help explain)`},
		{"explain --agent not a token", []string{"explain", "--agent=GPT Bot", plain, "/"}, 2, "", `robotsmith explain: --agent "GPT Bot" is not a user-agent token (letters, digits, '.', '-' and '_') (see robotsmith help explain)`},
		{"build --agent", []string{"build", "--agent", "GPTBot"}, 2, "", `robotsmith build: build takes no flag --agent (explain does) (see robotsmith help build)`},

		// Exit status 0 and 1.
		{"version", []string{"version"}, 0, "robotsmith ", ""},
		{"--version", []string{"--version"}, 0, "robotsmith ", ""},
		{"help", []string{"help"}, 0, "Commands:", ""},
		{"-h", []string{"-h"}, 0, "Commands:", ""},
		{"--help", []string{"--help"}, 0, "Commands:", ""},
		{"missing site", []string{"check", "does-not-exist"}, 1, "", "does-not-exist"},
		{"missing site, --json", []string{"check", "--json", "does-not-exist"}, 1, `"ok": false`, "does-not-exist"},
		{"a path after --", []string{"check", "--", "-no-such-site"}, 1, "", "-no-such-site"},
		{"check before build: would change", []string{"check", plain}, 1, "would change 1 file\n", ""},
		{"check -q prints nothing", []string{"check", "-q", plain}, 1, "", ""},
		{"explain a page", []string{"explain", plain, "/"}, 0, "class: public", ""},
		{"explain an unknown path", []string{"explain", plain, "/", "/nope/"}, 1, "class: public", "/nope/: not in the output"},
		{"explain --agent", []string{"explain", "--agent", "GPTBot,mybot", "--agent", "CCBot", plain, "/"}, 0,
			"  crawler GPTBot: OpenAI; training\n", ""},
		{"explain --json an unknown path", []string{"explain", "--json", plain, "/nope/"}, 1, `"ok": false`, "/nope/"},
		{"build, flags after SITE", []string{"build", plain, "-q"}, 0, "", ""},
		{"check after build: clean", []string{"check", plain, "-v"}, 0, "would change 0 files\n", ""},
		{"check --json after build", []string{"check", "--json", plain}, 0, `"ok": true`, ""},
		{"check --format json", []string{"check", "--format", "json", plain}, 0, `"ok": true`, ""},
		{"check --format json --json", []string{"check", "--format", "json", "--json", plain}, 0, `"ok": true`, ""},
		{"check --format text", []string{"check", "--format", "text", plain}, 0, "would change 0 files\n", ""},
		{"check --format sarif", []string{"check", "--format", "SARIF", plain}, 0, `"version": "2.1.0"`, ""},
		{"check --format sarif, an error", []string{"check", "--format", "sarif", "does-not-exist"}, 1, `"ruleId": "RS0907"`, "does-not-exist"},

		// A flag build takes that changes nothing for another command is accepted there (SPEC §1),
		// so that a script can give every command the same flags.
		{"check --no-command", []string{"check", "--no-command", plain}, 0, "would change 0 files\n", ""},
		{"check --no-command with a command configured", []string{"check", "--no-command", failing}, 1, "would change 1 file\n", ""},
		{"explain --no-command", []string{"explain", "--no-command", plain, "/"}, 0, "class: public", ""},

		// The configured command's output goes to stderr; with -q only when it fails.
		{"command output", []string{"build", saying}, 0, "changed 1 file", "from the generator\n"},
		{"command output, -q", []string{"build", "-q", saying}, 0, "", ""},
		{"failing command", []string{"build", failing}, 1, "", "from the generator\ncommand failed: "},
		{"failing command, -q", []string{"build", "-q", failing}, 1, "", "from the generator\ncommand failed: "},
		{"failing command, --json", []string{"build", "--json", failing}, 1, `"message": "command failed: `, "from the generator\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			checkRun(t, runCmd(t, tc.args...), tc.code, tc.stdout, tc.stderr)
		})
	}
}

// checkRun compares a run of robotsmith with a row of a table of command lines: its exit status
// is code; stdout holds stdout, and is empty when stdout is ""; stderr holds stderr, and is empty
// when stderr is "". A usage error (exit 2) prints nothing on stdout and stderr is then the one
// line, not the usage.
func checkRun(t *testing.T, r runResult, code int, stdout, stderr string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit: got %d, want %d (stderr %q)", r.code, code, r.stderr)
	}
	if !strings.Contains(r.stdout, stdout) {
		t.Errorf("stdout: got %q, want it to contain %q", r.stdout, stdout)
	}
	if stdout == "" && r.stdout != "" {
		t.Errorf("stdout: got %q, want nothing", r.stdout)
	}
	if code == 2 {
		if r.stdout != "" {
			t.Errorf("stdout: got %q, want nothing", r.stdout)
		}
		if got, want := r.stderr, stderr+"\n"; got != want {
			t.Errorf("stderr: got %q, want the one line %q", got, want)
		}
		return
	}
	if !strings.Contains(r.stderr, stderr) {
		t.Errorf("stderr: got %q, want it to contain %q", r.stderr, stderr)
	}
	if stderr == "" && r.stderr != "" {
		t.Errorf("stderr: got %q, want nothing", r.stderr)
	}
}

// TestNoCommand: robotsmith alone lists the commands on stderr, as go and git do, with the usage
// status.
func TestNoCommand(t *testing.T) {
	r := runCmd(t)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "Commands:") || !strings.HasSuffix(r.stderr, "robotsmith: no command given (see robotsmith help)\n") {
		t.Errorf("robotsmith: exit %d, stdout %q, stderr %q; want 2, the commands and one line on stderr", r.code, r.stdout, r.stderr)
	}
}

// TestHelp checks every command's help: `robotsmith help NAME`, `NAME -h`, `NAME -help` and
// `NAME --help` print the same text on stdout and exit 0; it has the usage line, what the command
// does, every flag it takes with its text, an example and the exit status; and the list of commands
// names it.
func TestHelp(t *testing.T) {
	list := runCmd(t, "help").stdout
	for _, cmd := range commands() {
		t.Run(cmd.name, func(t *testing.T) {
			if !strings.Contains(list, "\n  "+cmd.name+" ") {
				t.Errorf("robotsmith help does not list %s:\n%s", cmd.name, list)
			}
			want := runCmd(t, "help", cmd.name)
			if want.code != 0 || want.stderr != "" {
				t.Fatalf("help %s: exit %d, stderr %q", cmd.name, want.code, want.stderr)
			}
			for _, form := range [][]string{{cmd.name, "-h"}, {cmd.name, "-help"}, {cmd.name, "--help"}, {cmd.name, "--json", "-h"}} {
				if form[1] == "--json" && cmd.name != "build" {
					continue
				}
				if got := runCmd(t, form...); got != want {
					t.Errorf("%q: got %+v, want what `help %s` gives", form, got, cmd.name)
				}
			}
			text := want.stdout
			for _, part := range []string{"Usage: robotsmith " + cmd.name, cmd.about, "Example:\n  robotsmith " + cmd.name, "Exit status: " + cmd.exit} {
				if !strings.Contains(text, part) {
					t.Errorf("help %s lacks %q:\n%s", cmd.name, part, text)
				}
			}
			var o options
			n := 0
			cmd.flagSet(&o).VisitAll(func(f *flag.Flag) {
				n++
				_, usage := flag.UnquoteUsage(f)
				if !strings.Contains(text, "  "+dashed(f.Name)) || !strings.Contains(text, usage) {
					t.Errorf("help %s lacks flag %s (%q):\n%s", cmd.name, dashed(f.Name), usage, text)
				}
			})
			if (n > 0) != strings.Contains(text, "Flags:") {
				t.Errorf("help %s: %d flags, but Flags: section is %v", cmd.name, n, strings.Contains(text, "Flags:"))
			}
		})
	}
}

// TestFlagsPerCommand is the table of which command takes which flag (SPEC §1): a flag a command
// does not take is a usage error.
func TestFlagsPerCommand(t *testing.T) {
	takes := map[string][]string{
		"build":   {"config", "format", "json", "no-command", "output", "q", "record", "v"},
		"check":   {"config", "format", "json", "no-command", "output", "q", "record", "strict", "v"},
		"diff":    {"fail-on", "json", "markdown"},
		"explain": {"agent", "config", "json", "no-command", "output", "v"},
		"help":    nil,
		"version": nil,
		"watch":   {"config", "no-command", "output", "poll", "q", "serve", "v"},
	}
	for _, cmd := range commands() {
		t.Run(cmd.name, func(t *testing.T) {
			var o options
			var got []string
			cmd.flagSet(&o).VisitAll(func(f *flag.Flag) { got = append(got, f.Name) })
			if !slices.Equal(got, takes[cmd.name]) {
				t.Errorf("flags: got %q, want %q", got, takes[cmd.name])
			}
		})
	}
	if len(takes) != len(commands()) {
		t.Errorf("the table has %d commands, robotsmith %d", len(takes), len(commands()))
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"build", "check", "explain", "help", "version"}
	tests := []struct{ typed, want string }{
		{"buidl", "build"},  // two neighbours swapped
		{"bulid", "build"},  // two neighbours swapped
		{"biuld", "build"},  // two neighbours swapped
		{"bild", "build"},   // a letter left out
		{"builds", "build"}, // one too many
		{"Build", "build"},  // case
		{"chek", "check"},
		{"explan", "explain"},
		{"hlep", "help"},
		{"deploy", ""}, // nothing near
		{"b", ""},      // too short to guess
		{"xy", ""},
		{"watch", ""},
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			got := didYouMean(tc.typed, names, func(s string) string { return s })
			want := ""
			if tc.want != "" {
				want = "; did you mean " + tc.want + "?"
			}
			if got != want {
				t.Errorf("didYouMean(%q): got %q, want %q", tc.typed, got, want)
			}
		})
	}
}

// TestExitCode is the table of exit statuses (SPEC §1, §10).
func TestExitCode(t *testing.T) {
	tests := []struct {
		desc string
		err  error
		want int
	}{
		{"success", nil, 0},
		{"help", flag.ErrHelp, 0},
		{"usage", &usageError{"build", "x"}, 2},
		{"failed", errFailed, 1},
		{"any other error", errors.New("disk full"), 1},
		{"SIGINT", &interrupted{syscall.SIGINT}, 130},
		{"SIGTERM", &interrupted{syscall.SIGTERM}, 143},
		{"SIGINT, wrapped", fmt.Errorf("build: %w", &interrupted{syscall.SIGINT}), 130},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v): got %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

// TestInterrupted: a run whose context a signal cancelled exits 128 + the signal, and writes
// nothing (SPEC §10).
func TestInterrupted(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := plainSite(t)
			before := snapshot(t, dir)
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&interrupted{tc.sig})
			r := runCtx(t, ctx, nil, "build", dir)
			if want := "robotsmith: interrupted (" + tc.sig.String() + ")\n"; r.code != tc.want || r.stderr != want {
				t.Errorf("exit %d, stderr %q; want %d and the one line %q", r.code, r.stderr, tc.want, want)
			}
			sameSnapshot(t, "interrupted build", before, snapshot(t, dir))
			r = runCtx(t, ctx, nil, "check", "--json", dir)
			if r.code != tc.want || !strings.Contains(r.stdout, `"ok": false`) || !strings.Contains(r.stdout, `"message": "interrupted (`+tc.sig.String()+`)"`) {
				t.Errorf("check --json: exit %d, stdout %s; want %d and the interruption as an error", r.code, r.stdout, tc.want)
			}
		})
	}
}

// TestProgress checks the progress line against a clock and a timer the test moves: nothing in the
// first second, then, when the second is up, the phase the run is in, though it said nothing more;
// each new phase at once, the files done at most every 100 ms (and the last), erased at the end,
// and nothing after.
func TestProgress(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	var (
		b       strings.Builder
		timer   func()
		wait    time.Duration
		stopped bool
	)
	after := func(d time.Duration, f func()) func() bool {
		if timer != nil {
			t.Errorf("a second timer")
		}
		timer, wait = f, d
		return func() bool { stopped = true; return true }
	}
	p := newProgress(&b, func() time.Time { return now }, after)
	const (
		sources = pipeline.ReadingSources
		listing = pipeline.ListingOutput
		pages   = pipeline.ProcessingPages
	)
	steps := []struct {
		at          time.Duration
		phase       pipeline.Phase // 0: the timer fires
		done, total int
		want        string // printed by this call
	}{
		{100 * time.Millisecond, sources, 0, 0, ""},
		{1000 * time.Millisecond, 0, 0, 0, "\rrobotsmith: reading sources\033[K"}, // the phase goes on without a word
		{1100 * time.Millisecond, listing, 0, 0, "\rrobotsmith: listing the output\033[K"},
		{1150 * time.Millisecond, pages, 0, 500, "\rrobotsmith: processing pages, 0/500 files\033[K"}, // a new phase at once
		{1200 * time.Millisecond, pages, 120, 500, ""},                                                // too soon
		{1260 * time.Millisecond, pages, 200, 500, "\rrobotsmith: processing pages, 200/500 files\033[K"},
		{1270 * time.Millisecond, pages, 500, 500, "\rrobotsmith: processing pages, 500/500 files\033[K"}, // the last, however soon
		{1280 * time.Millisecond, pipeline.Writing, 0, 0, "\rrobotsmith: writing _headers, robots.txt, sitemaps\033[K"},
		{1290 * time.Millisecond, pipeline.Committing, 0, 0, "\rrobotsmith: committing\033[K"},
	}
	for _, s := range steps {
		now = start.Add(s.at)
		before := b.Len()
		if s.phase == 0 {
			if timer == nil || wait != 900*time.Millisecond {
				t.Fatalf("at %v: timer %v for %v, want one set for the rest of the first second", s.at, timer != nil, wait)
			}
			timer()
		} else {
			p.update(s.phase, s.done, s.total)
		}
		if got := b.String()[before:]; got != s.want {
			t.Errorf("at %v, %v %d/%d: printed %q, want %q", s.at, s.phase, s.done, s.total, got, s.want)
		}
	}
	before := b.Len()
	p.clear()
	if got := b.String()[before:]; got != "\r\033[K" {
		t.Errorf("clear: printed %q, want the line erased", got)
	}
	p.update(pipeline.Committing, 0, 0)
	if got := b.String()[before:]; got != "\r\033[K" {
		t.Errorf("after clear: printed %q, want nothing more", got)
	}

	// A quick run prints nothing, not even the erase, and its timer is stopped (a timer that fires
	// all the same draws nothing).
	var quick strings.Builder
	now, timer, stopped = start, nil, false
	q := newProgress(&quick, func() time.Time { return now }, after)
	now = start.Add(200 * time.Millisecond)
	q.update(sources, 0, 0)
	q.update(pages, 1, 1)
	q.clear()
	if !stopped {
		t.Error("a quick run's timer was not stopped")
	}
	timer()
	if quick.Len() != 0 {
		t.Errorf("a run under a second printed %q", quick.String())
	}

	// A run whose configured command took the first second draws its first phase at once.
	var slow strings.Builder
	now, timer = start, nil
	s := newProgress(&slow, func() time.Time { return now }, after)
	now = start.Add(5 * time.Second)
	s.update(sources, 0, 0)
	if got, want := slow.String(), "\rrobotsmith: reading sources\033[K"; got != want || timer != nil {
		t.Errorf("after a 5 s command: printed %q, timer set %v; want %q at once", got, timer != nil, want)
	}

	var none *progress
	none.clear() // no progress (not a terminal, -q): nothing to erase
}

// TestProgressLine runs build and check on the sample site as if stderr were a terminal, with a
// clock that moves 1.1 s at each look: the pipeline's phases are drawn on one line, in order, the
// count of files done of the total among them up to the total, and the line is erased before
// anything else is printed; with -q, or off a terminal, there is none.
func TestProgressLine(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	dir := testtool.SampleSite(t, gen)
	generate(t, gen, dir)
	line := regexp.MustCompile("\rrobotsmith: ([a-z_, .]+?)(?:, (\\d+)/(\\d+) files)?\033\\[K")
	tests := []struct {
		desc     string
		args     []string
		terminal bool
		phases   []string // the phases drawn, in order, each once; nil for no line
	}{
		{"check on a terminal", []string{"check", dir}, true, []string{"reading sources", "listing the output", "processing pages", "checking _headers, robots.txt, sitemaps"}},
		{"check --json on a terminal", []string{"check", "--json", dir}, true, []string{"reading sources", "listing the output", "processing pages", "checking _headers, robots.txt, sitemaps"}},
		{"build on a terminal", []string{"build", "--no-command", dir}, true, []string{"reading sources", "listing the output", "processing pages", "writing _headers, robots.txt, sitemaps", "committing"}},
		{"check -q on a terminal", []string{"check", "-q", dir}, true, nil},
		{"check off a terminal", []string{"check", dir}, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			var mu sync.Mutex
			clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			c := &cli{stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
				terminal: func(io.Writer) bool { return tc.terminal },
				now: func() time.Time {
					mu.Lock()
					defer mu.Unlock()
					clock = clock.Add(1100 * time.Millisecond)
					return clock
				}}
			c.run(context.Background(), tc.args)
			if strings.Contains(stdout.String(), "\r") {
				t.Errorf("a progress line on stdout: %q", stdout.String())
			}
			got := stderr.String()
			draws := line.FindAllStringSubmatch(got, -1)
			if tc.phases == nil {
				if strings.Contains(got, "\r") {
					t.Errorf("stderr has a progress line: %q", got)
				}
				return
			}
			var phases []string
			prev, total, last := -1, "", ""
			for _, d := range draws {
				if len(phases) == 0 || phases[len(phases)-1] != d[1] {
					phases = append(phases, d[1])
				}
				if d[1] != "processing pages" {
					continue
				}
				var done int
				fmt.Sscan(d[2], &done)
				if done < prev || (total != "" && d[3] != total) {
					t.Errorf("progress went %d to %q", prev, d[0])
				}
				prev, total, last = done, d[3], d[2]
			}
			if !slices.Equal(phases, tc.phases) {
				t.Errorf("phases drawn: got %q, want %q\n%q", phases, tc.phases, got)
			}
			if last != total || total == "0" {
				t.Errorf("the last count of files is %s/%s, want all files done", last, total)
			}
			// The line is erased before the summary, warnings and errors are printed.
			lastDraw := draws[len(draws)-1][0]
			if rest := got[strings.LastIndex(got, lastDraw)+len(lastDraw):]; !strings.HasPrefix(rest, "\r\033[K") || strings.Contains(rest[1:], "\r") {
				t.Errorf("after the last progress line: %q, want it erased once", rest)
			}
		})
	}
}

// writeHook is a terminal that calls fn with what each write brings.
type writeHook struct {
	bytes.Buffer
	fn func(string)
}

func (w *writeHook) Write(p []byte) (int, error) {
	w.fn(string(p))
	return w.Buffer.Write(p)
}

// drawingCLI is a cli on a terminal whose clock moves a second at each look, so that every
// progress line is drawn the moment it changes: a test's writeHook on stderr sees each phase as it
// begins.
func drawingCLI(stdout, stderr io.Writer) *cli {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	looks := 0
	return &cli{stdout: stdout, stderr: stderr, getenv: func(string) string { return "" },
		terminal: func(io.Writer) bool { return true },
		now: func() time.Time {
			looks++
			return start.Add(time.Duration(looks) * time.Second)
		}}
}

// TestProgressFirstLine: the progress line names the phase as soon as the run begins reading the
// sources, not once they are read. The test's terminal makes a source page noindex the moment the
// line says "reading sources" (a clock past the first second draws it at once): the run reads the
// page as made noindex, as the check after it does. Before, the line appeared with the first file
// processed, and a site's first seconds (reading 20,000 sources) printed nothing.
func TestProgressFirstLine(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	dir := testtool.SampleSite(t, gen)
	generate(t, gen, dir)
	about := filepath.Join(dir, "content", "about.md")
	edited := false
	stderr := &writeHook{fn: func(s string) {
		if strings.Contains(s, "reading sources") && !edited {
			edited = true
			b, err := os.ReadFile(about)
			if err != nil {
				t.Error(err)
				return
			}
			writeFile(t, dir, "content/about.md", strings.Replace(string(b), "+++\n", "+++\nrobots = \"noindex\"\n", 1))
		}
	}}
	var stdout bytes.Buffer
	c := drawingCLI(&stdout, stderr)
	c.run(context.Background(), []string{"check", dir})
	if !edited {
		t.Fatalf("no progress line said \"reading sources\": %q", stderr.String())
	}
	after := runCmd(t, "check", dir)
	first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
	if got, want := first(stdout.String()), first(after.stdout); got != want {
		t.Errorf("the run that drew \"reading sources\" counted %q, want the page made noindex then, as the check after it: %q", got, want)
	}
}

// TestElapsed: build's and check's summary ends with the run's time, as Hugo's "Total in 29 ms"
// and Jekyll's "done in 0.031 seconds." do, on a clock the test sets (the run's first look at it,
// and every later one); with -q, --json or an error there is no summary, and no time.
func TestElapsed(t *testing.T) {
	built := plainSite(t)
	if r := runCmd(t, "build", "-q", built); r.code != 0 {
		t.Fatalf("build: exit %d, stderr %q", r.code, r.stderr)
	}
	broken := plainSite(t)
	writeFile(t, broken, "robotsmith.yaml", "tags: four\n")
	tests := []struct {
		desc string
		args []string
		took time.Duration
		code int
		want string // the summary's last line; "" for no summary
	}{
		{"build", []string{"build", plainSite(t)}, 1234 * time.Millisecond, 0, "done in 1.23s\n"},
		{"check, a change found", []string{"check", plainSite(t)}, 28400 * time.Microsecond, 1, "done in 28ms\n"},
		{"check -v", []string{"check", "-v", built}, 2*time.Minute + 5*time.Second, 0, "done in 2m5s\n"},
		{"check -q", []string{"check", "-q", built}, time.Second, 0, ""},
		{"check --json", []string{"check", "--json", built}, time.Second, 0, ""},
		{"check, an error", []string{"check", broken}, time.Second, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			looks := 0
			var stdout, stderr bytes.Buffer
			c := &cli{stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
				terminal: func(io.Writer) bool { return false },
				now: func() time.Time {
					looks++
					if looks == 1 {
						return start
					}
					return start.Add(tc.took)
				}}
			code := exitCode(c.run(context.Background(), tc.args))
			if code != tc.code {
				t.Errorf("exit: got %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			got := stdout.String()
			if i := strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n"); i >= 0 {
				got = got[i+1:]
			}
			if tc.want == "" {
				if strings.Contains(stdout.String(), "done in") {
					t.Errorf("stdout: got %q, want no time", stdout.String())
				}
				return
			}
			if got != tc.want {
				t.Errorf("the summary's last line: got %q, want %q\n%s", got, tc.want, stdout.String())
			}
		})
	}
}

// TestWorkflowCommands is the table of GitHub Actions workflow commands: a problem's level (error
// for an error and a finding, warning for a warning), place, code and name as the title, escaped
// as the runner reads them (actions/toolkit command.ts: %, CR and LF in the message; also : and ,
// in properties).
func TestWorkflowCommands(t *testing.T) {
	at := func(file string, line, col int) problem.Position {
		return problem.Position{File: file, Line: line, Col: col}
	}
	tests := []struct {
		desc string
		p    problem.Problem
		want string
	}{
		{"an error at a file and line", *problem.New(problem.MalformedDirective, at("content/blog/a.md", 3, 0), "front matter robots: bad"),
			"::error file=content/blog/a.md,line=3,title=RS0401 malformed-directive::front matter robots: bad"},
		{"a warning at a file, line and column", *problem.New(problem.LooseSeparators, at("a.md", 3, 7), "odd"),
			"::warning file=a.md,line=3,col=7,title=RS0409 loose-separators::odd"},
		{"a finding", *problem.New(problem.NoindexBlockedByRobotsTxt, at("content/blog/a.md", 3, 0), "hidden"),
			"::error file=content/blog/a.md,line=3,title=RS0103 noindex-blocked-by-robots-txt::hidden"},
		{"a warning raised by --strict", problem.New(problem.UnknownDirective, at("a.md", 2, 0), "dropped").Strict(),
			"::error file=a.md,line=2,title=RS0403 unknown-directive::dropped"},
		{"no place", *problem.New(problem.CommandFailed, problem.Position{}, "command failed: hugo: exit status 1"),
			"::error title=RS0004 command-failed::command failed: hugo: exit status 1"},
		{"file only", *problem.New(problem.PageOutputMissing, at("content/x.md", 0, 0), "no output found (expected public/x/index.html)"),
			"::error file=content/x.md,title=RS0505 page-output-missing::no output found (expected public/x/index.html)"},
		{"no code", problem.Problem{Severity: problem.Error, Msg: "robotsmith diff fails on home: /"},
			"::error::robotsmith diff fails on home: /"},
		{"escapes", *problem.New(problem.MalformedDirective, at("a,b:c%.md", 2, 0), "100% sure\r\nnext ::x"),
			"::error file=a%2Cb%3Ac%25.md,line=2,title=RS0401 malformed-directive::100%25 sure%0D%0Anext ::x"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := workflowCommand(tc.p, "", ""); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestGitHubActions runs check under GITHUB_ACTIONS=true on a copy of the sample site with a
// warning, a finding and then an error: each is also printed as a workflow command naming its file
// relative to the repository (GITHUB_WORKSPACE) and its line; without GITHUB_ACTIONS there are none.
func TestGitHubActions(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	repo := t.TempDir()
	site := filepath.Join(repo, "site")
	testtool.CopyTree(t, testtool.SampleSite(t, gen), site)
	writeFile(t, site, "content/blog/typo.md", "---\ntitle: Typo\nrobots: noodp\n---\nbody\n")
	headers, err := os.ReadFile(filepath.Join(site, "static", "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, site, "static/_headers", string(headers)+"/files/terms.pdf\n  X-Robots-Tag: noarchive\n")
	generate(t, gen, site)
	gha := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": repo}

	t.Chdir(repo)
	for _, args := range [][]string{{"check", "site"}, {"check", "--json", "site"}} {
		r := runEnv(t, gha, args...)
		if r.code != 1 {
			t.Errorf("%q: exit %d, want 1", args, r.code)
		}
		for _, want := range []string{
			"::warning file=site/content/blog/typo.md,line=3,title=RS0404 obsolete-directive::front matter robots: obsolete directive \"noodp\"",
			"::error file=site/public/_headers,line=",
			",title=RS0805 header-rule-overlaps::",
		} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%q: stderr lacks %q:\n%s", args, want, r.stderr)
			}
		}
		if strings.Contains(r.stdout, "::") && !slices.Contains(args, "--json") {
			t.Errorf("%q: workflow commands on stdout:\n%s", args, r.stdout)
		}
	}
	if r := runEnv(t, map[string]string{"GITHUB_WORKSPACE": repo}, "check", "site"); strings.Contains(r.stderr, "::") {
		t.Errorf("without GITHUB_ACTIONS: workflow commands printed:\n%s", r.stderr)
	}

	writeFile(t, site, "content/about.md", "---\ntitle: About\nrobots: max-snippet:lots\n---\nbody\n")
	r := runEnv(t, gha, "build", "--no-command", "site")
	if want := "::error file=site/content/about.md,line=3,title=RS0401 malformed-directive::front matter robots: \"max-snippet:lots\""; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("build with an error: exit %d, stderr lacks %q:\n%s", r.code, want, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "content/about.md:3: front matter robots:") {
		t.Errorf("the error is not printed as file:line: message at the start of a line:\n%s", r.stderr)
	}
}

// TestSampleSiteEndToEnd, on a copy of the sample site: the generator runs as the configured
// command, build exits 0 and writes every form, check exits 1 before build and 0 after, a second
// build writes nothing, and broken inputs exit 1 naming file:line with no file written, in the text
// and in the JSON report.
func TestSampleSiteEndToEnd(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	dir := testtool.SampleSite(t, gen)
	out := filepath.Join(dir, "public")

	// Generator output, not yet processed: check runs no command and reports what build would change.
	generate(t, gen, dir)
	before := snapshot(t, out)
	r := runCmd(t, "check", dir)
	// 41 pages, _headers, robots.txt (robotsmith's block) and sitemap.xml (pruned of its noindex entries).
	if r.code != 1 || !strings.Contains(r.stdout, "would change 44 files\n") {
		t.Fatalf("check before build: exit %d, stdout %q, stderr %q; want 1 and \"would change 44 files\"", r.code, r.stdout, r.stderr)
	}
	// Counts, not lists: the unpublished draft and the changed files are listed only with -v.
	if strings.Contains(r.stdout, "work-in-progress") || strings.Contains(r.stdout, "blog/index.html") {
		t.Errorf("check without -v lists files:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "1 source page not published by the generator") {
		t.Errorf("check does not count the unpublished page:\n%s", r.stdout)
	}
	rv := runCmd(t, "check", "-v", dir)
	for _, want := range []string{"  content/blog/work-in-progress.md (draft)\n", "  blog/index.html\n"} {
		if !strings.Contains(rv.stdout, want) {
			t.Errorf("check -v lacks %q:\n%s", want, rv.stdout)
		}
	}
	if strings.Contains(r.stderr+rv.stderr, "\r") {
		t.Errorf("a progress line on a stderr that is not a terminal: %q", r.stderr)
	}
	sameSnapshot(t, "check wrote", before, snapshot(t, out))

	r = runCmd(t, "build", "--json", dir)
	if r.code != 0 {
		t.Fatalf("build: exit %d\nstderr: %s", r.code, r.stderr)
	}
	var rep struct {
		pipeline.Report
		Unpublished []pipeline.Unpublished `json:"unpublished"`
		Warnings    []pipeline.Message     `json:"warnings"`
		Findings    []pipeline.Message     `json:"findings"`
		Errors      []pipeline.Message     `json:"errors"`
		OK          bool                   `json:"ok"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("build --json: %v\n%s", err, r.stdout)
	}
	if !rep.OK || rep.Public == 0 || rep.NoIndex == 0 || rep.ErrorPages == 0 || rep.Redirects == 0 || rep.Changed == 0 {
		t.Errorf("build report lacks a form: %+v", rep)
	}
	copyDecidesAlike(t, nil, dir)

	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const (
		robotsPublic = `<meta name="robots" content="index, follow">`
		googlebot    = `<meta name="googlebot" content="index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1">`
		bingbot      = `<meta name="bingbot" content="index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1">`
	)
	forms := []struct {
		desc, file string
		want, not  []string
	}{
		{"public page: three tags", "blog/index.html", []string{"<!-- robotsmith -->", robotsPublic, googlebot, bingbot, "<!-- /robotsmith -->"}, nil},
		{"taxonomy: noindex only", "tags/index.html", []string{`<meta name="robots" content="noindex, follow">`}, []string{`name="googlebot"`, `name="bingbot"`}},
		{"error page: none", "404.html", nil, []string{"<!-- robotsmith -->", `name="robots"`, `name="googlebot"`}},
		{"alias stub: none", "old-path/index.html", []string{`http-equiv="refresh"`}, []string{"<!-- robotsmith -->", `name="robots"`}},
		{"verification file untouched", "google1234567890abcdef.html", []string{"google-site-verification"}, []string{"robotsmith"}},
		{"_headers for the PDFs", "_headers", []string{"# robotsmith: begin", "/files/terms.pdf\n  X-Robots-Tag: noindex, nofollow"}, nil},
		{"_headers: Content-Usage for every path", "_headers", []string{"/*\n  Content-Usage: train-ai=n, search=y\n"}, nil},
		{"robots.txt: the theme's lines, then robotsmith's block", "robots.txt", []string{"User-agent: *\nAllow: /\n\nSitemap: https://example.org/sitemap.xml\n\n# robotsmith: begin\n",
			"User-agent: *\nDisallow: /search/\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: train-ai=n, search=y\n",
			"User-agent: GPTBot\nDisallow: /\n", "# robotsmith: end\n"},
			[]string{"User-agent: Googlebot\n", "User-agent: facebookexternalhit\n", "Sitemap: https://example.org/sitemap.xml\n# robotsmith: end"}},
	}
	for _, f := range forms {
		got := read(f.file)
		for _, w := range f.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %s lacks %q", f.desc, f.file, w)
			}
		}
		for _, n := range f.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %s has %q", f.desc, f.file, n)
			}
		}
	}

	built := snapshot(t, out)
	if r := runCmd(t, "check", dir); r.code != 0 {
		t.Errorf("check after build: exit %d, want 0\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "build", "--no-command", "--json", dir)
	if r.code != 0 {
		t.Fatalf("second build: exit %d\n%s", r.code, r.stderr)
	}
	rep.Report = pipeline.Report{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || rep.Wrote || len(rep.ChangedFiles) != 0 {
		t.Errorf("second build changed %d files (%q), want 0", rep.Changed, rep.ChangedFiles)
	}
	if !strings.Contains(r.stdout, `"changed_files": []`) {
		t.Errorf("an empty list is not []:\n%s", r.stdout)
	}
	sameSnapshot(t, "second build", built, snapshot(t, out))

	// A broken front matter fails the build before anything is written, naming file and line.
	page := filepath.Join(dir, "content", "about.md")
	orig, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	generate(t, gen, dir)
	fresh := snapshot(t, out)
	if err := os.WriteFile(page, []byte("---\ntitle: About\nrobots: [noindex\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCmd(t, "build", "--no-command", dir)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "content/about.md:") || !strings.HasSuffix(r.stderr, "robotsmith: build failed, no file was written (1 error)\n") {
		t.Errorf("broken front matter: exit %d, stderr %q; want 1, starting with content/about.md:LINE", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("a failed build printed a summary: %q", r.stdout)
	}
	sameSnapshot(t, "failed build (front matter)", fresh, snapshot(t, out))
	if err := os.WriteFile(page, orig, 0o644); err != nil {
		t.Fatal(err)
	}

	// A broken config likewise, and in the JSON report as well.
	cfgPath := filepath.Join(dir, "robotsmith.yaml")
	cfg, _ := os.ReadFile(cfgPath)
	if err := os.WriteFile(cfgPath, append(cfg, []byte("\nsitemaps: prune\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCmd(t, "build", "--no-command", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "robotsmith.yaml:") || !strings.Contains(r.stderr, `unknown key "sitemaps"`) {
		t.Errorf("broken config: exit %d, stderr %q; want 1 naming robotsmith.yaml:LINE", r.code, r.stderr)
	}
	r = runCmd(t, "build", "--no-command", "--json", dir)
	var doc struct {
		OK     bool               `json:"ok"`
		Errors []pipeline.Message `json:"errors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("broken config, --json: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || doc.OK || len(doc.Errors) != 1 || !strings.HasSuffix(doc.Errors[0].File, "robotsmith.yaml") || doc.Errors[0].Line == 0 {
		t.Errorf("broken config, --json: exit %d, %+v; want 1 and the error at robotsmith.yaml:LINE", r.code, doc)
	}
	sameSnapshot(t, "failed build (config)", fresh, snapshot(t, out))
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}

	// A malformed value in a rule is an error at its line too.
	bad := bytes.Replace(cfg, []byte("googlebot: max-snippet:160"), []byte("googlebot: max-snippet:lots"), 1)
	if bytes.Equal(bad, cfg) {
		t.Fatal("sample config has no `googlebot: max-snippet:160` rule to break")
	}
	os.WriteFile(cfgPath, bad, 0o644)
	r = runCmd(t, "build", "--no-command", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "robotsmith.yaml:") || !strings.Contains(r.stderr, "max-snippet") {
		t.Errorf("malformed rule value: exit %d, stderr %q", r.code, r.stderr)
	}
	sameSnapshot(t, "failed build (rule value)", fresh, snapshot(t, out))
	os.WriteFile(cfgPath, cfg, 0o644)

	// A misspelt restriction fails closed (SPEC §4): wherever it was written, the build exits 1
	// with "did you mean" at the typo's line and writes nothing.
	for _, tc := range []struct {
		desc, file, old, new, want string
	}{
		{"a rule's value", "robotsmith.yaml", "  - kind: [taxonomy, term]\n    robots: noindex, follow", "  - kind: [taxonomy, term]\n    robots: noindx, follow", `did you mean "noindex"?`},
		{"a rule's value with a Cyrillic lookalike", "robotsmith.yaml", "    robots: noindex\n", "    robots: no\u0456ndex\n", `did you mean "noindex"?`},
		{"a rule's agent", "robotsmith.yaml", "googlebot: max-snippet:160", "googlebto: max-snippet:160", `did you mean "googlebot"?`},
		{"a rule's path selector", "robotsmith.yaml", "  - path: /internal/**", "  - paht: /internal/**", `did you mean "path"?`},
		{"a rule's kind selector", "robotsmith.yaml", "  - kind: [taxonomy, term]", "  - kinds: [taxonomy, term]", `did you mean "kind"?`},
		{"a rule's kind", "robotsmith.yaml", "  - kind: [taxonomy, term]", "  - kind: [taxonmy, term]", `did you mean "taxonomy"?`},
		{"a front matter key", "content/about.md", "title = \"About this site\"\n", "title = \"About this site\"\nnoindx = true\n", `did you mean "noindex"?`},
	} {
		p := filepath.Join(dir, filepath.FromSlash(tc.file))
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		typo := strings.Replace(string(orig), tc.old, tc.new, 1)
		if typo == string(orig) {
			t.Fatalf("%s: %s has no %q to misspell", tc.desc, tc.file, tc.old)
		}
		i := 0 // the typo's line is that of the first byte it changed
		for typo[i] == orig[i] {
			i++
		}
		line := strings.Count(typo[:i], "\n") + 1
		if err := os.WriteFile(p, []byte(typo), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCmd(t, "build", "--no-command", dir)
		at := fmt.Sprintf("%s:%d:", tc.file, line)
		if r.code != 1 || !strings.Contains(r.stderr, at) || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "no file was written") {
			t.Errorf("%s misspelt: exit %d, stderr %q; want 1, %q and %q", tc.desc, r.code, r.stderr, at, tc.want)
		}
		sameSnapshot(t, "failed build ("+tc.desc+" misspelt)", fresh, snapshot(t, out))
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// explain names the source of every value, and an unknown path exits 1.
	r = runCmd(t, "explain", dir, "/tags/", "/files/terms.pdf")
	if r.code != 0 || !strings.Contains(r.stdout, "noindex") || !regexp.MustCompile(`rule 1 at \S*robotsmith.yaml:\d+ \(kind: taxonomy\)`).MatchString(r.stdout) || !strings.Contains(r.stdout, "(path: /**/*.pdf)") {
		t.Errorf("explain: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "explain", dir, "/old-path/")
	if r.code != 0 || !strings.Contains(r.stdout, "alias of: content/about.md") || !strings.Contains(r.stdout, "class: redirect") {
		t.Errorf("explain alias stub: exit %d\nstdout %s", r.code, r.stdout)
	}
	if r := runCmd(t, "explain", dir, "/no/such/page/"); r.code != 1 {
		t.Errorf("explain unknown path: exit %d, want 1", r.code)
	}
}

// TestJSONGolden compares the JSON reports of the sample site with the golden files in testdata/
// (regenerate with go test -run JSONGolden -update): build, explain, check --strict --format sarif
// with a warning and a finding, and a config error. runEnv validates each against its schema.
func TestJSONGolden(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	dir := testtool.SampleSite(t, gen)
	generate(t, gen, dir)
	normalize := func(s string) string {
		s = strings.ReplaceAll(s, dir, "sample-site")
		// robotsmith's version, not SARIF's.
		return regexp.MustCompile(`"version": "[^"]*"`).ReplaceAllStringFunc(s, func(v string) string {
			if v == `"version": "2.1.0"` {
				return v
			}
			return `"version": "VERSION"`
		})
	}
	tests := []struct {
		golden string
		args   []string
		code   int
		before func()
	}{
		{"sample-site.build.json", []string{"build", "--json", "--no-command", dir}, 0, nil},
		{"sample-site.explain.json", []string{"explain", "--json", "--agent", "GPTBot,Googlebot", dir, "/blog/per-agent/", "/old-path/", "/files/terms.pdf", "/tags/robots/page/2/", "/no/such/page/"}, 1, nil},
		{"sample-site.check.sarif", []string{"check", "--strict", "--format", "sarif", dir}, 1, func() {
			// A warning (an obsolete value) and a finding (a rule of the site's own _headers that
			// sets X-Robots-Tag for a file robotsmith covers), as TestGitHubActions has them.
			writeFile(t, dir, "content/blog/typo.md", "---\ntitle: Typo\nrobots: noodp\n---\nbody\n")
			headers, err := os.ReadFile(filepath.Join(dir, "static", "_headers"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, "static/_headers", string(headers)+"/files/terms.pdf\n  X-Robots-Tag: noarchive\n")
			generate(t, gen, dir)
		}},
		{"sample-site.config-error.json", []string{"check", "--json", dir}, 1, func() {
			f, err := os.OpenFile(filepath.Join(dir, "robotsmith.yaml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprint(f, "\nsitemaps: prune\n")
			f.Close()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			r := runCmd(t, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", r.code, tc.code, r.stderr)
			}
			got := normalize(r.stdout)
			golden := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs (go test -run JSONGolden -update rewrites it):\ngot:\n%s", golden, got)
			}
		})
	}
}

// TestSignals runs the robotsmith binary on a site whose configured command takes long, and stops
// it with SIGINT and SIGTERM: the exit status is 130 and 143 (SPEC §10), the command is stopped with
// it, and nothing is written.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; not with -short")
	}
	bin := testtool.Robotsmith(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			site := plainSite(t)
			writeFile(t, site, "robotsmith.yaml", "command: echo started >&2; exec sleep 60\n")
			before := snapshot(t, site)
			cmd := exec.Command(bin, "build", site)
			// stderr goes to a file, which the test reads while robotsmith runs.
			errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer errFile.Close()
			stderr := func() string { return testtool.ReadFile(t, errFile.Name()) }
			cmd.Stderr = errFile
			cmd.WaitDelay = 10 * time.Second
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the command runs, then signal robotsmith.
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(stderr(), "started") && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			start := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.want {
				t.Errorf("exit: %v, want status %d; stderr %q", err, tc.want, stderr())
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("robotsmith took %v to stop", d)
			}
			if !strings.Contains(stderr(), "robotsmith: interrupted") {
				t.Errorf("stderr %q does not say it was interrupted", stderr())
			}
			sameSnapshot(t, "interrupted build", before, snapshot(t, site))
		})
	}
}

// TestStamp: `robotsmith version` as a release, go install and a build in a clone give it.
func TestStamp(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		desc    string
		ldflags string
		bi      debug.BuildInfo
		want    string
	}{
		{"a release", "1.2.3", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.time", "2026-11-27T10:00:00Z", "vcs.modified", "false")},
			"1.2.3 (commit 0123456789ab, 2026-11-27T10:00:00Z)"},
		{"go install @version", "", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"a clone with changes", "", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.time", "2026-11-27T10:00:00Z", "vcs.modified", "true")},
			"devel (commit 0123456789ab, modified, 2026-11-27T10:00:00Z)"},
		{"no record", "", debug.BuildInfo{}, "devel"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := stampOf(tc.ldflags, &tc.bi).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBuildFailedLine: the last line of a failed build says what was written. The site's own host
// files (vercel.json) are committed after the output's files; when that second commit fails (here
// vercel.json changes the moment the progress line says "committing", on a clock past the first
// second), the output's files are in place and the line must not say that no file was written.
func TestBuildFailedLine(t *testing.T) {
	tests := []struct {
		desc          string
		vercel        string // vercel.json as given
		touch         bool   // change vercel.json once the run commits
		wantLast      string
		outputWritten bool
	}{
		{"vercel.json unreadable, before anything is written", "{\n  \"headers\": [\n", false,
			"robotsmith: build failed, no file was written (1 error)\n", false},
		{"vercel.json changed while the site's files were committed", "{}\n", true,
			"robotsmith: build failed, the output's files were written, the site's host files were not (1 error)\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "robotsmith.yaml", "output: public\nheaders: {format: [netlify, vercel]}\nrules:\n  - path: /**/*.pdf\n    robots: noindex\n")
			writeFile(t, dir, "vercel.json", tc.vercel)
			writeFile(t, dir, "public/index.html", "<!DOCTYPE html>\n<html><head>\n<title>A</title>\n</head><body>a</body></html>\n")
			writeFile(t, dir, "public/files/x.pdf", "%PDF-1.4\n")
			vercel := filepath.Join(dir, "vercel.json")
			touched := false
			stderr := &writeHook{fn: func(s string) {
				if tc.touch && !touched && strings.Contains(s, "committing") {
					touched = true
					later := time.Now().Add(time.Hour)
					if err := os.Chtimes(vercel, later, later); err != nil {
						t.Error(err)
					}
				}
			}}
			c := drawingCLI(&bytes.Buffer{}, stderr)
			if err := c.run(context.Background(), []string{"build", dir}); err == nil {
				t.Fatalf("build passed: stderr %q", stderr.String())
			}
			if tc.touch && !touched {
				t.Fatalf("no progress line said \"committing\": %q", stderr.String())
			}
			lines := strings.SplitAfter(stderr.String(), "\n")
			if got := lines[len(lines)-2]; got != tc.wantLast {
				t.Errorf("last line: got %q, want %q (stderr %q)", got, tc.wantLast, stderr.String())
			}
			_, err := os.Stat(filepath.Join(dir, "public", "_headers"))
			if got := err == nil; got != tc.outputWritten {
				t.Errorf("public/_headers written: got %v, want %v", got, tc.outputWritten)
			}
			if b, err := os.ReadFile(vercel); err != nil || string(b) != tc.vercel {
				t.Errorf("vercel.json: got %q (%v), want it as given, %q", b, err, tc.vercel)
			}
		})
	}
}
