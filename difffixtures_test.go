package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestDiffFixtures builds the Hugo site of testdata/diff/hugo twice with the real Hugo, as it is and
// with one change, and runs robotsmith diff over the two sites' folders with the default --fail-on
// (home, noindex:10%): each of the changes that quietly take a site out of search fails it, and the
// site compared with itself has no change. Of the site's 11 URLs, 9 are in the index (7 pages, the
// sitemap and robots.txt; the drafts are noindex by a rule).
func TestDiffFixtures(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	build := func(t *testing.T, edit func(dir string)) string {
		t.Helper()
		dir := t.TempDir()
		testtool.CopyTree(t, filepath.Join("testdata", "diff", "hugo"), dir)
		if edit != nil {
			edit(dir)
		}
		if out, err := exec.Command(hugo, "--quiet", "-s", dir).CombinedOutput(); err != nil {
			t.Fatalf("hugo: %v\n%s", err, out)
		}
		return dir
	}
	old := build(t, nil)

	// A theme's script, fingerprinted as Hugo's asset pipeline does (hextra's docs do the same with
	// their search and main scripts): its URL is a hash of its content.
	script := func(body string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			writeFile(t, dir, "assets/app.js", body)
			replaceIn(t, filepath.Join(dir, "layouts", "_default", "baseof.html"), "</head>",
				`{{ with resources.Get "app.js" | fingerprint }}<script src="{{ .RelPermalink }}"></script>{{ end }}`+"\n</head>")
		}
	}
	tests := []struct {
		desc string
		old  func(t *testing.T, dir string) // OLD's own change, when it is not the site as it is
		edit func(t *testing.T, dir string)
		code int
		want []string // lines the text report holds
	}{
		{"the site compared with itself", nil, nil, 0, []string{"robotsmith diff: no change (11 URLs)"}},
		{
			// Seen on a real site (hextra's docs, two commits apart): every build of a changed
			// script moves it to a new URL. Nothing search engines are told changes: the default
			// --fail-on passes.
			"a fingerprinted script rebuilt",
			script("console.log(1)\n"), script("console.log(2)\n"),
			0, []string{
				"robotsmith diff: 12 URLs -> 12 URLs: 2 URLs changed",
				"1 URL added, 1 removed",
				"  removed: file, in the index",
			},
		},
		{
			// A staging noindex shipped: the home page's template writes a robots tag. Hugo writes
			// the tag into public/index.html, where robotsmith reads it as the page's own.
			"a staging noindex in the home page's template", nil,
			func(t *testing.T, dir string) {
				appendFile(t, filepath.Join(dir, "layouts", "index.html"), `{{ define "robots" }}<meta name="robots" content="noindex">{{ end }}`+"\n")
			},
			1, []string{
				"/  (home page)  leaves the index: noindex",
				`robots: index -> noindex  (tag <meta name="robots"> at public/index.html:`,
				"robotsmith diff: fails on home: the home page / leaves the index: noindex",
			},
		},
		{
			"a rule widened from /drafts/** to /**", nil,
			func(t *testing.T, dir string) {
				replaceIn(t, filepath.Join(dir, "robotsmith.yaml"), "path: /drafts/**", "path: /**")
			},
			1, []string{
				"(rule 1 at robotsmith.yaml:4)",
				"robotsmith diff: fails on home: the home page / leaves the index: noindex (rule 1 at robotsmith.yaml:4)",
				"robotsmith diff: fails on noindex:10%: 9 of 9 URLs in the index leave it (100.0%)",
			},
		},
		{
			// robots.txt now has a group of Googlebot's own, which Googlebot obeys instead of the *
			// group: the docs, indexable for Bingbot still, leave Google's index.
			"a robots.txt line that blocks Googlebot from /docs/", nil,
			func(t *testing.T, dir string) {
				appendFile(t, filepath.Join(dir, "static", "robots.txt"), "\nUser-agent: Googlebot\nDisallow: /docs/\n")
			},
			1, []string{
				"/docs/install/  leaves googlebot's index: robots.txt",
				"robots.txt, googlebot: may crawl -> may not crawl  (public/robots.txt:5: Disallow: /docs/)",
				"robots.txt now blocks googlebot from 3 URLs (public/robots.txt:5: Disallow: /docs/)",
				"robotsmith diff: fails on noindex:10%: 3 of 9 URLs in the index leave it (33.3%)",
			},
		},
		{
			"a canonical moved to a noindex URL", nil,
			func(t *testing.T, dir string) {
				replaceIn(t, filepath.Join(dir, "content", "blog", "b.md"), "title: B\n", "title: B\ncanonical: /drafts/old-b/\n")
			},
			1, []string{
				"/blog/b/  leaves the index: canonical",
				"/blog/b/ (self) -> /drafts/old-b/ (noindex)",
				"robotsmith diff: fails on noindex:10%: 1 of 9 URLs in the index leave it (11.1%)",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			from, dir := old, old
			if tc.old != nil {
				from = build(t, func(d string) { tc.old(t, d) })
			}
			if tc.edit != nil {
				dir = build(t, func(d string) { tc.edit(t, d) })
			}
			r := runCmd(t, "diff", from, dir)
			if r.code != tc.code {
				t.Errorf("exit: got %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("the report lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

func appendFile(t *testing.T, name, text string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(b, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", name, old)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
