package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The indexability model end to end (SPEC §7), on sites the real generators build: pages marked
// noindex, a robots.txt that disallows some of them, sitemaps that list them, canonical and
// hreflang links that point at them. check exits 1 naming each contradiction once with both
// file:lines, build prunes the sitemaps byte-exactly (compared with testdata/indexability/*.expected,
// rewritten with -update), explain prints the record, and once the site is fixed check exits 0.

// wantFinding is a finding expected once: its place, and what the message names of the other side.
type wantFinding struct {
	file string // the place's file, as a suffix of the message's file
	line int
	has  []string // substrings of the message
}

// checkFindings runs check --json on dir and compares its findings with want: each once, at its
// place, naming the other side.
func checkFindings(t *testing.T, dir string, want []wantFinding) {
	t.Helper()
	r := runCmd(t, "check", "--json", dir)
	if r.code != 1 {
		t.Fatalf("check: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		Findings []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != len(want) {
		t.Errorf("check: %d findings, want %d:\n%s", len(doc.Findings), len(want), r.stdout)
	}
	for _, w := range want {
		n := 0
		for _, f := range doc.Findings {
			if !strings.HasSuffix(filepath.ToSlash(f.File), w.file) || f.Line != w.line {
				continue
			}
			n++
			for _, h := range w.has {
				if !strings.Contains(f.Message, h) {
					t.Errorf("finding at %s:%d: %q does not name %q", w.file, w.line, f.Message, h)
				}
			}
		}
		if n != 1 {
			t.Errorf("finding at %s:%d reported %d times, want once:\n%s", w.file, w.line, n, r.stdout)
		}
	}
	// The summary says the same, once each.
	text := runCmd(t, "check", dir)
	for _, w := range want {
		if c := strings.Count(text.stdout, w.file+":"+strconv.Itoa(w.line)+": "); c != 1 {
			t.Errorf("check's summary has %s:%d %d times, want once:\n%s", w.file, w.line, c, text.stdout)
		}
	}
}

// compareExpected compares each pruned sitemap with its expected copy in testdata/indexability/NAME.
func compareExpected(t *testing.T, out, name string, files ...string) {
	t.Helper()
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		exp := filepath.Join("testdata", "indexability", name, filepath.FromSlash(f))
		if *update {
			if err := os.MkdirAll(filepath.Dir(exp), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(exp, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(exp)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s after build differs from %s:\ngot:\n%s\nwant:\n%s", f, exp, got, want)
		}
	}
}

// buildAndCheckClean runs build, then check, which must exit 0 with no finding.
func buildAndCheckClean(t *testing.T, dir string) {
	t.Helper()
	if r := runCmd(t, "build", "--no-command", dir); r.code != 0 {
		t.Fatalf("build after the fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCmd(t, "check", dir); r.code != 0 || strings.Contains(r.stdout, "finding") {
		t.Errorf("check after the fix: exit %d, want 0 and no finding\n%s%s", r.code, r.stdout, r.stderr)
	}
	copyDecidesAlike(t, nil, dir)
}

func TestIndexabilityHugo(t *testing.T) {
	hugo, version := testtool.Hugo(t)
	if version != testtool.HugoVersion {
		testtool.Missing(t, "hugo at %s is %s; the expected sitemaps were generated with %s", hugo, version, testtool.HugoVersion)
	}
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "indexability", "hugo"), dir)
	generate := func() {
		t.Helper()
		if err := os.RemoveAll(filepath.Join(dir, "public")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(hugo, "--quiet", "--source", dir)
		cmd.Env = append(os.Environ(), "TZ=UTC")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hugo: %v\n%s", err, b)
		}
	}
	generate()
	checkFindings(t, dir, []wantFinding{
		// 1: the noindex in front matter, and the robots.txt line that hides it.
		{"content/posts/private.md", 4, []string{"/posts/private/ is noindex", "public/robots.txt:2 (Disallow: /posts/private/)"}},
		// 3: the German page's hreflang link to the English page that is noindex, and where that comes from.
		{"public/de/posts/secret/index.html", 7, []string{"hreflang en link of /de/posts/secret/ points at /posts/secret/", "content/posts/secret.md:4"}},
		// 2: the German sitemap lists a page robots.txt disallows for every crawler.
		{"public/de/sitemap.xml", 44, []string{"sitemap lists https://example.org/de/posts/hello/, which robots.txt disallows for every crawler", "public/robots.txt:3: Disallow: /de/posts/hello/"}},
	})

	r := runCmd(t, "build", "--no-command", dir)
	if r.code != 0 {
		t.Fatalf("build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(dir, "public")
	compareExpected(t, out, "hugo.expected", "sitemap.xml", "en/sitemap.xml", "de/sitemap.xml")

	// The record after build: robotsmith's block stands above the links now.
	r = runCmd(t, "explain", dir, "/posts/secret/", "/posts/private/")
	for _, want := range []string{
		"class: noindex",
		"robots     may crawl      no rule matches",
		"sitemaps: not listed",
		"canonical (line 9): https://example.org/posts/secret/ (" + filepath.ToSlash(out) + "/posts/secret/index.html): noindex",
		"hreflang de (line 11): https://example.org/de/posts/secret/ (" + filepath.ToSlash(out) + "/de/posts/secret/index.html): indexable",
		"Googlebot  may not crawl  " + filepath.ToSlash(out) + "/robots.txt:2: Disallow: /posts/private/",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCmd(t, "explain", dir, "/de/posts/hello/")
	if !strings.Contains(r.stdout, "sitemaps: listed at "+filepath.ToSlash(out)+"/de/sitemap.xml:") {
		t.Errorf("explain /de/posts/hello/ does not name its sitemap entry:\n%s", r.stdout)
	}
	runCmd(t, "explain", "--json", dir, "/posts/secret/", "/posts/private/") // validated against the schema

	// The fix: robots.txt lets crawlers see the noindex, and the German page is noindex too.
	writeFile(t, dir, "static/robots.txt", "User-agent: *\nDisallow:\n")
	writeFile(t, dir, "content/posts/secret.de.md", "---\ntitle: Geheim\ndate: 2026-01-13\nrobots: noindex\n---\nGeheim.\n")
	generate()
	buildAndCheckClean(t, dir)
}

func TestIndexabilityJekyll(t *testing.T) {
	jekyll := testtool.Jekyll(t)
	if err := exec.Command("ruby", "-e", `require "jekyll"; require "jekyll-sitemap"`).Run(); err != nil {
		testtool.Missing(t, "the jekyll-sitemap plugin is not installed: apt-get install ruby-jekyll-sitemap (as .ci/run does)")
	}
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "indexability", "jekyll"), dir)
	generate := func() {
		t.Helper()
		cmd := exec.Command(jekyll, "build", "--quiet", "--source", dir, "--destination", filepath.Join(dir, "_site"))
		cmd.Env = append(os.Environ(), "TZ=UTC", "JEKYLL_ENV=production")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jekyll build: %v\n%s", err, b)
		}
	}
	generate()
	checkFindings(t, dir, []wantFinding{
		{"hidden.md", 4, []string{"/hidden.html is noindex", "_site/robots.txt:2 (Disallow: /hidden)"}},
		{"_site/about.html", 6, []string{"canonical link of /about.html points at /team.html", "team.md:4"}},
	})
	if r := runCmd(t, "build", "--no-command", dir); r.code != 0 {
		t.Fatalf("build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(dir, "_site")
	compareExpected(t, out, "jekyll.expected", "sitemap.xml")

	r := runCmd(t, "explain", dir, "/about.html")
	for _, want := range []string{
		"class: public",
		"sitemaps: listed at " + filepath.ToSlash(out) + "/sitemap.xml:4",
		"canonical (line 11): https://example.com/team.html (" + filepath.ToSlash(out) + "/team.html): noindex",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain /about.html lacks %q:\n%s", want, r.stdout)
		}
	}

	writeFile(t, dir, "robots.txt", "User-agent: *\nDisallow: /drafts/\n")
	writeFile(t, dir, "about.md", "---\nlayout: default\ntitle: About\n---\nAbout.\n")
	generate()
	buildAndCheckClean(t, dir)
}
