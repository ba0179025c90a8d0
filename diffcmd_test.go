package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/recordtest"
)

// diffRecords writes the records of a two-page site before and after a staging noindex reached
// its home page, and one whose pages merely gained nofollow, and a file that is no record.
func diffRecords(t *testing.T) (old, staging, nofollow, bad string) {
	t.Helper()
	dir := t.TempDir()
	home, post := recordtest.Page("/"), recordtest.Page("/blog/a/")
	old = recordtest.File(t, dir, "old.jsonl", home, post)
	hidden := recordtest.Page("/")
	recordtest.Noindex(&hidden, recordtest.Tag("robots", "public/index.html", 5))
	staging = recordtest.File(t, dir, "staging.jsonl", hidden, post)
	followless := recordtest.Page("/blog/a/")
	recordtest.Set(&followless, "robots", "follow", "nofollow", recordtest.Rule(1, 9))
	nofollow = recordtest.File(t, dir, "nofollow.jsonl", home, followless)
	bad = filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("url: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return old, staging, nofollow, bad
}

// TestDiffArgs is the table of diff's command lines, their exit status and what they print (SPEC
// §1, §11): usage errors are one line on stderr; 0 for no change --fail-on names, 1 for one or for
// a record that cannot be read.
func TestDiffArgs(t *testing.T) {
	old, staging, nofollow, bad := diffRecords(t)
	folder := t.TempDir()
	tests := []struct {
		desc   string
		args   []string
		code   int
		stdout string // must contain
		stderr string // must contain; for exit 2, the whole one line
	}{
		{"no records", []string{"diff"}, 2, "", `robotsmith diff: two records needed: robotsmith diff OLD NEW (see robotsmith help diff)`},
		{"one record", []string{"diff", old}, 2, "", `robotsmith diff: two records needed: robotsmith diff OLD NEW (see robotsmith help diff)`},
		{"three records", []string{"diff", old, old, old}, 2, "", `robotsmith diff: two records needed: robotsmith diff OLD NEW (see robotsmith help diff)`},
		// A folder is a site, read as check reads it: an empty one is a site of no URL.
		{"a folder of no page as OLD", []string{"diff", folder, old}, 0, "2 URLs added, 0 removed", ""},
		{"a folder of no page as NEW", []string{"diff", old, folder}, 1, "the home page / is removed", ""},
		{"--json and --markdown", []string{"diff", "--json", "--markdown", old, old}, 2, "", `robotsmith diff: --json and --markdown: one format at a time (see robotsmith help diff)`},
		{"--fail-on misspelt", []string{"diff", "--fail-on", "home,noindx:10%", old, old}, 2, "",
			`robotsmith diff: --fail-on: unknown rule "noindx"; did you mean "noindex"? (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none) (see robotsmith help diff)`},
		{"--fail-on without a threshold", []string{"diff", "--fail-on=sitemap", old, old}, 2, "",
			`robotsmith diff: --fail-on: sitemap needs a threshold: sitemap:N (more than N URLs) or sitemap:N% (more than N per cent) (see robotsmith help diff)`},
		{"--fial-on", []string{"diff", "--fial-on", "any", old, old}, 2, "", `robotsmith diff: unknown flag --fial-on; did you mean --fail-on? (see robotsmith help diff)`},
		{"-q", []string{"diff", "-q", old, old}, 2, "", `robotsmith diff: diff takes no flag -q (build, check and watch do) (see robotsmith help diff)`},
		{"check --fail-on", []string{"check", "--fail-on", "any"}, 2, "", `robotsmith check: check takes no flag --fail-on (diff does) (see robotsmith help check)`},
		{"build --markdown", []string{"build", "--markdown"}, 2, "", `robotsmith build: build takes no flag --markdown (diff does) (see robotsmith help build)`},

		{"a record with itself", []string{"diff", old, old}, 0, "robotsmith diff: no change (2 URLs)\n", ""},
		{"a record with itself, --fail-on any", []string{"diff", "--fail-on", "any", old, old}, 0, "robotsmith diff: no change (2 URLs)\n", ""},
		{"the home page noindex", []string{"diff", old, staging}, 1,
			"robotsmith diff: fails on home: the home page / leaves the index: noindex (tag <meta name=\"robots\"> at public/index.html:5)\n", ""},
		{"the home page noindex, --fail-on none", []string{"diff", "--fail-on", "none", old, staging}, 0, "/  (home page)  leaves the index: noindex\n", ""},
		{"the home page noindex, --fail-on sitemap:1", []string{"diff", "--fail-on", "sitemap:1", old, staging}, 0, "1 URL leaves the sitemap", ""},
		{"nofollow, the default --fail-on", []string{"diff", old, nofollow}, 0, "  robots: follow -> nofollow  (rule 1 at robotsmith.yaml:9)\n", ""},
		{"nofollow, --fail-on any", []string{"diff", "--fail-on", "any", old, nofollow}, 1, "robotsmith diff: fails on any: 1 URL changed\n", ""},
		{"flags after the records", []string{"diff", old, nofollow, "--fail-on", "any"}, 1, "fails on any", ""},
		{"--json", []string{"diff", "--json", old, staging}, 1, `"ok": false`, "robotsmith diff: fails on home: the home page / leaves the index"},
		{"--json, no change", []string{"diff", "--json", old, old}, 0, `"changes": []`, ""},
		{"--markdown", []string{"diff", "--markdown", old, staging}, 1, ":x: **Fails on `home`**", "robotsmith diff: fails on home"},
		{"--markdown, no change", []string{"diff", "--markdown", old, old}, 0, "No change: 2 URLs, each told the same as before.", ""},
		{"a missing record", []string{"diff", old, filepath.Join(folder, "no-such.jsonl")}, 1, "", "no-such.jsonl: no such file or directory"},
		{"not a record", []string{"diff", old, bad}, 1, "", "bad.jsonl:1: not a robotsmith indexability record: its first line is not the header"},
		{"not a record, --json", []string{"diff", "--json", bad, old}, 1, `"message": "not a robotsmith indexability record: its first line is not the header`, "bad.jsonl:1: "},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			checkRun(t, runCmd(t, tc.args...), tc.code, tc.stdout, tc.stderr)
		})
	}
}

// TestDiffStepSummary: under GitHub Actions, diff --markdown appends its report to the job's
// summary file ($GITHUB_STEP_SUMMARY), after what the job's other steps wrote there, and prints each
// rule it fails on as an error annotation; without --markdown the summary is left alone, and outside
// GitHub Actions nothing is written there.
func TestDiffStepSummary(t *testing.T) {
	old, staging, _, _ := diffRecords(t)
	summary := filepath.Join(t.TempDir(), "step_summary")
	const before = "## Build\n\nbuilt.\n"
	reset := func() {
		if err := os.WriteFile(summary, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gha := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary}

	reset()
	r := runEnv(t, gha, "diff", "--markdown", old, staging)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "### robotsmith diff\n") {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	if got, want := read(), before+r.stdout; got != want {
		t.Errorf("the step summary: got %q, want what was there and the report", got)
	}
	if want := "::error::robotsmith diff fails on home: the home page / leaves the index: noindex (tag <meta name=\"robots\"> at public/index.html:5)\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks the annotation %q:\n%s", want, r.stderr)
	}

	for _, tc := range []struct {
		desc string
		env  map[string]string
		args []string
	}{
		{"text", gha, []string{"diff", old, staging}},
		{"--json", gha, []string{"diff", "--json", old, staging}},
		{"outside GitHub Actions", map[string]string{"GITHUB_STEP_SUMMARY": summary}, []string{"diff", "--markdown", old, staging}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			reset()
			runEnv(t, tc.env, tc.args...)
			if got := read(); got != before {
				t.Errorf("the step summary changed: %q", got)
			}
		})
	}
}

// TestDiffJSONSchema: diff's JSON report, of a change and of records it cannot read, matches
// schema/diff.schema.json (runCmd validates every --json report), and the schema can fail.
func TestDiffJSONSchema(t *testing.T) {
	old, staging, _, _ := diffRecords(t)
	r := runCmd(t, "diff", "--json", old, staging)
	for _, tc := range []struct{ desc, old, new string }{
		{"a null list", `"changes": [`, `"changes": null, "x": [`},
		{"an undocumented field", `"ok": false`, `"ok": false, "passed": false`},
		{"an unknown aspect", `"aspect": "index"`, `"aspect": "indexing"`},
		{"a missing summary count", `"leave_index": 1,`, ``},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if !strings.Contains(r.stdout, tc.old) {
				t.Fatalf("the report has no %q:\n%s", tc.old, r.stdout)
			}
			if err := schemaErr(t, diffSchemaFile, []byte(strings.Replace(r.stdout, tc.old, tc.new, 1))); err == nil {
				t.Errorf("the schema accepts a report with %s", tc.desc)
			}
		})
	}
}
